import { describe, expect, it } from 'vitest';
import { corpus } from '../../bench/corpus.js';
import { labelledQueries } from '../../bench/scale.js';
import { chunkText } from '../../src/server/ingest/extraction/chunk.js';
import { ChunkVectors } from '../../src/server/search/chunk-vectors.js';
import { SearchIndex } from '../../src/server/search/fts-index.js';
import { type Database, openDatabase } from '../../src/server/state/database.js';
import type { Chunk } from '../../src/server/state/model.js';
import { tempDir } from '../helpers/cli.js';

const file = (fileId: string, ...texts: string[]): Chunk[] =>
  texts.map((text, n) => ({ id: `${fileId}:${n}`, fileId, filename: `${fileId}.md`, text }));

/** A database with two workspaces, and a search index kept as a Store keeps it. */
function setUp(db: Database = openDatabase(), vectors?: (db: Database) => ChunkVectors) {
  db.exec("INSERT OR IGNORE INTO workspaces VALUES ('w1', 'one', 't'), ('w2', 'two', 't')");
  let index = new SearchIndex(db, { vectors: vectors?.(db) });
  const insertFile = db.prepare(
    `INSERT OR REPLACE INTO files (id, workspace_id, original_filename, file_size, mime_type, indexing_status, created_at, updated_at)
     VALUES (?, ?, ?, 1, 'text/markdown', 'COMPLETED', 't', 't')`,
  );
  const insertChunk = db.prepare(
    'INSERT INTO chunks (id, file_id, workspace_id, n, filename, text, live) VALUES (?, ?, ?, ?, ?, ?, 1)',
  );
  const rowidsOf = (fileId: string) =>
    (db.prepare('SELECT rowid FROM chunks WHERE file_id = ? ORDER BY n').raw().all(fileId) as [number][]).map(
      ([rowid]) => rowid,
    );
  const withdraw = (fileId: string) => {
    index.withdrawn(rowidsOf(fileId));
    db.prepare('DELETE FROM chunks WHERE file_id = ?').run(fileId);
  };
  const remove = (fileId: string) => db.transaction(() => withdraw(fileId))();
  const addNow = (chunks: Chunk[], workspaceId = 'w1') => {
    const fileId = chunks[0]!.fileId;
    withdraw(fileId);
    insertFile.run(fileId, workspaceId, chunks[0]!.filename);
    index.searchable(
      chunks.map((chunk, n) => ({
        rowid: Number(
          insertChunk.run(chunk.id, fileId, workspaceId, n, chunk.filename, chunk.text).lastInsertRowid,
        ),
        workspaceId,
        ...chunk,
      })),
    );
  };
  const add = (chunks: Chunk[], workspaceId = 'w1') => db.transaction(() => addNow(chunks, workspaceId))();
  const search = (query: string, limit = 5, workspaceId = 'w1') =>
    index.workspace(workspaceId).search(query, limit);
  const ids = (query: string, limit = 5, workspaceId = 'w1') =>
    search(query, limit, workspaceId).map((h) => h.chunk.id);
  return {
    db,
    index: () => index,
    rowidsOf,
    add,
    addNow,
    remove,
    search,
    ids,
    reopen: () => (index = new SearchIndex(db)),
  };
}

describe('SearchIndex (FTS5)', () => {
  it('ranks by BM25 and says which terms matched', () => {
    const { add, search } = setUp();
    add(file('a', 'Refunds are paid within 14 days.', 'Shipping takes a week.'));
    add(file('b', 'Our refund policy for annual plans.'));
    const [first, second, third] = search('refunds within days');
    expect(first!.chunk.id).toBe('a:0');
    // Terms are stems (Porter2): "refunds" finds "refund" as it is.
    expect(first!.terms).toEqual(['refund', 'within', 'day']);
    expect(second).toMatchObject({ chunk: { id: 'b:0' }, terms: ['refund'], queryTerms: ['refund'] });
    expect(second!.score).toBeLessThan(first!.score);
    expect(third).toBeUndefined();
  });

  it('tries prefixes and near spellings only when the words as typed find too little', () => {
    const { add, ids, search } = setUp();
    add(file('a', 'The handbook covers onboarding.'));
    add(file('b', 'Holidays are listed in the calendar.'));
    expect(ids('handb')).toEqual(['a:0']);
    expect(search('handb')[0]!.terms).toEqual(['handbook']);
    expect(ids('onbaording')).toEqual(['a:0']); // two letters swapped: within two edits of 10
    expect(ids('zzz')).toEqual([]);
  });

  it('corrects a word no document holds, even when the other words find enough (a typo: "defualt")', () => {
    const { add, search } = setUp();
    for (let i = 0; i < 6; i++) add(file(`p${i}`, `iperf3 listens on a port, number ${i}.`));
    add(file('d', 'By default, the iperf3 server listens on TCP port 5201.'));
    const [best] = search('iperf3 defualt port');
    expect(best!.chunk.id).toBe('d:0');
    expect(best!.expansions).toEqual([['defualt', 'default']]);
  });

  it('lets the rest of a file count: all the words asked, spread over a file, beat two of them by chance', () => {
    const { add, search } = setUp();
    add(file('spread', 'The quokka budget.', 'Reviewed by the narwhal team.', 'Every pangolin month.'));
    add(file('chance', 'A quokka and a narwhal walk into a bar.'));
    add(file('other', 'Nothing to see here.'));
    expect(search('quokka narwhal pangolin')[0]!.chunk.fileId).toBe('spread');
  });

  it("never lets a file's length drown another file: a long unrelated text beside a short one that answers (#33)", () => {
    const { add, search } = setUp();
    add(
      file('answer', 'The fire extinguisher in the kitchen is inspected every March by the facilities team.'),
    );
    const words = ['fire', 'extinguisher', 'kitchen', 'inspected', 'march', 'facilities'];
    const paragraphs = Array.from(
      { length: 3000 },
      (_, i) =>
        `Chapter ${i}. The ${words[i % words.length]} was mentioned once, among many other things the traveller saw on the road north.`,
    );
    add(file('long', ...paragraphs));
    expect(search('When is the kitchen fire extinguisher inspected?')[0]!.chunk.fileId).toBe('answer');
  });

  it('finds identifiers as written: snake_case, --long-flags, -A apart from -a, %j (#33)', () => {
    const { add, ids } = setUp();
    add(file('apart', 'Sort the keys: keys sort fast, and sort keys are short.'));
    add(
      file(
        'named',
        'If sort_keys is true (default: False), the output of dictionaries will be sorted by key.',
      ),
    );
    add(file('almost', 'Almost all of it: all files, almost all folders, all hidden ones.'));
    add(
      file('flags', 'ls -a shows entries starting with a dot; --almost-all leaves out . and .. of the list.'),
    );
    add(file('upper', 'ls -A lists almost everything.'));
    add(file('format', 'The %j directive is the day of the year.'));
    expect(ids('What does sort_keys do?', 1)).toEqual(['named:0']);
    expect(ids('What does ls --almost-all hide?', 1)).toEqual(['flags:0']);
    expect(ids('-A', 1)).toEqual(['upper:0']);
    expect(ids('-a', 1)).toEqual(['flags:0']);
    expect(ids('%j', 1)).toEqual(['format:0']);
  });

  it("takes an e-mail address as one term, not its words: a changelog's author is not what it is about (#33)", () => {
    // A new user's folder (session 37): "What is the refund policy for the Enterprise plan?" was
    // answered from a dpkg changelog line whose author's address holds "enterprise".
    const { add, ids, search } = setUp();
    add(file('changelog', ' -- Jane Doe <jane.doe@enterprise.example.com>  Mon, 02 Mar 2020 10:00:00 +0100'));
    add(file('plans', 'Plans: Starter, Growth and Enterprise. Prices are on the website.'));
    expect(ids('enterprise')).toEqual(['plans:0']);
    expect(search('jane.doe@enterprise.example.com')[0]!.chunk.id).toBe('changelog:0');
    expect(ids('Jane Doe')).toEqual(['changelog:0']);
  });

  it('takes a systemd unit of a template (`pg_basebackup@15-main.timer`) for no e-mail address: its words are terms (#33)', () => {
    // A new user's trial 39: postgresql-common's README.systemd heads its backups with
    // `pg_basebackup@version-cluster.timer`, which was one term, and "How many copies does the
    // pg_basebackup timer keep by default?" found no pg_basebackup in it.
    const { add, ids } = setUp();
    add(file('systemd', 'pg_basebackup@version-cluster.service pg_basebackup@version-cluster.timer'));
    add(file('other', 'The wg-quick@wg0.service unit brings the interface up at boot.'));
    expect(ids('pg_basebackup timer')).toEqual(['systemd:0']);
    expect(ids('wg-quick')).toEqual(['other:0']);
  });

  it('finds two words asked as the one word a document writes them as ("block size": blocksize) (#33)', () => {
    // mke2fs.conf (a fourteenth new user's trial): "What block size does mke2fs use by default?"
    // found `inode_size = 256` (its "size"), not `blocksize = 4096`.
    const { add, search } = setUp();
    add(file('conf', 'blocksize = 4096', 'inode_size = 256'));
    add(file('prose', 'The size of a block of text is measured in lines.'));
    const [first] = search('What block size does mke2fs use?');
    expect(first).toMatchObject({ chunk: { id: 'conf:0' }, queryTerms: ['block', 'size'] });
    expect(first!.expansions).toEqual([
      ['block', 'blocksiz'],
      ['size', 'blocksiz'],
    ]);
    // Only where a document holds the word: "size of" is no term.
    expect(search('size of a block')[0]!.chunk.id).toBe('prose:0');
  });

  it('takes a removed file out at once, and replaces a file added again', () => {
    const { add, remove, ids } = setUp();
    add(file('a', 'old words about llamas'));
    add(file('b', 'other words about llamas'));
    add(file('a', 'new words about alpacas'));
    expect(ids('llamas')).toEqual(['b:0']);
    expect(ids('alpacas')).toEqual(['a:0']);
    remove('b');
    expect(ids('llamas')).toEqual([]);
  });

  it("keeps workspaces apart: neither their chunks nor their words' weights cross", () => {
    const { add, search, ids } = setUp();
    add(file('a', 'The quarterly report covers revenue.', 'Revenue grew in spring.'));
    const before = search('quarterly revenue').map((h) => [h.chunk.id, h.score]);
    for (let i = 0; i < 50; i++) add(file(`x${i}`, `revenue revenue quarterly ${i}`), 'w2');
    expect(search('quarterly revenue').map((h) => [h.chunk.id, h.score])).toEqual(before);
    expect(ids('quarterly', 5, 'w2')).not.toContain('a:0');
    expect(ids('quarterly', 5, 'nobody')).toEqual([]);
  });

  it("forgets a workspace's first table when its transaction is rolled back (a full disk), then indexes it again", () => {
    const { db, add, addNow, ids } = setUp();
    db.exec('BEGIN');
    addNow(file('a', 'first words of a new workspace'), 'w2');
    db.exec('ROLLBACK');
    add(file('a', 'first words of a new workspace'), 'w2');
    expect(ids('workspace', 5, 'w2')).toEqual(['a:0']);
  });

  it('is rebuilt from the chunks when the index is of another version, with the same answers', () => {
    const dir = tempDir();
    const path = `${dir}/state.db`;
    const first = setUp(openDatabase(path));
    first.add(file('a', 'Refunds are paid within 14 days.'));
    first.add(file('b', 'ls -A lists almost everything.'));
    const answers = [first.ids('refund days'), first.ids('-A')];
    first.db.prepare("UPDATE search_meta SET value = 'old' WHERE key = 'version'").run();
    first.db.close();
    const again = setUp(openDatabase(path));
    expect([again.ids('refund days'), again.ids('-A')]).toEqual(answers);
  });

  it('searches several queries in one pass as it searches each alone (a follow-up with the question before it)', () => {
    const { docs } = corpus(1000);
    const { add, index } = setUp();
    for (const [name, text] of docs)
      add(chunkText(text).map((t, n) => ({ id: `${name}:${n}`, fileId: name, filename: name, text: t })));
    const queries = labelledQueries(docs, 40).map((l) => l.query);
    const workspace = index().workspace('w1');
    const ids = (hits: { chunk: { id: string } }[]) => hits.map((h) => h.chunk.id);
    let same = 0;
    for (let i = 0; i + 1 < queries.length; i++) {
      const pair = [queries[i]!, `${queries[i]} ${queries[i + 1]}`];
      const [alone, withPrevious] = workspace.searchEach(pair, 10);
      if (
        ids(alone!).join() === ids(workspace.search(pair[0]!, 10)).join() &&
        ids(withPrevious!).join() === ids(workspace.search(pair[1]!, 10)).join()
      )
        same++;
    }
    expect(same).toBe(queries.length - 1);
  });

  it('searches within given files: their chunks only, ranked, however many others rank above them (#33)', () => {
    const { add, index } = setUp();
    for (let n = 0; n < 12; n++)
      add(file(`rsync${n}`, `--port${n}: connect to this port rather than the default port ${n} of rsync`));
    add(
      file(
        'scp',
        'Recursively copy entire directories.',
        'Specifies the port to connect to on the remote host.',
      ),
    );
    add(file('ssh', 'Port: the port to connect to.'));
    const workspace = index().workspace('w1');
    const question = 'And how do I connect to a port other than the default?';
    expect(workspace.search(question, 10).map((h) => h.chunk.fileId)).not.toContain('scp');
    expect(workspace.searchWithin(question, ['scp'], 3).map((h) => h.chunk.id)).toEqual(['scp:1']);
    expect(
      workspace
        .searchWithin(question, ['scp', 'ssh'], 3)
        .map((h) => h.chunk.fileId)
        .sort(),
    ).toEqual(['scp', 'ssh']);
    expect(workspace.searchWithin(question, [], 3)).toEqual([]);
    expect(workspace.searchWithin('nothing held here', ['scp'], 3)).toEqual([]);
  });

  it('finds the right document for labelled queries of its rarest words (recall@5 of the generated corpus)', () => {
    const { docs } = corpus(1000);
    const { add, search } = setUp();
    for (const [name, text] of docs)
      add(chunkText(text).map((t, n) => ({ id: `${name}:${n}`, fileId: name, filename: name, text: t })));
    const labelled = labelledQueries(docs, 100);
    const found = labelled.filter(({ query, expected }) =>
      search(query, 5).some((h) => h.chunk.fileId === expected),
    );
    expect(found.length / labelled.length).toBeGreaterThanOrEqual(0.98);
  });
});

describe('ChunkVectors', () => {
  const unit = (...xs: number[]) => {
    const v = Float32Array.from(xs);
    const length = Math.hypot(...xs);
    return v.map((x) => x / length);
  };

  it("puts a file's staged vectors in with its chunks, finds the nearest, and lets them leave with the file", () => {
    const { add, remove, index, rowidsOf } = setUp(openDatabase(), (db) => new ChunkVectors(db, 'm1'));
    const vectors = index().vectors!;
    vectors.stage('a', [unit(1, 0, 0), unit(0, 1, 0)]);
    add(file('a', 'one', 'two'));
    const rowids = rowidsOf('a');
    expect(vectors.has('w1')).toBe(true);
    expect(vectors.has('w2')).toBe(false);
    const hits = vectors.search('w1', unit(0.1, 1, 0), 2);
    expect(hits.map((h) => h.rowid)).toEqual([rowids[1], rowids[0]]);
    expect(hits[0]!.score).toBeCloseTo(0.995, 2);
    expect(vectors.search('w2', unit(0.1, 1, 0), 2)).toEqual([]);
    remove('a');
    expect(vectors.has('w1')).toBe(false);
  });

  it("refuses staged vectors of another count, and drops another model's vectors so they are made again", () => {
    const { db, add, index, rowidsOf } = setUp(openDatabase(), (db) => new ChunkVectors(db, 'm1'));
    const vectors = index().vectors!;
    vectors.stage('a', [unit(1, 0)]);
    add(file('a', 'one', 'two'));
    expect(vectors.has('w1')).toBe(false);
    expect(vectors.unembedded()).toEqual([{ workspaceId: 'w1', fileId: 'a' }]);
    expect(vectors.add('w1', 'a', rowidsOf('a'), [unit(1, 0), unit(0, 1)])).toBe(true);
    expect(vectors.unembedded()).toEqual([]);
    const other = new ChunkVectors(db, 'm2');
    expect(other.has('w1')).toBe(false);
    expect(other.unembedded()).toEqual([{ workspaceId: 'w1', fileId: 'a' }]);
  });
});
