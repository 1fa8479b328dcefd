import { extractiveAnswer, type Library, type Reply, retrieve } from '../../src/server/answer/assistant.js';
import { stem } from '../../src/server/answer/relevance.js';
import type { SearchIndex } from '../../src/server/search/fts-index.js';
import type { Hit } from '../../src/server/search/hit.js';
import type { Chunk, MessageRecord } from '../../src/server/state/model.js';

/**
 * A library whose search finds `chunks` for every question, each a chunk of its id; a word weighs
 * its `idf` (1 unless given); the words `nowhere` are in no document. A chunk's `expansions` are
 * the query terms the search expanded to its words (by chunk id: [query term, indexed term]).
 */
export function libraryOf(
  chunks: Chunk[],
  idf: Record<string, number> = {},
  nowhere: string[] = [],
  expansions: Record<string, [string, string][]> = {},
): Library {
  const hits: Hit[] = chunks.map((c) => ({
    chunk: c,
    score: 1,
    terms: [],
    queryTerms: [],
    expansions: expansions[c.id] ?? [],
  }));
  const search = {
    workspace: () => ({
      searchEach: (queries: string[]) => queries.map(() => hits),
      searchWithin: (_: string, fileIds: string[]) => hits.filter((h) => fileIds.includes(h.chunk.fileId)),
      idf: (term: string) => idf[term] ?? 1,
      documentFrequency: (term: string) => (nowhere.includes(term) ? 0 : 1),
    }),
    chunk: (_: string, id: string) => chunks.find((c) => c.id === id),
  } as unknown as SearchIndex;
  return { search };
}

/** A chunk of the file `filename` (its `n`th; a document of one chunk by default): `text`. */
export const doc = (filename: string, text: string, n = 0): Chunk => ({
  id: `${filename}:${n}`,
  fileId: filename,
  filename,
  text,
});

/** The `n`th chunk of the file `filename`, its lines as given. */
export const docLines = (filename: string, n: number, lines: string[]): Chunk =>
  doc(filename, lines.join('\n'), n);

/** Words' weights keyed as the index keys them (by stem): `{ passphrase: 4.5 }`. */
export const weightsOf = (weights: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(weights).map(([w, n]) => [stem(w), n]));

/** The extractive answer `library` gives `question`, asked alone (no thread before it). */
/** The reply `library` gives `question` asked alone. */
export async function replyOf(library: Library, question: string): Promise<Reply> {
  return extractiveAnswer(await retrieve(library, 'ws', question, []));
}

export async function answerOf(library: Library, question: string): Promise<string> {
  return (await replyOf(library, question)).content;
}

/** A question and the reply the assistant gave it, as its thread stores them (the `n`th exchange). */
export function exchange(question: string, reply: Reply, n = 0): MessageRecord[] {
  return [
    { id: `msg_${n}q`, threadId: 'thr', role: 'user', content: question, createdAt: '' },
    {
      id: `msg_${n}a`,
      threadId: 'thr',
      role: 'assistant',
      content: reply.content,
      sources: reply.sources,
      drawnFrom: reply.drawnFrom,
      createdAt: '',
    },
  ] as MessageRecord[];
}

/** The replies `library` gives `question` asked alone, then `followUp` asked after it in its thread. */
export async function followUpOf(
  library: Library,
  question: string,
  followUp: string,
): Promise<{ first: Reply; next: Reply }> {
  const first = await replyOf(library, question);
  const next = extractiveAnswer(await retrieve(library, 'ws', followUp, exchange(question, first)));
  return { first, next };
}
