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
import { Module } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ROOT, runKb, tempDir } from '../helpers/cli.js';

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
 * A V8 cache entry, in kb's format (CRC-32, then V8's data), for a chunk whose code was
 * swapped: same length (all V8 checks), but it writes `marker` when run by kb.
 */
function poisonedEntry(chunk: string, marker: string): Buffer {
  const source = readFileSync(chunk, 'utf8');
  const evil = `if (process.env.KB_TRACE_FILE !== 'compiling') require('fs').writeFileSync(${JSON.stringify(marker)}, 'pwned');`;
  const padded = `${evil}/*${' '.repeat(source.length - evil.length - 4)}*/`;
  expect(padded.length).toBe(source.length);
  const script = new Script(Module.wrap(padded), { filename: chunk });
  // Run once (without writing the marker) so the function body is compiled into the cache.
  const saved = process.env.KB_TRACE_FILE;
  process.env.KB_TRACE_FILE = 'compiling';
  (script.runInThisContext() as () => void)();
  process.env.KB_TRACE_FILE = saved;
  const data = script.createCachedData();
  const header = Buffer.alloc(4);
  header.writeUInt32LE(crc32(data));
  return Buffer.concat([header, data]);
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
      const entry = poisonedEntry(join(chunks, core), marker);
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
        fs.mkdirSync(poisoned, { mode: 0o755 });
        fs.writeFileSync(path.join(poisoned, ${JSON.stringify(`${core}.bin`)}), fs.readFileSync(${JSON.stringify(poisonFile)}), { mode: 0o644 });
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
          for (const name of readdirSync(join(root, dir))) expect(name).toBe(`${core}.bin`);
      } finally {
        swapper.kill();
      }
    },
    60_000,
  );

  it('is used from a private directory (the poisoned entry proves what an untrusted one would do)', async () => {
    // The same poisoned entry, planted by this user in its own private cache, does run: V8
    // checks nothing more, which is why only a directory kb trusts is ever read.
    const xdg = tempDir();
    const marker = join(tempDir(), 'ran');
    const chunks = join(ROOT, 'dist', 'cli', 'chunks');
    const core = readdirSync(chunks).find((f) => /^core-.*\.cjs$/.test(f))!;
    const dir = join(xdg, 'kb', 'compile-cache', `${process.version}-${process.arch}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, `${core}.bin`), poisonedEntry(join(chunks, core), marker), { mode: 0o600 });
    await runKb(['--help'], { env: { XDG_CACHE_HOME: xdg } });
    expect(existsSync(marker)).toBe(true);
  });
});
