import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';

/** Hostile answers from the bundle in the emulator: reads and log lines stay bounded. */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const config = { api: { timeoutMs: 500 }, gate: { timeoutSeconds: 2, onError: 'deny' } };
const members = (harness: Harness) =>
  harness.mock.counters.log.filter((e) => e.endpoint === 'GET /api/v1/members').length;

describe('hostile answers', () => {
  it('a 400 MB answer is read no further than 4 MB, once, and counted as unreadable', async () => {
    // The join is looked up, and its requests counted: the mirror would answer it without asking.
    // Time enough to read 4 MB on a busy machine: a read cut by api.timeoutMs would rightly be tried again.
    const harness = await startHarness({
      config: {
        ...config,
        api: { timeoutMs: 10_000 },
        gate: { ...config.gate, timeoutSeconds: 15 },
        mirror: { enabled: false },
      },
    });
    h = harness;
    await eventually(() => harness.logText().includes('connected to the roster'));
    const member = harness.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const before = members(harness);
    harness.mock.faults.hugeBody();
    const decision = await harness.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] })
      .decision;
    expect(decision.admitted).toBe(false);
    expect(members(harness) - before).toBe(1);
    harness.server.executeCommand('roster status');
    await eventually(() => /more than 4 MB; the resource stopped reading it/.test(harness.logText()));
  });

  it('unreadable records of one answer are one warning with a count', async () => {
    const harness = await startHarness({ config: { ...config, refresh: { intervalSeconds: 0 } } });
    h = harness;
    await eventually(() => harness.logText().includes('connected to the roster'));
    const actives = harness.mock.data.members.filter((m) => m.status === 'ACTIVE').slice(0, 3);
    for (const [i, m] of actives.entries()) {
      const d = await harness.server.connectPlayer({ name: `P${i}`, identifiers: [m.gameLicense] }).decision;
      expect(d.admitted).toBe(true);
    }
    harness.mock.faults.unreadableMembers('missing');
    harness.server.executeCommand('roster refresh all');
    await eventually(() => harness.logText().includes('refreshed online players'));
    const skipped = harness.server.log.lines.filter((l) => /Skipped/.test(l));
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatch(/Skipped 3 member records/);
  });
});
