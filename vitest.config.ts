import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most tests wait on the processes they start (kb, kb serve, tmux): two files at a time
    // keep even a 2-core machine busy without starving either (three made timing tests flaky).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default'],
  },
});
