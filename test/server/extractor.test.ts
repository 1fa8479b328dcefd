import { writeFileSync } from 'node:fs';
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
 * exits, `scan.txt` says it starts a page every 0.7 s, 5 pages; anything else answers with its text.
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
     parentPort.on('message', (job) => { queue = queue.then(async () => {
       if (job.filename === 'hang.txt') await new Promise(() => {});
       if (job.filename === 'hold.txt') Atomics.wait(new Int32Array(job.bytes, job.offset, 1), 0, 0);
       if (job.filename === 'boom.txt') { const keep = []; for (;;) keep.push(new Array(1e6).fill(keep.length)); }
       if (job.filename === 'exit.txt') process.exit(3);
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

/** Four bytes in shared memory that the planted worker's `hold.txt` waits on. */
const holds: Int32Array[] = [];
function held4(): Uint8Array {
  const bytes = new Uint8Array(new SharedArrayBuffer(4));
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

  it("takes documents in turn across workspaces: one's slow documents keep another's waiting behind two at most (#35)", async () => {
    extractor = new Extractor({ script: plantedWorker(), timeoutMs: 60_000 });
    const held = [held4(), held4(), held4()];
    const done: string[] = [];
    const track = (name: string, result: Promise<unknown>) => result.then(() => done.push(name));
    const a1 = track('a1', extractor.extract('hold.txt', held[0]!, 'ws_a'));
    const a2 = track('a2', extractor.extract('hold.txt', held[1]!, 'ws_a'));
    const a3 = track('a3', extractor.extract('hold.txt', held[2]!, 'ws_a'));
    const a4 = track('a4', extractor.extract('fine.txt', Buffer.from('a4'), 'ws_a'));
    const b1 = track('b1', extractor.extract('fine.txt', Buffer.from('b1'), 'ws_b'));
    release(held[0]!);
    release(held[1]!);
    await b1;
    // The worker had a1 and a2 (sent ahead); in the order they came, b1 would wait behind a3 too.
    expect(done).toEqual(['a1', 'a2', 'b1']);
    release(held[2]!);
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
