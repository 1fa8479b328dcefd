import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { api } from '../helpers/server.js';
import { type ServeProcess, startServeProcess } from '../helpers/serve-process.js';
import { freeBytes, itWithTmpfs, mountTmpfs, unmount } from '../helpers/tmpfs.js';

const KEY = 'kb_uploads_test_key_0123456789';
/** A second workspace's: one workspace may hold only half of what may be in flight. */
const OTHER = 'kb_uploads_other_key_012345678';
const keys = { KB_SERVE_API_KEYS: `main:${KEY},other:${OTHER}` };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
}

/**
 * An upload of `size` bytes (declared) of which only `first` is sent: `finish()` sends the rest.
 * `answer` resolves with the service's answer, whenever it comes.
 */
function openUpload(server: ServeProcess, name: string, size: number, first: Buffer, key = KEY) {
  const req = request(`${server.url}/v1/files?filename=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/octet-stream',
      'content-length': String(size),
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, json: JSON.parse(text) }));
    });
    // A service that answers before the body is sent may close the connection under it.
    req.on('error', reject);
  });
  req.write(first);
  return {
    answer,
    abort: () => req.destroy(),
    finish: () => {
      req.end(Buffer.alloc(size - first.length, 'a'));
      return answer;
    },
  };
}

/** POST /v1/files with `body` as the raw bytes. */
async function upload(server: ServeProcess, name: string, body: Buffer) {
  const res = await fetch(`${server.url}/v1/files?filename=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/octet-stream' },
    body,
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}

/** Waits for `check` to hold: what is looked at here (a folder) has no event to wait on. */
async function until<T>(what: string, check: () => T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The file once its indexing is over (as `kb files wait` polls). */
async function settled(server: ServeProcess, id: string) {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
    const file = (await api(server, KEY, 'GET', `/v1/files/${id}`)).json.data;
    if (file.indexingStatus === 'COMPLETED' || file.indexingStatus === 'FAILED') return file;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${id} was not indexed in 20 s`);
}

/** Upload temps in `dir` and how many bytes each holds so far. */
const temps = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.tmp'))
    .map((name) => statSync(join(dir, name)).size);

describe('uploads go to disk as they arrive, with a bound on what is in flight', () => {
  it('with --data, the bytes are on disk before the upload ends, and indexed from there', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const server = await startServeProcess(dir, ['--data', data, '--index-delay', '0'], keys);
    try {
      const first = Buffer.from('The quay crane lifts forty tonnes.\n'.repeat(30_000));
      const open = openUpload(server, 'crane.txt', first.length + 1024 * 1024, first);
      const written = await until('the upload is written as it arrives', () =>
        temps(`${data}.uploads`).find((size) => size >= first.length),
      );
      expect(written).toBeGreaterThanOrEqual(first.length);
      const answer = await open.finish();
      expect(answer.status).toBe(201);
      const id = answer.json.data.id;
      expect(temps(`${data}.uploads`)).toEqual([]);
      expect(statSync(join(`${data}.uploads`, id)).size).toBe(first.length + 1024 * 1024);
      expect(await settled(server, id)).toMatchObject({ indexingStatus: 'COMPLETED' });
    } finally {
      server.child.kill('SIGTERM');
    }
  }, 60_000);

  it('without --data, the bytes go to a folder of its own in the OS temporary folder, gone once indexed and at exit', async () => {
    const dir = tempDir();
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    const server = await startServeProcess(dir, ['--index-delay', '0'], { ...keys, TMPDIR: tmp });
    let exited: Promise<unknown> | undefined;
    try {
      const first = Buffer.from('The dry dock floods in twelve minutes.\n'.repeat(30_000));
      const open = openUpload(server, 'dock.txt', first.length + 1024, first);
      const folder = await until('a folder of uploads in TMPDIR', () =>
        readdirSync(tmp).find((name) => name.startsWith('kb-serve-uploads-')),
      );
      await until('the upload is written as it arrives', () =>
        temps(join(tmp, folder)).find((size) => size >= first.length),
      );
      const answer = await open.finish();
      expect(answer.status).toBe(201);
      const id = answer.json.data.id;
      expect(await settled(server, id)).toMatchObject({ indexingStatus: 'COMPLETED' });
      // Held only until indexed.
      expect(readdirSync(join(tmp, folder))).toEqual([]);
      exited = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGTERM');
      await exited;
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      if (!exited) server.child.kill('SIGTERM');
    }
  }, 60_000);

  it('holds none of them in memory: eight parallel 25 MB uploads waiting to be indexed add far less than their 200 MB', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const server = await startServeProcess(dir, ['--data', data, '--index-delay', '600000'], keys);
    try {
      const rss = async () => (await api(server, undefined, 'GET', '/_kb/health')).json.data.rss as number;
      const before = await rss();
      const body = Buffer.alloc(25 * 1000 * 1000, 'The harbour master signs every manifest. ');
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => upload(server, `manifest-${i}.txt`, body)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
      // Buffered whole and held until indexed, they added ~590 MB; streamed to disk, ~50 MB.
      expect((await rss()) - before).toBeLessThan(150 * 1000 * 1000);
    } finally {
      server.child.kill('SIGKILL');
      await new Promise((r) => server.child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('past four times --max-file-size in flight, answers 503 uploads_busy with Retry-After; the others are taken', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const server = await startServeProcess(
      dir,
      ['--data', data, '--max-file-size', '1MB', '--index-delay', '60000'],
      keys,
    );
    try {
      // --max-file-size 1MB: four of them fill what may be in flight, two from each workspace
      // (one workspace may hold half of it).
      const size = 1024 * 1024;
      const open = [0, 1, 2, 3].map((i) =>
        openUpload(server, `part${i}.txt`, size, Buffer.from('begun '), i % 2 ? OTHER : KEY),
      );
      await until('four uploads under way', () => (temps(`${data}.uploads`).length === 4 ? true : undefined));
      const refused = await upload(server, 'fifth.txt', Buffer.from('one more'));
      expect(refused.status).toBe(503);
      expect(refused.json.error.code).toBe('uploads_busy');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      for (const one of open) expect((await one.finish()).status).toBe(201);
      expect((await upload(server, 'fifth.txt', Buffer.from('one more'))).status).toBe(201);
    } finally {
      server.child.kill('SIGTERM');
    }
  }, 60_000);

  it('a client gone mid-upload leaves no temp, no record, nothing reserved, and no error in the log', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const server = await startServeProcess(dir, ['--data', data, '--max-file-size', '1MB', '--log'], keys);
    try {
      const size = 1024 * 1024;
      const gone = openUpload(server, 'gone.txt', size, Buffer.alloc(64 * 1024, 'g'));
      gone.answer.catch(() => {});
      await until('the upload is under way', () => (temps(`${data}.uploads`).length ? true : undefined));
      gone.abort();
      await until('the request is logged', () =>
        /"path":"\/v1\/files","status":\d+/.test(server.stderr()) ? true : undefined,
      );
      expect(server.stderr()).not.toContain('"level":"error"');
      expect(server.stderr()).toContain('"path":"/v1/files","status":400');
      expect(temps(`${data}.uploads`)).toEqual([]);
      expect((await api(server, KEY, 'GET', '/v1/files')).json.data).toEqual([]);
      // All four uploads' worth is free again (two from each workspace: one may hold half).
      const open = [0, 1, 2, 3].map((i) =>
        openUpload(server, `next${i}.txt`, size, Buffer.from('begun '), i % 2 ? OTHER : KEY),
      );
      for (const one of open) expect((await one.finish()).status).toBe(201);
    } finally {
      server.child.kill('SIGTERM');
    }
  }, 60_000);

  itWithTmpfs(
    'on a full disk, an upload answers 503 storage_unavailable with Retry-After, leaves nothing behind, and works once there is room',
    async () => {
      const dir = tempDir();
      const disk = join(dir, 'disk');
      mkdirSync(disk);
      expect(mountTmpfs(disk, '512k')).toBe(true);
      try {
        const data = join(disk, 'state.db');
        const server = await startServeProcess(dir, ['--data', data], keys);
        try {
          const refused = await upload(server, 'big.txt', Buffer.alloc(freeBytes(disk) + 64 * 1024, 'b'));
          expect(refused.status).toBe(503);
          expect(refused.json.error.code).toBe('storage_unavailable');
          expect(refused.headers.get('retry-after')).toBe('5');
          expect(readdirSync(`${data}.uploads`)).toEqual([]);
          expect((await api(server, KEY, 'GET', '/v1/files')).json.data).toEqual([]);
          const taken = await upload(server, 'small.txt', Buffer.from('The tug leaves at dawn.'));
          expect(taken.status).toBe(201);
        } finally {
          server.child.kill('SIGTERM');
          await new Promise((r) => server.child.once('exit', r));
        }
      } finally {
        unmount(disk);
      }
    },
    60_000,
  );
});

describe('what a kill -9 leaves behind', () => {
  it('is swept at the next start: only our own temp names, only regular files, no link followed', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const server = await startServeProcess(dir, ['--data', data], keys);
    expect(
      (await upload(server, 'kept.txt', Buffer.from('The pilot boards at the fairway buoy.'))).status,
    ).toBe(201);
    server.child.kill('SIGKILL');
    await new Promise((r) => server.child.once('exit', r));

    // What a kill mid-write left: an earlier kb's journal compaction, index and vectors temps; an upload's.
    const ours = [
      join(dir, `.state.db.${randomUUID()}.tmp`),
      join(dir, `.state.db.index.${randomUUID()}.tmp`),
      join(dir, `.state.db.vectors.${randomUUID()}.tmp`),
      join(`${data}.uploads`, `.file_${'a'.repeat(24)}.${randomUUID()}.tmp`),
    ];
    for (const path of ours) writeFileSync(path, Buffer.alloc(64 * 1024));
    // Not ours, or not a file: left alone.
    const outside = join(tempDir(), 'precious.txt');
    writeFileSync(outside, 'keep me');
    const others = [
      join(dir, `.other.db.index.${randomUUID()}.tmp`),
      join(dir, 'notes.tmp'),
      join(dir, `.state.db.index.${randomUUID()}.tmp.bak`),
      join(`${data}.uploads`, 'notes.tmp'),
    ];
    for (const path of others) writeFileSync(path, 'not ours');
    const link = join(dir, `.state.db.index.${randomUUID()}.tmp`);
    symlinkSync(outside, link);
    const folder = join(dir, `.state.db.index.${randomUUID()}.tmp`);
    mkdirSync(folder);

    const again = await startServeProcess(dir, ['--data', data], keys);
    try {
      for (const path of ours) expect(existsSync(path), path).toBe(false);
      for (const path of others) expect(existsSync(path), path).toBe(true);
      expect(readFileSync(outside, 'utf8')).toBe('keep me');
      expect(existsSync(folder)).toBe(true);
      expect(
        (await api(again, KEY, 'GET', '/v1/files')).json.data.map((f: any) => f.originalFilename),
      ).toEqual(['kept.txt']);
    } finally {
      again.child.kill('SIGTERM');
    }
  }, 60_000);
});
