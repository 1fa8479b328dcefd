import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runKb, tempDir } from '../helpers/cli.js';
import { cacheEntries, NODE_CACHE, nodeEntryFor, poisonedEntry } from '../helpers/compile-cache.js';

const ATTACKER = 'kbcacheattacker';

/** The uid and gid of a second user, made for the test when this process may (root with useradd). */
function secondUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  if (
    spawnSync('id', ['-u', ATTACKER]).status !== 0 &&
    spawnSync('useradd', ['--system', '--no-create-home', ATTACKER]).status !== 0
  )
    return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, ATTACKER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

const attacker = secondUser();
const itAsTwoUsers = attacker
  ? it
  : (name: string, fn: () => unknown, timeout?: number) =>
      it.skip(`${name} [skipped: needs root and useradd to act as a second user]`, fn, timeout);

/**
 * A node the other user can run: this one may live where only root can reach it (CI's cached
 * Node 22 and 24 are under /root); then a copy in a directory anyone can enter.
 */
function nodeFor(uid: number): string {
  const canRun = spawnSync(process.execPath, ['-e', '0'], { uid, stdio: 'ignore' }).status === 0;
  if (canRun) return process.execPath;
  const dir = tempDir();
  chmodSync(dir, 0o755);
  const copy = join(dir, 'node');
  copyFileSync(process.execPath, copy);
  chmodSync(copy, 0o755);
  return copy;
}

/**
 * Where a poisoned entry for `chunk` goes inside kb's cache directory (relative to it), and what
 * it holds: kb's own format on Node 20; on Node 22, Node's, at the file Node itself uses for
 * the chunk (learnt from a private cache made for the purpose).
 */
async function poisonFor(chunk: string, marker: string): Promise<{ path: string; entry: Buffer }> {
  if (!NODE_CACHE) return { path: `${basename(chunk)}.bin`, entry: poisonedEntry(chunk, marker) };
  const xdg = tempDir();
  await runKb(['--help'], { env: { XDG_CACHE_HOME: xdg } });
  const { dir } = cacheEntries(xdg);
  const file = nodeEntryFor(dir, chunk)!;
  return { path: relative(dir, file), entry: poisonedEntry(chunk, marker, readFileSync(file)) };
}

describe('the compile cache in a directory someone else controls', () => {
  itAsTwoUsers(
    'never runs code another user planted, even swapped in and out while kb starts',
    async () => {
      const { uid, gid } = attacker!;
      const shared = tempDir();
      chmodSync(shared, 0o1777);
      const marker = join(tempDir(), 'pwned');
      const chunks = join(ROOT, 'dist', 'cli', 'chunks');
      const core = readdirSync(chunks).find((f) => /^core-.*\.cjs$/.test(f))!;
      const { path: entryPath, entry } = await poisonFor(join(chunks, core), marker);
      const poisonFile = join(tempDir(), 'poison.bin');
      writeFileSync(poisonFile, entry);
      chmodSync(poisonFile, 0o644);
      chmodSync(join(poisonFile, '..'), 0o755);

      // The attacker owns kb/compile-cache and swaps a poisoned version directory in and out.
      const versionDir = `${process.version}-${process.arch}`;
      const script = `
        const fs = require('fs'), path = require('path');
        const root = path.join(${JSON.stringify(shared)}, 'kb', 'compile-cache');
        fs.mkdirSync(root, { recursive: true, mode: 0o755 });
        const poisoned = path.join(root, 'poisoned');
        const planted = path.join(poisoned, ${JSON.stringify(entryPath)});
        fs.mkdirSync(path.dirname(planted), { recursive: true, mode: 0o755 });
        fs.writeFileSync(planted, fs.readFileSync(${JSON.stringify(poisonFile)}), { mode: 0o644 });
        const live = path.join(root, ${JSON.stringify(versionDir)});
        // Missing half of the time (a missing directory looked private), poisoned the other half.
        let on = false;
        setInterval(() => {
          try { on ? fs.renameSync(live, poisoned) : fs.renameSync(poisoned, live); } catch {}
          on = !on;
        }, 3);
        process.stdout.write('ready\\n');
      `;
      const swapper = spawn(nodeFor(uid), ['-e', script], { uid, gid, stdio: ['ignore', 'pipe', 'inherit'] });
      try {
        await new Promise<void>((resolve, reject) => {
          swapper.stdout.once('data', () => resolve());
          swapper.once('error', reject);
        });
        for (let run = 0; run < 20; run++) {
          const res = await runKb(['--help'], { env: { XDG_CACHE_HOME: shared } });
          expect(res.code).toBe(0);
        }
        expect(existsSync(marker)).toBe(false);
        swapper.kill();
        await new Promise((r) => swapper.once('exit', r));
        // Nor did kb write its own entries into a directory it does not own.
        const root = join(shared, 'kb', 'compile-cache');
        for (const dir of readdirSync(root))
          for (const name of readdirSync(join(root, dir), { recursive: true }) as string[])
            expect(entryPath.startsWith(name)).toBe(true);
      } finally {
        swapper.kill();
      }
    },
    60_000,
  );

  itAsTwoUsers('makes no directory inside a kb/ cache folder that belongs to another user', async () => {
    const { uid, gid } = attacker!;
    const xdg = tempDir();
    chmodSync(xdg, 0o755);
    const theirs = join(xdg, 'kb');
    mkdirSync(theirs, { mode: 0o755 });
    execFileSync('chown', [`${uid}:${gid}`, theirs]);
    const res = await runKb(['config', 'list'], { env: { XDG_CACHE_HOME: xdg } });
    expect(res.code).toBe(0);
    expect(readdirSync(theirs)).toEqual([]);
  });

  it('is used from a private directory (the poisoned entry proves what an untrusted one would do)', async () => {
    // The same poisoned entry, planted by this user in its own private cache, does run: V8
    // checks nothing more, nor do Node's hashes stop it (anyone can compute them), which is
    // why only a directory kb trusts is ever read.
    const xdg = tempDir();
    const marker = join(tempDir(), 'ran');
    const chunks = join(ROOT, 'dist', 'cli', 'chunks');
    const core = readdirSync(chunks).find((f) => /^core-.*\.cjs$/.test(f))!;
    const dir = join(xdg, 'kb', 'compile-cache', `${process.version}-${process.arch}`);
    const { path, entry } = await poisonFor(join(chunks, core), marker);
    mkdirSync(dirname(join(dir, path)), { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, path), entry, { mode: 0o600 });
    await runKb(['--help'], { env: { XDG_CACHE_HOME: xdg } });
    expect(existsSync(marker)).toBe(true);
  });
});
