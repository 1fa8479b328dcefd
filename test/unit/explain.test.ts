import { describe, expect, it } from 'vitest';
import type { ScoredPassage } from '../../src/server/answer/ground.js';
import { explainRetrieval } from '../../src/server/answer/explain.js';
import type { Chunk } from '../../src/server/state/model.js';
import type { Hit } from '../../src/server/search/hit.js';

const chunk = (n: number, filename = `doc${n}.md`, pages?: [number, number]): Chunk => ({
  id: `file_${n}:0`,
  fileId: `file_${n}`,
  filename,
  text: `text of chunk ${n}`,
  ...(pages && { pages }),
});
const hit = (c: Chunk, score: number): Hit => ({
  chunk: c,
  score,
  terms: [],
  queryTerms: [],
  expansions: [],
});
const passage = (c: Chunk, rank: number, text = `passage of ${c.id}`): ScoredPassage => ({
  text,
  chunk: c,
  position: 0,
  line: 0,
  needsLead: false,
  subject: 0,
  exactSubject: 0,
  relevance: Math.min(1, rank),
  rank,
});

describe('explainRetrieval', () => {
  const [a, b, c, d, e] = [chunk(1), chunk(2, 'manual.pdf', [3, 4]), chunk(3), chunk(4), chunk(5)] as const;

  it('lists the chunks the answer draws on first, by their best passage, then the other answering ones, then the rest by score', () => {
    const explained = explainRetrieval(
      {
        // as retrieve gives them: by score
        hits: [hit(a, 9), hit(b, 7), hit(c, 5), hit(d, 3), hit(e, 1)],
        // in document order, as the answer is written: d's passage ranks above b's best
        passages: [passage(b, 0.7, 'b one'), passage(b, 0.8, 'b two'), passage(d, 0.9)],
        grounded: [b, c, d, e].map((x) => hit(x, 0)),
      },
      10,
    );
    expect(explained.answered).toBe(true);
    expect(explained.data.map((h) => [h.rank, h.fileId, h.answers])).toEqual([
      [1, 'file_4', true],
      [2, 'file_2', true],
      [3, 'file_3', true],
      [4, 'file_5', true],
      [5, 'file_1', false],
    ]);
    expect(explained.data[1]).toEqual({
      rank: 2,
      fileId: 'file_2',
      filename: 'manual.pdf',
      pages: [3, 4],
      score: 7,
      answers: true,
      text: 'text of chunk 2',
      passages: [
        { text: 'b one', relevance: 0.7 },
        { text: 'b two', relevance: 0.8 },
      ],
      best: null,
    });
    expect(explained.data[2]).toMatchObject({ pages: null, passages: [] });
  });

  it('with nothing that answers: answered false, every chunk by score, none answering', () => {
    const explained = explainRetrieval(
      { hits: [hit(a, 2), hit(b, 5), hit(c, 5)], passages: [], grounded: [] },
      10,
    );
    expect(explained.answered).toBe(false);
    expect(explained.data.map((h) => [h.fileId, h.answers, h.passages])).toEqual([
      ['file_2', false, []],
      ['file_3', false, []],
      ['file_1', false, []],
    ]);
  });

  it('with chunks relevant enough but no passage that answers: none marks answering, unless a generator would answer from them', () => {
    // What the trial found: ✓ on the chunks while the note said nothing answers.
    const retrieval = { hits: [hit(a, 9), hit(b, 5)], passages: [], grounded: [hit(a, 0)] };
    const extractive = explainRetrieval(retrieval, 10);
    expect(extractive.answered).toBe(false);
    expect(extractive.data.map((h) => [h.fileId, h.answers])).toEqual([
      ['file_1', false],
      ['file_2', false],
    ]);
    const generated = explainRetrieval(retrieval, 10, { generator: true });
    expect(generated.answered).toBe(true);
    expect(generated.data.map((h) => [h.fileId, h.answers])).toEqual([
      ['file_1', true],
      ['file_2', false],
    ]);
  });

  it('keeps at most `limit`, ranked from 1', () => {
    const explained = explainRetrieval(
      { hits: [a, b, c, d].map((x, i) => hit(x, i)), passages: [passage(a, 1)], grounded: [hit(a, 0)] },
      2,
    );
    expect(explained.data.map((h) => [h.rank, h.fileId])).toEqual([
      [1, 'file_1'],
      [2, 'file_4'],
    ]);
    expect(explainRetrieval({ hits: [], passages: [], grounded: [] }, 5)).toEqual({
      answered: false,
      data: [],
    });
  });
});
