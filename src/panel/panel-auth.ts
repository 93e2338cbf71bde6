import type { Clock } from '../core/ports';
import { cookieOf, type FxHttpRequest, headerOf } from './fx-http';
import { hostOf, type Lockout } from './lockout';
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

/** Bearer token, session cookie, and the per-address lock-out in front of both. */
export class PanelAuth {
  constructor(private readonly deps: PanelAuthDeps) {}

  /** Checks the request's credentials; a wrong Bearer token counts towards the lock-out. */
  check(request: FxHttpRequest): AuthVerdict {
    const address = hostOf(request.address);
    const locked = this.lockedVerdict(address);
    if (locked) return locked;
    const authorization = headerOf(request, 'authorization');
    const bearer = authorization === undefined ? undefined : /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (bearer) return this.tryToken(address, bearer[1]!.trim());
    const session = cookieOf(request, SESSION_COOKIE);
    if (session && this.deps.sessions.valid(session, this.deps.clock.now())) return { kind: 'ok' };
    return { kind: 'anonymous' };
  }

  /** The login form's token: right, wrong (counted), or the address is locked out. */
  tryToken(address: string, candidate: string): AuthVerdict {
    const host = hostOf(address);
    const locked = this.lockedVerdict(host);
    if (locked) return locked;
    if (this.deps.matches(candidate)) return { kind: 'ok' };
    const now = this.deps.clock.now();
    if (this.deps.lockout.fail(host, now)) return this.lockedVerdict(host) ?? { kind: 'wrong' };
    return { kind: 'wrong' };
  }

  private lockedVerdict(host: string): AuthVerdict | null {
    const ms = this.deps.lockout.lockedFor(host, this.deps.clock.now());
    return ms > 0 ? { kind: 'locked', retryAfterSeconds: Math.ceil(ms / 1000) } : null;
  }
}
