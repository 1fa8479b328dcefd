import type { Chunk } from '../state/model.js';

/** A chunk found for a query, with why. */
export interface Hit {
  chunk: Chunk;
  score: number;
  /** The indexed terms the chunk matched (a query term, or what it expanded to). */
  terms: string[];
  /** The query terms behind them. */
  queryTerms: string[];
  /** Query terms found under another word (a typo's correction, a prefix): [query term, indexed term]. */
  expansions: [queryTerm: string, term: string][];
}
