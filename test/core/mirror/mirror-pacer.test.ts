import { describe, expect, it } from 'vitest';
import { MirrorPacer, PacerStoppedError } from '../../../src/core/mirror/mirror-pacer';
import { FakeClock, maxInAnyWindow } from '../limiter/fake-clock';

/** Runs `count` requests one after the other, each taking `tookMs`; returns when each was sent. */
async function sendAll(clock: FakeClock, pacer: MirrorPacer, count: number, tookMs = 0): Promise<number[]> {
  const sent: number[] = [];
  let done = false;
  void (async () => {
    for (let i = 0; i < count; i++)
      await pacer.run(async () => {
        sent.push(clock.now());
        if (tookMs > 0) await new Promise<void>((resolve) => clock.setTimeout(resolve, tookMs));
      });
    done = true;
  })();
  while (!done) await clock.advance(100);
  return sent;
}

describe('MirrorPacer', () => {
  it('never sends more than half the key minute in any 60 s: a short burst, then evenly spaced', async () => {
    const clock = new FakeClock();
    const pacer = new MirrorPacer(clock, () => 120);
    const sent = await sendAll(clock, pacer, 200);
    expect(maxInAnyWindow(sent, 60_000)).toBeLessThanOrEqual(60);
    // The burst is a quarter of the ceiling; then one a second.
    expect(sent.slice(0, 15).every((at) => at === sent[0])).toBe(true);
    expect(sent[16]! - sent[15]!).toBeGreaterThanOrEqual(1000);
    expect(pacer.requestsToday).toBe(200);
  });

  it('counts a request from when it settled, so slow answers never bunch the sends', async () => {
    const clock = new FakeClock();
    const pacer = new MirrorPacer(clock, () => 8);
    const sent = await sendAll(clock, pacer, 30, 20_000);
    expect(maxInAnyWindow(sent, 60_000)).toBeLessThanOrEqual(4);
  });

  it('follows the key minute as it changes', async () => {
    const clock = new FakeClock();
    let perMinute = 120;
    const pacer = new MirrorPacer(clock, () => perMinute);
    await sendAll(clock, pacer, 60);
    perMinute = 10;
    const sent = await sendAll(clock, pacer, 20);
    expect(maxInAnyWindow(sent, 60_000)).toBeLessThanOrEqual(5);
  });

  it('counts requests per day and rejects waiting ones when stopped', async () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 23, 59));
    const pacer = new MirrorPacer(clock, () => 2);
    await pacer.run(async () => {});
    expect(pacer.requestsToday).toBe(1);
    const waiting = pacer.run(async () => 'sent');
    pacer.stop();
    await expect(waiting).rejects.toBeInstanceOf(PacerStoppedError);
    await clock.advance(120_000);
    expect(pacer.requestsToday).toBe(0);
  });
});
