/**
 * The model test at length, off in the normal run. Selected by the number of histories per mix:
 *   MIRROR_MODEL_RUNS=2000 npx vitest run test/features/mirror/mirror-model-soak.test.ts
 * (MIRROR_MODEL_SEED fixes the seed.) Every mix is searched and shrunk on its own: the full one
 * finds the plainest fault first and stops there, so each narrower mix (one kind of trouble at a
 * time, one membership a license) reports the counterexample of its own kind.
 */
import fc from 'fast-check';
import { describe, it, vi } from 'vitest';
import { histories, type Mix } from './model-history';
import { runHistory } from './model-run';

// The roster client's connection pool is the model service (model-transport.ts).
vi.mock('../../../src/http/keep-alive-pool', () => import('./model-transport'));

const RUNS = Number(process.env.MIRROR_MODEL_RUNS ?? 0);
const SEED = process.env.MIRROR_MODEL_SEED ? { seed: Number(process.env.MIRROR_MODEL_SEED) } : {};

const ALONE: Partial<Mix> = { shared: false, ahead: false, behind: false, unreadable: false, faults: false };
const MIXES: [string, Partial<Mix>][] = [
  ['everything', {}],
  ['one membership a license', { shared: false }],
  ['entries stamped ahead', { ...ALONE, ahead: true }],
  ['entries committed late (stamped behind)', { ...ALONE, behind: true }],
  ['entries the resource cannot read (gaps)', { ...ALONE, unreadable: true }],
  ['429s and 5xx', { ...ALONE, faults: true }],
  ['changes in the middle of full reads', { ...ALONE, targets: ['members-list', 'assignments-list'] }],
];

describe.skipIf(RUNS === 0)('the roster mirror against a model service, at length', () => {
  it.each(MIXES)(
    '%s',
    async (_name, mix) => {
      await fc.assert(
        fc.asyncProperty(histories(mix), async (history) => {
          const verdict = await runHistory(history);
          if (verdict.violations.length > 0) throw new Error(`wrong join decisions\n${verdict.report()}`);
        }),
        { numRuns: RUNS, ...SEED },
      );
    },
    3_600_000,
  );
});
