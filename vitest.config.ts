import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-temp.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits on processes the tests start; its default of 1 s failed CI under load
    // (a kb eval child still starting on Node 24 while two other files ran).
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // Most tests wait on the processes they start (kb, kb serve, tmux), leaving a 2-core machine
    // ~40% idle with two files at a time: three take npm test from 95-103 s to 77-81 s there.
    maxWorkers: Math.max(3, availableParallelism()),
    reporters: ['default'],
  },
});
