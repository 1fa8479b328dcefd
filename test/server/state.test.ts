import { searchedStore } from '../helpers/searched-store.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, scalar } from '../../src/server/state/database.js';
import { hashKey } from '../../src/server/state/api-keys.js';
import type { Chunk, FileRecord, Operation } from '../../src/server/state/model.js';
import type { ChunkRow } from '../../src/server/state/operations.js';
import { StorageError } from '../../src/server/state/storage-error.js';
import { Store } from '../../src/server/state/store.js';
import { NEWEST_FIRST, pageFrom, sortBy } from '../../src/server/state/paging.js';
import { parseCursor } from '../../src/server/http/validate.js';
import { tempDir } from '../helpers/cli.js';

const workspace: Operation = { op: 'workspace', workspace: { id: 'ws', name: 'main', createdAt: 'a' } };
const thread = (n: number): Operation => ({
  op: 'thread',
  thread: {
    id: `thr_${n}`,
    workspaceId: 'ws',
    title: `t${n}`,
    status: 'OPEN',
    createdAt: 'a',
    updatedAt: 'a',
  },
});
const file = (id: string, changes: Partial<FileRecord> = {}): FileRecord => ({
  id,
  workspaceId: 'ws',
  originalFilename: `${id}.pdf`,
  fileSize: 10,
  mimeType: 'application/pdf',
  indexingStatus: 'COMPLETED',
  createdAt: 'a',
  updatedAt: 'b',
  indexingStartedAt: 'a',
  indexedAt: 'b',
  chunkCount: 2,
  indexingError: null,
  ...changes,
});
const chunks = (fileId: string, texts: string[], from = 0): Chunk[] =>
  texts.map((text, i) => ({ id: `${fileId}:${from + i}`, fileId, filename: `${fileId}.pdf`, text }));

/** One of every operation, as a service would commit them. */
const EVERY_KIND: Operation[] = [
  workspace,
  { op: 'key', key: { key: 'kb_secret_1234', workspaceId: 'ws' } },
  { op: 'user', user: { id: 'usr_1', workspaceId: 'ws', name: 'Ada', email: 'ada@x.org', createdAt: 'a' } },
  thread(1),
  thread(2),
  { op: 'threadStatus', id: 'thr_2', status: 'CLOSED', at: 'c' },
  {
    op: 'messages',
    messages: [
      { id: 'msg_1', threadId: 'thr_1', role: 'user', content: 'Hi?', createdAt: 'a' },
      {
        id: 'msg_2',
        threadId: 'thr_1',
        role: 'assistant',
        content: '',
        createdAt: 'a',
        pending: true,
      },
      { id: 'msg_3', threadId: 'thr_1', role: 'assistant', content: '', createdAt: 'a', pending: true },
    ],
  },
  { op: 'messageText', threadId: 'thr_1', id: 'msg_2', content: 'Hello' },
  {
    op: 'messageUpdate',
    message: {
      id: 'msg_2',
      threadId: 'thr_1',
      role: 'assistant',
      content: 'Hello there',
      createdAt: 'a',
      sources: ['f1.pdf'],
      drawnFrom: ['f1:0'],
    },
  },
  { op: 'messageDeleted', threadId: 'thr_1', id: 'msg_3' },
  {
    op: 'file',
    file: file('f0', {
      indexingStatus: 'FAILED',
      chunkCount: 0,
      indexingError: { code: 'no_text_layer', message: 'no text' },
      ocr: { pages: 1, meanConfidence: 12, skippedPages: 2, skipped: 'the page limit (1)' },
      source: { path: 'a/f0.pdf', size: 10, mtimeMs: 5, sha256: 'ab', reader: 3 },
    }),
  },
  {
    op: 'fileIndexed',
    file: file('f1', { uploaded: true }),
    chunks: [
      { ...chunks('f1', ['The ferry leaves at nine.'])[0]!, pages: [1, 2] },
      ...chunks('f1', ['Tickets cost five euros.'], 1),
    ],
  },
  { op: 'fileIndexed', file: file('f2'), chunks: chunks('f2', ['The harbour closes at six.']) },
  { op: 'fileDeleted', id: 'f2', at: 'd' },
  {
    op: 'webhook',
    webhook: {
      id: 'wh_1',
      workspaceId: 'ws',
      url: 'https://x.org/h',
      events: ['file.indexed'],
      secret: 's',
      isActive: true,
      createdAt: 'a',
    },
  },
  {
    op: 'webhook',
    webhook: {
      id: 'wh_2',
      workspaceId: 'ws',
      url: 'https://x.org/g',
      events: [],
      secret: 's',
      isActive: false,
      createdAt: 'a',
    },
  },
  { op: 'webhookDeleted', id: 'wh_2' },
];

const recordsOf = (store: Store) => ({
  workspaces: [...store.workspaces],
  keys: [...store.keys],
  users: [...store.users],
  threads: [...store.threads],
  messages: [...store.messages],
  files: store.everyFile().map((f) => [f.id, f]),
  webhooks: [...store.webhooks],
});

describe('the database is the state', () => {
  it('keeps every record across a restart, as the running store had it', () => {
    const path = join(tempDir(), 'state.db');
    const store = searchedStore(openDatabase(path));
    for (const op of EVERY_KIND) store.commit(op);
    const before = recordsOf(store);
    store.close();

    const again = searchedStore(openDatabase(path));
    // A reply still being written when the service stopped: kept as it was, incomplete.
    expect(again.interrupted).toBe(0);
    expect(recordsOf(again)).toEqual(before);
    expect(again.messages.get('thr_1')!.map((m) => m.id)).toEqual(['msg_1', 'msg_2']);
    expect(again.workspaceForKey('kb_secret_1234')?.id).toBe('ws');
    expect(again.chunk('f1', 0)).toEqual({
      ...chunks('f1', ['The ferry leaves at nine.'])[0],
      pages: [1, 2],
    });
    expect(again.index('ws').search('ferry', 1)[0]!.chunk.id).toBe('f1:0');
    expect(again.index('ws').search('harbour', 1)).toEqual([]);
    again.close();
  });

  it('marks a reply that was being written when the service stopped incomplete, as written', () => {
    const path = join(tempDir(), 'state.db');
    const store = searchedStore(openDatabase(path));
    store.commit(workspace, thread(1), {
      op: 'messages',
      messages: [
        { id: 'msg_1', threadId: 'thr_1', role: 'assistant', content: '', createdAt: 'a', pending: true },
      ],
    });
    store.commit({ op: 'messageText', threadId: 'thr_1', id: 'msg_1', content: 'Half a' });
    store.close();
    const again = searchedStore(openDatabase(path));
    expect(again.interrupted).toBe(1);
    expect(again.messages.get('thr_1')).toEqual([
      {
        id: 'msg_1',
        threadId: 'thr_1',
        role: 'assistant',
        content: 'Half a',
        createdAt: 'a',
        incomplete: true,
      },
    ]);
    again.close();
  });

  it('stores API keys hashed, with a hint, never in clear', () => {
    const db = openDatabase();
    const store = searchedStore(db);
    store.commit(workspace, { op: 'key', key: { key: 'kb_secret_1234', workspaceId: 'ws' } });
    expect(db.prepare('SELECT key_hash, workspace_id, hint FROM api_keys').raw().all()).toEqual([
      [hashKey('kb_secret_1234'), 'ws', '1234'],
    ]);
    expect(store.workspaceForKey('kb_secret_1234')?.id).toBe('ws');
    expect(store.workspaceForKey(hashKey('kb_secret_1234'))).toBeUndefined();
    store.close();
  });

  it('applies nothing of a transaction the disk cannot take (SQLITE_FULL), and goes on once it can', () => {
    const db = openDatabase(join(tempDir(), 'state.db'));
    const store = searchedStore(db);
    store.commit(workspace, thread(1));
    // The database may not grow by a page more: a full disk, as SQLite meets it.
    db.exec(`PRAGMA max_page_count=${Number(scalar(db, 'PRAGMA page_count'))}`);
    const big = 'x'.repeat(64 * 1024);
    let error: unknown;
    try {
      store.commit(thread(2), {
        op: 'fileIndexed',
        file: file('f1'),
        chunks: chunks('f1', [`ferry ${big}`, big]),
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(StorageError);
    expect((error as Error).message).toMatch(/SQLITE_FULL/);
    expect(db.inTransaction).toBe(false);
    expect(store.threads.has('thr_2')).toBe(false);
    expect(store.storedFile('f1')).toBeUndefined();
    expect(store.index('ws').search('ferry', 1)).toEqual([]);
    expect(scalar(db, 'SELECT count(*) FROM threads')).toBe(1);
    expect(scalar(db, 'SELECT count(*) FROM chunks')).toBe(0);
    db.exec('PRAGMA max_page_count=1073741823');
    store.commit(thread(2));
    expect(store.threads.has('thr_2')).toBe(true);
    store.close();
  });

  it('writes parts and text so far with synchronous=NORMAL, and everything else FULL', () => {
    const db = openDatabase(join(tempDir(), 'state.db'));
    const seen: string[] = [];
    const exec = db.exec.bind(db);
    db.exec = (sql: string) => {
      if (sql.startsWith('PRAGMA synchronous')) seen.push(sql);
      return exec(sql);
    };
    const store = searchedStore(db);
    store.commit(workspace, { op: 'file', file: file('f1', { indexingStatus: 'PROCESSING' }) });
    store.commit({ op: 'fileChunks', fileId: 'f1', chunks: chunks('f1', ['one']) });
    expect(seen).toEqual(['PRAGMA synchronous=NORMAL', 'PRAGMA synchronous=FULL']);
    expect(scalar(db, 'PRAGMA synchronous')).toBe(2);
    store.close();
  });

  it('tells a search listener, inside the transaction, which chunks are staged, become searchable and stop', () => {
    const db = openDatabase();
    const events: [string, unknown][] = [];
    const texts = (rows: ChunkRow[]) => rows.map((r) => [r.id, r.n, r.workspaceId, r.text]);
    const store = new Store(db, {
      search: {
        staged: (rows: ChunkRow[]) => {
          expect(db.inTransaction).toBe(true);
          events.push(['staged', texts(rows)]);
        },
        searchable: (rows: ChunkRow[], partsOf?: { workspaceId: string; fileId: string }) => {
          expect(db.inTransaction).toBe(true);
          events.push(['searchable', [texts(rows), partsOf?.fileId]]);
        },
        withdrawn: (rowids: number[]) => {
          // Called before the rows go: they can still be read.
          const texts = rowids.map((id) => scalar(db, 'SELECT text FROM chunks WHERE rowid = ?', id));
          events.push(['withdrawn', texts]);
        },
      },
    });
    store.commit(workspace, { op: 'file', file: file('f1', { indexingStatus: 'PROCESSING' }) });
    // A large file's part is indexed as it is stored: its file's last step indexes only the rest.
    store.commit({ op: 'fileChunks', fileId: 'f1', chunks: chunks('f1', ['one']) });
    store.commit({ op: 'fileIndexed', file: file('f1'), chunks: chunks('f1', ['two'], 1) });
    store.commit({
      op: 'fileIndexed',
      file: file('f1', { indexedAt: 'c' }),
      chunks: chunks('f1', ['three']),
    });
    // A part of a file that is then deleted leaves with it.
    store.commit({ op: 'file', file: file('f1', { indexingStatus: 'PROCESSING' }) });
    store.commit({ op: 'fileChunks', fileId: 'f1', chunks: chunks('f1', ['four']) });
    store.commit({ op: 'fileDeleted', id: 'f1', at: 'd' });
    expect(events).toEqual([
      ['staged', [['f1:0', 0, 'ws', 'one']]],
      ['searchable', [[['f1:1', 1, 'ws', 'two']], 'f1']],
      ['withdrawn', ['one', 'two']],
      ['searchable', [[['f1:0', 0, 'ws', 'three']], undefined]],
      ['staged', [['f1:0', 0, 'ws', 'four']]],
      ['withdrawn', ['three']],
      ['withdrawn', ['four']],
    ]);
    expect(scalar(db, 'SELECT count(*) FROM chunks')).toBe(0);
    store.close();
  });

  it('searches a file in parts only once it is indexed, and leaves nothing of parts dropped in the index', () => {
    const path = join(tempDir(), 'state.db');
    const db = openDatabase(path);
    const store = searchedStore(db);
    const indexed = () => scalar(db, 'SELECT count(*) FROM search_fts_1');
    store.commit(workspace, { op: 'file', file: file('f1', { indexingStatus: 'PROCESSING' }) });
    store.commit({ op: 'fileChunks', fileId: 'f1', chunks: chunks('f1', ['ferry timetable']) });
    expect(store.index('ws').search('ferry', 1)).toEqual([]);
    store.commit({ op: 'fileIndexed', file: file('f1'), chunks: chunks('f1', ['harbour fees'], 1) });
    expect(
      store
        .index('ws')
        .search('ferry', 1)
        .map((h) => h.chunk.id),
    ).toEqual(['f1:0']);
    expect(
      store
        .index('ws')
        .search('harbour', 1)
        .map((h) => h.chunk.id),
    ).toEqual(['f1:1']);
    expect(store.index('ws').chunkCount).toBe(2);
    // Failed part way: its parts go.
    store.commit({ op: 'file', file: file('f2', { indexingStatus: 'PROCESSING' }) });
    store.commit({ op: 'fileChunks', fileId: 'f2', chunks: chunks('f2', ['lighthouse']) });
    expect(indexed()).toBe(3);
    store.commit({ op: 'file', file: file('f2', { indexingStatus: 'FAILED', chunkCount: 0 }) });
    expect(indexed()).toBe(2);
    // Stopped part way: a restart drops its parts, from the index too.
    store.commit({ op: 'file', file: file('f3', { indexingStatus: 'PROCESSING' }) });
    store.commit({ op: 'fileChunks', fileId: 'f3', chunks: chunks('f3', ['lighthouse']) });
    store.close();
    const again = openDatabase(path);
    const restarted = searchedStore(again);
    expect(scalar(again, 'SELECT count(*) FROM search_fts_1')).toBe(2);
    expect(restarted.index('ws').search('lighthouse', 1)).toEqual([]);
    restarted.close();
  });

  it('ranks the searchable chunks alone while a file in parts holding the same words is staged', () => {
    const store = searchedStore();
    const report = 'Our trip: the ferry from the harbour left at dawn, and the buses were crowded but cheap.';
    store.commit(workspace, { op: 'fileIndexed', file: file('f1'), chunks: chunks('f1', [report]) });
    store.commit({ op: 'fileIndexed', file: file('f3'), chunks: chunks('f3', ['a harbourside cafe']) });
    store.commit({ op: 'file', file: file('f2', { indexingStatus: 'PROCESSING' }) });
    const found = (query: string) =>
      store
        .index('ws')
        .search(query, 5)
        .map((h) => [h.chunk.id, h.score > 0]);
    // Each part holds the words more often than f1, and words of its own (more that begin as
    // 'harbour' does than a word is expanded to, one rarer than 'ferry'): as many chunks as FTS5
    // is asked for candidates, then more than the postings candidates are looked for in.
    const harbours = Array.from({ length: 20 }, (_, i) => `harbourx${String.fromCharCode(97 + i)}`);
    for (let part = 0; part < 32; part++) {
      const texts = Array<string>(100).fill(`ferry ferry harbour harbour ${harbours.join(' ')}`);
      if (part === 0) texts[0] = 'harbourmaster zerubbabel';
      store.commit({ op: 'fileChunks', fileId: 'f2', chunks: chunks('f2', texts, part * 100) });
      if (part === 0 || part === 2 || part === 31) {
        expect(found('ferry')).toEqual([['f1:0', true]]);
        expect(found('harbour')).toEqual([
          ['f1:0', true],
          ['f3:0', true],
        ]);
        expect(found('zerubbabel harbour')).toEqual([
          ['f1:0', true],
          ['f3:0', true],
        ]);
      }
    }
    expect(store.index('ws').chunkCount).toBe(2);
    store.close();
  });

  it('lists files from the database, newest first, a page at a time after a cursor, as a sorted list would', () => {
    const path = join(tempDir(), 'state.db');
    const first = new Store(openDatabase(path));
    const other: Operation = { op: 'workspace', workspace: { id: 'ws2', name: 'other', createdAt: 'a' } };
    // Ten files a millisecond (ties broken by id), a status each in turn, some in another workspace.
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 10)).toISOString();
    const STATUSES = ['COMPLETED', 'FAILED', 'PROCESSING'] as const;
    const made = Array.from({ length: 2500 }, (_, i) =>
      file(`f${String((i * 7919) % 2500).padStart(4, '0')}`, {
        createdAt: at(i),
        indexingStatus: STATUSES[i % 3]!,
        workspaceId: i % 50 === 0 ? 'ws2' : 'ws',
      }),
    );
    first.commit(workspace, other, ...made.map((f) => ({ op: 'file' as const, file: f })));
    first.close();
    const store = new Store(openDatabase(path));
    // Changes are read at once: a file renamed, one deleted.
    store.commit(
      { op: 'file', file: { ...made[2401]!, originalFilename: 'renamed.pdf' } },
      { op: 'fileDeleted', id: made[2451]!.id, at: 'z' },
    );
    expect(store.file('ws', made[2401]!.id)?.originalFilename).toBe('renamed.pdf');
    expect(store.file('ws', made[2451]!.id)).toBeUndefined();
    expect(store.storedFile(made[2451]!.id)?.deletedAt).toBe('z');
    expect(store.file('ws2', made[2401]!.id)).toBeUndefined();
    for (const status of [undefined, 'FAILED']) {
      const expected = sortBy(
        made.filter(
          (f, i) => f.workspaceId === 'ws' && i !== 2451 && (!status || f.indexingStatus === status),
        ),
        NEWEST_FIRST,
      ).map((f) => f.id);
      const paged: string[] = [];
      for (let cursor: string[] | undefined, pages = 0; pages < 100; pages++) {
        const page = pageFrom(
          store.filesAfter({ workspaceId: 'ws', status }, cursor, 101),
          NEWEST_FIRST,
          100,
          (f) => f,
        );
        paged.push(...page.data.map((f) => f.id));
        if (!page.meta.nextCursor) break;
        cursor = parseCursor(page.meta.nextCursor);
      }
      expect(paged).toEqual(expected);
      expect(store.countFiles({ workspaceId: 'ws', status })).toBe(expected.length);
    }
    store.close();
  });

  it('re-indexes a file in parts beside its live rows, which the new ones replace at its fileIndexed', () => {
    const db = openDatabase();
    const store = searchedStore(db);
    store.commit(workspace, {
      op: 'fileIndexed',
      file: file('f1'),
      chunks: chunks('f1', ['old one', 'old two']),
    });
    store.commit({ op: 'file', file: file('f1', { indexingStatus: 'PROCESSING' }) });
    store.commit({ op: 'fileChunks', fileId: 'f1', chunks: chunks('f1', ['new one']) });
    expect(db.prepare('SELECT id, n, live FROM chunks ORDER BY rowid').raw().all()).toEqual([
      ['f1:0', 0, 1],
      ['f1:1', 1, 1],
      ['f1:0', 0, 0],
    ]);
    store.commit({
      op: 'fileIndexed',
      file: file('f1', { indexedAt: 'c' }),
      chunks: chunks('f1', ['new two'], 1),
    });
    expect(db.prepare('SELECT id, n, text, live FROM chunks ORDER BY rowid').raw().all()).toEqual([
      ['f1:0', 0, 'new one', 1],
      ['f1:1', 1, 'new two', 1],
    ]);
    expect(store.index('ws').search('old', 1)).toEqual([]);
    store.close();
  });

  it('deletes a FAILED file’s chunks in the transaction that fails it', () => {
    const db = openDatabase();
    const store = searchedStore(db);
    store.commit(workspace, { op: 'fileIndexed', file: file('f1'), chunks: chunks('f1', ['ferry']) });
    expect(store.index('ws').search('ferry', 1)).toHaveLength(1);
    store.commit({ op: 'file', file: file('f1', { indexingStatus: 'FAILED', chunkCount: 0 }) });
    expect(scalar(db, 'SELECT count(*) FROM chunks')).toBe(0);
    expect(store.index('ws').search('ferry', 1)).toEqual([]);
    store.close();
  });

  it('refuses a commit after close as a write it could not make', () => {
    const store = searchedStore();
    store.close();
    expect(() => store.commit(workspace)).toThrow(StorageError);
  });
});
