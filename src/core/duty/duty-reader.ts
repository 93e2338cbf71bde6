import type { Lane } from '../limiter/lane';
import type { Clock, Logger } from '../ports';
import { DUTY_SESSIONS, type DutyFields, STARTED_AT } from './duty-fields';
import { type DutyLedger, KEPT_DAYS } from './duty-ledger';

/** Members asked for in one request (the member filter repeated), and records per page. */
export const DUTY_BATCH = 100;
/**
 * How far before the last read the next one starts: a session recorded a little after it began
 * (a client's clock, a late sync) is still found; reading one twice costs rows, not requests.
 */
const OVERLAP_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

/** The most requests one refresh may send: one per 100 online members (CONTRACT.md section 13). */
export function dutyBudget(onlineMembers: number): number {
  return Math.ceil(onlineMembers / DUTY_BATCH);
}

export interface DutyReaderDeps {
  list(
    path: string,
    query: Record<string, string | readonly string[]>,
    lane: Lane,
    maxPages: number,
  ): Promise<unknown[]>;
  fields: DutyFields;
  ledger: DutyLedger;
  clock: Clock;
  logger: Logger;
}

/** What the last refresh did, for `roster doctor`. */
export interface DutyRefresh {
  at: number;
  members: number;
  requests: number;
  sessions: number;
}

/**
 * Reads the duty sessions of the members online (CONTRACT.md section 13): in batches of 100
 * members (the member filter repeated), each from the member's own mark on (`startedAt.after`),
 * spending at most the budget it is given per refresh. A batch cut short by the budget resumes
 * from its last session at the next refresh; members never read come first.
 */
export class DutyReader {
  /** Member id → the time from which their next read asks (startedAt after it). */
  private readonly marks = new Map<string, number>();
  last: DutyRefresh | null = null;

  constructor(private readonly deps: DutyReaderDeps) {}

  async refresh(online: readonly string[], budget: number): Promise<DutyRefresh> {
    const { ledger, clock } = this.deps;
    const here = new Set(online);
    for (const member of [...this.marks.keys()]) if (!here.has(member)) this.forget(member);
    const now = clock.now();
    ledger.prune(now);
    const windowStart = now - KEPT_DAYS * DAY_MS;
    const markOf = (member: string) => this.marks.get(member) ?? windowStart;
    const order = [...here].sort((a, b) => markOf(a) - markOf(b));
    const done: DutyRefresh = { at: now, members: 0, requests: 0, sessions: 0 };
    for (let i = 0; i < order.length && done.requests < budget; i += DUTY_BATCH) {
      const batch = order.slice(i, i + DUTY_BATCH);
      const after = Math.min(...batch.map(markOf));
      // Every batch gets a request before one batch takes a second page.
      const batchesAfter = Math.max(0, Math.ceil((order.length - i) / DUTY_BATCH) - 1);
      const share = Math.max(1, budget - done.requests - batchesAfter);
      const { pages, sessions, complete, lastStart } = await this.readBatch(batch, after, share);
      done.requests += pages;
      done.sessions += sessions;
      for (const member of batch) {
        if (complete) {
          const open = ledger.openSince(member);
          this.marks.set(member, Math.min(now - OVERLAP_MS, open === null ? now : open - 1));
          ledger.markKnown(member);
          done.members++;
        } else if (lastStart !== null) this.marks.set(member, Math.max(markOf(member), lastStart - 1));
      }
    }
    this.last = done;
    return done;
  }

  forget(member: string): void {
    this.marks.delete(member);
    this.deps.ledger.forget(member);
  }

  private async readBatch(batch: readonly string[], after: number, maxPages: number) {
    const { fields, ledger } = this.deps;
    const query: Record<string, string | readonly string[]> = {
      [fields.member]: batch,
      [`${STARTED_AT}.after`]: new Date(after).toISOString(),
      ...(fields.sortable ? { sort: STARTED_AT } : {}),
    };
    const items = await this.deps.list(DUTY_SESSIONS, query, 'background', maxPages);
    const wanted = new Set(batch);
    let lastStart: number | null = null;
    let sessions = 0;
    for (const item of items) {
      const read = this.sessionOf(item);
      if (read === null || !wanted.has(read.member)) continue;
      ledger.add(read.member, read.id, { start: read.start, end: read.end });
      sessions++;
      lastStart = lastStart === null ? read.start : Math.max(lastStart, read.start);
    }
    const pages = Math.max(1, Math.ceil(items.length / DUTY_BATCH));
    // Full pages up to the budget: more may follow, read from the last start at the next refresh.
    const complete = items.length < maxPages * DUTY_BATCH;
    return { pages, sessions, complete, lastStart };
  }

  private sessionOf(item: unknown): { id: string; member: string; start: number; end: number | null } | null {
    if (typeof item !== 'object' || item === null) return null;
    const record = item as Record<string, unknown>;
    const { fields } = this.deps;
    const member = record[fields.member];
    const start =
      typeof record[STARTED_AT] === 'string' ? Date.parse(record[STARTED_AT] as string) : Number.NaN;
    if (typeof member !== 'string' || Number.isNaN(start)) return null;
    const id =
      typeof record.id === 'string' || typeof record.id === 'number'
        ? String(record.id)
        : `${member}@${start}`;
    let end: number | null = null;
    const endText = fields.end ? record[fields.end] : undefined;
    const length = fields.duration ? record[fields.duration.field] : undefined;
    if (typeof endText === 'string' && !Number.isNaN(Date.parse(endText))) end = Date.parse(endText);
    else if (fields.duration && typeof length === 'number' && Number.isFinite(length))
      end = start + length * fields.duration.unitMs;
    return { id, member, start, end: end !== null && end < start ? start : end };
  }
}
