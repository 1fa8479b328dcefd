import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractChunks } from '../../src/server/extraction/extract-chunks.js';
import { Indexer } from '../../src/server/indexer.js';
import { Journal, type JournalFs } from '../../src/server/journal.js';
import { Store } from '../../src/server/store.js';
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
    const indexer = new Indexer(store, { stepDelayMs: 0, extract: extractChunks });
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

  it('removes a folder file that vanished before its turn, and fails one that cannot be read', async () => {
    const { store } = countedStore();
    const indexer = new Indexer(store, { stepDelayMs: 0, extract: extractChunks });
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
