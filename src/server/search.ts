import MiniSearch from 'minisearch';
import type { Chunk } from './model.js';

export interface Hit {
  chunk: Chunk;
  score: number;
  terms: string[];
  queryTerms: string[];
}

const STOP_WORDS = new Set(
  'a an and are as at be but by can do does for from has have how i in is it its me my of on or our so that the their them there these this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

/** A workspace's search index over the chunks of its COMPLETED, non-deleted files. */
export class ChunkIndex {
  readonly #index = new MiniSearch<Chunk>({
    fields: ['text', 'filename'],
    storeFields: ['fileId', 'filename', 'text'],
    processTerm: (term) => {
      const lower = term.toLowerCase();
      return STOP_WORDS.has(lower) ? null : lower;
    },
    searchOptions: {
      boost: { filename: 1.5 },
      prefix: (term) => term.length > 3,
      fuzzy: (term) => (term.length > 5 ? 0.2 : 0),
    },
  });
  readonly #byFile = new Map<string, string[]>();

  add(chunks: Chunk[]): void {
    if (chunks.length === 0) return;
    const fileId = chunks[0]!.fileId;
    this.remove(fileId);
    this.#index.addAll(chunks);
    this.#byFile.set(
      fileId,
      chunks.map((c) => c.id),
    );
  }

  remove(fileId: string): void {
    const ids = this.#byFile.get(fileId);
    if (!ids) return;
    for (const id of ids) this.#index.discard(id);
    this.#byFile.delete(fileId);
  }

  has(fileId: string): boolean {
    return this.#byFile.has(fileId);
  }

  search(query: string, limit = 5): Hit[] {
    if (!query.trim()) return [];
    // Exact terms first: prefix and fuzzy expansion multiply the terms to look up (and the time
    // taken) with the size of the vocabulary, so they are used only when exact terms find too little.
    const exact = this.#index.search(query, { combineWith: 'OR', prefix: false, fuzzy: false });
    const results = exact.length >= limit ? exact : this.#index.search(query, { combineWith: 'OR' });
    return results.slice(0, limit).map((r) => ({
      chunk: {
        id: String(r.id),
        fileId: r.fileId as string,
        filename: r.filename as string,
        text: r.text as string,
      },
      score: r.score,
      terms: r.terms,
      queryTerms: r.queryTerms,
    }));
  }
}
