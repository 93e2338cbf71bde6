import type { oxmysql } from '@overextended/oxmysql';
import { answerWithin } from '../../../platform/answer-within';
import type { Clock } from '../../../platform/ports';
import { ShareStoreError } from '../share-store';

type Wrapper = typeof oxmysql;
/** Statements of one `transaction`, as the community's wrapper types them. */
export type OxTransaction = Parameters<Wrapper['transaction']>[0];
/** A statement's values, one per `?`. */
export type OxValues = Extract<Parameters<Wrapper['query']>[1], unknown[]>;
/** What a failing call hands its callback besides the null answer: oxmysql's error text. */
type Answer<T> = (result: T | null, error?: string) => void;

/**
 * oxmysql's exports as a resource reaches them (`exports.oxmysql`), in the form its own wrapper
 * calls them: the answer goes to the callback, and with the promise flag a failure does too, as
 * `(null, text)`. The export itself answers nothing.
 */
export interface OxmysqlExports {
  query(sql: string, values: OxValues, answer: Answer<unknown>, resource: string, promise: true): void;
  transaction(
    statements: OxTransaction,
    values: OxValues,
    answer: Answer<boolean>,
    resource: string,
    promise: true,
  ): void;
}

/** `exports.oxmysql` of the running server; undefined outside FXServer. */
export function serverOxmysql(): OxmysqlExports | undefined {
  const exportsOf = (globalThis as { exports?: Record<string, unknown> }).exports;
  return exportsOf?.oxmysql as OxmysqlExports | undefined;
}

/** How long a call may take before it is a failure. */
export const DATABASE_BOUND_MS = 2_000;
/**
 * Calls past the bound that have not answered yet: beyond this many, a new call fails at once
 * instead of queueing behind them on the community's pool (a stalled database holds every
 * statement sent to it, and its other resources share that pool).
 */
const MOST_LATE_CALLS = 3;
/** A late call not answered after this long is taken as lost (oxmysql may never answer it). */
const LATE_CALL_LOST_MS = 60_000;
/**
 * While late calls hold new ones back, a call goes through when none was sent for this long, to
 * find out whether the database answers again: a database that refused connections never answers
 * the calls sent meanwhile, and waiting for them to count as lost would keep sharing off for a
 * minute after it is back. A stalled database is then sent one statement this often, no more.
 */
export const PROBE_EVERY_MS = 5_000;

/** A call sent to oxmysql: when, and how many were sent before it and this one. */
interface SentCall {
  startedAt: number;
  order: number;
}

export interface OxmysqlCallsOptions {
  /** The exports, looked up at each call: oxmysql may start after this resource, or restart. */
  exports: () => OxmysqlExports | undefined;
  /** This resource's name, which oxmysql names in its console lines. */
  resource: string;
  clock: Clock;
  boundMs?: number;
}

/** oxmysql's exports as promises that always settle within the bound, failing with a `ShareStoreError`. */
export class OxmysqlCalls {
  private readonly late = new Set<SentCall>();
  private readonly boundMs: number;
  /** When a call was last sent to oxmysql. */
  private sentAt = Number.NEGATIVE_INFINITY;
  private sent = 0;

  constructor(private readonly options: OxmysqlCallsOptions) {
    this.boundMs = options.boundMs ?? DATABASE_BOUND_MS;
  }

  /**
   * `work` (several calls) within the same bound as one call: what a caller of the store waits
   * for is bounded, not only each statement.
   */
  within<T>(work: () => Promise<T>): Promise<T> {
    return answerWithin(work(), this.boundMs, this.options.clock, () => {
      throw new ShareStoreError('timeout', `The database did not answer within ${this.boundMs / 1000} s.`);
    });
  }

  /** The rows of a SELECT, or a write's result header. */
  query(sql: string, values: OxValues): Promise<unknown> {
    return this.call((ox, answer) => ox.query(sql, values, answer, this.options.resource, true));
  }

  /**
   * The statements in one transaction. oxmysql answers false for a statement that failed (it
   * rolled back and printed the statement): that is an error here too.
   */
  async transaction(statements: OxTransaction): Promise<void> {
    const committed = await this.call<boolean>((ox, answer) =>
      ox.transaction(statements, [], answer, this.options.resource, true),
    );
    if (committed !== true) {
      throw new ShareStoreError(
        'failed',
        'The database refused a write and rolled it back (oxmysql printed why).',
      );
    }
  }

  private call<T>(send: (ox: OxmysqlExports, answer: Answer<T>) => void): Promise<T | null> {
    const { clock } = this.options;
    const ox = this.options.exports();
    if (!ox) return Promise.reject(new ShareStoreError('unavailable', 'oxmysql is not started.'));
    const now = clock.now();
    this.forgetLost(now);
    if (this.late.size >= MOST_LATE_CALLS && now - this.sentAt < PROBE_EVERY_MS) {
      return Promise.reject(
        new ShareStoreError(
          'timeout',
          'The database has not answered earlier calls; nothing more is sent to it for now.',
        ),
      );
    }
    this.sentAt = now;
    const call: SentCall = { startedAt: now, order: ++this.sent };
    let answered = false;
    const work = new Promise<T | null>((resolve, reject) => {
      const answer: Answer<T> = (result, error) => {
        answered = true;
        this.heard(call);
        if (error) reject(new ShareStoreError('failed', `The database answered: ${lastLine(error)}`));
        else resolve(result);
      };
      try {
        send(ox, answer);
      } catch (error) {
        // FXServer throws for an export of a resource that is not started.
        answered = true;
        reject(new ShareStoreError('unavailable', `oxmysql could not be called: ${lastLine(String(error))}`));
      }
    });
    return answerWithin(work, this.boundMs, clock, () => {
      if (!answered) this.late.add(call);
      throw new ShareStoreError('timeout', `The database did not answer within ${this.boundMs / 1000} s.`);
    });
  }

  /**
   * oxmysql answered `call`, an error included: it answers again, and a late call sent before this
   * one and still unanswered was lost (held statements come back in the order they were sent).
   */
  private heard(call: SentCall): void {
    for (const late of this.late) if (late.order <= call.order) this.late.delete(late);
  }

  private forgetLost(now: number): void {
    for (const late of this.late) if (now - late.startedAt > LATE_CALL_LOST_MS) this.late.delete(late);
  }
}

/** oxmysql's error text names the caller, the statement and its values first; the reason is last. */
function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? text;
}
