import { describe, expect, it } from 'vitest';
import { SENTENCE_END } from '../../src/util/sentence-end.js';

// A new user's trial 36 (f02): xfsprogs' CHANGES, "- mkfs: enable inobtcount and bigtime by
// default (Darrick J. Wong)", was answered up to "(Darrick J." : a name's initial ended a sentence.
describe("a capital's full stop", () => {
  it('is an initial, no sentence end, before a name', () => {
    expect(
      '- mkfs: enable inobtcount and bigtime by default (Darrick J. Wong)'.split(SENTENCE_END),
    ).toHaveLength(1);
    expect('Written by Donald E. Knuth and others. It is old.'.split(SENTENCE_END)).toEqual([
      'Written by Donald E. Knuth and others.',
      'It is old.',
    ]);
  });

  it('ends a sentence after a word', () => {
    expect('Use the -C option. Then run it.'.split(SENTENCE_END)).toHaveLength(2);
    expect('The limit is raised to 4 GB. It was 2 GB.'.split(SENTENCE_END)).toHaveLength(2);
  });
});
