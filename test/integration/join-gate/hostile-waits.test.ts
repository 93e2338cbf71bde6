import { afterEach, describe, expect, it } from 'vitest';
import { eventually, framesIn, type Harness, inFrames, startHarness } from '../harness';

/**
 * A service that asks for an endless wait (`Retry-After: 99999999`): the exports and `roster doctor`
 * still answer within `gate.timeoutSeconds`, and the wait itself ends at `rateLimit.maxWaitSeconds`.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

// The mirror off: these joins and lookups must meet the service's wait. With it on, its first read
// finishes before the wait begins or not depending on how fast the machine runs the steps before
// it, and a complete mirror answers from memory (the member then found, the join admitted).
const config = { api: { timeoutMs: 500 }, gate: { timeoutSeconds: 2 }, mirror: { enabled: false } };

describe('a service that asks for an endless wait', () => {
  it('lookupLicense, refreshPlayer and roster doctor still answer within gate.timeoutSeconds', async () => {
    const harness = await startHarness({ config });
    h = harness;
    await eventually(() => harness.logText().includes('connected to the roster'));
    const [online, unseen] = harness.mock.data.members.filter((m) => m.status === 'ACTIVE');
    const joined = await harness.server.connectPlayer({ name: 'A', identifiers: [online!.gameLicense] })
      .decision;
    if (!joined.admitted) throw new Error('refused');
    const exports = harness.caller.exports.roster!;
    await eventually(() => exports.getMember!(joined.id) !== null);

    harness.mock.faults.rateLimit(Number.POSITIVE_INFINITY, { retryAfter: 99_999_999 });
    // The first 429 sets the endless pause; every call after it meets the pause.
    // Timed in server frames (20 a second): gate.timeoutSeconds is 2, so 40 frames and one to act.
    const { server } = harness;
    await inFrames(server, exports.lookupLicense!(unseen!.gameLicense) as Promise<unknown>);
    const lookup = await inFrames(server, exports.lookupLicense!(unseen!.gameLicense) as Promise<unknown>);
    expect(lookup.frames).toBeLessThanOrEqual(framesIn(2) + 1);
    expect(lookup.value).toBeNull();
    const refresh = await inFrames(
      server,
      exports.refreshPlayer!(joined.id) as Promise<{ id: string } | null>,
    );
    expect(refresh.frames).toBeLessThanOrEqual(framesIn(2) + 1);
    expect(refresh.value?.id).toBe(online!.id);

    const before = server.log.lines.length;
    const doctorAsked = server.frames;
    server.executeCommand('roster doctor');
    const doctor = await eventually(() => {
      const text = server.log.lines.slice(before).join('\n');
      return /Nothing else can be checked|departments/.test(text) ? text : undefined;
    }, 20_000);
    expect(doctor).toMatch(/✗ key: .*did not answer within 2 s/);
    expect(server.frames - doctorAsked).toBeLessThanOrEqual(framesIn(2) + 1);
  }, 30_000);

  it('the wait ends at rateLimit.maxWaitSeconds: joins are decided from the roster again by themselves', async () => {
    const harness = await startHarness({ config: { ...config, rateLimit: { maxWaitSeconds: 3 } } });
    h = harness;
    await eventually(() => harness.logText().includes('connected to the roster'));
    const [first, second] = harness.mock.data.members.filter((m) => m.status === 'ACTIVE');
    harness.mock.faults.rateLimit(Number.POSITIVE_INFINITY, { retryAfter: 99_999_999 });
    const refused = await harness.server.connectPlayer({ name: 'A', identifiers: [first!.gameLicense] })
      .decision;
    expect(refused.admitted).toBe(false);
    expect(harness.logText()).toMatch(/every request waits 3 s/);
    harness.mock.faults.clear();
    await new Promise((resolve) => setTimeout(resolve, 3200));
    const admitted = await harness.server.connectPlayer({ name: 'B', identifiers: [second!.gameLicense] })
      .decision;
    expect(admitted.admitted).toBe(true);
    expect(harness.logText()).toMatch(/B admitted \(roster\)/);
  }, 30_000);
});
