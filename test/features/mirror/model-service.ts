import type { FakeReply, FakeRequest } from '../../roster/client/fake-roster';
import { answerList, ListQueryError, type ListRules, type Row } from './model-lists';
import type { Random } from './model-random';
import type { ModelRoster } from './model-roster';

/**
 * The roster service as the model answers it over HTTP: the envelope, the list conventions, the
 * key's scopes (`audit:read` among them), a `Date` header on every answer from the service's own
 * clock (which may be minutes off this server's), `X-RateLimit-*` on every answer with the key's
 * minute enforced, and faults on request: 429 with `Retry-After`, 5xx (an error envelope, or a
 * proxy's HTML page). A change may be armed to happen the moment a given request arrives, so it
 * lands in the middle of a read.
 */

export const API_KEY = 'rk_model_Sup3rS3cretModelKey';
export type Fault = '429' | '5xx';

const MEMBERS: ListRules = {
  filters: ['id', 'status', 'gameLicense', 'displayName'],
  sortable: ['id', 'displayName', 'status', 'joinDate', 'createdAt', 'updatedAt'],
  dates: ['joinDate', 'createdAt', 'updatedAt'],
  searchable: ['displayName', 'gameLicense'],
  includes: ['departmentAssignments'],
};
const ASSIGNMENTS: ListRules = {
  filters: ['id', 'memberId', 'departmentId', 'rankId', 'isPrimary', 'callsign'],
  sortable: ['id', 'memberId', 'departmentId', 'createdAt', 'updatedAt'],
  dates: ['createdAt', 'updatedAt'],
  searchable: ['callsign'],
  includes: ['rank', 'member', 'department'],
};
const CATALOG: ListRules = {
  filters: ['id', 'name', 'departmentId'],
  sortable: ['id', 'name', 'position', 'createdAt'],
  dates: ['createdAt'],
  searchable: ['name'],
  includes: [],
};
const AUDIT: ListRules = {
  filters: ['id', 'action', 'resourceType', 'resourceId'],
  sortable: ['id', 'createdAt', 'action'],
  dates: ['createdAt'],
  searchable: ['action'],
  includes: [],
};
const DATE_FIELDS = ['createdAt', 'updatedAt', 'joinDate'];

export interface ServiceOptions {
  /** The service's clock minus this server's. */
  offsetMs: number;
  /** The key's requests per minute (`X-RateLimit-Limit`). */
  perMinute: number;
  random: Random;
}

interface Armed {
  when: (request: FakeRequest) => boolean;
  left: number;
  fire: () => void;
}

export class ModelService {
  /** Requests received (path and query), in order, with this server's time. */
  readonly log: { at: number; path: string; query: string }[] = [];
  /** Requests answered with a fault the model chose (not the key's own limit). */
  faulted = 0;
  /** While set, this share of requests (0..1) until `until` (this server's time) gets a fault. */
  faults: { until: number; rate: number; kinds: readonly Fault[] } | null = null;
  /** Every request fails (a whole outage). */
  down = false;
  private armed: Armed[] = [];
  private window = { start: 0, used: 0 };

  constructor(
    private readonly roster: ModelRoster,
    private readonly serverNow: () => number,
    private readonly options: ServiceOptions,
  ) {}

  /** The service's own time. */
  now(): number {
    return this.serverNow() + this.options.offsetMs;
  }

  /** Runs `fire` when the `nth` request `when` picks arrives from now, before it is answered. */
  arm(when: (request: FakeRequest) => boolean, nth: number, fire: () => void): void {
    this.armed.push({ when, left: Math.max(1, nth), fire });
  }

  /** Runs every armed change that has not fired (its requests did not come). */
  fireArmed(): void {
    const armed = this.armed;
    this.armed = [];
    for (const each of armed) each.fire();
  }

  get pendingArmed(): number {
    return this.armed.length;
  }

  handler = (request: FakeRequest): FakeReply => {
    const now = this.now();
    this.log.push({ at: this.serverNow(), path: request.path, query: request.query.toString() });
    for (const each of [...this.armed]) {
      if (!each.when(request) || --each.left > 0) continue;
      this.armed.splice(this.armed.indexOf(each), 1);
      each.fire();
    }
    this.count(now);
    const reply = this.answer(request, now);
    const requestId = `req_m${this.log.length}`;
    const body = reply.body as { meta?: Record<string, unknown> } | undefined;
    if (body?.meta) body.meta.request_id = requestId;
    return {
      ...reply,
      headers: { ...this.headers(now, reply.status === 429), 'x-request-id': requestId, ...reply.headers },
    };
  };

  private answer(request: FakeRequest, now: number): FakeReply {
    if (request.headers.authorization !== `Bearer ${API_KEY}`)
      return failure(401, 'invalid_api_key', 'The API key is missing or wrong.');
    if (this.down) return failure(503, 'internal', 'The service is unavailable.');
    const fault = this.fault();
    if (fault) return fault;
    if (this.window.used > this.options.perMinute)
      return failure(429, 'rate_limited', 'Too many requests.', {
        'retry-after': String(Math.max(1, Math.ceil((this.window.start + 60_000 - now) / 1000))),
      });
    if (request.method !== 'GET') return failure(405, 'method_not_allowed', 'Not in the model.');
    try {
      return this.route(request);
    } catch (error) {
      if (!(error instanceof ListQueryError)) throw error;
      return failure(400, 'validation_error', error.message, {}, { field: error.field });
    }
  }

  private route(request: FakeRequest): FakeReply {
    const { roster } = this;
    const query = request.query;
    switch (request.path) {
      case '/api/v1/whoami':
        return success({
          community: { id: 'com_model', name: 'Model Community' },
          scopes: ['roster:read', 'departments:read', 'audit:read'],
        });
      case '/api/v1/departments':
        return this.list(roster.departments, query, CATALOG, (row) => plain(row));
      case '/api/v1/ranks':
        return this.list(roster.ranks, query, CATALOG, (row) => plain(row));
      case '/api/v1/members':
        return this.list(roster.members, query, MEMBERS, (row, include) =>
          include.has('departmentAssignments')
            ? {
                ...plain(row),
                departmentAssignments: roster.assignments.filter((a) => a.memberId === row.id).map(plain),
              }
            : plain(row),
        );
      case '/api/v1/department-assignments':
        return this.list(roster.assignments, query, ASSIGNMENTS, (row, include) => {
          const out = plain(row);
          if (include.has('rank')) out.rank = plainOrNull(roster.ranks.find((r) => r.id === row.rankId));
          if (include.has('department'))
            out.department = plainOrNull(roster.departments.find((d) => d.id === row.departmentId));
          if (include.has('member'))
            out.member = plainOrNull(roster.members.find((m) => m.id === row.memberId));
          return out;
        });
      case '/api/v1/audit-logs':
        return this.list(roster.entries, query, AUDIT, (row) => ({
          id: row.id,
          createdAt: new Date(row.createdAt).toISOString(),
          ...(row.body as Record<string, unknown>),
        }));
      default:
        return failure(404, 'not_found', `No endpoint ${request.path}.`);
    }
  }

  private list(
    rows: readonly Row[],
    query: URLSearchParams,
    rules: ListRules,
    shape: (row: Row, include: Set<string>) => Record<string, unknown>,
  ): FakeReply {
    const answer = answerList(rows, query, rules);
    return success(
      answer.rows.map((row) => shape(row, answer.include)),
      answer.pagination,
    );
  }

  /** A fault while a fault window is open, at its rate; null otherwise. */
  private fault(): FakeReply | null {
    const { faults } = this;
    if (faults === null) return null;
    if (this.serverNow() >= faults.until) {
      this.faults = null;
      return null;
    }
    const { random } = this.options;
    if (faults.kinds.length === 0 || random() >= faults.rate) return null;
    this.faulted++;
    const kind = faults.kinds[Math.floor(random() * faults.kinds.length)]!;
    if (kind === '429')
      return failure(429, 'rate_limited', 'Too many requests.', {
        'retry-after': String(1 + Math.floor(random() * 20)),
      });
    if (random() < 0.5)
      return {
        status: 502,
        text: '<html><body><h1>502 Bad Gateway</h1></body></html>',
        headers: { 'content-type': 'text/html' },
      };
    return failure(500, 'internal', 'Something went wrong.');
  }

  /** Every request counts against the key's minute, in fixed windows of the service's clock. */
  private count(now: number): void {
    const start = Math.floor(now / 60_000) * 60_000;
    if (start !== this.window.start) this.window = { start, used: 0 };
    this.window.used++;
  }

  /** `Date` and the key's minute. */
  private headers(now: number, refused: boolean): Record<string, string> {
    const { start } = this.window;
    const { perMinute } = this.options;
    return {
      date: new Date(now).toUTCString(),
      'x-ratelimit-limit': String(perMinute),
      'x-ratelimit-remaining': String(refused ? 0 : Math.max(0, perMinute - this.window.used)),
      'x-ratelimit-reset': String((start + 60_000) / 1000),
    };
  }
}

/** A record as the service sends it: dates as ISO 8601, the model's own fields left out. */
function plain(row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key === 'tie') continue;
    out[key] = DATE_FIELDS.includes(key) && typeof value === 'number' ? new Date(value).toISOString() : value;
  }
  return out;
}

function plainOrNull(row: Row | undefined): Record<string, unknown> | null {
  return row ? plain(row) : null;
}

/** The envelope's `request_id` is the `X-Request-Id` header's, added when the answer goes out. */
function success(data: unknown, pagination?: object): FakeReply {
  const meta: Record<string, unknown> = {};
  if (pagination) meta.pagination = pagination;
  return { status: 200, body: { success: true, data, meta } };
}

function failure(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  details?: unknown,
): FakeReply {
  const error: Record<string, unknown> = { code, message };
  if (details !== undefined) error.details = details;
  return {
    status,
    body: { success: false, error, meta: {} },
    headers,
  };
}
