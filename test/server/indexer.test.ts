import * as fs from 'node:fs';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractChunks } from '../../src/server/ingest/extraction/extract-chunks.js';
import { Indexer } from '../../src/server/ingest/indexer.js';
import { Journal, type JournalFs } from '../../src/server/state/journal.js';
import { Store } from '../../src/server/state/store.js';
import { tempDir } from '../helpers/cli.js';

/** A store journaled to a temporary file, counting fsyncs and the files opened for rewriting. */
function countedStore() {
  const counts = { fsyncs: 0, rewrites: 0 };
  const spy: JournalFs = {
    ...fs,
    fsyncSync: ((fd: number) => {
      counts.fsyncs++;
      return fs.fsyncSync(fd);
    }) as JournalFs['fsyncSync'],
    openSync: ((path: string, flags: string, mode?: number) => {
      if (flags === 'wx') counts.rewrites++;
      return fs.openSync(path, flags, mode);
    }) as JournalFs['openSync'],
  };
  const path = join(tempDir(), 'state.jsonl');
  const store = new Store();
  store.attach(new Journal(path, spy));
  store.commit({ op: 'workspace', workspace: { id: 'ws', name: 'main', createdAt: 'x' } });
  return { store, counts, path, spy };
}

describe('the indexing pipeline', () => {
  it('stores the states of many files in batches: a few writes, not three per file', async () => {
    const { store, counts } = countedStore();
    const indexer = new Indexer(store, {
      stepDelayMs: 0,
      extract: (name, bytes) => extractChunks(name, bytes),
    });
    const text = (i: number) => `Document ${i} is about the subject number ${i}. `.repeat(20);
    counts.fsyncs = 0;
    indexer.enqueue(
      'ws',
      Array.from({ length: 300 }, (_, i) => {
        const bytes = Buffer.from(text(i));
        return { filename: `doc-${i}.md`, size: bytes.length, read: () => Promise.resolve(bytes) };
      }),
    );
    await indexer.idle();
    const statuses = [...store.files.values()].map((f) => f.indexingStatus);
    expect(statuses).toEqual(Array(300).fill('COMPLETED'));
    // ~280 kB: one write for PENDING, one for PROCESSING, one per 64 kB indexed.
    expect(counts.fsyncs).toBeLessThanOrEqual(10);
    expect(store.index('ws').search('subject number 123', 1)[0]!.chunk.filename).toBe('doc-123.md');
    expect(indexer.progress()).toMatchObject({ done: 300, total: 300, idle: true });
    indexer.close();
  });

  it("indexes one workspace's note while another's slow documents are still being read (#35)", async () => {
    const { store } = countedStore();
    store.commit({ op: 'workspace', workspace: { id: 'ws_b', name: 'other', createdAt: 'x' } });
    const held: (() => void)[] = [];
    let release = false;
    const indexed = new Map<string, () => void>();
    const indexer = new Indexer(store, {
      stepDelayMs: 0,
      // A's documents are read until the test lets them go; anything else at once.
      extract: (filename, bytes) =>
        filename.startsWith('slow') && !release
          ? new Promise((resolve) => held.push(() => resolve(extractChunks(filename, bytes))))
          : extractChunks(filename, bytes),
      onIndexed: (file) => indexed.get(file.originalFilename)?.(),
    });
    const big = (name: string) => {
      const bytes = Buffer.from(`<p>${name}</p>`);
      // As large as an 11 MB upload: each is a batch of its own.
      return { filename: name, size: 11_000_000, read: () => Promise.resolve(bytes) };
    };
    indexer.enqueue('ws', [big('slow-1.html'), big('slow-2.html'), big('slow-3.html')]);
    const noteIndexed = new Promise<void>((resolve) => indexed.set('note.md', resolve));
    const [note] = indexer.enqueue('ws_b', [
      { filename: 'note.md', size: 47, read: () => Promise.resolve(Buffer.from('A short note.')) },
    ]);
    await noteIndexed;
    expect(store.files.get(note!.id)!.indexingStatus).toBe('COMPLETED');
    expect([...store.files.values()].filter((f) => f.indexingStatus === 'PROCESSING')).toHaveLength(3);
    release = true;
    for (const go of held) go();
    await indexer.idle();
    expect([...store.files.values()].map((f) => f.indexingStatus)).toEqual(Array(4).fill('COMPLETED'));
    indexer.close();
  });

  it('removes a folder file that vanished before its turn, and fails one that cannot be read', async () => {
    const { store } = countedStore();
    const indexer = new Indexer(store, {
      stepDelayMs: 0,
      extract: (name, bytes) => extractChunks(name, bytes),
    });
    const [gone, unreadable] = indexer.enqueue('ws', [
      {
        filename: 'gone.md',
        size: 5,
        read: () => Promise.reject(Object.assign(new Error('gone'), { code: 'ENOENT' })),
      },
      {
        filename: 'locked.md',
        size: 5,
        read: () => Promise.reject(Object.assign(new Error('denied'), { code: 'EACCES' })),
      },
    ]);
    await indexer.idle();
    expect(store.files.get(gone!.id)!.deletedAt).toBeDefined();
    expect(store.files.get(unreadable!.id)).toMatchObject({
      indexingStatus: 'FAILED',
      indexingError: { code: 'unreadable', message: 'cannot read the file: EACCES' },
    });
    indexer.close();
  });
});

describe('opening the journal', () => {
  it('stores and indexes a large document a part at a time, found only once all of it is in', async () => {
    const { store, path } = countedStore();
    const indexer = new Indexer(store, {
      stepDelayMs: 0,
      extract: (name, bytes) => extractChunks(name, bytes),
    });
    const sentence = (i: number) => `Paragraph ${i} says the quarterly figure is ${i * 7}. `;
    const text = Array.from({ length: 40_000 }, (_, i) => sentence(i)).join('\n');
    expect(text.length).toBeGreaterThan(2_000_000);
    const file = indexer.upload('ws', 'big.md', Buffer.from(text));
    // Between parts, requests are answered and the half-indexed file is not found.
    const seen: number[] = [];
    const probe = setInterval(() => {
      const parts = readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"op":"fileChunks"')).length;
      if (parts > 0 && store.files.get(file.id)!.indexingStatus === 'PROCESSING') {
        seen.push(parts);
        expect(store.index('ws').search('quarterly figure', 1)).toEqual([]);
      }
    }, 1);
    await indexer.idle();
    clearInterval(probe);
    expect(seen.length).toBeGreaterThan(0);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    const parts = lines.filter((l) => l.includes('"op":"fileChunks"'));
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts) expect(part.length).toBeLessThan(400 * 1024);
    const done = store.files.get(file.id)!;
    expect(done.indexingStatus).toBe('COMPLETED');
    expect(store.index('ws').search('Paragraph 39999', 1)[0]!.chunk.text).toContain('Paragraph 39999 says');
    store.close();

    // Replayed: the parts and the last of it make the whole file again.
    const again = new Store();
    again.attach(new Journal(path));
    expect(again.index('ws').search('Paragraph 123 says', 1)[0]!.chunk.text).toContain('Paragraph 123 says');
    expect(again.snapshot().find((op) => op.op === 'fileIndexed')).toMatchObject({
      chunks: { length: done.chunkCount },
    });
    again.close();

    // A file whose indexing stopped part way (kb serve was killed) is not half searchable.
    const cut = lines.slice(
      0,
      lines.findIndex((l) => l.includes('"op":"fileIndexed"')),
    );
    writeFileSync(path, `${cut.join('\n')}\n`);
    const cutShort = new Store();
    cutShort.attach(new Journal(path));
    expect(cutShort.files.get(file.id)!.indexingStatus).toBe('PROCESSING');
    expect(cutShort.index('ws').search('quarterly figure', 1)).toEqual([]);
    cutShort.close();
    indexer.close();
  });

  it('appends to a whole, compact journal as it is, and compacts one that is mostly superseded', () => {
    const { store, path, spy } = countedStore();
    for (let i = 0; i < 50; i++)
      store.commit({
        op: 'thread',
        thread: {
          id: `thr_${i}`,
          workspaceId: 'ws',
          title: 't',
          status: 'OPEN',
          createdAt: 'x',
          updatedAt: 'x',
        },
      });
    store.close();
    const reopen = () => {
      const counts = { rewrites: 0 };
      const again = new Store();
      again.attach(
        new Journal(path, {
          ...spy,
          openSync: ((p: string, flags: string, mode?: number) => {
            if (flags === 'wx') counts.rewrites++;
            return fs.openSync(p, flags, mode);
          }) as JournalFs['openSync'],
        }),
      );
      return { again, counts };
    };
    let { again, counts } = reopen();
    expect(counts.rewrites).toBe(0);
    // Appends after it land on their own line.
    for (let i = 0; i < 300; i++)
      again.commit({ op: 'threadStatus', id: 'thr_1', status: i % 2 ? 'OPEN' : 'CLOSED', at: 'y' });
    again.close();
    ({ again, counts } = reopen());
    expect(counts.rewrites).toBe(1);
    expect(again.threads.size).toBe(50);
    expect(fs.readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(51); // the workspace and the threads, statuses folded in
    again.close();

    // A half-written last line is cut by rewriting.
    fs.appendFileSync(path, '{"op":"thr');
    ({ again, counts } = reopen());
    expect(counts.rewrites).toBe(1);
    again.close();
  });
});
