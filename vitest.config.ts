import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { __ROSTER_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Most files wait on real sockets and the emulator's 50 ms frames, not on the CPU: on a 2-core
    // machine vitest's default (cores - 1) would run them one at a time.
    maxWorkers: 4,
  },
});
