import type { Database, Statement } from '../state/database.js';

/** A chunk near a question: its row in the chunks table, and the cosine of the two. */
export interface VectorHit {
  rowid: number;
  score: number;
}

const blobOf = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/**
 * The chunks' vectors (semantic retrieval, with an embeddings endpoint), in the database beside
 * them: a file's chunks are searchable with their vectors or without any, and leave with them.
 * Kept per model: another model's vectors are not compared, and its files are embedded again.
 * Search is exact (SQLite computes each cosine), which a local service can afford.
 */
export class ChunkVectors {
  readonly #db: Database;
  readonly #model: string;
  readonly #staged = new Map<string, Float32Array[]>();
  readonly #statements = new Map<string, Statement>();

  constructor(db: Database, model: string) {
    this.#db = db;
    this.#model = model;
    db.exec(`
      CREATE TABLE IF NOT EXISTS search_vectors (
        rowid INTEGER PRIMARY KEY REFERENCES chunks(rowid) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL,
        file_id TEXT NOT NULL,
        model TEXT NOT NULL,
        dimensions INTEGER NOT NULL,
        vector BLOB NOT NULL
      );
      CREATE INDEX IF NOT EXISTS search_vectors_by_workspace ON search_vectors(workspace_id, model);
      CREATE INDEX IF NOT EXISTS search_vectors_by_file ON search_vectors(file_id);
    `);
    this.#statement('DELETE FROM search_vectors WHERE model != ?').run(model);
  }

  /**
   * Vectors for a file being indexed, one per chunk: they go in with its chunks when these
   * become searchable (the file's next indexing step), or not at all.
   */
  stage(fileId: string, vectors: Float32Array[]): void {
    this.#staged.set(fileId, vectors);
  }

  /**
   * A file's chunks became searchable (inside their transaction): its staged vectors go in with
   * them when they are the vectors of these chunks.
   */
  searchable(workspaceId: string, fileId: string, rowids: number[]): void {
    const staged = this.#staged.get(fileId);
    this.#staged.delete(fileId);
    if (staged?.length === rowids.length) this.#insert(workspaceId, fileId, rowids, staged);
  }

  /** Vectors made later for a file already searchable (after a restart, or once the endpoint answers again). */
  add(workspaceId: string, fileId: string, rowids: number[], vectors: Float32Array[]): boolean {
    if (rowids.length !== vectors.length) return false;
    this.#db.transaction(() => {
      this.#statement('DELETE FROM search_vectors WHERE file_id = ?').run(fileId);
      this.#insert(workspaceId, fileId, rowids, vectors);
    })();
    return true;
  }

  /** Chunks withdrawn from search (call inside their transaction): their vectors go with them. */
  withdrawn(rowids: number[]): void {
    this.#statement('DELETE FROM search_vectors WHERE rowid IN (SELECT value FROM json_each(?))').run(
      JSON.stringify(rowids),
    );
  }

  /** The files with searchable chunks and no vectors of this model. */
  unembedded(): { workspaceId: string; fileId: string }[] {
    return (
      this.#statement(
        `SELECT DISTINCT c.workspace_id, c.file_id FROM chunks c
         WHERE c.live = 1 AND NOT EXISTS (SELECT 1 FROM search_vectors v WHERE v.file_id = c.file_id)`,
      )
        .raw()
        .all() as [string, string][]
    ).map(([workspaceId, fileId]) => ({ workspaceId, fileId }));
  }

  has(workspaceId: string): boolean {
    return !!this.#statement('SELECT 1 FROM search_vectors WHERE workspace_id = ? AND model = ? LIMIT 1')
      .raw()
      .get(workspaceId, this.#model);
  }

  /** The `limit` chunks closest to `query` (a unit vector), closest first. */
  search(workspaceId: string, query: Float32Array, limit: number): VectorHit[] {
    const rows = this.#statement(
      `SELECT rowid, vector_distance_cos(vector, ?) AS distance FROM search_vectors
       WHERE workspace_id = ? AND model = ? AND dimensions = ?
       ORDER BY distance LIMIT ?`,
    )
      .raw()
      .all(blobOf(query), workspaceId, this.#model, query.length, limit) as [number, number][];
    return rows.map(([rowid, distance]) => ({ rowid, score: 1 - distance }));
  }

  #insert(workspaceId: string, fileId: string, rowids: number[], vectors: Float32Array[]): void {
    const insert = this.#statement(
      'INSERT INTO search_vectors (rowid, workspace_id, file_id, model, dimensions, vector) VALUES (?, ?, ?, ?, ?, ?)',
    );
    rowids.forEach((rowid, i) =>
      insert.run(rowid, workspaceId, fileId, this.#model, vectors[i]!.length, blobOf(vectors[i]!)),
    );
  }

  #statement(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, (statement = this.#db.prepare(sql) as Statement));
    return statement;
  }
}
