import { describe, expect, it } from 'vitest';
import { GateOutcomes } from '../../../src/core/queue/gate-outcomes';
import { FakeClock } from '../limiter/fake-clock';

const license = `license:${'a'.repeat(40)}`;

describe("the gate's decisions, as a queue waits for them", () => {
  it('answers at once with a decision made since the player began connecting', async () => {
    const clock = new FakeClock(1_000);
    const outcomes = new GateOutcomes(clock);
    outcomes.record(license, { admitted: false, message: 'no' }, 1_000);
    await expect(outcomes.wait(license, 900, 5_000)).resolves.toEqual({ admitted: false, message: 'no' });
  });

  it('waits for the decision when it comes later, and ignores one from an earlier connection', async () => {
    const clock = new FakeClock(1_000);
    const outcomes = new GateOutcomes(clock);
    outcomes.record(license, { admitted: false, message: 'old' }, 500);
    const waiting = outcomes.wait(license, 900, 5_000);
    await clock.advance(100);
    outcomes.record(license, { admitted: true }, clock.now());
    await expect(waiting).resolves.toEqual({ admitted: true });
  });

  it('gives up at the deadline with no decision, and on stop', async () => {
    const clock = new FakeClock(1_000);
    const outcomes = new GateOutcomes(clock);
    const late = outcomes.wait(license, 1_000, 3_000);
    await clock.advance(2_001);
    await expect(late).resolves.toBeUndefined();
    const stopped = outcomes.wait(license, 1_000, 60_000);
    outcomes.stop();
    await expect(stopped).resolves.toBeUndefined();
  });
});
