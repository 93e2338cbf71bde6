import type { Envelope } from './envelope';
import type { HttpRequest, HttpSender } from './http-sender';
import { isKeyRefused } from './key-suspension';
import type { Lane } from './limiter/lane';
import { type HttpAnswer, type ReadContext, readEnvelopeAnswer, readJsonAnswer } from './read-response';
import { RequestLoop, type RequestLoopOptions } from './request-loop';
import { isRetryable } from './retry-policy';
import type { RosterServiceError } from './roster-api-error';

export interface ExecuteOptions {
  lane: Lane;
  /** The rest of a job already started (next page, assignments): front of the lane. */
  front?: boolean;
  /** The caller already holds a limiter permit for the first attempt. */
  permitHeld?: boolean;
  /** Used by the key re-check itself while the client is suspended. */
  bypassSuspension?: boolean;
}

/** The longest a write (a rank change's read or PATCH) waits for the limiter before it is refused. */
export const WRITE_WAIT_MS = 10_000;

/** The roster client's limiter, key suspension, retry policy, clock and logger, and its sender. */
export interface RequestExecutorOptions
  extends Omit<RequestLoopOptions<RosterServiceError>, 'rateLimitedWarning' | 'refusesKey' | 'retryable'> {
  sender: HttpSender;
}

/**
 * The roster service's side of the request loop: its envelope and JSON answers, the key refusals
 * that stop the client, reads retried after outages and the write lane's bounded wait.
 */
export class RequestExecutor {
  private readonly loop: RequestLoop<RosterServiceError>;
  private readonly warned = new Set<string>();

  constructor(private readonly options: RequestExecutorOptions) {
    this.loop = new RequestLoop({
      ...options,
      rateLimitedWarning: (request, seconds) =>
        `The roster service rate limited ${request} (429); every request waits ${seconds} s.`,
      refusesKey: isKeyRefused,
      retryable: isRetryable,
    });
  }

  /**
   * Takes a limiter permit in `lane`, unless the key is suspended (then throws at once); `front`
   * for the rest of a job already started.
   */
  async acquire(lane: Lane, signal?: AbortSignal, front = false): Promise<void> {
    this.options.suspension.check();
    await this.options.limiter.acquire(lane, { ...(signal ? { signal } : {}), ...(front ? { front } : {}) });
  }

  envelope(request: HttpRequest, options: ExecuteOptions): Promise<Envelope> {
    return this.run(request, options, readEnvelopeAnswer);
  }

  json(request: HttpRequest, options: ExecuteOptions): Promise<unknown> {
    return this.run(request, options, readJsonAnswer);
  }

  /** Logs `message` the first time `topic` comes up, and never again (a bounded set of topics). */
  warnOnce(topic: string, message: string): void {
    if (this.warned.has(topic)) return;
    this.warned.add(topic);
    this.options.logger.warn(message);
  }

  /** Stops pending backoff waits. */
  close(): void {
    this.loop.close();
  }

  private run<T>(
    request: HttpRequest,
    options: ExecuteOptions,
    read: (answer: HttpAnswer, context: ReadContext) => T,
  ): Promise<T> {
    const { sender } = this.options;
    const label = `${request.method} ${request.path}`;
    // The write lane carries rank changes, for which a supervisor waits in chat: a read that fails
    // or is rate limited is answered at once (they try again), not retried behind a 429's pause
    // and a change then made minutes after it was asked for.
    const write = options.lane === 'write';
    return this.loop.run({
      method: request.method,
      path: request.path,
      lane: options.lane,
      front: options.front,
      permitHeld: options.permitHeld,
      bypassSuspension: options.bypassSuspension,
      repeatable: request.method === 'GET' && !write,
      permitWithinMs: write ? WRITE_WAIT_MS : undefined,
      send: (held) => sender.send(request, held),
      read: (answer, info) =>
        read(answer, { request: label, retryAfterMs: info.retryAfterMs, redact: sender.redact }),
    });
  }
}
