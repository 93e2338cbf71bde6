import { describe, expect, it } from 'vitest';
import { MAX_YIELD_MS, MirrorPacer, PacerStoppedError } from '../../../src/features/mirror/mirror-pacer';
import { FakeClock, maxInAnyWindow } from '../../http/limiter/fake-clock';

/** A key whose minute is `perMinute`, with nothing else spending it. */
const quietKey = (perMinute: number, joinsWaiting = 0) => ({
  perMinute,
  remainingThisMinute: perMinute,
  resetAt: null,
  joinsWaiting,
});

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
    const pacer = new MirrorPacer(clock, () => quietKey(120));
    const sent = await sendAll(clock, pacer, 200);
    expect(maxInAnyWindow(sent, 60_000)).toBeLessThanOrEqual(60);
    // The burst is a quarter of the ceiling; then one a second.
    expect(sent.slice(0, 15).every((at) => at === sent[0])).toBe(true);
    expect(sent[16]! - sent[15]!).toBeGreaterThanOrEqual(1000);
    expect(pacer.requestsToday).toBe(200);
  });

  it('counts a request from when it settled, so slow answers never bunch the sends', async () => {
    const clock = new FakeClock();
    const pacer = new MirrorPacer(clock, () => quietKey(8));
    const sent = await sendAll(clock, pacer, 30, 20_000);
    expect(maxInAnyWindow(sent, 60_000)).toBeLessThanOrEqual(4);
  });

  it('follows the key minute as it changes', async () => {
    const clock = new FakeClock();
    let perMinute = 120;
    const pacer = new MirrorPacer(clock, () => quietKey(perMinute));
    await sendAll(clock, pacer, 60);
    perMinute = 10;
    const sent = await sendAll(clock, pacer, 20);
    expect(maxInAnyWindow(sent, 60_000)).toBeLessThanOrEqual(5);
  });

  it('waits while the key has less than half its minute left, whoever spent it (servers sharing the key)', async () => {
    const clock = new FakeClock();
    // Other servers on the key have spent 70 of 120 this minute; the window resets in 20 s.
    let key = { perMinute: 120, remainingThisMinute: 50, resetAt: clock.now() + 20_000, joinsWaiting: 0 };
    const pacer = new MirrorPacer(clock, () => key);
    const sent: number[] = [];
    const first = pacer.run(async () => void sent.push(clock.now()));
    await clock.advance(19_000);
    expect(sent).toEqual([]);
    key = { perMinute: 120, remainingThisMinute: 120, resetAt: clock.now() + 60_000, joinsWaiting: 0 };
    await clock.advance(1_000);
    await first;
    expect(sent).toEqual([clock.now()]);
  });

  it("keeps the key's last 60 s, as the service counts it for every server, to half: across a window reset too", async () => {
    const clock = new FakeClock();
    // Other servers spent 55 of the key's 120 in the 60 s before; a new window began meanwhile,
    // so within it the key looks nearly untouched.
    let key = {
      perMinute: 120,
      remainingThisMinute: 115,
      resetAt: clock.now() + 55_000,
      keyUsedLastMinute: 55,
      joinsWaiting: 0,
    };
    const pacer = new MirrorPacer(clock, () => key);
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) void pacer.run(async () => void sent.push(clock.now())).catch(() => {});
    await clock.advance(100);
    // 55 + 5 is the half: five go, the sixth waits.
    key = { ...key, keyUsedLastMinute: 60 };
    const sixth = pacer.run(async () => void sent.push(clock.now()));
    await clock.advance(10_000);
    expect(sent).toHaveLength(5);
    key = { ...key, keyUsedLastMinute: 40 };
    await clock.advance(1_000);
    await sixth;
    expect(sent).toHaveLength(6);
  });

  it('holds its request while a join waits on the rate limiter, and lets it go once none has for a moment', async () => {
    const clock = new FakeClock();
    let joinsWaiting = 3;
    const pacer = new MirrorPacer(clock, () => quietKey(120, joinsWaiting));
    const sent: number[] = [];
    const read = pacer.run(async () => void sent.push(clock.now()));
    await clock.advance(5_000);
    expect(sent).toEqual([]);
    // The batch left; the next join arrives before the moment is over: still held.
    joinsWaiting = 0;
    await clock.advance(100);
    joinsWaiting = 1;
    await clock.advance(100);
    expect(sent).toEqual([]);
    joinsWaiting = 0;
    const quietFrom = clock.now();
    await clock.advance(1_000);
    await read;
    expect(sent).toHaveLength(1);
    expect(sent[0]! - quietFrom).toBeLessThanOrEqual(300);
  });

  it('sends at once when no join waits', async () => {
    const clock = new FakeClock();
    const pacer = new MirrorPacer(clock, () => quietKey(120, 0));
    const sent: number[] = [];
    const started = clock.now();
    await pacer.run(async () => void sent.push(clock.now()));
    expect(sent).toEqual([started]);
  });

  it('never starves: with joins always waiting, a read goes once it has yielded MAX_YIELD_MS', async () => {
    const clock = new FakeClock();
    const pacer = new MirrorPacer(clock, () => quietKey(120, 5));
    const started = clock.now();
    const sent = await sendAll(clock, pacer, 3);
    expect(sent[0]! - started).toBeGreaterThanOrEqual(MAX_YIELD_MS);
    expect(sent[0]! - started).toBeLessThan(MAX_YIELD_MS + 200);
    // Each later read yields again, as long, then goes.
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(MAX_YIELD_MS);
    expect(sent[2]! - sent[1]!).toBeLessThan(MAX_YIELD_MS + 200);
  });

  it('counts requests per day and rejects waiting ones when stopped', async () => {
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 23, 59));
    const pacer = new MirrorPacer(clock, () => quietKey(2));
    await pacer.run(async () => {});
    expect(pacer.requestsToday).toBe(1);
    const waiting = pacer.run(async () => 'sent');
    pacer.stop();
    await expect(waiting).rejects.toBeInstanceOf(PacerStoppedError);
    await clock.advance(120_000);
    expect(pacer.requestsToday).toBe(0);
  });
});
