import type { Dispatcher } from 'undici';
import {
  type ClientStateChange,
  createHttpSender,
  defaultRetryPolicy,
  type FleetUsage,
  HeldBeforeSending,
  type HttpSender,
  type KeyDay,
  KeySuspension,
  type Lane,
  type LimiterState,
  RateLimiter,
  RequestExecutor,
  type RetryPolicy,
  ServiceClock,
  type ServiceTime,
} from '../../http';
import type { Clock, Logger } from '../../platform/ports';
import type { LicenseClaims } from '../claimed-licenses';
import type { ApiAssignment, ApiMember, Catalog, KeyIdentity, MemberLookup } from '../model';
import { CatalogLoader } from './catalog-loader';
import type { MemberFound } from './fetch-members';
import { readKeyIdentity } from './key-identity';
import { listPages } from './list-pages';
import { MemberLookups } from './member-lookups';
import { ROSTER_ROUTES } from './routes';

/** Query values for {@link RosterApi.get}; arrays repeat the parameter ("either value"). */
export type QueryValues = Record<
  string,
  string | number | boolean | readonly (string | number)[] | undefined
>;

export interface RosterApiOptions {
  /** The service's address, e.g. `https://roster.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** Where `baseUrl` was read from (`roster_base_url` or `api.baseUrl`), for messages. */
  addressSetting?: string;
  /** Sent as `Authorization: Bearer`; kept in a closure, never in an error, log line or dump. */
  apiKey: string;
  /** One request's whole time limit (`api.timeoutMs`). */
  timeoutMs: number;
  /** `rateLimit.perMinute`; a lower `X-RateLimit-Limit` from the service wins. */
  perMinute: number;
  /** `rateLimit.perDay`. */
  perDay: number;
  /** E.g. `rosterUserAgent(version)`. */
  userAgent: string;
  clock: Clock;
  logger: Logger;
  /** Jitter source for backoff; `Math.random` by default. */
  random?: () => number;
  /** The transport; by default a keep-alive undici Pool on `baseUrl` that `close()` closes. */
  dispatcher?: Dispatcher;
  retry?: Partial<RetryPolicy>;
  /** The longest wait `Retry-After` or `X-RateLimit-Reset` may impose (default 5 minutes). */
  maxWaitMs?: number;
  /** How long departments and ranks are reused before a reload. Default 30 minutes. */
  catalogMaxAgeMs?: number;
  /**
   * Under load, how long a small batch of join lookups may wait for more licenses (default
   * `LOOKUP_HOLD_MS`); `joinHoldMs(gate deadline)` keeps it a small share of the gate's deadline.
   */
  joinHoldMs?: number;
  /** Told of every request sent: the answer's status, or null when none came (the owner's panel). */
  onAnswer?: (status: number | null) => void;
  /**
   * Whether a joining member's departments are needed (default: always); those are asked for as
   * soon as the member's batch answers. E.g. not for a status the gate refuses anyway.
   */
  joinNeedsDepartments?: (member: ApiMember) => boolean;
  /** Told of each license a lookup finds listed for several members. */
  claims?: LicenseClaims;
}

/** The roster service client: rate limited, batched, typed errors. Every method may reject with a `RosterApiError`. */
export interface RosterApi {
  /** Checks the key: the community and the key's scopes (`GET /api/v1/whoami`); join lane by default. */
  whoami(lane?: Lane): Promise<KeyIdentity>;
  /** The member record alone (enough to decide on status), or null when not on the roster. */
  member(license: string, lane?: Lane): Promise<MemberFound | null>;
  /** A member's assignments with their ranks (batched across members). */
  assignmentsOf(memberId: string, lane?: Lane): Promise<ApiAssignment[]>;
  /** The member holding `license` with their assignments, or null when not on the roster. */
  lookup(license: string, lane?: Lane): Promise<MemberLookup | null>;
  /** Many licenses at once (refresh of online players); keyed by the licenses as given. */
  lookupMany(licenses: readonly string[], lane?: Lane): Promise<Map<string, MemberLookup | null>>;
  /** Departments and ranks, loaded once and reloaded every 30 minutes (background lane). */
  catalog(options?: { force?: boolean }): Promise<Catalog>;
  /** Any GET of the roster API: the envelope's `data`. */
  get(path: string, query?: QueryValues, lane?: Lane): Promise<unknown>;
  /** Any GET whose body may be plain JSON rather than the envelope (e.g. `/api/v1/openapi.json`). */
  getRaw(path: string, query?: QueryValues, lane?: Lane): Promise<unknown>;
  /** Every page of a list endpoint (`limit=100`, following `has_more`, at most `maxPages`). */
  list(path: string, query?: QueryValues, lane?: Lane, maxPages?: number): Promise<unknown[]>;
  /** A write (JSON body); never retried automatically. Returns the envelope's `data`. */
  patch(path: string, body: unknown, lane?: Lane): Promise<unknown>;
  /**
   * The rate limiter's state, plus the suspension error while the key is refused and how many
   * joins wait on the limiter (join-lane requests queued for a permit, join lookups not sent yet).
   */
  limiterState(): LimiterState & { suspended: string | null; joinsWaiting: number };
  /** The service's own time, from the `Date` header of its latest answer. */
  serviceTime: ServiceTime;
  /** The key's day as the rate limiter counts it (saved across restarts, read by `roster doctor`). */
  keyDay: KeyDay;
  /** The other servers' counts of the key's minute and day, when they share them (null to stop). */
  shareBudget(others: FleetUsage | null): void;
  /** Estimated wait in ms for a new request in `lane` (to tell a connecting player). */
  estimateWaitMs(lane: Lane): number;
  /** Called when the client stops sending (key refused) and when it resumes. Returns an unsubscribe. */
  onStateChange(listener: (change: ClientStateChange) => void): () => void;
  /** Closes the pool, clears timers, rejects waiting requests. */
  close(): Promise<void>;
}

/** `roster-fivem/<version>`: the User-Agent the resource sends. */
export function rosterUserAgent(version: string): string {
  return `roster-fivem/${version}`;
}

export function createRosterApi(options: RosterApiOptions): RosterApi {
  const { clock, logger } = options;
  const limiter = new RateLimiter({
    perMinute: options.perMinute,
    perDay: options.perDay,
    clock,
    ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
  });
  const sender = observed(
    createHttpSender({
      baseUrl: options.baseUrl,
      addressSetting: options.addressSetting,
      apiKey: options.apiKey,
      userAgent: options.userAgent,
      timeoutMs: options.timeoutMs,
      clock,
      dispatcher: options.dispatcher,
    }),
    options.onAnswer,
  );
  const serviceTime = new ServiceClock(clock);
  const suspension = new KeySuspension({ clock, logger, recheck: () => fetchIdentity(true) });
  const executor = new RequestExecutor({
    limiter,
    sender,
    suspension,
    policy: { ...defaultRetryPolicy, ...options.retry },
    clock,
    logger,
    random: options.random ?? Math.random,
    maxWaitMs: options.maxWaitMs,
    serviceClock: serviceTime,
  });
  const lookups = new MemberLookups({
    executor,
    logger,
    clock,
    limiterBusy: (lane) => limiter.isBusy(lane),
    ...(options.joinHoldMs !== undefined ? { joinHoldMs: options.joinHoldMs } : {}),
    ...(options.joinNeedsDepartments ? { joinNeedsDepartments: options.joinNeedsDepartments } : {}),
    ...(options.claims ? { claims: options.claims } : {}),
  });
  const catalog = new CatalogLoader({
    executor,
    clock,
    logger,
    ...(options.catalogMaxAgeMs ? { maxAgeMs: options.catalogMaxAgeMs } : {}),
  });

  async function fetchIdentity(bypassSuspension: boolean, lane: Lane = 'join'): Promise<KeyIdentity> {
    const envelope = await executor.envelope(
      { method: 'GET', path: ROSTER_ROUTES.whoami },
      { lane, bypassSuspension },
    );
    return readKeyIdentity(envelope.data);
  }

  return {
    whoami: (lane) => fetchIdentity(false, lane),
    member: (license, lane = 'join') => lookups.member(license, lane),
    assignmentsOf: (memberId, lane = 'join') => lookups.assignmentsOf(memberId, lane),
    lookup: (license, lane = 'join') => lookups.lookup(license, lane),
    lookupMany: (licenses, lane = 'refresh') => lookups.lookupMany(licenses, lane),
    catalog: (request) => catalog.get(request?.force === true),
    get: async (path, query, lane = 'background') =>
      (await executor.envelope({ method: 'GET', path: checkPath(path), query: toParams(query) }, { lane }))
        .data,
    getRaw: async (path, query, lane = 'background') =>
      executor.json({ method: 'GET', path: checkPath(path), query: toParams(query) }, { lane }),
    list: (path, query, lane = 'background', maxPages) =>
      listPages(executor, checkPath(path), toParams(query), {
        lane,
        ...(maxPages ? { maxPages, quietCut: true } : {}),
      }),
    patch: async (path, body, lane = 'refresh') =>
      (await executor.envelope({ method: 'PATCH', path: checkPath(path), body }, { lane })).data,
    limiterState: () => {
      const state = limiter.state();
      const joinsWaiting = state.queued.join + lookups.joinsWaiting();
      return { ...state, suspended: suspension.current?.message ?? null, joinsWaiting };
    },
    serviceTime,
    keyDay: limiter.day,
    shareBudget: (others) => limiter.shareWith(others),
    // Each further batch of 100 waiting licenses costs about two requests (members, assignments).
    estimateWaitMs: (lane) =>
      limiter.estimateWaitMs(lane) +
      Math.floor(lookups.waitingAhead(lane) / 100) * 2 * (60_000 / limiter.state().perMinute),
    onStateChange: (listener) => suspension.onChange(listener),
    close: async () => {
      lookups.close();
      suspension.close();
      executor.close();
      limiter.close();
      await sender.close();
    },
  };
}

/** Tells `onAnswer` of each request's outcome without changing it. */
function observed(sender: HttpSender, onAnswer: ((status: number | null) => void) | undefined): HttpSender {
  if (!onAnswer) return sender;
  return {
    ...sender,
    send: async (request, held) => {
      let answer: Awaited<ReturnType<HttpSender['send']>>;
      try {
        answer = await sender.send(request, held);
      } catch (error) {
        // A request held back before sending was not sent: nothing to tell.
        if (!(error instanceof HeldBeforeSending)) onAnswer(null);
        throw error;
      }
      onAnswer(answer.status);
      return answer;
    },
  };
}

function checkPath(path: string): string {
  if (!path.startsWith('/') || path.includes('?') || path.includes('#') || path.includes('..')) {
    throw new TypeError(`A roster API path must start with "/" and carry no query: ${JSON.stringify(path)}`);
  }
  return path;
}

function toParams(query: QueryValues | undefined): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const each of value) params.append(name, String(each));
    else params.append(name, String(value));
  }
  return params;
}
