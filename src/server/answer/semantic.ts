import { passagesOf } from './passages.js';
import type { QuestionTerm } from './relevance.js';
import type { Hit } from '../search/hit.js';
import type { Library } from './assistant.js';
import { cosine } from '../search/embeddings/client.js';
import type { Embeddings } from '../search/embeddings/embeddings.js';

/** The constant of reciprocal rank fusion: a result at rank r counts 1 / (K + r). */
const RRF_K = 60;
/**
 * A lexical hit takes part in the fusion only when the question words it holds carry this share
 * of the question's weight: a chunk that shares one common word with a paraphrase would
 * otherwise outrank the vector hits that found its meaning.
 */
const LEXICAL_COVER = 0.5;
const VECTOR_HITS = 8;
const FUSED_HITS = 8;

export interface SemanticRetrieval {
  /** Lexical and vector hits fused, best first. */
  hits: Hit[];
  /** Per passage text of those hits, its cosine with the question. */
  similarity: Map<string, number>;
}

/**
 * Retrieval by meaning beside BM25: the question's nearest chunk vectors fused with the lexical
 * hits that hold enough of it (reciprocal rank fusion), and the similarity of each of their
 * passages to the question. Undefined when there is nothing to search or the endpoint fails
 * (the caller goes on with BM25 alone).
 */
export async function semanticRetrieval(
  library: Library,
  workspaceId: string,
  embeddings: Embeddings,
  query: string,
  lexical: Hit[],
  terms: QuestionTerm[],
): Promise<SemanticRetrieval | undefined> {
  const vectors = library.vectors;
  if (!vectors?.has(workspaceId)) return undefined;
  const question = await embeddings.query(query);
  if (!question) return undefined;
  const total = terms.reduce((sum, t) => sum + t.weight, 0);
  const held = (hit: Hit) =>
    terms.filter((t) => hit.queryTerms.includes(t.stem)).reduce((sum, t) => sum + t.weight, 0);
  const fused = new Map<string, { hit: Hit; score: number }>();
  const add = (hit: Hit, rank: number) => {
    const entry = fused.get(hit.chunk.id) ?? { hit, score: 0 };
    entry.score += 1 / (RRF_K + rank);
    fused.set(hit.chunk.id, entry);
  };
  lexical.filter((h) => total > 0 && held(h) / total >= LEXICAL_COVER).forEach((h, i) => add(h, i + 1));
  const near = vectors.search(workspaceId, question, VECTOR_HITS);
  const chunks = library.search.chunks(near.map((v) => v.rowid));
  near.forEach((v, i) => {
    const chunk = chunks.get(v.rowid);
    if (chunk)
      add(
        fused.get(chunk.id)?.hit ?? { chunk, score: v.score, terms: [], queryTerms: [], expansions: [] },
        i + 1,
      );
  });
  const hits = [...fused.values()]
    .sort((a, b) => b.score - a.score)
    .slice(0, FUSED_HITS)
    .map((e) => e.hit);
  const texts = [...new Set(hits.flatMap((h) => passagesOf(h.chunk).map((p) => p.text)))];
  const passageVectors = await embeddings.passages(texts);
  const similarity = new Map<string, number>();
  texts.forEach((t, i) => {
    const v = passageVectors[i];
    if (v) similarity.set(t, cosine(question, v));
  });
  return { hits, similarity };
}
