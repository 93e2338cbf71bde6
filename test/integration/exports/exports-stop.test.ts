/**
 * An async export still waiting for the service when the roster resource stops. Nothing of a
 * stopped resource runs again (its timers and sockets are closed), so an answer not given at the
 * stop never comes, and the caller's Lua thread (a player's deferral in its resource) would wait
 * for ever: the answer is given from memory at the stop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, framesIn, type Harness, startHarness, strangerLicense } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  h?.mock.faults.hang(false);
  await h?.close();
  h = undefined;
});

describe('async exports when the roster stops', () => {
  for (const exported of ['lookupLicense', 'refreshPlayer']) {
    it(`${exported} still waiting for a hanging service is answered at the stop, not never`, async () => {
      const harness = await startHarness({
        config: { gate: { timeoutSeconds: 30 }, api: { timeoutMs: 60_000 }, mirror: { enabled: false } },
      });
      h = harness;
      await eventually(() => harness.logText().includes('connected to the roster'));
      const member = harness.mock.data.members.find((m) => m.status === 'ACTIVE')!;
      const decision = await harness.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] })
        .decision;
      if (!decision.admitted) throw new Error(`refused: ${decision.reason}`);
      const call =
        exported === 'lookupLicense'
          ? `lookupLicense('${strangerLicense}')`
          : `refreshPlayer(${decision.id})`;
      const asker = await harness.server.startLuaCode(
        'asker',
        "answered, answer = false, nil exports('Answer', function() return { answered, answer } end)",
      );
      harness.mock.faults.hang();
      void asker.run(`CreateThread(function() answer = exports.roster:${call}; answered = true end)`);
      const answer = async () => (await asker.run('return exports.asker:Answer()')) as unknown[];
      const from = harness.server.frames;
      await eventually(() => harness.server.frames >= from + framesIn(1));
      expect((await answer())[0]).toBe(false);
      harness.server.stopResource('roster');
      const stoppedAt = harness.server.frames;
      while (!(await answer())[0] && harness.server.frames < stoppedAt + framesIn(5))
        await harness.server.nextTick();
      // Answered within two frames: nil for the stranger, the member as last known.
      const [answered, value] = await answer();
      expect(answered).toBe(true);
      if (exported === 'refreshPlayer') expect(value).toMatchObject({ id: member.id });
      else expect(value).toBeUndefined();
      expect(harness.server.frames - stoppedAt).toBeLessThanOrEqual(2);
    });
  }
});
