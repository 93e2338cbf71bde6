import { errorMessage } from '../platform/error-message';
import type { Clock, Logger, TimerHandle } from '../platform/ports';
import { RosterServiceError } from './roster-api-error';
import { SUSPENDING_CODES } from './service-error-codes';

/** A change in whether the client may use its key. */
export type ClientStateChange<E extends Error = RosterServiceError> =
  | { state: 'suspended'; error: E }
  | { state: 'resumed' };

export interface KeySuspensionOptions {
  clock: Clock;
  logger: Logger;
  /** Checks the key (whoami), bypassing the suspension; resolves when the key works. */
  recheck(): Promise<unknown>;
  /** The first re-check's delay (default a minute). */
  recheckEveryMs?: number;
  /** When set, each failed re-check doubles the delay, up to this. */
  maxRecheckMs?: number;
  /** Whose key, for messages: default `roster`. */
  service?: string;
}

/**
 * True for an error that stops the roster client: the key itself was refused (invalid, revoked,
 * expired, no plan, IP not allowed). The suspension says so once, with when the key is checked
 * again, and once more when it works: whoever else meets the error has nothing to add.
 */
export function isKeyRefused(error: unknown): error is RosterServiceError {
  return error instanceof RosterServiceError && SUSPENDING_CODES.has(error.code);
}

/**
 * After the key was refused for good (invalid, revoked, expired, no plan, IP not allowed), no
 * request is sent: calls reject at once with the same error. The key is re-checked once a minute
 * and the client resumes by itself when it works again.
 */
export class KeySuspension<E extends Error = RosterServiceError> {
  private error: E | undefined;
  private delayMs: number;
  private timer: TimerHandle | undefined;
  private readonly listeners = new Set<(change: ClientStateChange<E>) => void>();
  private readonly everyMs: number;
  private closed = false;

  constructor(private readonly options: KeySuspensionOptions) {
    this.everyMs = options.recheckEveryMs ?? 60_000;
    this.delayMs = this.everyMs;
  }

  /** The error every call rejects with while suspended, if suspended. */
  get current(): E | undefined {
    return this.error;
  }

  /** Throws the suspension error if the key may not be used now. */
  check(): void {
    if (this.error) throw this.error;
  }

  suspend(error: E): void {
    const first = this.error === undefined;
    this.error = error;
    if (!first) return;
    this.delayMs = this.everyMs;
    const when =
      this.options.maxRecheckMs === undefined
        ? 'every minute'
        : `after ${Math.round(this.everyMs / 1000)} s, then less often (at most every ${Math.round(this.options.maxRecheckMs / 60_000)} min)`;
    this.options.logger.error(`${error.message} Requests are stopped; the key is re-checked ${when}.`);
    this.emit({ state: 'suspended', error });
    this.schedule();
  }

  onChange(listener: (change: ClientStateChange<E>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }

  private schedule(): void {
    if (this.closed) return;
    const handle = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      this.options.recheck().then(
        () => this.resume(),
        (error: unknown) => {
          this.options.logger.debug(`${this.subject} key re-check failed: ${errorMessage(error)}`);
          const max = this.options.maxRecheckMs;
          if (max !== undefined) this.delayMs = Math.min(max, this.delayMs * 2);
          if (this.error) this.schedule();
        },
      );
    }, this.delayMs);
    handle.unref?.();
    this.timer = handle;
  }

  private resume(): void {
    if (!this.error) return;
    this.error = undefined;
    this.options.logger.info(`The ${this.options.service ?? 'roster'} API key works again; requests resume.`);
    this.emit({ state: 'resumed' });
  }

  private get subject(): string {
    const service = this.options.service ?? 'roster';
    return service.charAt(0).toUpperCase() + service.slice(1);
  }

  private emit(change: ClientStateChange<E>): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.options.logger.error(
          `A ${this.options.service ?? 'roster'} state listener failed: ${errorMessage(error)}`,
        );
      }
    }
  }
}
