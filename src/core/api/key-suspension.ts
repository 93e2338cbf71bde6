import type { Clock, Logger, TimerHandle } from '../ports';
import type { RosterServiceError } from './roster-api-error';

/** A change in whether the client may use its key. */
export type ClientStateChange = { state: 'suspended'; error: RosterServiceError } | { state: 'resumed' };

export interface KeySuspensionOptions {
  clock: Clock;
  logger: Logger;
  /** Checks the key (whoami), bypassing the suspension; resolves when the key works. */
  recheck(): Promise<unknown>;
  recheckEveryMs?: number;
}

/**
 * After the key was refused for good (invalid, revoked, expired, no plan, IP not allowed), no
 * request is sent: calls reject at once with the same error. The key is re-checked once a minute
 * and the client resumes by itself when it works again.
 */
export class KeySuspension {
  private error: RosterServiceError | undefined;
  private timer: TimerHandle | undefined;
  private readonly listeners = new Set<(change: ClientStateChange) => void>();
  private readonly everyMs: number;
  private closed = false;

  constructor(private readonly options: KeySuspensionOptions) {
    this.everyMs = options.recheckEveryMs ?? 60_000;
  }

  /** The error every call rejects with while suspended, if suspended. */
  get current(): RosterServiceError | undefined {
    return this.error;
  }

  /** Throws the suspension error if the key may not be used now. */
  check(): void {
    if (this.error) throw this.error;
  }

  suspend(error: RosterServiceError): void {
    const first = this.error === undefined;
    this.error = error;
    if (!first) return;
    this.options.logger.error(`${error.message} Requests are stopped; the key is re-checked every minute.`);
    this.emit({ state: 'suspended', error });
    this.schedule();
  }

  onChange(listener: (change: ClientStateChange) => void): () => void {
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
          this.options.logger.debug(`Roster key re-check failed: ${(error as Error).message}`);
          if (this.error) this.schedule();
        },
      );
    }, this.everyMs);
    handle.unref?.();
    this.timer = handle;
  }

  private resume(): void {
    if (!this.error) return;
    this.error = undefined;
    this.options.logger.info('The roster API key works again; requests resume.');
    this.emit({ state: 'resumed' });
  }

  private emit(change: ClientStateChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.options.logger.error(`A roster state listener failed: ${(error as Error).message}`);
      }
    }
  }
}
