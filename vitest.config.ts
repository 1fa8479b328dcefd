import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most tests wait on the processes they start (kb, kb serve, tmux): three files at a time
    // keep a 2-core machine busy (npm test: 102 s with two, 85 s with three, all green).
    maxWorkers: Math.max(3, availableParallelism()),
    reporters: ['default'],
  },
});
