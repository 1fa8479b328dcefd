import { describe, expect, it } from 'vitest';
import { corpus } from '../../bench/corpus.js';
import { labelledQueries } from '../../bench/scale.js';
import { chunkText } from '../../src/server/ingest/extraction/chunk.js';
import type { Chunk } from '../../src/server/state/model.js';
import { ChunkIndex, tokens, withinEdits } from '../../src/server/search/chunk-index.js';

const file = (fileId: string, ...texts: string[]): Chunk[] =>
  texts.map((text, n) => ({ id: `${fileId}:${n}`, fileId, filename: `${fileId}.md`, text }));
const ids = (index: ChunkIndex, query: string, limit = 5) =>
  index.search(query, limit).map((h) => h.chunk.id);

describe('tokens', () => {
  it('lower-cases, folds accents, splits on anything not a letter or digit, and drops stop words', () => {
    expect(tokens('The Café at Zoë’s: open 9-5, e-mail zoe@example.com')).toEqual([
      'cafe',
      'zoe',
      'open',
      '9',
      '5',
      'e',
      'mail',
      'zoe',
      'example',
      'com',
      'example.com',
    ]);
    // The ASCII shortcut splits as the Unicode expression does.
    const ascii = 'Plain ASCII text, with punctuation; and digits 42!';
    expect(tokens(ascii)).toEqual(tokens(`${ascii} é`).slice(0, -1));
  });

  it("drops what is left of a possessive or a contraction: Rich's, don't (#33)", () => {
    expect(tokens("Rich's console.log: don't trust it")).toEqual([
      'rich',
      'console',
      'log',
      'don',
      'trust',
      'console.log',
    ]);
  });

  it('also keeps identifiers whole: snake_case, dotted.names, --long-flags, -x, %j (#33)', () => {
    const got = tokens(
      'Use os.path.join, set max_connections; run ls -A --almost-all; %j is the day. See os.path.',
    );
    for (const whole of ['os.path.join', 'max_connections', '--almost-all', '-A', '%j', 'os.path'])
      expect(got).toContain(whole);
    // and their parts, so that "max connections" still finds max_connections
    for (const part of ['os', 'path', 'join', 'max', 'connections', 'almost', 'all', 'j'])
      expect(got).toContain(part);
    expect(got).not.toContain('os.path.');
    expect(tokens('-a and -A differ; %H and %h too')).toEqual(
      expect.arrayContaining(['-a', '-A', '%H', '%h']),
    );
  });
});

describe('ChunkIndex', () => {
  it('ranks by BM25 and says which terms matched', () => {
    const index = new ChunkIndex();
    index.add(file('a', 'Refunds are paid within 14 days.', 'Shipping takes a week.'));
    index.add(file('b', 'Our refund policy for annual plans.'));
    const [first, second, third] = index.search('refunds within days', 5);
    expect(first!.chunk.id).toBe('a:0');
    // Terms are stems (Porter2): "refunds" finds "refund" as it is.
    expect(first!.terms).toEqual(['refund', 'within', 'day']);
    expect(second).toMatchObject({ chunk: { id: 'b:0' }, terms: ['refund'], queryTerms: ['refund'] });
    expect(second!.score).toBeLessThan(first!.score);
    expect(third).toBeUndefined();
  });

  it('tries prefixes and near spellings only when the words as typed find too little', () => {
    const index = new ChunkIndex();
    index.add(file('a', 'The handbook covers onboarding.'));
    index.add(file('b', 'Holidays are listed in the calendar.'));
    expect(ids(index, 'handb')).toEqual(['a:0']);
    expect(index.search('handb', 5)[0]!.terms).toEqual(['handbook']);
    expect(ids(index, 'onbaording')).toEqual(['a:0']); // two letters swapped: within two edits of 10
    expect(ids(index, 'zzz')).toEqual([]);
  });

  it('lets the rest of a file count: all the words asked, spread over a file, beat two of them by chance', () => {
    const index = new ChunkIndex();
    index.add(file('spread', 'The quokka budget.', 'Reviewed by the narwhal team.', 'Every pangolin month.'));
    index.add(file('chance', 'A quokka and a narwhal walk into a bar.'));
    index.add(file('other', 'Nothing to see here.'));
    expect(index.search('quokka narwhal pangolin', 5)[0]!.chunk.fileId).toBe('spread');
  });

  it("never lets a file's length drown another file: a long unrelated text beside a short one that answers (#33)", () => {
    const index = new ChunkIndex();
    index.add(
      file('answer', 'The fire extinguisher in the kitchen is inspected every March by the facilities team.'),
    );
    // A long document that mentions the question's words here and there, one to a paragraph.
    const words = ['fire', 'extinguisher', 'kitchen', 'inspected', 'march', 'facilities'];
    const paragraphs = Array.from(
      { length: 3000 },
      (_, i) =>
        `Chapter ${i}. The ${words[i % words.length]} was mentioned once, among many other things the traveller saw on the road north.`,
    );
    index.add(file('long', ...paragraphs));
    expect(index.search('When is the kitchen fire extinguisher inspected?', 5)[0]!.chunk.fileId).toBe(
      'answer',
    );
  });

  it('finds an identifier named in a question over its parts used apart (#33)', () => {
    const index = new ChunkIndex();
    index.add(file('apart', 'Sort the keys: keys sort fast, and sort keys are short.'));
    index.add(
      file(
        'named',
        'If sort_keys is true (default: False), the output of dictionaries will be sorted by key.',
      ),
    );
    index.add(file('almost', 'Almost all of it: all files, almost all folders, all hidden ones.'));
    index.add(
      file('flags', 'ls -a shows entries starting with a dot; --almost-all leaves out . and .. of the list.'),
    );
    expect(ids(index, 'What does sort_keys do?', 1)).toEqual(['named:0']);
    expect(ids(index, 'What does ls --almost-all hide?', 1)).toEqual(['flags:0']);
  });

  it('forgets removed files, also once the postings are rewritten without them', () => {
    const index = new ChunkIndex();
    const fresh = new ChunkIndex();
    for (let i = 0; i < 600; i++) {
      index.add(file(`f${i}`, `document ${i} about topic${i % 7} and words`));
      if (i % 3 === 0) fresh.add(file(`f${i}`, `document ${i} about topic${i % 7} and words`));
    }
    for (let i = 0; i < 600; i++) if (i % 3 !== 0) index.remove(`f${i}`);
    expect(index.chunkCount).toBe(200);
    for (const query of ['topic3 words', 'document 42', 'document 300 topic6'])
      expect(ids(index, query)).toEqual(ids(fresh, query));
    expect(index.has('f1')).toBe(false);
    expect(index.has('f3')).toBe(true);
  });

  it('replaces a file added again', () => {
    const index = new ChunkIndex();
    index.add(file('a', 'old words about llamas'), 'v1');
    index.add(file('a', 'new words about alpacas'), 'v2');
    expect(ids(index, 'llamas')).toEqual([]);
    expect(ids(index, 'alpacas')).toEqual(['a:0']);
    expect(index.stampOf('a')).toBe('v2');
  });

  it('finds the right document for labelled queries of its rarest words (recall@5 of the generated corpus)', () => {
    const { docs } = corpus(1000);
    const index = new ChunkIndex();
    for (const [name, text] of docs)
      index.add(
        chunkText(text).map((t, n) => ({ id: `${name}:${n}`, fileId: name, filename: name, text: t })),
      );
    const labelled = labelledQueries(docs, 100);
    const found = labelled.filter(({ query, expected }) =>
      index.search(query, 5).some((h) => h.chunk.fileId === expected),
    );
    expect(found.length / labelled.length).toBeGreaterThanOrEqual(0.98);
  });
});

describe('withinEdits', () => {
  it('counts insertions, deletions, substitutions, and two neighbours swapped as one edit', () => {
    expect(withinEdits('handbook', 'handbok', 1)).toBe(true);
    expect(withinEdits('handbook', 'hanbdook', 1)).toBe(true);
    expect(withinEdits('handbook', 'hbndaook', 1)).toBe(false);
    expect(withinEdits('handbook', 'hbndaook', 2)).toBe(true);
    expect(withinEdits('onboard', 'onbaord', 1)).toBe(true);
    expect(withinEdits('abc', 'abcdef', 2)).toBe(false);
  });
});
