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

// A new user's trial 43 (p08): lame's usage page, "-V2 (avg. 190 kbps)", was cut at "avg.": the
// passage read "225 kbps) or -V2 (avg." and the bitrate asked for was in the next one.
describe("a short word's abbreviation before a number", () => {
  it('is no sentence end', () => {
    const lame =
      'Very high quality: -V0 (avg. 245 kbps) or -V1 (avg. 225 kbps) or -V2 (avg. 190 kbps). VBR settings will normally produce transparent results.';
    expect(lame.split(SENTENCE_END)).toEqual([
      'Very high quality: -V0 (avg. 245 kbps) or -V1 (avg. 225 kbps) or -V2 (avg. 190 kbps).',
      'VBR settings will normally produce transparent results.',
    ]);
    expect('See p. 12 for the list.'.split(SENTENCE_END)).toHaveLength(1);
  });

  it('a sentence ending in a number still ends before one', () => {
    expect('It was added in version 2. 3 options changed.'.split(SENTENCE_END)).toHaveLength(2);
  });
});
