import { describe, expect, it } from 'vitest';
import { GateOutcomes } from '../../../src/features/queue/gate-outcomes';
import { FakeClock } from '../../http/limiter/fake-clock';

describe("the gate's decisions, as a queue waits for them", () => {
  it('answers at once with a decision already made for the connection, however long before', async () => {
    const clock = new FakeClock(1_000);
    const outcomes = new GateOutcomes(clock);
    // The bypass ACE decides inside the gate's own playerConnecting handler, before the queue
    // side has heard of the player at all.
    outcomes.record('65536', { admitted: true });
    await clock.advance(1);
    await expect(outcomes.wait('65536', clock.now() + 15_000)).resolves.toEqual({ admitted: true });
  });

  it('waits for the decision when it comes later; another connection’s decision never answers it', async () => {
    const clock = new FakeClock(1_000);
    const outcomes = new GateOutcomes(clock);
    outcomes.record('65536', { admitted: false, message: 'earlier connection' });
    const waiting = outcomes.wait('65537', 5_000);
    const other = outcomes.wait('65538', 5_000);
    await clock.advance(100);
    outcomes.record('65537', { admitted: true });
    await expect(waiting).resolves.toEqual({ admitted: true });
    outcomes.record('65538', { admitted: false, message: 'no' });
    await expect(other).resolves.toEqual({ admitted: false, message: 'no' });
  });

  it('gives up at the deadline with no decision, and on stop', async () => {
    const clock = new FakeClock(1_000);
    const outcomes = new GateOutcomes(clock);
    const late = outcomes.wait('65536', 3_000);
    await clock.advance(2_001);
    await expect(late).resolves.toBeUndefined();
    // A decision after the deadline is kept for a later ask, not handed to the one who gave up.
    outcomes.record('65536', { admitted: true });
    await expect(outcomes.wait('65536', clock.now())).resolves.toEqual({ admitted: true });
    const stopped = outcomes.wait('65539', 60_000);
    outcomes.stop();
    await expect(stopped).resolves.toBeUndefined();
  });

  it('forgets decisions after five minutes', async () => {
    const clock = new FakeClock(1_000);
    const outcomes = new GateOutcomes(clock);
    outcomes.record('65536', { admitted: true });
    await clock.advance(5 * 60_000 + 1);
    outcomes.sweep();
    await expect(outcomes.wait('65536', clock.now())).resolves.toBeUndefined();
  });
});
