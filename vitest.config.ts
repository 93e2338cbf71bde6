import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files that talk to a real MariaDB: they run in a project of their own whose global setup
 * starts one server for all of them (test/share-db/global-setup.ts), so a run without them
 * starts none and needs no database installed. They run after the others: the servers some of
 * them start cost CPU that the tests judging time in frames should not share. Sharing's
 * integration tests, which mostly wait out leases, are split in four files so they run together.
 */
const DATABASE_TESTS = ['test/share-db/**/*.test.ts', 'test/**/*.db.test.ts'];

/**
 * The files that take longest, most of it waiting (leases, intervals, timeouts), in each project:
 * started first, so none starts late and ends after the rest. Vitest orders by the durations of
 * the last run, which a clean clone has none of (it then runs larger files first).
 */
const SLOW_FIRST = [
  'test/integration/audit/audit-feed.test.ts',
  'test/integration/fault-matrix/fault-matrix.test.ts',
  'test/integration/duty/duty-changes.test.ts',
  'test/integration/ranks/rank.test.ts',
  'test/integration/mirror/mirror-restart.test.ts',
  'test/integration/jobs/jobs-rules.test.ts',
  'test/integration/share/sharing-failover.db.test.ts',
  'test/integration/share/sharing-takeover.db.test.ts',
  'test/integration/share/sharing.db.test.ts',
  'test/integration/share/sharing-database.db.test.ts',
  'test/share-db/mariadb-server.test.ts',
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const order = new Map((await super.sort(files)).map((file, index) => [file, index]));
    const rank = (file: TestSpecification) => {
      const slow = SLOW_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return slow === -1 ? SLOW_FIRST.length : slow;
    };
    const group = (file: TestSpecification) => file.project.config.sequence.groupOrder;
    return [...files].sort(
      (a, b) => group(a) - group(b) || rank(a) - rank(b) || (order.get(a) ?? 0) - (order.get(b) ?? 0),
    );
  }
}

export default defineConfig({
  define: { __ROSTER_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Most files wait on real sockets and the emulator's 50 ms frames, not on the CPU: on a 2-core
    // machine vitest's default (cores - 1) would run them one at a time. Four used about one core.
    maxWorkers: 5,
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'roster',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...DATABASE_TESTS],
        },
      },
      {
        extends: true,
        test: {
          name: 'mariadb',
          include: DATABASE_TESTS,
          sequence: { groupOrder: 1 },
          globalSetup: ['test/share-db/global-setup.ts'],
        },
      },
    ],
  },
});
