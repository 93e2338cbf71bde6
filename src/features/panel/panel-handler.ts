import { errorMessage } from '../../platform/error-message';
import {
  cookieOf,
  type FxHttpHandler,
  type FxHttpRequest,
  type FxHttpResponse,
  headerOf,
} from '../../platform/fx-http';
import type { Clock, Logger } from '../../platform/ports';
import type { ClientAddresses, RequestSource } from './client-address';
import type { DoctorResult } from './doctor-runs';
import { loginCsp, loginHtml, PAGE_CSP, pageHtml } from './page-html';
import { type AuthVerdict, type PanelAuth, SESSION_COOKIE } from './panel-auth';
import type { Sessions } from './sessions';

/** Bodies larger than this are refused: the only body the panel reads is a token. */
export const MAX_BODY_BYTES = 4096;
/** A request whose body has not arrived by then is answered 408. */
const BODY_WAIT_MS = 10_000;

export interface PanelHandlerDeps {
  auth: PanelAuth;
  /** Who sent a request: the client behind a trusted proxy, the host the browser asked for. */
  addresses: ClientAddresses;
  sessions: Sessions;
  clock: Clock;
  logger: Logger;
  /** The path the browser sees, e.g. `/roster/` (FXServer strips it before the handler). */
  basePath: string;
  title: string;
  assets: { js: string; css: string };
  status(): Promise<unknown>;
  metrics(): Promise<{ text: string; contentType: string }>;
  doctor(): Promise<DoctorResult>;
  /** Texts that must never leave in a response (the keys, the token): replaced as a last guard. */
  secrets: () => readonly string[];
}

type Reply = { status: number; headers?: Record<string, string>; body: string };

const JSON_TYPE = 'application/json; charset=utf-8';
const json = (status: number, value: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'Content-Type': JSON_TYPE, ...headers },
  body: JSON.stringify(value),
});
const text = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers },
  body,
});

const ROUTES: Record<string, 'GET' | 'POST'> = {
  '/': 'GET',
  '/app.js': 'GET',
  '/app.css': 'GET',
  '/status.json': 'GET',
  '/metrics': 'GET',
  '/login': 'POST',
  '/logout': 'POST',
  '/doctor': 'POST',
};

/** The panel's `SetHttpHandler` function: auth, lock-out, routes; state changes only by POST. */
export function createPanelHandler(deps: PanelHandlerDeps): FxHttpHandler {
  return (request, response) => {
    let cancelled = false;
    request.setCancelHandler?.(() => {
      cancelled = true;
    });
    const reply = (r: Reply) => {
      if (cancelled) return;
      cancelled = true;
      send(response, r, deps.secrets());
    };
    route(deps, request)
      .then(reply)
      .catch((error: unknown) => {
        deps.logger.warn(`panel: ${request.method} ${pathOf(request)} failed: ${errorMessage(error)}`);
        reply(text(500, 'The panel could not answer; see the server console.'));
      });
  };
}

function pathOf(request: FxHttpRequest): string {
  const path = String(request.path ?? '/');
  const q = path.indexOf('?');
  return (q >= 0 ? path.slice(0, q) : path) || '/';
}

async function route(deps: PanelHandlerDeps, request: FxHttpRequest): Promise<Reply> {
  const path = pathOf(request);
  const method = String(request.method ?? '').toUpperCase();
  const allowed = ROUTES[path];
  if (allowed && method !== allowed) return text(405, `Use ${allowed}.`, { Allow: allowed });
  const source = deps.addresses.source(request);
  if (method === 'POST' && !sameOrigin(request, source)) return text(403, 'Cross-site requests are refused.');

  if (path === '/login') {
    const body = await readBody(deps, request);
    if (typeof body !== 'string') return body;
    const token = new URLSearchParams(body).get('token') ?? '';
    return login(deps, deps.auth.tryToken(source.client, token), source);
  }
  const verdict = deps.auth.check(request, source.client);
  if (verdict.kind !== 'ok') return refused(deps, verdict, path);
  if (!allowed) return text(404, 'Not found.');

  switch (path) {
    case '/':
      return {
        status: 200,
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
        body: pageHtml(deps.title),
      };
    case '/app.js':
      return {
        status: 200,
        headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
        body: deps.assets.js,
      };
    case '/app.css':
      return { status: 200, headers: { 'Content-Type': 'text/css; charset=utf-8' }, body: deps.assets.css };
    case '/status.json':
      return json(200, await deps.status());
    case '/metrics': {
      const metrics = await deps.metrics();
      return { status: 200, headers: { 'Content-Type': metrics.contentType }, body: metrics.text };
    }
    case '/doctor':
      return json(200, await deps.doctor());
    default: {
      // '/logout'
      const session = cookieOf(request, SESSION_COOKIE);
      if (session) deps.sessions.end(session);
      return {
        status: 303,
        headers: { Location: './', 'Set-Cookie': cookie(deps, '', 0, source) },
        body: '',
      };
    }
  }
}

function login(deps: PanelHandlerDeps, verdict: AuthVerdict, source: RequestSource): Reply {
  if (verdict.kind === 'ok') {
    const session = deps.sessions.create(deps.clock.now());
    return {
      status: 303,
      headers: { Location: './', 'Set-Cookie': cookie(deps, session.id, session.maxAgeSeconds, source) },
      body: '',
    };
  }
  if (verdict.kind === 'locked') return locked(verdict.retryAfterSeconds, true, deps.title);
  const message = verdict.kind === 'wrong' ? 'Wrong token.' : 'Enter the token.';
  return { status: 401, headers: htmlHeaders(loginCsp()), body: loginHtml(deps.title, message) };
}

function refused(deps: PanelHandlerDeps, verdict: Exclude<AuthVerdict, { kind: 'ok' }>, path: string): Reply {
  const html = path === '/';
  if (verdict.kind === 'locked') return locked(verdict.retryAfterSeconds, html, deps.title);
  if (html) {
    const error = verdict.kind === 'wrong' ? 'Wrong token.' : null;
    return { status: 401, headers: htmlHeaders(loginCsp()), body: loginHtml(deps.title, error) };
  }
  return json(
    401,
    {
      error:
        verdict.kind === 'wrong' ? 'wrong token' : 'a token is needed (Authorization: Bearer, or sign in)',
    },
    { 'WWW-Authenticate': 'Bearer realm="roster"' },
  );
}

function locked(retryAfterSeconds: number, html: boolean, title: string): Reply {
  const message = `Too many wrong tokens from this address. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`;
  const headers = { 'Retry-After': String(retryAfterSeconds) };
  if (!html) return json(429, { error: message }, headers);
  return {
    status: 429,
    headers: { ...htmlHeaders(loginCsp()), ...headers },
    body: loginHtml(title, message),
  };
}

const htmlHeaders = (csp: string) => ({
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': csp,
});

/** `Secure` when the browser reached a trusted proxy over TLS: the cookie then never travels in the clear. */
function cookie(deps: PanelHandlerDeps, value: string, maxAgeSeconds: number, source: RequestSource): string {
  const secure = source.secure ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=${deps.basePath}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

/**
 * A POST from another site is refused (belt and braces with the SameSite cookie): the browser's
 * `Sec-Fetch-Site` says so, or an `Origin` that names another host than the one the browser
 * addressed (behind a trusted proxy that rewrites `Host`, its `X-Forwarded-Host`). `Origin: null`
 * (sent by some browsers for form posts) is not proof either way.
 */
function sameOrigin(request: FxHttpRequest, source: RequestSource): boolean {
  const site = headerOf(request, 'sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return false;
  const origin = headerOf(request, 'origin');
  if (!origin || origin === 'null' || !source.host) return true;
  try {
    const from = new URL(origin);
    const addressed = new URL(`${from.protocol}//${source.host}`);
    return from.host === addressed.host;
  } catch {
    return false;
  }
}

function readBody(deps: PanelHandlerDeps, request: FxHttpRequest): Promise<string | Reply> {
  const length = Number(headerOf(request, 'content-length') ?? '0');
  if (!Number.isFinite(length) || length < 0) return Promise.resolve(text(400, 'Bad Content-Length.'));
  if (length > MAX_BODY_BYTES) return Promise.resolve(text(413, 'Body too large.'));
  // FXServer never calls the data handler for a request without a body.
  if (length === 0 && headerOf(request, 'transfer-encoding') === undefined) return Promise.resolve('');
  return new Promise((resolve) => {
    const timer = deps.clock.setTimeout(() => resolve(text(408, 'The body did not arrive.')), BODY_WAIT_MS);
    request.setDataHandler((data) => {
      deps.clock.clearTimeout(timer);
      const body = typeof data === 'string' ? data : String(data);
      resolve(body.length > MAX_BODY_BYTES ? text(413, 'Body too large.') : body);
    });
  });
}

function send(response: FxHttpResponse, reply: Reply, secrets: readonly string[]): void {
  let body = reply.body;
  for (const secret of secrets) if (secret.length >= 4) body = body.split(secret).join('[redacted]');
  const headers: Record<string, string> = {
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Content-Security-Policy': PAGE_CSP,
    ...reply.headers,
  };
  response.writeHead(reply.status, headers);
  response.send(body);
}
