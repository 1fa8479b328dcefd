import type { SearchHit, SearchResult } from '../../api/types.js';
import type { Retrieval } from './assistant.js';

/** What the search route answers, less the query: the contract the client reads (api/types). */
export type Explained = Omit<SearchResult, 'query'>;

/**
 * What a retrieval found, ranked: first the chunks that hold an answering passage, those the
 * answer draws on by the rank of their best passage, then the others by score; then every other
 * chunk by score. At most `limit`. The question is answered as the assistant would: from the
 * passages found, or, with a generator, from the chunks relevant enough (`grounded`), which it is
 * given; chunks are marked answering only when it is (their order is the same either way).
 */
export function explainRetrieval(
  retrieval: Pick<Retrieval, 'hits' | 'passages' | 'grounded' | 'best'>,
  limit: number,
  { generator = false }: { generator?: boolean } = {},
): Explained {
  const answered = retrieval.passages.length > 0 || (generator && retrieval.grounded.length > 0);
  const answering = new Set(retrieval.grounded.map((h) => h.chunk.id));
  /** Per chunk, the answer's passages it holds and the best of their ranks. */
  const drawnOn = new Map<string, { best: number; passages: SearchHit['passages'] }>();
  for (const p of retrieval.passages) {
    const entry = drawnOn.get(p.chunk.id) ?? { best: -Infinity, passages: [] };
    entry.best = Math.max(entry.best, p.rank);
    entry.passages.push({ text: p.text, relevance: p.relevance });
    drawnOn.set(p.chunk.id, entry);
  }
  const order = (id: string) =>
    drawnOn.has(id) ? [0, -drawnOn.get(id)!.best] : answering.has(id) ? [1, 0] : [2, 0];
  const ranked = retrieval.hits
    .map((hit, at) => ({ hit, at, key: order(hit.chunk.id) }))
    .sort(
      (a, b) => a.key[0]! - b.key[0]! || a.key[1]! - b.key[1]! || b.hit.score - a.hit.score || a.at - b.at,
    );
  return {
    answered,
    data: ranked.slice(0, limit).map(({ hit }, i) => ({
      rank: i + 1,
      fileId: hit.chunk.fileId,
      filename: hit.chunk.filename,
      pages: hit.chunk.pages ? [hit.chunk.pages[0], hit.chunk.pages[1]] : null,
      score: hit.score,
      answers: answered && (answering.has(hit.chunk.id) || drawnOn.has(hit.chunk.id)),
      text: hit.chunk.text,
      passages: drawnOn.get(hit.chunk.id)?.passages ?? [],
      best: bestOf(retrieval.best?.get(hit.chunk.id)),
    })),
  };
}

/** A chunk's passage most relevant to the question, as the route gives it (null: none scored). */
function bestOf(passage: { text: string; relevance: number } | undefined): SearchHit['best'] {
  return passage ? { text: passage.text, relevance: passage.relevance } : null;
}
