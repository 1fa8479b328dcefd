import { createHash } from 'node:crypto';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { Extractor } from '../../src/server/ingest/extraction/extractor.js';
import { indexedText } from '../../src/server/search/fts-terms.js';
import { tempDir } from '../helpers/cli.js';
import { makePdf } from '../helpers/documents.js';

/**
 * A stand-in worker: `hang.txt` never finishes, `hold.txt` (shared bytes) waits until the test
 * sets its first word, `boom.txt` allocates until the heap limit ends the worker, `exit.txt`
 * exits (`readexit.txt` after saying it read 3 bytes), `scan.txt` says it starts a page every 0.7 s, 5 pages, `ahead.txt` answers how many
 * documents the worker had been sent once it had 6 (or 3 s passed); anything else answers with its text.
 */
function plantedWorker(startMs = 0): string {
  const path = join(tempDir(), 'worker.mjs');
  writeFileSync(
    path,
    `import { parentPort } from 'node:worker_threads';
     // A slow start (a loaded machine, a large module graph) before it listens.
     const until = Date.now() + ${startMs}; while (Date.now() < until);
     setImmediate(() => parentPort.postMessage({ ready: true }));
     let queue = Promise.resolve();
     let received = 0;
     parentPort.on('message', (job) => { received++; queue = queue.then(async () => {
       if (job.filename === 'ahead.txt') {
         // Ends once the worker has the five documents sent after it, or after 3 s.
         const until = Date.now() + 3000;
         while (received < 6 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
         parentPort.postMessage({ id: job.id, chunks: [{ text: 'had ' + received }] }); parentPort.postMessage({ id: job.id, end: true });
         return;
       }
       if (job.filename === 'hang.txt') await new Promise(() => {});
       if (job.filename === 'hold.txt') Atomics.wait(new Int32Array(job.bytes, job.offset, 1), 0, 0);
       if (job.filename === 'boom.txt') { const keep = []; for (;;) keep.push(new Array(1e6).fill(keep.length)); }
       if (job.filename === 'exit.txt') process.exit(3);
       if (job.filename === 'readexit.txt') { parentPort.postMessage({ id: job.id, read: { size: 3, sha256: 'abc' } }); await new Promise((resolve) => setTimeout(resolve, 50)); process.exit(3); }
       if (job.filename === 'scan.txt')
         for (let page = 1; page <= 5; page++) {
           parentPort.postMessage({ id: job.id, page, pages: 5 });
           await new Promise((resolve) => setTimeout(resolve, 700));
         }
       parentPort.postMessage({ id: job.id, chunks: [{ text: Buffer.from(job.bytes).toString() }] }); parentPort.postMessage({ id: job.id, end: true });
     }); });`,
  );
  return path;
}

/** A document in shared memory that the planted worker's `hold.txt` waits on (its first four bytes). */
const holds: Int32Array[] = [];
function held(size = 4): Uint8Array {
  const bytes = new Uint8Array(new SharedArrayBuffer(size));
  holds.push(new Int32Array(bytes.buffer));
  return bytes;
}
function release(bytes: Uint8Array) {
  const word = new Int32Array(bytes.buffer, 0, 1);
  Atomics.store(word, 0, 1);
  Atomics.notify(word, 0);
}

let extractor: Extractor | undefined;
afterEach(() => {
  for (const word of holds.splice(0)) release(new Uint8Array(word.buffer));
  extractor?.close();
});

describe('the extraction worker', () => {
  it('fails a .gz that unpacks to more than --max-file-size as too_large (2 KiB of gzip, 2 MiB of text)', async () => {
    extractor = new Extractor({ maxFileBytes: 1024 * 1024 });
    const result = await extractor.extract('log.txt.gz', gzipSync(Buffer.alloc(2 * 1024 * 1024, 'word ')));
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'too_large',
        message: 'log.txt.gz unpacks to more than 1 MiB, over the limit of 1 MiB (--max-file-size)',
      },
    });
    const small = await extractor.extract('notes.txt.gz', gzipSync('Small notes.'));
    expect(small.ok).toBe(true);
  });

  it('reads a PDF off the event loop, with its pages and its search terms', async () => {
    extractor = new Extractor();
    const result = await extractor.extract('m.pdf', makePdf([['Page one.'], ['Page two.']]));
    expect(result).toEqual({
      ok: true,
      chunks: [
        { text: 'Page one.', pages: [1, 1], indexed: indexedText('Page one.') },
        { text: 'Page two.', pages: [2, 2], indexed: indexedText('Page two.') },
      ],
    });
  });

  it('reads a docs-folder file itself, and says how large it was and its SHA-256', async () => {
    extractor = new Extractor();
    const path = join(tempDir(), 'note.md');
    writeFileSync(path, 'Backups run nightly.');
    const { dev, ino, size } = statSync(path);
    const result = await extractor.extract('note.md', { path, dev, ino, size, maxBytes: 1024 });
    expect(result).toEqual({
      ok: true,
      chunks: [{ text: 'Backups run nightly.', indexed: indexedText('Backups run nightly.') }],
      read: { size, sha256: createHash('sha256').update('Backups run nightly.').digest('hex') },
    });
    rmSync(path);
    expect(await extractor.extract('note.md', { path, dev, ino, size, maxBytes: 1024 })).toEqual({
      ok: false,
      gone: true,
    });
  });

  it('keeps what a worker read of a file that then crashed it', async () => {
    extractor = new Extractor({ script: plantedWorker() });
    const file = { path: '/nowhere', dev: 1, ino: 2, size: 3, maxBytes: 10 };
    const result = await extractor.extract('readexit.txt', file);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'extract_crashed' },
      read: { size: 3, sha256: 'abc' },
    });
  });

  it('fails a document that takes too long, and goes on with the ones behind it in a new worker', async () => {
    extractor = new Extractor({ script: plantedWorker(), timeoutMs: 300 });
    const started = Date.now();
    const [hung, next] = await Promise.all([
      extractor.extract('hang.txt', Buffer.from('x')),
      extractor.extract('fine.txt', Buffer.from('after the hang')),
    ]);
    expect(hung).toEqual({
      ok: false,
      error: { code: 'extract_timeout', message: 'reading the text took longer than 0.3 s' },
    });
    expect(next).toEqual({ ok: true, chunks: [{ text: 'after the hang' }] });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("gives each of a scan's pages the document's time, and says which page it is on", async () => {
    extractor = new Extractor({ script: plantedWorker(), timeoutMs: 2000 });
    const pages: string[] = [];
    const result = await extractor.extract('scan.txt', Buffer.from('all pages read'), '', (page, of) =>
      pages.push(`${page}/${of}`),
    );
    expect(result).toEqual({ ok: true, chunks: [{ text: 'all pages read' }] });
    expect(pages).toEqual(['1/5', '2/5', '3/5', '4/5', '5/5']);
  });

  it("starts a document's deadline once the worker listens, not while it starts", async () => {
    extractor = new Extractor({ script: plantedWorker(600), timeoutMs: 300 });
    expect(await extractor.extract('fine.txt', Buffer.from('read in time'))).toEqual({
      ok: true,
      chunks: [{ text: 'read in time' }],
    });
  });

  it('fails a document that exhausts the heap or ends the worker; kb serve and the next document go on', async () => {
    extractor = new Extractor({ script: plantedWorker(), heapMb: 32, timeoutMs: 20_000 });
    const results = await Promise.all([
      extractor.extract('boom.txt', Buffer.from('x')),
      extractor.extract('exit.txt', Buffer.from('x')),
      extractor.extract('fine.txt', Buffer.from('still here')),
    ]);
    expect(results[0]).toEqual({
      ok: false,
      error: {
        code: 'extract_crashed',
        message: 'reading the text needed more memory than the extraction worker may use',
      },
    });
    expect(results[1]).toEqual({
      ok: false,
      error: { code: 'extract_crashed', message: 'the extraction worker exited (3)' },
    });
    expect(results[2]).toEqual({ ok: true, chunks: [{ text: 'still here' }] });
  });

  // htmlparser2's Parser kept its open elements with unshift and shift: quadratic in depth, so
  // this document took minutes and FAILed extract_timeout; read in one pass it takes a second or two.
  it(
    'reads HTML nested 1,000,000 deep, with 300,000 stray end tags, within the deadline (#35)',
    { timeout: 120_000 },
    async () => {
      extractor = new Extractor({ timeoutMs: 60_000 });
      const depth = 1_000_000;
      const html = `${'<div>x'.repeat(depth)}${'</div>'.repeat(depth)}${'<span>'.repeat(300_000)}y${'</i>'.repeat(300_000)}z`;
      const result = await extractor.extract('deep.html', Buffer.from(html));
      expect(result.ok && result.chunks.map((c) => c.text).join('\n')).toMatch(/x\nyz$/);
    },
  );

  // Each line looked for the next non-blank line by slicing the rest of the text: quadratic, so a
  // drawn table of 200,000 rows (or as many options) took 92 s to read and FAILed extract_timeout.
  it(
    'reads a text of 200,000 table rows and option lines within the deadline',
    { timeout: 120_000 },
    async () => {
      extractor = new Extractor({ timeoutMs: 60_000 });
      const text = ['| a | b |', ...Array.from({ length: 200_000 }, () => '|   | c |')].join('\n');
      const result = await extractor.extract('table.txt', Buffer.from(text));
      expect(result.ok && result.chunks.length).toBeGreaterThan(0);
    },
  );

  it('has the next small documents at hand while it reads one, up to 256 KiB of them', async () => {
    extractor = new Extractor({ script: plantedWorker(), timeoutMs: 60_000 });
    const first = extractor.extract('ahead.txt', Buffer.from('x'));
    const rest = [1, 2, 3, 4, 5].map((n) => extractor!.extract('fine.txt', Buffer.from(String(n))));
    expect(await first).toEqual({ ok: true, chunks: [{ text: 'had 6' }] });
    expect((await Promise.all(rest)).map((r) => r.ok && r.chunks[0]!.text)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
  });

  it("takes documents in turn across workspaces: one's slow documents keep another's waiting behind two large ones at most (#35)", async () => {
    extractor = new Extractor({ script: plantedWorker(), timeoutMs: 60_000 });
    const slow = [held(200 * 1024), held(200 * 1024), held(200 * 1024)];
    const done: string[] = [];
    const track = (name: string, result: Promise<unknown>) => result.then(() => done.push(name));
    const a1 = track('a1', extractor.extract('hold.txt', slow[0]!, 'ws_a'));
    const a2 = track('a2', extractor.extract('hold.txt', slow[1]!, 'ws_a'));
    const a3 = track('a3', extractor.extract('hold.txt', slow[2]!, 'ws_a'));
    const a4 = track('a4', extractor.extract('fine.txt', Buffer.from('a4'), 'ws_a'));
    const b1 = track('b1', extractor.extract('fine.txt', Buffer.from('b1'), 'ws_b'));
    release(slow[0]!);
    release(slow[1]!);
    await b1;
    // The worker had a1 and a2 (sent ahead); in the order they came, b1 would wait behind a3 too.
    expect(done).toEqual(['a1', 'a2', 'b1']);
    release(slow[2]!);
    await Promise.all([a1, a2, a3, a4]);
    expect(done).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  });

  it('leaves the caller its bytes (the worker gets a copy)', async () => {
    extractor = new Extractor({ script: plantedWorker() });
    const bytes = Buffer.from('kept');
    await extractor.extract('fine.txt', bytes);
    expect(bytes.toString()).toBe('kept');
  });
});

describe('an idle extraction worker', () => {
  it('is ended after idleMs with nothing to read, and the next document starts another', async () => {
    extractor = new Extractor({ script: plantedWorker(), idleMs: 200 });
    expect(extractor.running).toBe(false);
    expect(await extractor.extract('a.txt', Buffer.from('first'))).toEqual({
      ok: true,
      chunks: [{ text: 'first' }],
    });
    expect(extractor.running).toBe(true);
    await expect.poll(() => extractor!.running, { timeout: 5000 }).toBe(false);
    expect(await extractor.extract('b.txt', Buffer.from('second'))).toEqual({
      ok: true,
      chunks: [{ text: 'second' }],
    });
  });

  it('is not ended while it reads a document that takes longer than idleMs', async () => {
    extractor = new Extractor({ script: plantedWorker(), idleMs: 100, timeoutMs: 5000 });
    const pages: number[] = [];
    // scan.txt takes 3.5 s (5 pages, 0.7 s each).
    const result = await extractor.extract('scan.txt', Buffer.from('all read'), '', (page) =>
      pages.push(page),
    );
    expect(result).toEqual({ ok: true, chunks: [{ text: 'all read' }] });
    expect(pages).toEqual([1, 2, 3, 4, 5]);
  });
});
