import { execFileSync } from 'node:child_process';
import { it } from 'vitest';
import { tempDir } from './cli.js';

/** Mounts a small tmpfs at `dir`, when this machine lets the test mount one (root, or a user namespace). */
export function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function unmount(dir: string): void {
  execFileSync('umount', ['-l', dir]);
}

/** Free bytes on the file system holding `dir`. */
export function freeBytes(dir: string): number {
  return Number(execFileSync('df', ['-B1', '--output=avail', dir], { encoding: 'utf8' }).split('\n')[1]);
}

const probe = tempDir();
const canMount = mountTmpfs(probe, '512k');
if (canMount) execFileSync('umount', [probe]);

/** `it`, or a skip that says why where the machine cannot mount a tmpfs. */
export const itWithTmpfs = canMount
  ? it
  : (name: string, fn: () => unknown, timeout?: number) =>
      it.skip(`${name} [skipped: this machine cannot mount a tmpfs]`, fn, timeout);
