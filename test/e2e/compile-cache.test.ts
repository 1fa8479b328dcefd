import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKb, runKbTraced, tempDir } from '../helpers/cli.js';
import { cacheEntries as entries, NODE_CACHE } from '../helpers/compile-cache.js';
import { demoServerForFile } from '../helpers/server.js';

const demo = demoServerForFile();

describe('the compile cache', () => {
  it('is written on the first run, private, and used unchanged by the next', async () => {
    const xdg = tempDir();
    const uncached = await runKb(['--help'], {
      env: { NODE_DISABLE_COMPILE_CACHE: '1', XDG_CACHE_HOME: xdg },
    });
    expect(readdirSync(xdg)).toEqual([]);

    const first = await runKb(['--help'], { env: { XDG_CACHE_HOME: xdg } });
    expect(first).toMatchObject({ code: 0, stdout: uncached.stdout, stderr: '' });
    const { dir, files } = entries(xdg);
    expect(dir).toMatch(new RegExp(`${process.version}-${process.arch}$`));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // Node's own cache (Node 22) names entries by hashes, kb's (Node 20) by chunk.
    if (NODE_CACHE) expect(files.size).toBeGreaterThan(2);
    else expect([...files.keys()].some((name) => /^core-.*\.cjs\.bin$/.test(name))).toBe(true);
    for (const name of files.keys()) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);

    const second = await runKb(['--help'], { env: { XDG_CACHE_HOME: xdg } });
    expect(second).toMatchObject({ code: 0, stdout: uncached.stdout, stderr: '' });
    // Accepted entries are not written again.
    expect(entries(xdg).files).toEqual(files);
  });

  it('keeps entries that hold for code compiled before and after a request sets a V8 flag', async () => {
    const xdg = tempDir();
    const run = (args: string[]) => runKb(args, { env: { ...demo.env, XDG_CACHE_HOME: xdg } });
    const ids = (await run(['threads', 'list', '--ids'])).stdout.trim().split('\n');
    expect(ids.length).toBeGreaterThan(1);
    // threads get loads the transcript renderer after the request has started.
    const view = await run(['threads', 'get', ids[0]!]);
    expect(view.code).toBe(0);
    const { files } = entries(xdg);
    if (!NODE_CACHE) {
      // kb's own keeps one entry per set of flags (Node 20's V8 rejects an entry made under others).
      const names = [...files.keys()];
      expect(names.some((name) => name.startsWith('http-') && name.endsWith('.cjs.bin'))).toBe(true);
      expect(names.some((name) => name.endsWith('.cjs.liftoff-only.bin'))).toBe(true);
    }

    const again = await run(['threads', 'get', ids[0]!]);
    expect(again).toMatchObject({ code: 0, stdout: view.stdout, stderr: '' });
    expect(entries(xdg).files).toEqual(files);
  });

  it('covers every chunk a command loads, but the one the cache itself needs first', async () => {
    const xdg = tempDir();
    const res = await runKbTraced(['threads', 'list'], { env: { ...demo.env, XDG_CACHE_HOME: xdg } });
    expect(res.code).toBe(0);
    const chunks = new Set(
      res.modules
        .filter((line) => line.includes('/dist/cli/chunks/'))
        .map((line) => line.replace(/.*\//, '')),
    );
    if (NODE_CACHE) {
      // Node says what it did with each module's entry; the second run takes every chunk's.
      const again = await runKb(['threads', 'list'], {
        env: { ...demo.env, XDG_CACHE_HOME: xdg, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
      });
      const accepted = new Set([...again.stderr.matchAll(/\/chunks\/(\S+) was accepted/g)].map((m) => m[1]));
      expect(chunks.size).toBeGreaterThan(3);
      expect([...chunks].filter((chunk) => !accepted.has(chunk))).toEqual([
        expect.stringMatching(/^v8-flags-.*\.cjs$/),
      ]);
      return;
    }
    const cached = new Set([...entries(xdg).files.keys()].map((name) => name.replace(/\.cjs\..*$/, '.cjs')));
    expect(chunks.size).toBeGreaterThan(3);
    expect([...chunks].filter((chunk) => !cached.has(chunk))).toEqual([
      expect.stringMatching(/^v8-flags-.*\.cjs$/),
    ]);
  });

  it('loads packages on demand from cached code', async () => {
    const xdg = tempDir();
    const configDir = tempDir();
    for (const value of ['json', 'table']) {
      // config set loads conf, an ES module, with import() from a cached chunk.
      const set = await runKb(['config', 'set', 'format', value], {
        configDir,
        env: { XDG_CACHE_HOME: xdg },
      });
      expect(set).toMatchObject({ code: 0, stderr: '' });
    }
    const get = await runKb(['config', 'get', 'format'], { configDir, env: { XDG_CACHE_HOME: xdg } });
    expect(get.stdout).toBe('table\n');
  });

  it('replaces a damaged entry, drops month-old entries of other versions, and never fails a command', async () => {
    const xdg = tempDir();
    const expected = (await runKb(['config', 'list', '--json'], { env: { XDG_CACHE_HOME: xdg } })).stdout;
    const { dir, files } = entries(xdg);
    if (NODE_CACHE) await damageNodeEntries(xdg, dir, files, expected);
    else await damageKbEntries(xdg, dir, files, expected);

    // A cache directory that cannot be made costs speed only.
    const file = join(tempDir(), 'not-a-directory');
    writeFileSync(file, '');
    const unwritable = await runKb(['config', 'list', '--json'], { env: { XDG_CACHE_HOME: file } });
    expect(unwritable).toMatchObject({ code: 0, stdout: expected, stderr: '' });
  });
});

describe('a compile cache others could write to', () => {
  it('is neither read nor written', async () => {
    const xdg = tempDir();
    const expected = (await runKb(['--help'], { env: { XDG_CACHE_HOME: xdg } })).stdout;
    const { dir, files } = entries(xdg);
    // Anyone could have planted code here: kb must not load it.
    const core = [...files.keys()].find((name) => NODE_CACHE || name.startsWith('core-'))!;
    writeFileSync(join(dir, core), 'planted');
    chmodSync(dir, 0o777);
    const res = await runKb(['--help'], { env: { XDG_CACHE_HOME: xdg } });
    expect(res).toMatchObject({ code: 0, stdout: expected, stderr: '' });
    expect(readFileSync(join(dir, core), 'utf8')).toBe('planted');
    expect(statSync(dir).mode & 0o777).toBe(0o777);

    // A missing directory is made private.
    const fresh = join(tempDir(), 'cache');
    mkdirSync(fresh);
    await runKb(['--help'], { env: { XDG_CACHE_HOME: fresh } });
    expect(statSync(entries(fresh).dir).mode & 0o777).toBe(0o700);
  });
});

/** Node's own cache checks each entry's hash (other versions' entries are in directories of their own). */
async function damageNodeEntries(xdg: string, dir: string, files: Map<string, number>, expected: string) {
  const damaged = new Map<string, Buffer>();
  for (const name of files.keys()) {
    const bytes = readFileSync(join(dir, name));
    for (let i = 64; i < bytes.length; i += 97) bytes[i]! ^= 0x5a;
    writeFileSync(join(dir, name), bytes);
    damaged.set(name, bytes);
  }
  const res = await runKb(['config', 'list', '--json'], { env: { XDG_CACHE_HOME: xdg } });
  expect(res).toMatchObject({ code: 0, stdout: expected, stderr: '' });
  for (const [name, bytes] of damaged) expect(readFileSync(join(dir, name)).equals(bytes)).toBe(false);
}

/** kb's own checks each entry's CRC-32, and drops other versions' entries once a month old. */
async function damageKbEntries(xdg: string, dir: string, files: Map<string, number>, expected: string) {
  const core = [...files.keys()].find((name) => name.startsWith('core-'))!;
  const runtime = [...files.keys()].find((name) => name.startsWith('runtime-'))!;
  const good = readFileSync(join(dir, runtime));
  // Damage of the same size: V8 would run it (and crash) if kb did not check it.
  const damaged = Buffer.from(good);
  for (let i = 64; i < damaged.length; i += 97) damaged[i]! ^= 0x5a;
  writeFileSync(join(dir, runtime), damaged);
  writeFileSync(join(dir, core), 'not a code cache');
  writeFileSync(join(dir, 'core-0ld0ld0l.cjs.bin'), 'from an older kb');
  writeFileSync(join(dir, 'core-1ate1ate.cjs.bin'), 'from another kb, made lately');
  const twoMonthsAgo = new Date(Date.now() - 60 * 24 * 3600 * 1000);
  utimesSync(join(dir, 'core-0ld0ld0l.cjs.bin'), twoMonthsAgo, twoMonthsAgo);

  const res = await runKb(['config', 'list', '--json'], { env: { XDG_CACHE_HOME: xdg } });
  expect(res).toMatchObject({ code: 0, stdout: expected, stderr: '' });
  const after = entries(xdg).files;
  expect(readFileSync(join(dir, core)).toString()).not.toBe('not a code cache');
  expect(readFileSync(join(dir, runtime)).equals(damaged)).toBe(false);
  expect(after.has('core-0ld0ld0l.cjs.bin')).toBe(false);
  expect(after.has('core-1ate1ate.cjs.bin')).toBe(true);
}
