import { randomBytes } from 'node:crypto';

export interface SessionOptions {
  ttlMs?: number;
  maxSessions?: number;
}

/**
 * Browser sessions made by the login form: random ids that stand for the token, so the token
 * itself never sits in a cookie. In memory only: a restart logs everyone out.
 */
export class Sessions {
  private readonly expires = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly maxSessions: number;

  constructor(options: SessionOptions = {}) {
    this.ttlMs = options.ttlMs ?? 12 * 60 * 60_000;
    this.maxSessions = options.maxSessions ?? 64;
  }

  create(now: number): { id: string; maxAgeSeconds: number } {
    const id = randomBytes(32).toString('base64url');
    for (const [old, until] of this.expires) if (until <= now) this.expires.delete(old);
    while (this.expires.size >= this.maxSessions) {
      this.expires.delete(this.expires.keys().next().value as string);
    }
    this.expires.set(id, now + this.ttlMs);
    return { id, maxAgeSeconds: Math.floor(this.ttlMs / 1000) };
  }

  valid(id: string, now: number): boolean {
    const until = this.expires.get(id);
    if (until === undefined) return false;
    if (until <= now) {
      this.expires.delete(id);
      return false;
    }
    return true;
  }

  end(id: string): void {
    this.expires.delete(id);
  }

  get size(): number {
    return this.expires.size;
  }
}
