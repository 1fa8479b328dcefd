import { withinEdits } from '../../util/edit-distance.js';
import type { Database, Statement } from '../state/database.js';
import { isStorageFailure } from '../state/storage-error.js';
import type { Chunk, IndexedTerms } from '../state/model.js';
import type { ChunkVectors } from './chunk-vectors.js';
import type { Hit } from './hit.js';
import { createWorkspaceTables, ensureSearchSchema, ftsTable, vocabTable } from './search-schema.js';
import { decode, encode, indexedText, phrase } from './fts-terms.js';
import { fold, indexTerms, stem, STOP_WORDS } from './tokens.js';

// BM25 with the usual constants.
const K1 = 1.2;
const B = 0.75;
/** A file name's words count as this many occurrences in each of its chunks. */
const FILENAME_WEIGHT = 2;
/** Expanded terms count for less than the words typed. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
/** At most this many expansions per query term, the most common first. */
const MAX_EXPANSIONS = 16;
/**
 * How much the rest of a chunk's file counts towards its score: for each word asked that the
 * chunk lacks and another chunk of its file holds, this share of that word's best score in the
 * file. A document that holds every word asked, spread over its chunks, beats one chunk elsewhere
 * that holds two of them by chance; and since each word counts once, however often the file
 * holds it, a long file cannot outweigh a short one that answers (it once added up every chunk).
 * Set by `npm run bench:real` (#33): from 0.5 to 0.25, kb search's recall@1 went from 76% to 80%
 * and @5 from 86% to 92%; 0.1 and 0 measured the same as 0.25 (bench:answers alike at all three).
 */
const FILE_EVIDENCE = 0.25;
/** Query terms beyond this many are not tracked for file evidence. */
const TRACKED_TERMS = 30;
/**
 * FTS5 picks this many chunks by its own BM25 over the same terms; kb's scoring (its BM25, the
 * file evidence) ranks them.
 */
const CANDIDATES = 200;
const CANDIDATE_POSTINGS = 3_000;
/**
 * Chunks withdrawn at once beyond this many leave their FTS5 rows to be removed this many at a
 * time, between requests: removing an FTS5 row reads it back to unindex its words (~40 µs), and
 * deleting a 30 MB text's 50,000 chunks held every request for 1.8 s.
 */
const PURGED_AT_ONCE = 500;
/** How long to wait before trying again to remove rows the disk refused to. */
const PURGE_RETRY_MS = 1000;
const CANDIDATE_SHARE = 0.05;
const FREQUENCIES_KEPT = 10_000;

/** Expansions with the compounds, a compound that is also a prefix expansion at a compound's weight. */
function withCompounds(expanded: Lookup[], compounds: Lookup[]): Lookup[] {
  const said = new Set(compounds.map((l) => `${l.queryTerm} ${l.term}`));
  return [...expanded.filter((l) => !said.has(`${l.queryTerm} ${l.term}`)), ...compounds];
}

/**
 * The terms FTS5 finds candidates by: the rarest first, while the chunks holding them add up to
 * at most CANDIDATE_POSTINGS (the rarest always). FTS5 scores every chunk that holds a term it is
 * asked for, so a common word would cost a pass over most of the workspace; a chunk that holds
 * only common words asked ranks low anyway, and the candidates are scored on every word asked.
 */
function candidateTerms(terms: string[], frequency: Map<string, number>, chunks: number): string[] {
  const rarest = [...terms].sort((a, b) => frequency.get(a)! - frequency.get(b)!);
  // In a large workspace even its rarest words are held by thousands of chunks: the budget grows
  // with it, so that a sentence quoted from a document still finds it by more than one word.
  const budget = Math.max(CANDIDATE_POSTINGS, chunks * CANDIDATE_SHARE);
  const chosen: string[] = [];
  let postings = 0;
  for (const term of rarest) {
    postings += frequency.get(term)!;
    if (chosen.length && postings > budget) break;
    chosen.push(term);
  }
  return chosen;
}

/** A chunk that has become searchable, with its row in the chunks table. */
export interface SearchableRow {
  rowid: number;
  id: string;
  workspaceId: string;
  fileId: string;
  filename: string;
  text: string;
  pages?: [first: number, last: number];
  /** `text`'s terms, when the extraction worker made them already. */
  indexed?: IndexedTerms;
}

interface Lookup {
  queryTerm: string;
  term: string;
  weight: number;
}

/** How often `term` occurs in `terms` (terms separated by single spaces). */
function occurrences(terms: string, term: string): number {
  let count = 0;
  for (let at = terms.indexOf(term); at >= 0; at = terms.indexOf(term, at + term.length)) {
    const end = at + term.length;
    if (
      (at === 0 || terms.charCodeAt(at - 1) === SPACE) &&
      (end === terms.length || terms.charCodeAt(end) === SPACE)
    )
      count++;
  }
  return count;
}
const SPACE = 32;

/**
 * How often each of the `wanted` terms (encoded) occurs in a chunk's stored terms, its file
 * name's counting FILENAME_WEIGHT times. Looked for one by one (a question has few terms):
 * splitting every candidate's terms cost more than the rest of ranking.
 */
function termCounts(body: string, name: string, wanted: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of wanted) {
    const tf = occurrences(body, term) + (name ? occurrences(name, term) * FILENAME_WEIGHT : 0);
    if (tf) counts.set(term, tf);
  }
  return counts;
}

/**
 * The search index of every workspace's searchable chunks, in the database beside them: one
 * FTS5 table per workspace, holding kb's own terms (identifiers whole, Porter2 stems), so that a
 * workspace's words weigh only on its own ranking. FTS5 finds the candidates; kb's BM25 and the
 * file evidence rank them. The caller tells it, inside the transaction that makes it so, which
 * chunks became searchable and which files' chunks stopped being.
 */
export class SearchIndex {
  readonly #db: Database;
  /** Workspace id -> the number of its tables. */
  readonly #tables = new Map<string, number>();
  readonly #statements = new Map<string, Statement>();
  readonly #frequencies = new Map<string, number>();
  /** Workspace table -> whether it holds parts staged (or rows to purge). */
  readonly #staged = new Map<number, boolean>();
  /** Whether withdrawn chunks' FTS5 rows may be waiting to be removed, and the next removal. */
  #purging = false;
  #purgeTimer: NodeJS.Immediate | NodeJS.Timeout | undefined;

  /** The chunks' vectors, with an embeddings endpoint: they follow the chunks in and out. */
  readonly vectors: ChunkVectors | undefined;

  constructor(db: Database, options: { vectors?: ChunkVectors } = {}) {
    this.#db = db;
    this.vectors = options.vectors;
    const { rebuild } = ensureSearchSchema(db);
    this.#loadTables();
    if (rebuild) this.#rebuild();
    // Left by a stop before they were removed.
    if (this.query('SELECT 1 FROM search_purge LIMIT 1').length) this.#purgeSoon();
  }

  /**
   * Indexes a large file's part as it is stored, not searchable yet: its terms are in the
   * workspace's FTS5 table (FTS5's own ranking counts them meanwhile), but not in search_chunks,
   * which every search, and the words' frequencies, go through.
   */
  staged(rows: SearchableRow[]): void {
    this.#changed();
    this.#index(rows, 'search_staged');
  }

  /**
   * Indexes chunks that have just become searchable (call inside their transaction), with the
   * parts staged for `partsOf`; vectors staged for their file go in with them.
   */
  searchable(rows: SearchableRow[], partsOf?: { workspaceId: string; fileId: string }): void {
    this.#changed();
    const files = new Map<string, { workspaceId: string; rowids: number[] }>();
    if (partsOf) {
      const { fileId } = partsOf;
      const [n, chunks, terms] = this.query<[number | null, number, number | null]>(
        'SELECT min(n), count(*), sum(length) FROM search_staged WHERE file_id = ?',
        fileId,
      )[0]!;
      // A file's parts are all in its workspace's table.
      if (n !== null) this.#count(n, chunks, terms ?? 0);
      // Their rows only for the vectors staged with them.
      const rowids = this.vectors
        ? this.query<[number]>(
            'SELECT rowid FROM search_staged WHERE file_id = ? ORDER BY rowid',
            fileId,
          ).map(([rowid]) => rowid)
        : [];
      this.#statement(
        'INSERT INTO search_chunks (rowid, n, file_id, length) SELECT rowid, n, file_id, length FROM search_staged WHERE file_id = ?',
      ).run(fileId);
      this.#statement('DELETE FROM search_staged WHERE file_id = ?').run(fileId);
      files.set(fileId, { workspaceId: partsOf.workspaceId, rowids });
    }
    const added = this.#index(rows, 'search_chunks');
    for (const [n, { chunks, terms }] of added) this.#count(n, chunks, terms);
    for (const { rowid, workspaceId, fileId } of rows) {
      const file = files.get(fileId) ?? { workspaceId, rowids: [] };
      file.rowids.push(rowid);
      files.set(fileId, file);
    }
    if (this.vectors)
      for (const [fileId, { workspaceId, rowids }] of files)
        this.vectors.searchable(workspaceId, fileId, rowids);
  }

  /** Puts rows' terms into their workspace's FTS5 table, and their lengths into `table`. */
  #index(
    rows: SearchableRow[],
    table: 'search_chunks' | 'search_staged',
  ): Map<number, { chunks: number; terms: number }> {
    const added = new Map<number, { chunks: number; terms: number }>();
    // A row number a withdrawn chunk had, given again, takes its FTS5 row's place.
    if (this.#purging)
      this.#purgeRows(
        this.query<[number, number]>(
          'SELECT rowid, n FROM search_purge WHERE rowid IN (SELECT value FROM json_each(?))',
          JSON.stringify(rows.map((r) => r.rowid)),
        ),
      );
    const tables = new Map<string, number>();
    const names = new Map<string, IndexedTerms>();
    for (const { rowid, workspaceId, fileId, filename, text, indexed } of rows) {
      let n = tables.get(workspaceId);
      if (n === undefined) tables.set(workspaceId, (n = this.#tableOf(workspaceId, true)!));
      const body = indexed ?? indexedText(text);
      let name = names.get(filename);
      if (!name) names.set(filename, (name = indexedText(filename)));
      const length = body.count + name.count * FILENAME_WEIGHT;
      this.#statement(`INSERT INTO ${ftsTable(n)} (rowid, body, name) VALUES (?, ?, ?)`).run(
        rowid,
        body.terms,
        name.terms,
      );
      this.#statement(`INSERT INTO ${table} (rowid, n, file_id, length) VALUES (?, ?, ?, ?)`).run(
        rowid,
        n,
        fileId,
        length,
      );
      const stats = added.get(n) ?? { chunks: 0, terms: 0 };
      stats.chunks++;
      stats.terms += length;
      added.set(n, stats);
    }
    return added;
  }

  /** Takes chunks out of the index, searchable or staged (call inside the transaction that withdraws them). */
  withdrawn(rowids: number[]): void {
    if (!rowids.length) return;
    this.#changed();
    const list = JSON.stringify(rowids);
    const removed = new Map<number, { chunks: number; terms: number }>();
    const later = rowids.length > PURGED_AT_ONCE;
    const selected = 'SELECT value FROM json_each(?)';
    for (const table of ['search_chunks', 'search_staged'] as const) {
      if (table === 'search_chunks')
        for (const [n, chunks, terms] of this.query<[number, number, number]>(
          `SELECT n, count(*), sum(length) FROM search_chunks WHERE rowid IN (${selected}) GROUP BY n`,
          list,
        ))
          removed.set(n, { chunks, terms });
      if (later) {
        // Their FTS5 rows are removed later, a part at a time; these go now, so no search finds them.
        this.#statement(
          `INSERT INTO search_purge (rowid, n) SELECT rowid, n FROM ${table} WHERE rowid IN (${selected})`,
        ).run(list);
      } else
        for (const [rowid, n] of this.query<[number, number]>(
          `SELECT rowid, n FROM ${table} WHERE rowid IN (${selected})`,
          list,
        ))
          this.#statement(`DELETE FROM ${ftsTable(n)} WHERE rowid = ?`).run(rowid);
      this.#statement(`DELETE FROM ${table} WHERE rowid IN (${selected})`).run(list);
    }
    for (const [n, { chunks, terms }] of removed) this.#count(n, -chunks, -terms);
    this.vectors?.withdrawn(rowids);
    if (later) this.#purgeSoon();
  }

  /**
   * Removes the FTS5 rows of withdrawn chunks PURGED_AT_ONCE at a time, each part a transaction
   * of its own, with requests answered between them. Meanwhile searches read only the chunks in
   * search_chunks (see hasStaged), so a deleted file is out of every answer at once.
   */
  #purgeSoon(): void {
    if (this.#purging && this.#purgeTimer) return;
    this.#purging = true;
    this.#purgeTimer = setImmediate(() => this.#purgePart());
  }

  #purgePart(): void {
    this.#purgeTimer = undefined;
    if (!this.#db.open) return;
    let left: boolean;
    try {
      left = this.#db.transaction(() => {
        this.#purgeRows(
          this.query<[number, number]>(
            'SELECT rowid, n FROM search_purge ORDER BY rowid LIMIT ?',
            PURGED_AT_ONCE,
          ),
        );
        return this.query('SELECT 1 FROM search_purge LIMIT 1').length > 0;
      })();
    } catch (err) {
      // The disk refused it (full): the rows wait, out of every search, until it takes them.
      // Anything else leaves them so until the next start, rather than trying again forever.
      if (!isStorageFailure(err)) return;
      this.#purgeTimer = setTimeout(() => this.#purgePart(), PURGE_RETRY_MS);
      this.#purgeTimer.unref();
      return;
    }
    if (left) this.#purgeTimer = setImmediate(() => this.#purgePart());
    else this.#purging = false;
    this.#changed();
  }

  #purgeRows(rows: [rowid: number, n: number][]): void {
    for (const [rowid, n] of rows) {
      this.#statement(`DELETE FROM ${ftsTable(n)} WHERE rowid = ?`).run(rowid);
      this.#statement('DELETE FROM search_purge WHERE rowid = ?').run(rowid);
    }
  }

  /** Stops removing withdrawn rows (kb serve stopping); what is left is removed at the next start. */
  close(): void {
    clearImmediate(this.#purgeTimer as NodeJS.Immediate);
    clearTimeout(this.#purgeTimer as NodeJS.Timeout);
    this.#purgeTimer = undefined;
  }

  #count(n: number, chunks: number, terms: number): void {
    this.#statement('UPDATE search_stats SET chunks = chunks + ?, terms = terms + ? WHERE n = ?').run(
      chunks,
      terms,
      n,
    );
  }

  /** A searchable chunk of the workspace, by its id (`<file id>:<n>`). */
  chunk(workspaceId: string, id: string): Chunk | undefined {
    const at = id.lastIndexOf(':');
    if (at <= 0) return undefined;
    // By its file and number, which the chunks table is indexed by (`id` is not).
    const row = this.#statement(
      `SELECT ${CHUNK_COLUMNS} FROM chunks WHERE file_id = ? AND n = ? AND workspace_id = ? AND live = 1`,
    )
      .raw()
      .get(id.slice(0, at), Number(id.slice(at + 1)), workspaceId) as ChunkRow | undefined;
    return row?.[1] === id ? chunkOf(row) : undefined;
  }

  /** Chunks by their rows (those still there). */
  chunks(rowids: number[]): Map<number, Chunk> {
    const rows = this.query<ChunkRow>(
      `SELECT ${CHUNK_COLUMNS} FROM chunks WHERE rowid IN (SELECT value FROM json_each(?))`,
      JSON.stringify(rowids),
    );
    return new Map(rows.map((row) => [row[0], chunkOf(row)]));
  }

  /** A file's searchable chunks with their rows, in order (what its vectors are made of). */
  fileChunks(fileId: string): { rowids: number[]; chunks: Chunk[] } {
    const rows = this.query<ChunkRow>(
      `SELECT ${CHUNK_COLUMNS} FROM chunks WHERE file_id = ? AND live = 1 ORDER BY n`,
      fileId,
    );
    return { rowids: rows.map((row) => row[0]), chunks: rows.map(chunkOf) };
  }

  /** One workspace's view: search, and what its words weigh. */
  workspace(workspaceId: string): WorkspaceSearch {
    return new WorkspaceSearch(this, workspaceId);
  }

  /**
   * The workspace's number, creating its tables when asked to. Tables made inside a transaction
   * that was rolled back (a full disk at a workspace's first file) are gone: the map is read again.
   */
  #tableOf(workspaceId: string, create = false): number | undefined {
    let n = this.#tables.get(workspaceId);
    if (
      n !== undefined &&
      !this.#statement('SELECT 1 FROM sqlite_master WHERE name = ?').raw().get(ftsTable(n))
    ) {
      this.#statements.clear();
      this.#loadTables();
      n = this.#tables.get(workspaceId);
    }
    if (n === undefined && create) {
      n = Number(
        this.#statement('INSERT INTO search_workspaces (workspace_id) VALUES (?)').run(workspaceId)
          .lastInsertRowid,
      );
      createWorkspaceTables(this.#db, n);
      this.#tables.set(workspaceId, n);
    }
    return n;
  }

  #loadTables(): void {
    this.#tables.clear();
    const rows = this.#db.prepare('SELECT workspace_id, n FROM search_workspaces').raw().all() as [
      string,
      number,
    ][];
    for (const [workspaceId, n] of rows) this.#tables.set(workspaceId, n);
  }

  /** A statement, prepared once. */
  #statement(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, (statement = this.#db.prepare(sql) as Statement));
    return statement;
  }

  /** Indexes every live chunk again (a new index, or one of another version). */
  #rebuild(): void {
    const rows = this.#db
      .prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks WHERE live = 1 ORDER BY rowid`)
      .raw()
      .iterate() as IterableIterator<ChunkRow>;
    let batch: SearchableRow[] = [];
    const flush = this.#db.transaction((rows: SearchableRow[]) => this.searchable(rows));
    for (const row of rows) {
      batch.push(searchableOf(row));
      if (batch.length === 500) {
        flush(batch);
        batch = [];
      }
    }
    if (batch.length) flush(batch);
  }

  /** @internal For WorkspaceSearch. */
  query<T>(sql: string, ...params: unknown[]): T[] {
    return this.#statement(sql)
      .raw()
      .all(...params) as T[];
  }

  /**
   * @internal How many searchable chunks of workspace table `n` hold `term`. Kept until the index
   * next changes: a question asks for the same words' weights several times.
   */
  frequency(n: number, term: string): number {
    const key = `${n} ${term}`;
    let df = this.#frequencies.get(key);
    if (df === undefined) {
      if (this.#frequencies.size >= FREQUENCIES_KEPT) this.#frequencies.clear();
      this.#frequencies.set(key, (df = this.#holding(n, term)));
    }
    return df;
  }

  #holding(n: number, term: string): number {
    // FTS5's vocabulary counts the parts staged too: while a table has some, the chunks holding
    // the word are counted through search_chunks (a pass over its postings, a few milliseconds
    // for a common word), or a large file being indexed would weigh on every search.
    if (this.hasStaged(n)) {
      const table = ftsTable(n);
      const [row] = this.query<[number]>(
        `SELECT count(*) FROM ${table} CROSS JOIN search_chunks s ON s.rowid = ${table}.rowid WHERE ${table} MATCH ?`,
        phrase(term),
      );
      return row?.[0] ?? 0;
    }
    const [row] = this.query<[number]>(`SELECT doc FROM ${vocabTable(n)} WHERE term = ?`, encode(term));
    return row?.[0] ?? 0;
  }

  /**
   * @internal Whether workspace table `n` holds rows that are not searchable chunks: parts staged,
   * or withdrawn chunks' rows yet to be removed (kept until the index next changes).
   */
  hasStaged(n: number): boolean {
    let staged = this.#staged.get(n);
    if (staged === undefined)
      this.#staged.set(
        n,
        (staged =
          this.query('SELECT 1 FROM search_staged WHERE n = ? LIMIT 1', n).length > 0 ||
          (this.#purging && this.query('SELECT 1 FROM search_purge WHERE n = ? LIMIT 1', n).length > 0)),
      );
    return staged;
  }

  /** What was read of the index is read again. */
  #changed(): void {
    this.#frequencies.clear();
    this.#staged.clear();
  }

  /** @internal */
  tableOf(workspaceId: string): number | undefined {
    return this.#tableOf(workspaceId);
  }
}

const CHUNK_COLUMNS = 'rowid, id, file_id, workspace_id, filename, text, page_first, page_last';
type ChunkRow = [
  rowid: number,
  id: string,
  fileId: string,
  workspaceId: string,
  filename: string,
  text: string,
  pageFirst: number | null,
  pageLast: number | null,
];

function chunkOf([, id, fileId, , filename, text, first, last]: ChunkRow): Chunk {
  return { id, fileId, filename, text, ...(first !== null && last !== null ? { pages: [first, last] } : {}) };
}

function searchableOf(row: ChunkRow): SearchableRow {
  return { rowid: row[0], workspaceId: row[3], ...chunkOf(row) };
}

/** A chunk FTS5 found: its row, stored terms, file name's terms, file and length in terms. */
type Candidate = [rowid: number, body: string, name: string, fileId: string, length: number];

/** One workspace's search: BM25 over its chunks, as ChunkIndex answered it. */
export class WorkspaceSearch {
  readonly #index: SearchIndex;
  readonly #n: number | undefined;
  readonly #chunks: number;
  readonly #averageLength: number;

  constructor(index: SearchIndex, workspaceId: string) {
    this.#index = index;
    this.#n = index.tableOf(workspaceId);
    const [stats] =
      this.#n === undefined
        ? []
        : index.query<[number, number]>('SELECT chunks, terms FROM search_stats WHERE n = ?', this.#n);
    this.#chunks = stats?.[0] ?? 0;
    this.#averageLength = stats && stats[0] ? stats[1] / stats[0] : 1;
  }

  get chunkCount(): number {
    return this.#chunks;
  }

  /** How many searchable chunks hold a term. */
  documentFrequency(term: string): number {
    if (this.#n === undefined) return 0;
    return this.#index.frequency(this.#n, term);
  }

  /** A term's inverse document frequency, as BM25 weighs it (a term found nowhere weighs most). */
  idf(term: string): number {
    return this.#idfOf(this.documentFrequency(term));
  }

  #idfOf(df: number): number {
    return Math.log(1 + (this.#chunks - df + 0.5) / (df + 0.5));
  }

  /** The best `limit` chunks for `query`, best first. */
  search(query: string, limit = 5): Hit[] {
    return this.searchEach([query], limit)[0]!;
  }

  /**
   * The best `limit` chunks for each of `queries`, best first, with one FTS5 pass over all their
   * words: a follow-up is searched alone and with the question before it, which as two searches
   * cost twice.
   */
  searchEach(queries: string[], limit = 5): Hit[][] {
    const termsOf = queries.map((query) => [...new Set(indexTerms(query))]);
    if (this.#chunks === 0) return queries.map(() => []);
    // Exact terms first: expansion reads the vocabulary, so it is used only when exact terms
    // find too little.
    const compounds = queries.map((query) => this.#compounds(query));
    const exact = termsOf.map((terms, i) => [
      ...terms.map((t) => ({ queryTerm: t, term: t, weight: 1 })),
      ...compounds[i]!,
    ]);
    // A word no document holds is looked for as spelled otherwise (a typo: "defualt") whatever
    // the others find; not as the start of longer words, which would make a name no document
    // gives ("Redis") a word some do ("redistribute").
    // Searched again only with a word spelled otherwise: else the same words would find the same.
    const again = (hits: Hit[], lookups: Lookup[], compound: Lookup[]) =>
      lookups.some((l) => l.term !== l.queryTerm)
        ? this.#rank([withCompounds(lookups, compound)], limit)[0]!
        : hits;
    return this.#rank(exact, limit).map((hits, i) => {
      const terms = termsOf[i]!;
      if (!terms.length) return hits;
      if (hits.length < limit) return again(hits, this.#expand(terms), compounds[i]!);
      const unknown = terms.filter((t) => this.documentFrequency(t) === 0);
      if (!unknown.length) return hits;
      const corrected = [
        ...terms.filter((t) => !unknown.includes(t)).map((t) => ({ queryTerm: t, term: t, weight: 1 })),
        ...this.#expand(unknown, { prefixes: false }),
      ];
      return again(hits, corrected, compounds[i]!);
    });
  }

  /**
   * The best `limit` chunks for `query` among those of the files `fileIds`: where a follow-up
   * goes on in the document the answer before it drew on ("And how do I connect to a port other
   * than the default?" after scp's `-r`: scp's `-P`, which the whole workspace ranks below rsync's
   * `--port`). Its words as typed only.
   */
  searchWithin(query: string, fileIds: string[], limit = 5): Hit[] {
    const terms = [...new Set(indexTerms(query))];
    if (this.#chunks === 0 || !terms.length || !fileIds.length) return [];
    const lookups = [...terms.map((t) => ({ queryTerm: t, term: t, weight: 1 })), ...this.#compounds(query)];
    return this.#rank([lookups], limit, fileIds)[0]!;
  }

  /**
   * Two words the query says one after the other that the workspace writes as one ("block size":
   * mke2fs.conf's `blocksize`, "time out": `timeout`): that word, for each of the two.
   */
  #compounds(query: string): Lookup[] {
    const said = fold(query).match(/[\p{L}\p{N}]+/gu) ?? [];
    const lookups: Lookup[] = [];
    for (let i = 1; i < said.length; i++) {
      const [first, second] = [said[i - 1]!, said[i]!];
      if (!/^\p{L}{2,}$/u.test(first) || !/^\p{L}{2,}$/u.test(second)) continue;
      if (STOP_WORDS.has(first) || STOP_WORDS.has(second)) continue;
      const term = stem(first + second);
      if (this.documentFrequency(term) === 0) continue;
      // As much as each word would weigh itself: a rare compound (Python's `exitcode`) is no
      // stronger evidence of "exit code" than the two words.
      const compound = this.idf(term);
      for (const word of [first, second]) {
        const queryTerm = stem(word);
        lookups.push({ queryTerm, term, weight: Math.min(1, this.idf(queryTerm) / compound) });
      }
    }
    return lookups;
  }

  #expand(queryTerms: string[], { prefixes = true } = {}): Lookup[] {
    const lookups: Lookup[] = [];
    const vocabulary = vocabTable(this.#n!);
    const staged = this.#index.hasStaged(this.#n!);
    for (const queryTerm of queryTerms) {
      lookups.push({ queryTerm, term: queryTerm, weight: 1 });
      if (queryTerm.length <= 3) continue;
      const maxEdits = queryTerm.length > 5 ? Math.max(1, Math.floor(queryTerm.length * 0.2)) : 0;
      if (!prefixes && !maxEdits) continue;
      const found: { term: string; weight: number; df: number }[] = [];
      const prefix = encode(queryTerm);
      // Near spellings are looked for among the words that begin as the query term does, or
      // with its first letter and its third (two letters swapped): reading the whole vocabulary
      // costs FTS5 a pass over every word's postings.
      const ranges = maxEdits ? [prefix.slice(0, 2), prefix[0]! + prefix[2]!] : [prefix];
      const rows = [...new Set(ranges)].flatMap((start) =>
        this.#index.query<[string, number]>(
          `SELECT term, doc FROM ${vocabulary} WHERE term >= ? AND term < ?`,
          start,
          `${start}\u{10ffff}`,
        ),
      );
      for (const [encoded, df] of rows) {
        const term = decode(encoded);
        if (term === queryTerm) continue;
        if (term.startsWith(queryTerm)) {
          if (prefixes) found.push({ term, weight: PREFIX_WEIGHT, df });
        } else if (maxEdits && withinEdits(queryTerm, term, maxEdits))
          found.push({ term, weight: FUZZY_WEIGHT, df });
      }
      found.sort((a, b) => b.df - a.df);
      let expansions = 0;
      for (const { term, weight } of found) {
        if (expansions === MAX_EXPANSIONS) break;
        // The vocabulary holds the words of parts staged too: a word no searchable chunk holds
        // would be looked for alone (the rarest first), and find nothing.
        if (staged && this.documentFrequency(term) === 0) continue;
        lookups.push({ queryTerm, term, weight });
        expansions++;
      }
    }
    return lookups;
  }

  /** Each set of lookups' best `limit` chunks, among the candidates FTS5 finds for all of them. */
  #rank(lookupSets: Lookup[][], limit: number, within: string[] = []): Hit[][] {
    const termsOf = lookupSets.map((lookups) => [...new Set(lookups.map((l) => l.term))]);
    const frequency = new Map(termsOf.flat().map((t) => [t, this.documentFrequency(t)]));
    const chosen = new Set(termsOf.flatMap((terms) => candidateTerms(terms, frequency, this.#chunks)));
    if (!chosen.size) return lookupSets.map(() => []);
    const table = ftsTable(this.#n!);
    // While a large file's parts are staged in the FTS5 table, FTS5 is asked for searchable
    // chunks only, or the parts would take their places (CROSS JOIN: FTS5 finds the rows, each
    // looked up in search_chunks; the lookups cost a fifth more, so only then).
    const inFiles = within.length
      ? ` AND ${table}.rowid IN (SELECT rowid FROM search_chunks WHERE file_id IN (${within.map(() => '?').join(', ')}))`
      : '';
    const top = this.#index.hasStaged(this.#n!)
      ? `SELECT ${table}.rowid AS rowid, bm25(${table}, 1.0, ${FILENAME_WEIGHT}.0) AS score
         FROM ${table} CROSS JOIN search_chunks s ON s.rowid = ${table}.rowid
         WHERE ${table} MATCH ?${inFiles} ORDER BY score LIMIT ?`
      : `SELECT rowid, bm25(${table}, 1.0, ${FILENAME_WEIGHT}.0) AS score FROM ${table} WHERE ${table} MATCH ?${inFiles} ORDER BY score LIMIT ?`;
    const candidates = this.#index.query<Candidate>(
      `WITH top AS (${top})
       SELECT top.rowid, f.body, f.name, s.file_id, s.length
       FROM top JOIN ${table} f ON f.rowid = top.rowid JOIN search_chunks s ON s.rowid = top.rowid`,
      [...chosen].map(phrase).join(' OR '),
      ...within,
      CANDIDATES * lookupSets.length,
    );
    return lookupSets.map((lookups, i) => this.#score(lookups, termsOf[i]!, frequency, candidates, limit));
  }

  /** The best `limit` of `candidates` for `lookups`, by kb's BM25 and the file evidence. */
  #score(
    lookups: Lookup[],
    terms: string[],
    frequency: Map<string, number>,
    candidates: Candidate[],
    limit: number,
  ): Hit[] {
    if (!candidates.length || !lookups.length) return [];
    const idf = new Map(terms.map((t) => [t, this.#idfOf(frequency.get(t)!)]));
    const queryTerms = [...new Set(lookups.map((l) => l.queryTerm))].slice(0, TRACKED_TERMS);
    const wanted = terms.map(encode);
    const scored = candidates.map(([rowid, body, name, fileId, length]) => {
      const counts = termCounts(body, name, wanted);
      const norm = K1 * (1 - B + (B * length) / this.#averageLength);
      let score = 0;
      /** Per query term, the score it brought (0: not held). */
      const byQueryTerm = new Float64Array(queryTerms.length);
      const matched: Lookup[] = [];
      for (const lookup of lookups) {
        const tf = counts.get(encode(lookup.term));
        if (!tf) continue;
        matched.push(lookup);
        const s = (idf.get(lookup.term)! * lookup.weight * (K1 + 1) * tf) / (tf + norm);
        score += s;
        const q = queryTerms.indexOf(lookup.queryTerm);
        if (q >= 0) byQueryTerm[q] = Math.max(byQueryTerm[q]!, s);
      }
      return { rowid, fileId, score, byQueryTerm, matched };
    });
    // Per file: each query term's best score in one of its chunks.
    const best = new Map<string, Float64Array>();
    for (const { fileId, byQueryTerm } of scored) {
      const bests = best.get(fileId) ?? new Float64Array(queryTerms.length);
      byQueryTerm.forEach((s, q) => {
        if (s > bests[q]!) bests[q] = s;
      });
      best.set(fileId, bests);
    }
    for (const entry of scored) {
      const bests = best.get(entry.fileId)!;
      let evidence = 0;
      bests.forEach((s, q) => {
        if (!entry.byQueryTerm[q]) evidence += s;
      });
      entry.score += FILE_EVIDENCE * evidence;
    }
    const top = scored
      .filter((e) => e.matched.length)
      .sort((a, b) => b.score - a.score || a.rowid - b.rowid)
      .slice(0, limit);
    const chunks = this.#index.chunks(top.map((e) => e.rowid));
    return top.flatMap(({ rowid, score, matched }) => {
      const chunk = chunks.get(rowid);
      if (!chunk) return [];
      return [
        {
          chunk,
          score,
          terms: [...new Set(matched.map((l) => l.term))],
          queryTerms: [...new Set(matched.map((l) => l.queryTerm))],
          expansions: matched
            .filter((l) => l.term !== l.queryTerm)
            .map((l) => [l.queryTerm, l.term] as [string, string]),
        },
      ];
    });
  }
}
