import { spawnSync } from 'node:child_process';
import { it } from 'vitest';
import { isCI } from '../../src/io/streams.js';

const known = new Map<string, boolean>();

export function hasTool(name: string): boolean {
  if (!known.has(name)) known.set(name, spawnSync('sh', ['-c', `command -v ${name}`]).status === 0);
  return known.get(name)!;
}

type Test = (name: string, fn: () => unknown, timeout?: number) => void;

/**
 * `it` for a test that needs programs beyond Node (zsh, fish, tmux, script, openssl, jq). Where
 * one is missing on a contributor's machine the test is skipped, its name saying which and
 * why; under CI a missing program fails the test, so CI can never pass by skipping.
 */
export function itWith(...tools: string[]): Test {
  const missing = tools.filter((t) => !hasTool(t));
  if (missing.length === 0) return it as Test;
  const why = `needs ${missing.join(' and ')}, which is not installed (.ci/run installs it)`;
  if (isCI(process.env))
    return (name, _fn, timeout) =>
      it(
        name,
        () => {
          throw new Error(`${why}; under CI it must run, not be skipped`);
        },
        timeout,
      );
  return (name, fn, timeout) => it.skip(`${name} [skipped: ${why}]`, fn, timeout);
}
