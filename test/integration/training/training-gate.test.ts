/** gate.requireCourses: the training join check after the roster admits, in the emulator. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  discord,
  eventually,
  startTrainingHarness,
  type TrainingHarness,
  trainingReady,
} from './training-harness';

let h: TrainingHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const refusal = (decision: { admitted: boolean; reason?: string }) =>
  decision.admitted ? '' : (decision.reason ?? '');
const UNLINKED = 'discord:300000000000000042';

describe('training join check', () => {
  it('admits a linked player who completed the required course', async () => {
    h = await startTrainingHarness({ gate: { requireCourses: ['police academy'] } });
    await trainingReady(h);
    expect(await h.connect('Alice', [discord(0)]).decision).toMatchObject({ admitted: true });
  });

  it('refuses a linked player without the course, naming it', async () => {
    h = await startTrainingHarness({ gate: { requireCourses: ['Police Academy', 'Fire Academy'] } });
    await trainingReady(h);
    const decision = await h.connect('Bob', [discord(1)]).decision;
    expect(refusal(decision)).toMatch(
      /have not completed the training this server requires: Police Academy\./,
    );
    expect(refusal(decision)).not.toMatch(/Fire Academy/);
  });

  it('refuses an unlinked player with a fresh link code and address; linking lets them in', async () => {
    h = await startTrainingHarness({ gate: { requireCourses: ['Fire Academy'] } });
    await trainingReady(h);
    const member = h.member();
    const first = refusal(await h.connect('Carol', [UNLINKED], member).decision);
    const match = /open (\S+) while signed in to the academy and enter the code ([A-Z2-9]{6})/.exec(first);
    expect(match, first).not.toBeNull();
    expect(match![1]).toBe(`${h.learning.url}/link/discord?code=${match![2]}`);
    // The member confirms in the learning app (user 4 has Fire Academy), then reconnects.
    expect(h.learning.data.confirmLink(match![2]!, h.learning.data.users[4]!.user_sub)).toMatchObject({
      ok: true,
    });
    expect(await h.connect('Carol', [UNLINKED], member).decision).toMatchObject({ admitted: true });
  });

  it("finds the link reply's fields from the OpenAPI schema, whatever they are called", async () => {
    // Names that share nothing with "code" or "url": only types and formats tell them apart.
    h = await startTrainingHarness({
      gate: { requireCourses: ['Fire Academy'] },
      learning: { linkReplyNames: { code: 'ticket', confirmUrl: 'destination', expiresAt: 'valid_through' } },
    });
    await trainingReady(h);
    const first = refusal(await h.connect('Carol', [UNLINKED], h.member()).decision);
    const match =
      /open (\S+) while signed in to the academy and enter the code ([A-Z2-9]{6}) \(valid until (\S+)\)/.exec(
        first,
      );
    expect(match, first).not.toBeNull();
    expect(match![1]).toBe(`${h.learning.url}/link/discord?code=${match![2]}`);
    h.server.executeCommand('roster doctor');
    await eventually(() =>
      /link-request reply: ticket, destination, valid_through \(found\)/.test(h!.logText()),
    );
  });

  it('tells a player without a discord identifier to link Discord to FiveM', async () => {
    h = await startTrainingHarness({ gate: { requireCourses: ['Police Academy'] } });
    await trainingReady(h);
    expect(refusal(await h.connect('Dan', ['fivem:123']).decision)).toMatch(/Link Discord to FiveM/);
  });

  it('never names an unlisted required course to the player', async () => {
    h = await startTrainingHarness({ gate: { requireCourses: ['Advanced Driving'] } });
    await trainingReady(h);
    const reason = refusal(await h.connect('Bob', [discord(1)]).decision);
    expect(reason).toMatch(/a required course/);
    expect(reason).not.toMatch(/Advanced Driving/);
    // The player who completed it passes.
    expect(await h.connect('Alice', [discord(0)]).decision).toMatchObject({ admitted: true });
  });

  it('re-reads completions before refusing a player who just completed the course', async () => {
    h = await startTrainingHarness({
      config: { refresh: { intervalSeconds: 1 } },
      gate: { requireCourses: ['Fire Academy'] },
    });
    await trainingReady(h);
    const member = h.member();
    expect(refusal(await h.connect('Eve', [discord(2)], member).decision)).toMatch(/Fire Academy/);
    h.learning.data.complete(h.learning.data.users[2]!.user_sub, 'Fire Academy');
    // Completions older than the refresh interval are read again before a refusal.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await h.connect('Eve', [discord(2)], member).decision).toMatchObject({ admitted: true });
  });
});

describe('learning service down: gate.onError', () => {
  const down = { api: { timeoutMs: 500 }, gate: { timeoutSeconds: 4 } };

  it('cached: decides on the completions it has, refuses unknown players as unavailable, never as untrained', async () => {
    h = await startTrainingHarness({
      config: { api: down.api },
      gate: { ...down.gate, onError: 'cached', requireCourses: ['Police Academy'] },
    });
    await trainingReady(h);
    h.learning.faults.hang();
    expect(await h.connect('Alice', [discord(0)]).decision).toMatchObject({ admitted: true });
    expect(refusal(await h.connect('Bob', [discord(1)]).decision)).toMatch(/Police Academy/);
    const stranger = refusal(await h.connect('Zed', [UNLINKED]).decision);
    expect(stranger).toMatch(/training check is unavailable/);
    expect(stranger).not.toMatch(/not completed/);
  });

  it('cached: a server stalled past both deadlines still lets the check decide on its completions', async () => {
    // A 1 s refresh makes the completions stale at once, so Bob's missing course is asked again and
    // the check waits on the hung service until its own deadline (3.35 s, 0.25 s before the
    // gate's watchdog at 3.6 s). A 600 ms stall across both puts the two timers in one frame.
    h = await startTrainingHarness({
      config: { api: { timeoutMs: 60_000 }, refresh: { intervalSeconds: 1 } },
      gate: { ...down.gate, onError: 'cached', requireCourses: ['Police Academy'] },
    });
    await trainingReady(h);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    h.learning.faults.hang();
    const stall = h.server.createScriptResource('stall');
    stall.eval(`setTimeout(() => { const until = Date.now() + 600; while (Date.now() < until); }, 3100)`);
    const decision = await h.connect('Bob', [discord(1)]).decision;
    expect(refusal(decision)).toMatch(/Police Academy/);
    expect(h.logText()).toMatch(/training: no answer for Bob within \d+ ms/);
  });

  it('allow: admits while the service cannot answer', async () => {
    h = await startTrainingHarness({
      config: { api: down.api },
      gate: { ...down.gate, onError: 'allow', requireCourses: ['Police Academy'] },
    });
    await trainingReady(h);
    h.learning.faults.failNext(50, 503);
    expect(await h.connect('Bob', [discord(1)]).decision).toMatchObject({ admitted: true });
    expect(await h.connect('Zed', [UNLINKED]).decision).toMatchObject({ admitted: true });
  });

  it('deny: refuses as unavailable, even a trained player', async () => {
    h = await startTrainingHarness({
      config: { api: down.api },
      gate: { ...down.gate, onError: 'deny', requireCourses: ['Police Academy'] },
    });
    await trainingReady(h);
    h.learning.faults.hang();
    expect(refusal(await h.connect('Alice', [discord(0)]).decision)).toMatch(/training check is unavailable/);
  });

  it('a service that never started: cached refuses as unavailable, not as untrained', async () => {
    h = await startTrainingHarness({
      config: { api: down.api },
      gate: { ...down.gate, onError: 'cached', requireCourses: ['Police Academy'] },
      beforeStart: ({ learning }) => void learning.faults.failNext(1000, 503),
    });
    await h.server.nextTick();
    const reason = refusal(await h.connect('Alice', [discord(0)]).decision);
    expect(reason).toMatch(/training check is unavailable/);
  });
});
