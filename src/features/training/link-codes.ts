import { LRUCache } from 'lru-cache';
import type { Lane } from '../../http';
import type { Clock } from '../../platform/ports';
import type { LearningApi } from './api/learning-api';
import type { LinkRequestReply } from './api/records';

type PendingCode = Extract<LinkRequestReply, { alreadyLinked: false }> & { checkedAt?: number };

/** Used when a reply gives no readable expiry; short enough that a lost code soon gives way. */
const DEFAULT_CODE_LIFETIME_MS = 5 * 60_000;
/** A code is not handed out in its last moments: the player needs time to type it. */
const EXPIRY_MARGIN_MS = 30_000;
/**
 * A code is kept at least this long even when this server's clock already sees it as expired (the
 * two clocks apart, or a service that says so): otherwise every ask would be a new link request.
 */
const MIN_CODE_LIFETIME_MS = 60_000;
const MAX_CODES = 5_000;
/** While a code is pending, whether it was confirmed is asked at most this often per user. */
const CONFIRMATION_CHECK_MS = 10_000;

/**
 * Link codes per Discord user: one link request per code lifetime, however often the player asks
 * (`/linktraining` or a refused join), so one player cannot drain the learning key's minute.
 * Requests already under way are shared.
 */
export class LinkCodes {
  private readonly codes: LRUCache<string, PendingCode>;
  private readonly asking = new Map<string, Promise<LinkRequestReply>>();

  constructor(
    private readonly api: LearningApi,
    private readonly clock: Clock,
  ) {
    this.codes = new LRUCache<string, PendingCode>({ max: MAX_CODES, perf: { now: () => clock.now() } });
  }

  /** A pending code for this user: the one handed out before while it lasts, else a new one. */
  request(discordId: string, username: string, lane: Lane): Promise<LinkRequestReply> {
    const known = this.codes.get(discordId);
    if (known) return Promise.resolve(known);
    const running = this.asking.get(discordId);
    if (running) return running;
    const asked = this.api
      .requestLink(discordId, username || discordId, { lane })
      .then((reply) => {
        if (reply.alreadyLinked) this.codes.delete(discordId);
        else {
          this.codes.set(discordId, { ...reply }, { ttl: this.lifetime(reply.expiresAt) });
        }
        return reply;
      })
      .finally(() => this.asking.delete(discordId));
    this.asking.set(discordId, asked);
    return asked;
  }

  /**
   * True when the user holds a pending code that may have been confirmed since it was handed out:
   * at most once per CONFIRMATION_CHECK_MS, so asking again and again costs one link lookup a window.
   */
  mayBeConfirmed(discordId: string): boolean {
    const pending = this.codes.get(discordId);
    if (!pending) return false;
    const now = this.clock.now();
    if (pending.checkedAt !== undefined && now - pending.checkedAt < CONFIRMATION_CHECK_MS) return false;
    pending.checkedAt = now;
    return true;
  }

  /** Forgets a user's code (their link was confirmed). */
  forget(discordId: string): void {
    this.codes.delete(discordId);
  }

  private lifetime(expiresAt: string | undefined): number {
    const at = expiresAt === undefined ? Number.NaN : Date.parse(expiresAt);
    if (Number.isNaN(at)) return DEFAULT_CODE_LIFETIME_MS;
    const left = at - this.clock.now() - EXPIRY_MARGIN_MS;
    return Math.min(Math.max(left, MIN_CODE_LIFETIME_MS), 24 * 3_600_000);
  }
}
