/** One file's vectors: the stamp its chunks were indexed under, one unit vector per chunk, end to end. */
interface FileVectors {
  stamp: string;
  count: number;
  data: Float32Array;
}

export interface VectorHit {
  fileId: string;
  /** The chunk's number in its file. */
  chunk: number;
  score: number;
}

/**
 * A workspace's chunk vectors (semantic retrieval), beside its search index: a file is in both
 * or in neither once indexed, and leaves both at once. Search is exact: a dot product with
 * every vector, which is fast enough for a local service (20,000 chunks of 768 numbers: ~15 ms).
 */
export class VectorIndex {
  readonly #files = new Map<string, FileVectors>();
  #dimensions = 0;

  get dimensions(): number {
    return this.#dimensions;
  }

  /**
   * Sets a file's vectors (one per chunk, in order), replacing what it had. False (nothing set)
   * when they are not of the index's dimensions (the endpoint changed its model meanwhile).
   */
  set(fileId: string, stamp: string, vectors: Float32Array[]): boolean {
    this.#files.delete(fileId);
    if (vectors.length === 0) return true;
    const dimensions = vectors[0]!.length;
    if (this.#files.size === 0) this.#dimensions = dimensions;
    if (dimensions !== this.#dimensions || vectors.some((v) => v.length !== dimensions)) return false;
    const data = new Float32Array(vectors.length * dimensions);
    vectors.forEach((v, i) => data.set(v, i * dimensions));
    this.#files.set(fileId, { stamp, count: vectors.length, data });
    return true;
  }

  remove(fileId: string): void {
    this.#files.delete(fileId);
  }

  stampOf(fileId: string): string | undefined {
    return this.#files.get(fileId)?.stamp;
  }

  get size(): number {
    return this.#files.size;
  }

  /** The `limit` chunks closest to `query` (a unit vector), closest first. */
  search(query: Float32Array, limit: number): VectorHit[] {
    if (query.length !== this.#dimensions) return [];
    const d = this.#dimensions;
    const best: VectorHit[] = [];
    for (const [fileId, file] of this.#files) {
      for (let c = 0; c < file.count; c++) {
        let score = 0;
        const at = c * d;
        for (let i = 0; i < d; i++) score += file.data[at + i]! * query[i]!;
        if (best.length === limit && score <= best[limit - 1]!.score) continue;
        let k = best.length;
        while (k > 0 && best[k - 1]!.score < score) k--;
        best.splice(k, 0, { fileId, chunk: c, score });
        if (best.length > limit) best.pop();
      }
    }
    return best;
  }
}
