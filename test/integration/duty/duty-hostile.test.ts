/**
 * Duty hours against a service whose OpenAPI description is broken: the resource says so in
 * `roster doctor`, never throws, and asks for the description at most once per
 * `refresh.intervalSeconds`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, framesIn, type Harness, startHarness, withinFrames } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const INTERVAL_SECONDS = 1;
const requestsTo = (harness: Harness, endpoint: string) =>
  harness.mock.counters.log.filter((e) => e.endpoint === endpoint);

/** A description whose duty-session schema includes itself through `allOf`. */
const selfIncluding = {
  openapi: '3.1.0',
  paths: {
    '/api/v1/duty-sessions': {
      get: {
        responses: {
          '200': {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/DutySession' } } },
          },
        },
      },
    },
  },
  components: { schemas: { DutySession: { allOf: [{ $ref: '#/components/schemas/DutySession' }] } } },
};

async function start(beforeStart: (mock: Harness['mock']) => void): Promise<Harness> {
  const harness = await startHarness({
    config: { refresh: { intervalSeconds: INTERVAL_SECONDS } },
    beforeStart,
  });
  h = harness;
  // Bounded in server frames: a machine busy with other tests runs them late, not the resource short.
  await withinFrames(harness.server, framesIn(10), () =>
    harness.logText().includes('connected to the roster'),
  );
  return harness;
}

async function doctor(harness: Harness, line: RegExp): Promise<string> {
  const before = harness.server.log.lines.length;
  harness.server.executeCommand('roster doctor');
  return withinFrames(harness.server, framesIn(10), () => {
    const text = harness.server.log.lines.slice(before).join('\n');
    return line.test(text) ? text : undefined;
  });
}

describe('duty hours with a broken description', () => {
  it('a schema that includes itself: doctor says the fields are not described, nothing throws', async () => {
    const harness = await start((mock) => mock.faults.replaceOpenApi(selfIncluding));
    // The description is read after the key check: asked before it arrives, doctor says it waits.
    await withinFrames(harness.server, framesIn(10), () =>
      harness.logText().includes("duty hours are not read: the service's description of"),
    );
    const text = await doctor(harness, /duty hours: not read: GET \/api\/v1\/duty-sessions/);
    expect(text).toMatch(/API description confirms/);
    expect(requestsTo(harness, 'GET /api/v1/duty-sessions')).toHaveLength(0);
    // harness.close() fails the test on any unhandled rejection in the resource.
  });

  it('a description that cannot be read: asked again once per interval, doctor says why, no key in it', async () => {
    const harness = await start((mock) => mock.faults.failPath('/api/v1/openapi.json'));
    const described = () => requestsTo(harness, 'GET /api/v1/openapi.json').map((e) => e.time);
    await eventually(() => described().length >= 8, 20_000);
    // Each reading is one request and the API's own retries (3 at most, backing off), then the
    // next waits an interval: never more than one reading's worth in any interval.
    const times = described();
    for (const [i, t] of times.entries())
      expect(times.slice(i).filter((u) => u < t + INTERVAL_SECONDS * 1000).length).toBeLessThanOrEqual(4);
    const text = await doctor(harness, /duty hours: not read: the description could not be read/);
    expect(requestsTo(harness, 'GET /api/v1/duty-sessions')).toHaveLength(0);
    const key = String(harness.mock.keys.full);
    expect(text).not.toContain(key);
    expect(harness.logText()).not.toContain(key);
  });
});

describe('duty hours while players come and go', () => {
  it('joins and leaves all the time: still at most one request per 100 online members per interval', async () => {
    const harness = await startHarness({
      members: 300,
      config: { refresh: { intervalSeconds: INTERVAL_SECONDS } },
    });
    h = harness;
    await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
    const members = harness.mock.data.members.filter((m) => m.status === 'ACTIVE').slice(0, 160);
    const online: number[] = [];
    let most = 0;
    const join = async (index: number) => {
      const m = members[index]!;
      const d = await harness.server.connectPlayer({ name: m.displayName, identifiers: [m.gameLicense] })
        .decision;
      if (d.admitted) online.push(d.id);
      most = Math.max(most, online.length);
    };
    await Promise.all(members.slice(0, 120).map((_, i) => join(i)));
    // Six intervals of ten leaving and ten others joining every few frames.
    const from = harness.server.frames;
    let next = 120;
    while (harness.server.frames < from + 6 * INTERVAL_SECONDS * 20) {
      for (const id of online.splice(0, 10)) harness.server.dropPlayer(id);
      await Promise.all(Array.from({ length: 10 }, () => join(next++ % members.length)));
      await harness.server.nextTick();
    }
    const times = requestsTo(harness, 'GET /api/v1/duty-sessions').map((e) => e.time);
    expect(times.length).toBeGreaterThanOrEqual(3);
    for (const [i, t] of times.entries())
      expect(times.slice(i).filter((u) => u < t + INTERVAL_SECONDS * 1000).length).toBeLessThanOrEqual(
        Math.ceil(most / 100),
      );
  });
});

describe('duty hours from hostile sessions', () => {
  it('a shift recorded twice counts once, one from the future counts nothing; days past 30 answer null', async () => {
    const harness = await startHarness({ config: { refresh: { intervalSeconds: INTERVAL_SECONDS } } });
    h = harness;
    await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
    const member = harness.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const now = Date.now();
    const HOUR = 3_600_000;
    harness.mock.data.addDutySession(member.id, now - 5 * HOUR, 120);
    harness.mock.data.addDutySession(member.id, now - 5 * HOUR, 120);
    harness.mock.data.addDutySession(member.id, now - 4 * HOUR, 30);
    harness.mock.data.addDutySession(member.id, now + 3 * HOUR, null);
    harness.mock.data.addDutySession(member.id, now + 2 * HOUR, 60);
    const d = await harness.server.connectPlayer({ name: 'Cop', identifiers: [member.gameLicense] }).decision;
    if (!d.admitted) throw new Error(d.reason);
    const roster = harness.caller.exports.roster!;
    await eventually(() => roster.getDutyHours!(d.id) !== null, 10_000);
    expect(roster.getDutyHours!(d.id)).toBe(2);
    expect(roster.getDutyHours!(d.id, 30)).toBe(2);
    for (const days of [31, 1e9, Number.POSITIVE_INFINITY])
      expect(roster.getDutyHours!(d.id, days)).toBeNull();
  });
});
