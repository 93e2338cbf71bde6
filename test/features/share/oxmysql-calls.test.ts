import { describe, expect, it } from 'vitest';
import {
  DATABASE_BOUND_MS,
  OxmysqlCalls,
  type OxmysqlExports,
  PROBE_EVERY_MS,
} from '../../../src/features/share/fivem/oxmysql-calls';
import { FakeClock } from '../../http/limiter/fake-clock';

type Answer = (result: unknown, error?: string) => void;

/**
 * oxmysql as the calls meet it: each statement is held until the test answers it, or dropped
 * unanswered while the database refuses connections (oxmysql never answers those).
 */
function oxmysql() {
  const held: { sql: string; answer: Answer }[] = [];
  let refusing = false;
  let sent = 0;
  const exports: OxmysqlExports = {
    query(sql, _values, answer) {
      sent++;
      if (!refusing) held.push({ sql, answer });
    },
    transaction(_statements, _values, answer) {
      sent++;
      if (!refusing)
        held.push({ sql: 'transaction', answer: (result, error) => answer(result as boolean, error) });
    },
  };
  return {
    exports,
    held,
    sent: () => sent,
    refuse(on: boolean) {
      refusing = on;
    },
    /** Answers every statement held, oldest first. */
    answerAll() {
      for (const { answer } of held.splice(0)) answer([]);
    },
  };
}

/** Whether a promise settled yet, and how. */
function track<T>(promise: Promise<T>): { settled: boolean; value?: T; error?: unknown } {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

function setup() {
  const clock = new FakeClock();
  const ox = oxmysql();
  const calls = new OxmysqlCalls({ exports: () => ox.exports, resource: 'roster', clock });
  return { clock, ox, calls };
}

/** Three calls the database leaves unanswered past the bound: new calls are held back. */
async function blocked(clock: FakeClock, calls: OxmysqlCalls): Promise<void> {
  const late = [
    track(calls.query('SELECT 1', [])),
    track(calls.query('SELECT 2', [])),
    track(calls.query('SELECT 3', [])),
  ];
  await clock.advance(DATABASE_BOUND_MS);
  for (const call of late) expect(call.error).toMatchObject({ failure: 'timeout' });
}

describe('oxmysql calls after a database that refused connections', () => {
  it('works again within a few seconds of the database answering, not after the unanswered calls count as lost', async () => {
    const { clock, ox, calls } = setup();
    ox.refuse(true);
    await blocked(clock, calls);
    const held = track(calls.query('SELECT 4', []));
    await clock.advance(0);
    expect(held.error).toMatchObject({ failure: 'timeout' });
    expect(ox.sent()).toBe(3);
    // A few seconds on, one call goes through to find out; refused still, it is dropped too, and
    // the calls beside it fail at once.
    await clock.advance(PROBE_EVERY_MS - DATABASE_BOUND_MS);
    const probe = track(calls.query('SELECT 5', []));
    const beside = track(calls.query('SELECT 6', []));
    await clock.advance(0);
    expect(beside.error).toMatchObject({ failure: 'timeout' });
    expect(ox.sent()).toBe(4);
    await clock.advance(DATABASE_BOUND_MS);
    expect(probe.error).toMatchObject({ failure: 'timeout' });

    // The database accepts again: the next call let through is answered, and every call after it goes.
    ox.refuse(false);
    await clock.advance(PROBE_EVERY_MS - DATABASE_BOUND_MS);
    const next = track(calls.query('SELECT 7', []));
    await clock.advance(0);
    ox.answerAll();
    await clock.advance(0);
    expect(next).toMatchObject({ settled: true, value: [] });
    const after = [track(calls.query('SELECT 8', [])), track(calls.query('SELECT 9', []))];
    await clock.advance(0);
    ox.answerAll();
    await clock.advance(0);
    expect(after).toMatchObject([
      { settled: true, value: [] },
      { settled: true, value: [] },
    ]);
    expect(ox.sent()).toBe(7);
  });

  it('an error oxmysql answers counts as answering too', async () => {
    const { clock, ox, calls } = setup();
    ox.refuse(true);
    await blocked(clock, calls);
    ox.refuse(false);
    await clock.advance(PROBE_EVERY_MS - DATABASE_BOUND_MS);
    const probe = track(calls.query('SELECT 4', []));
    await clock.advance(0);
    ox.held.shift()?.answer(null, 'roster was unable to execute a query!\nToo many connections');
    await clock.advance(0);
    expect(probe.error).toMatchObject({ failure: 'failed' });
    const next = track(calls.transaction([]));
    await clock.advance(0);
    ox.held.shift()?.answer(true);
    await clock.advance(0);
    expect(next).toMatchObject({ settled: true });
    expect(next.error).toBeUndefined();
  });
});

describe('oxmysql calls on a stalled database', () => {
  it('while late calls hold the others back, sends one statement every few seconds, however many calls come', async () => {
    const { clock, ox, calls } = setup();
    await blocked(clock, calls);
    const minute = 60_000;
    const failed: unknown[] = [];
    // A call every 100 ms for most of a minute, none of them answered.
    for (let elapsed = 0; elapsed < minute - 2 * DATABASE_BOUND_MS; elapsed += 100) {
      calls.query('SELECT 1', []).catch((error: unknown) => failed.push(error));
      await clock.advance(100);
    }
    expect(ox.sent()).toBeLessThanOrEqual(3 + Math.ceil(minute / PROBE_EVERY_MS));
    expect(ox.sent()).toBeGreaterThan(3);
    expect(failed.every((error) => (error as { failure?: string }).failure === 'timeout')).toBe(true);
  });

  it('a held statement answering late lets calls through again; the ones sent after it still count as late', async () => {
    const { clock, ox, calls } = setup();
    await blocked(clock, calls);
    // The oldest answers: two late calls remain, so one more may go before the others are held back.
    ox.held.shift()?.answer([]);
    await clock.advance(0);
    const one = track(calls.query('SELECT 4', []));
    await clock.advance(DATABASE_BOUND_MS);
    expect(one.error).toMatchObject({ failure: 'timeout' });
    const sent = ox.sent();
    const held = track(calls.query('SELECT 5', []));
    await clock.advance(0);
    expect(held.error).toMatchObject({ failure: 'timeout' });
    expect(ox.sent()).toBe(sent);
  });
});
