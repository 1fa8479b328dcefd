import { searchedStore } from '../helpers/searched-store.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAndExtract } from '../../src/server/ingest/extraction/extract-chunks.js';
import { Indexer } from '../../src/server/ingest/indexer.js';
import { openDatabase, scalar } from '../../src/server/state/database.js';
import { StorageError } from '../../src/server/state/storage-error.js';
import { tempDir } from '../helpers/cli.js';

/** A store on a database file, counting its transactions (each a write, made durable at its end). */
function countedStore() {
  const path = join(tempDir(), 'state.db');
  const db = openDatabase(path);
  const counts = { commits: 0 };
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => {
    if (sql === 'COMMIT') counts.commits++;
    return exec(sql);
  };
  const store = searchedStore(db);
  store.commit({ op: 'workspace', workspace: { id: 'ws', name: 'main', createdAt: 'x' } });
  return { store, counts, path, db };
}

describe('the indexing pipeline', () => {
  it('stores the states of many files in batches: a few writes, not three per file', async () => {
    const { store, counts } = countedStore();
    const indexer = new Indexer(store, {
      stepDelayMs: 0,
      extract: (name, bytes) => readAndExtract(name, bytes),
    });
    const text = (i: number) => `Document ${i} is about the subject number ${i}. `.repeat(20);
    counts.commits = 0;
    indexer.enqueue(
      'ws',
      Array.from({ length: 300 }, (_, i) => {
        const bytes = Buffer.from(text(i));
        return { filename: `doc-${i}.md`, size: bytes.length, read: () => Promise.resolve(bytes) };
      }),
    );
    await indexer.idle();
    const statuses = store.everyFile().map((f) => f.indexingStatus);
    expect(statuses).toEqual(Array(300).fill('COMPLETED'));
    // ~280 kB: one write for PENDING, one for PROCESSING, one per 256 kB indexed.
    expect(counts.commits).toBeLessThanOrEqual(10);
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
          ? new Promise((resolve) => held.push(() => resolve(readAndExtract(filename, bytes))))
          : readAndExtract(filename, bytes),
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
    expect(store.storedFile(note!.id)!.indexingStatus).toBe('COMPLETED');
    expect(store.everyFile().filter((f) => f.indexingStatus === 'PROCESSING')).toHaveLength(3);
    release = true;
    for (const go of held) go();
    await indexer.idle();
    expect(store.everyFile().map((f) => f.indexingStatus)).toEqual(Array(4).fill('COMPLETED'));
    indexer.close();
  });

  it('removes a folder file that vanished before its turn, and fails one that cannot be read', async () => {
    const { store } = countedStore();
    const indexer = new Indexer(store, {
      stepDelayMs: 0,
      extract: (name, bytes) => readAndExtract(name, bytes),
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
    expect(store.storedFile(gone!.id)!.deletedAt).toBeDefined();
    expect(store.storedFile(unreadable!.id)).toMatchObject({
      indexingStatus: 'FAILED',
      indexingError: { code: 'unreadable', message: 'cannot read the file: EACCES' },
    });
    indexer.close();
  });
});

describe('the chunks table', () => {
  it('stores and indexes a large document a part at a time, found only once all of it is in', async () => {
    const { store, path, db } = countedStore();
    const indexer = new Indexer(store, {
      stepDelayMs: 0,
      extract: (name, bytes) => readAndExtract(name, bytes),
    });
    const sentence = (i: number) => `Paragraph ${i} says the quarterly figure is ${i * 7}. `;
    const text = Array.from({ length: 40_000 }, (_, i) => sentence(i)).join('\n');
    expect(text.length).toBeGreaterThan(2_000_000);
    const file = indexer.upload('ws', 'big.md', Buffer.from(text));
    const count = (where: string) => Number(scalar(db, `SELECT count(*) FROM chunks WHERE ${where}`));
    // Between parts, requests are answered and the half-indexed file is not found.
    const seen: number[] = [];
    const probe = setInterval(() => {
      const parts = count('live = 0');
      if (parts > 0 && store.storedFile(file.id)!.indexingStatus === 'PROCESSING') {
        seen.push(parts);
        expect(count('live = 1')).toBe(0);
        expect(store.index('ws').search('quarterly figure', 1)).toEqual([]);
      }
    }, 1);
    await indexer.idle();
    clearInterval(probe);
    expect(new Set(seen).size).toBeGreaterThan(5);
    const done = store.storedFile(file.id)!;
    expect(done.indexingStatus).toBe('COMPLETED');
    expect(count('live = 0')).toBe(0);
    expect(count(`live = 1 AND file_id = '${file.id}'`)).toBe(done.chunkCount);
    // In rowid order, numbered in the file's order.
    const ns = db.prepare('SELECT n FROM chunks ORDER BY rowid').raw().all() as [number][];
    expect(ns.map(([n]) => n)).toEqual(Array.from({ length: done.chunkCount }, (_, i) => i));
    expect(store.index('ws').search('Paragraph 39999', 1)[0]!.chunk.text).toContain('Paragraph 39999 says');
    indexer.close();
    store.close();

    // Opened again: the index is built from the live rows.
    const again = searchedStore(openDatabase(path));
    expect(again.index('ws').search('Paragraph 123 says', 1)[0]!.chunk.text).toContain('Paragraph 123 says');
    expect(again.chunk(file.id, done.chunkCount - 1)!.text).toContain('Paragraph 39999 says');
    again.close();
  });

  it('leaves a large file deleted, or uploaded again, while its last write waited for the disk as it was then', async () => {
    const { store, db } = countedStore();
    const indexer = new Indexer(store, {
      stepDelayMs: 0,
      extract: (name, bytes) => readAndExtract(name, bytes),
    });
    const text = (word: string) =>
      Array.from({ length: 3000 }, (_, i) => `Paragraph ${i} of the ${word} ledger.`).join('\n');
    // The disk refuses the first write that completes each file; a user acts before it is tried again.
    const meanwhile: (() => void)[] = [];
    const commit = store.commit.bind(store);
    store.commit = (...ops) => {
      const last = ops.find((op) => op.op === 'fileIndexed');
      const act = last && meanwhile.shift();
      if (act) {
        setTimeout(act, 100);
        throw new StorageError('SQLITE_FULL: database or disk is full');
      }
      commit(...ops);
    };
    const deleted = indexer.upload('ws', 'deleted.md', Buffer.from(text('walrus')));
    meanwhile.push(() => store.commit({ op: 'fileDeleted', id: deleted.id, at: 'y' }));
    await indexer.idle();
    expect(store.storedFile(deleted.id)!.deletedAt).toBe('y');
    expect(store.index('ws').search('walrus', 1)).toEqual([]);
    const replaced = indexer.upload('ws', 'replaced.md', Buffer.from(text('walrus')));
    meanwhile.push(() => indexer.upload('ws', 'replaced.md', Buffer.from(text('narwhal')), replaced.id));
    await indexer.idle();
    const done = store.storedFile(replaced.id)!;
    expect(done.indexingStatus).toBe('COMPLETED');
    expect(store.index('ws').search('walrus', 1)).toEqual([]);
    expect(store.index('ws').search('narwhal', 1)[0]!.chunk.fileId).toBe(replaced.id);
    expect(scalar(db, `SELECT count(*) FROM chunks WHERE file_id = '${replaced.id}' AND live = 1`)).toBe(
      done.chunkCount,
    );
    expect(scalar(db, 'SELECT count(*) FROM chunks WHERE live = 0')).toBe(0);
    expect(scalar(db, 'SELECT count(*) FROM search_staged')).toBe(0);
    indexer.close();
    store.close();
  });

  it('drops the parts of a file whose indexing stopped part way (kb serve was killed): not half searchable', () => {
    const { store, path } = countedStore();
    const file = {
      id: 'file_1',
      workspaceId: 'ws',
      originalFilename: 'big.md',
      fileSize: 10,
      mimeType: 'text/markdown',
      indexingStatus: 'PROCESSING' as const,
      createdAt: 'x',
      updatedAt: 'x',
      indexingStartedAt: 'x',
      indexedAt: null,
      chunkCount: 0,
      indexingError: null,
    };
    store.commit({ op: 'file', file });
    const chunk = (n: number) => ({
      id: `file_1:${n}`,
      fileId: 'file_1',
      filename: 'big.md',
      text: `quarterly ${n}`,
    });
    store.commit({ op: 'fileChunks', fileId: 'file_1', chunks: [chunk(0), chunk(1)] });
    store.close();
    const db = openDatabase(path);
    expect(scalar(db, 'SELECT count(*) FROM chunks')).toBe(2);
    const cutShort = searchedStore(db);
    expect(cutShort.storedFile('file_1')!.indexingStatus).toBe('PROCESSING');
    expect(cutShort.index('ws').search('quarterly', 1)).toEqual([]);
    expect(scalar(db, 'SELECT count(*) FROM chunks')).toBe(0);
    cutShort.close();
  });
});
