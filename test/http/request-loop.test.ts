import { describe, expect, it } from 'vitest';
import { KeySuspension } from '../../src/http/key-suspension';
import { LaneWaitTooLongError, LimiterClosedError } from '../../src/http/limiter/limiter-closed-error';
import { RateLimiter } from '../../src/http/limiter/rate-limiter';
import type { HttpAnswer } from '../../src/http/read-response';
import { type LoopRequest, RequestLoop } from '../../src/http/request-loop';
import { HeldBeforeSending } from '../../src/http/send-gate';
import { outcome, recordingLogger } from '../roster/client/fake-roster';
import { FakeClock } from './limiter/fake-clock';

/** The loop alone, on a fake clock, with a service of its own: what each client adds is tested beside it. */
class Refused extends Error {}
class Outage extends Error {}

const policy = { maxRetries: 2, baseDelayMs: 1000, maxDelayMs: 8000, maxRateLimitRetries: 3 };

/** One attempt's outcome: an answer, or an error thrown by the sender. */
type Step = HttpAnswer | Error;

function loopOn(steps: Step[]) {
  const clock = new FakeClock();
  const { logger, lines } = recordingLogger();
  const limiter = new RateLimiter({ perMinute: 600, perDay: null, clock });
  const suspension = new KeySuspension<Refused>({
    clock,
    logger,
    recheck: () => Promise.reject(new Error('no')),
  });
  const loop = new RequestLoop<Refused>({
    limiter,
    suspension,
    policy,
    clock,
    logger,
    random: () => 0,
    rateLimitedWarning: (request, seconds) => `rate limited ${request}, ${seconds} s`,
    refusesKey: (error): error is Refused => error instanceof Refused,
    retryable: (error) => error instanceof Outage,
  });
  const sent: Array<{ at: number; held: () => boolean }> = [];
  const request = (extra: Partial<LoopRequest<string>> = {}): LoopRequest<string> => ({
    method: 'GET',
    path: '/things',
    lane: 'background',
    repeatable: true,
    send: async (held) => {
      sent.push({ at: clock.now(), held });
      const step = steps.shift() ?? answer(200);
      if (step instanceof Error) throw step;
      return step;
    },
    read: (answer) => {
      // As on the roster side: a 429 that is no longer waited out is an error, not an outage to retry.
      if (answer.status === 429) throw new Error('still rate limited');
      if (answer.status !== 200) throw new Outage(`status ${answer.status}`);
      return answer.text;
    },
    ...extra,
  });
  const close = () => {
    loop.close();
    suspension.close();
    limiter.close();
  };
  return { clock, loop, limiter, suspension, sent, lines, request, close };
}

function answer(status: number, headers: Record<string, string> = {}, text = 'fine'): HttpAnswer {
  return { status, headers, text };
}

describe('the shared request loop', () => {
  it('retries a repeatable request after outages, with a backoff that doubles, up to the policy', async () => {
    const { clock, loop, sent, lines, request } = loopOn([
      new Outage('down'),
      new Outage('down'),
      answer(200),
    ]);
    expect((await outcome(clock, loop.run(request()), 100)).value).toBe('fine');
    // random() = 0: the lower half of each window, 500 then 1000 ms.
    expect(sent.map((each) => each.at - sent[0]!.at)).toEqual([0, 500, 1500]);
    expect(lines.filter((line) => line.level === 'debug').map((line) => line.message)).toEqual([
      'down Retry 1 of 2 in 500 ms.',
      'down Retry 2 of 2 in 1000 ms.',
    ]);
  });

  it('retries an answer read as an outage (a failing service) as it does a missing one', async () => {
    const { clock, loop, sent, request } = loopOn([answer(503), answer(200)]);
    expect((await outcome(clock, loop.run(request()), 100)).value).toBe('fine');
    expect(sent).toHaveLength(2);
  });

  it('gives up after the retries the request allows, and never retries what is not repeatable', async () => {
    const many = loopOn([new Outage('a'), new Outage('b'), new Outage('c')]);
    const { error } = await outcome(many.clock, many.loop.run(many.request({ retries: 1 })), 100);
    expect((error as Error).message).toBe('b');
    expect(many.sent).toHaveLength(2);

    const once = loopOn([new Outage('a')]);
    const write = once.loop.run(once.request({ method: 'POST', repeatable: false }));
    await expect(write).rejects.toThrow('a');
    expect(once.sent).toHaveLength(1);
  });

  it('does not retry a failure the client does not count as an outage', async () => {
    const { clock, loop, sent, request } = loopOn([new Error('no such thing')]);
    expect((await outcome(clock, loop.run(request()), 100)).error).toBeInstanceOf(Error);
    expect(sent).toHaveLength(1);
  });

  it('a 429 stops every request for Retry-After, is sent again, and not forever', async () => {
    const limited = () => answer(429, { 'retry-after': '20' }, 'slow down');
    const { clock, loop, limiter, sent, lines, request } = loopOn([
      limited(),
      limited(),
      limited(),
      limited(),
    ]);
    const start = clock.now();
    const run = loop.run(request());
    await clock.advance(1);
    expect(limiter.state().pausedUntil).toBe(start + 20_000);
    const result = outcome(clock, run, 500);
    expect(((await result).error as Error).message).toBe('still rate limited');
    // The first answer and three more: maxRateLimitRetries, each after the pause.
    expect(sent.map((each) => each.at - start)).toEqual([0, 20_000, 40_000, 60_000]);
    expect(lines.filter((line) => line.level === 'warn')[0]!.message).toBe('rate limited GET /things, 20 s');
  });

  it('a request that is not repeatable reads its 429 at once', async () => {
    const { clock, loop, sent, request } = loopOn([answer(429, { 'retry-after': '20' })]);
    const { error } = await outcome(clock, loop.run(request({ repeatable: false })), 100);
    expect((error as Error).message).toBe('still rate limited');
    expect(sent).toHaveLength(1);
  });

  it('a request held back before sending waits for a permit again and spends no retry', async () => {
    const { clock, loop, sent, request } = loopOn([new HeldBeforeSending(), answer(200)]);
    expect((await outcome(clock, loop.run(request({ repeatable: false })), 100)).value).toBe('fine');
    expect(sent).toHaveLength(2);
  });

  it('held() is true during a 429 pause and while the key is refused, but not for the re-check', async () => {
    const { loop, limiter, suspension, sent, request } = loopOn([answer(200), answer(200)]);
    await loop.run(request());
    await loop.run(request({ bypassSuspension: true }));
    const [plain, recheck] = sent;
    expect(plain!.held()).toBe(false);
    suspension.suspend(new Refused('revoked'));
    expect(plain!.held()).toBe(true);
    expect(recheck!.held()).toBe(false);
    limiter.pauseAfterRateLimited({ retryAfterMs: 30_000 });
    expect(recheck!.held()).toBe(true);
  });

  it('a refused key stops every request but the re-check, without sending', async () => {
    const { clock, loop, sent, request } = loopOn([new Refused('revoked'), answer(200)]);
    const first = await outcome(clock, loop.run(request()), 100);
    expect(first.error).toBeInstanceOf(Refused);
    await expect(loop.run(request())).rejects.toBe(first.error);
    expect(sent).toHaveLength(1);
    await expect(loop.run(request({ bypassSuspension: true }))).resolves.toBe('fine');
    expect(sent).toHaveLength(2);
  });

  it('a caller who waits in person is refused when the permit does not come in time, unsent', async () => {
    const { clock, loop, limiter, sent, request } = loopOn([]);
    limiter.pauseAfterRateLimited({ retryAfterMs: 60_000 });
    const { error } = await outcome(
      clock,
      loop.run(request({ lane: 'write', permitWithinMs: 10_000 })),
      1000,
    );
    expect(error).toBeInstanceOf(LaneWaitTooLongError);
    expect((error as LaneWaitTooLongError).waitedMs).toBe(10_000);
    expect(sent).toHaveLength(0);
  });

  it('closing ends a backoff wait at once and retries nothing under way', async () => {
    const waiting = loopOn([new Outage('down')]);
    const during = waiting.loop.run(waiting.request());
    await waiting.clock.advance(1);
    expect(waiting.sent).toHaveLength(1);
    waiting.close();
    await expect(during).rejects.toBeInstanceOf(LimiterClosedError);

    let fail: (error: Error) => void = () => {};
    const inFlight = loopOn([]);
    const pending = inFlight.loop.run(
      inFlight.request({
        send: () =>
          new Promise<HttpAnswer>((_, reject) => {
            fail = reject;
          }),
      }),
    );
    await inFlight.clock.advance(1);
    inFlight.close();
    fail(new Outage('cut off'));
    await expect(pending).rejects.toThrow('cut off');
  });
});
