import { cookieOf, type FxHttpRequest, headerOf } from '../../platform/fx-http';
import type { Clock } from '../../platform/ports';
import type { Lockout } from './lockout';
import type { Sessions } from './sessions';

export const SESSION_COOKIE = 'roster_session';

export type AuthVerdict =
  | { kind: 'ok' }
  /** No credentials, or a session the server no longer knows (e.g. after a restart): not counted. */
  | { kind: 'anonymous' }
  | { kind: 'wrong' }
  | { kind: 'locked'; retryAfterSeconds: number };

export interface PanelAuthDeps {
  matches: (candidate: string) => boolean;
  lockout: Lockout;
  sessions: Sessions;
  clock: Clock;
}

/**
 * Bearer token and session cookie, checked before the lock-out: the right token or a valid session
 * is always served, so wrong tokens from someone sharing the address (a proxy, a NAT) never lock
 * the owner or the metrics scraper out. Only wrong tokens count; a locked address's wrong tokens
 * and anonymous requests get 429. `client` is the lock-out key the request source worked out.
 */
export class PanelAuth {
  constructor(private readonly deps: PanelAuthDeps) {}

  check(request: FxHttpRequest, client: string): AuthVerdict {
    const authorization = headerOf(request, 'authorization');
    const bearer = authorization === undefined ? undefined : /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (bearer) return this.tryToken(client, bearer[1]!.trim());
    const session = cookieOf(request, SESSION_COOKIE);
    if (session && this.deps.sessions.valid(session, this.deps.clock.now())) return { kind: 'ok' };
    return this.lockedVerdict(client) ?? { kind: 'anonymous' };
  }

  /** A token (Bearer or the login form): right, wrong (counted), or wrong from a locked address. */
  tryToken(client: string, candidate: string): AuthVerdict {
    if (this.deps.matches(candidate)) return { kind: 'ok' };
    const locked = this.lockedVerdict(client);
    if (locked) return locked;
    this.deps.lockout.fail(client, this.deps.clock.now());
    return this.lockedVerdict(client) ?? { kind: 'wrong' };
  }

  private lockedVerdict(client: string): AuthVerdict | null {
    const ms = this.deps.lockout.lockedFor(client, this.deps.clock.now());
    return ms > 0 ? { kind: 'locked', retryAfterSeconds: Math.ceil(ms / 1000) } : null;
  }
}
