import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that talk to a real MariaDB: they run in a project of their own whose global setup
 * starts one server for all of them (test/share-db/global-setup.ts), so a run without them
 * starts none and needs no database installed. They run after the others: the servers some of
 * them start cost CPU that the tests judging time in frames should not share. Sharing's
 * integration tests, which mostly wait out leases, are split in three files so they run together.
 */
const DATABASE_TESTS = ['test/share-db/**/*.test.ts', 'test/**/*.db.test.ts'];

export default defineConfig({
  define: { __ROSTER_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Most files wait on real sockets and the emulator's 50 ms frames, not on the CPU: on a 2-core
    // machine vitest's default (cores - 1) would run them one at a time.
    maxWorkers: 4,
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
