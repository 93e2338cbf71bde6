import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FrameworkPort } from '../../../src/features/jobs/framework-port';
import type { JobMapping } from '../../../src/features/jobs/job-mapping';
import type { HeldJobs, JobOp } from '../../../src/features/jobs/job-plan';
import { JobSync } from '../../../src/features/jobs/job-sync';
import { systemClock } from '../../../src/platform/ports';
import type { Member } from '../../../src/roster/model';

const mapping: JobMapping = {
  departments: [
    {
      departmentId: 'd1',
      department: 'LSPD',
      job: 'police',
      ranks: [{ rankId: 'r1', rank: 'Sergeant', position: 1, grade: 2, source: 'listed' }],
      lowest: 0,
    },
  ],
  rows: [],
  managed: new Set(['police']),
  unassignedOk: true,
  unassignedProblem: null,
};
const member = (id: string): Member => ({
  id,
  name: id,
  status: 'ACTIVE',
  license: `license:${id}`,
  departments: [
    {
      id: 'd1',
      name: 'Police',
      shortName: 'LSPD',
      primary: true,
      callsign: null,
      rank: { id: 'r1', name: 'Sergeant', position: 1 },
    },
  ],
});

/** A framework whose player '1' hangs or fails and whose others answer. */
function port(broken: 'hang' | 'throw'): FrameworkPort & { writes: string[] } {
  const jobs = new Map<string, HeldJobs>();
  const writes: string[] = [];
  return {
    name: 'qbx',
    resource: 'fake',
    style: 'single',
    removesJob: false,
    writes,
    jobs: async () => new Map(),
    async held(src) {
      if (src === '1')
        return broken === 'hang' ? new Promise<never>(() => {}) : Promise.reject(new Error('boom'));
      return jobs.get(src) ?? { primary: { job: 'unemployed', grade: 0 }, jobs: new Map(), duty: null };
    },
    async apply(src, op: JobOp) {
      writes.push(`${src}:${op.job}`);
      if (op.kind === 'set')
        jobs.set(src, {
          primary: { job: op.job, grade: op.grade },
          jobs: new Map([[op.job, op.grade]]),
          duty: null,
        });
    },
    async save() {},
  };
}

describe('JobSync', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each(['hang', 'throw'] as const)(
    'a framework that %s for one player is bounded and never holds up another',
    async (broken) => {
      const warnings: string[] = [];
      const fake = port(broken);
      const sync = new JobSync({
        memberOf: (src) => member(src),
        nameOf: (src) => `P${src}`,
        admits: () => true,
        unassigned: { job: 'unemployed', grade: 0 },
        clock: systemClock,
        logger: { error() {}, warn: (m) => warnings.push(m), info() {}, debug() {} },
        callMs: 3000,
        jobChanged() {},
      });
      sync.use(fake, mapping, []);
      sync.apply('1');
      sync.apply('2');
      await vi.advanceTimersByTimeAsync(10);
      expect(fake.writes).toEqual(['2:police']);
      await vi.advanceTimersByTimeAsync(3000);
      expect(warnings).toEqual([
        expect.stringMatching(
          /^Job sync for P1 \(1\): (fake reading the character did not answer within 3 s\.|boom)$/,
        ),
      ]);
      // The player's next change gets a fresh pass.
      sync.apply('1');
      await vi.advanceTimersByTimeAsync(3001);
      expect(warnings).toHaveLength(2);
    },
  );

  it('nothing is written while there is no validated mapping', async () => {
    const fake = port('throw');
    const sync = new JobSync({
      memberOf: (src) => member(src),
      nameOf: String,
      admits: () => true,
      unassigned: { job: 'unemployed', grade: 0 },
      clock: systemClock,
      logger: { error() {}, warn() {}, info() {}, debug() {} },
      callMs: 3000,
      jobChanged() {},
    });
    sync.use(fake, null, ['2']);
    sync.apply('2');
    await vi.advanceTimersByTimeAsync(10);
    expect(fake.writes).toEqual([]);
    expect(sync.jobOf('2')).toBeNull();
    sync.use(fake, mapping, ['2']);
    await vi.advanceTimersByTimeAsync(10);
    expect(fake.writes).toEqual(['2:police']);
    expect(sync.jobOf('2')).toEqual({ job: 'police', grade: 2 });
  });
  it('a character unloaded and another loaded while a pass runs: one pass at a time, one write', async () => {
    const fake = port('throw');
    let inFlight = 0;
    let most = 0;
    const held = fake.held.bind(fake);
    // Reading the character takes a moment, as a framework answering with a Promise does.
    fake.held = async (src) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 100));
      inFlight--;
      return held(src);
    };
    const sync = new JobSync({
      memberOf: (src) => member(src),
      nameOf: String,
      admits: () => true,
      unassigned: { job: 'unemployed', grade: 0 },
      clock: systemClock,
      logger: { error() {}, warn() {}, info() {}, debug() {} },
      callMs: 3000,
      jobChanged() {},
    });
    sync.use(fake, mapping, []);
    sync.apply('2');
    await vi.advanceTimersByTimeAsync(10);
    sync.forget('2'); // the character logs out mid-pass…
    sync.apply('2'); // …and the next one loads
    await vi.advanceTimersByTimeAsync(1000);
    expect(most).toBe(1);
    expect(fake.writes).toEqual(['2:police']);
  });
});
