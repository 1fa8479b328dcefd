/**
 * Sentence ends, for chunks and for answers' passages alike: a full stop, ! or ? and a space,
 * before a word that does not start in lowercase (as Unicode's sentence rules have it:
 * "msg00011. html) by Bruce Perens" is a URL a PDF's line end cut, and goes on), and not after
 * an abbreviation that introduces what follows ("increased to 1, i.e. 1/10 second", "e.g. 2"), nor
 * after a name's initial ("(Darrick J. Wong)"), nor between a short word's abbreviation and a
 * number (lame's "-V2 (avg. 190 kbps)", "p. 12", "approx. 5 MB"): a sentence rarely starts with
 * digits.
 */
export const SENTENCE_END =
  /(?<=[.!?])(?<!(?:^|[\s(])(?:[IiEe]\.[EeGg]|cf|vs|viz)\.)(?<!(?:^|[\s(])\p{Lu}\p{Ll}+\s\p{Lu}\.)(?<!(?:^|[\s(])\p{L}\p{Ll}{0,5}\.(?=[ \t]+\p{N}))[ \t]+(?!\p{Ll})/u;

/**
 * A sentence that an example cuts ("…in the defining scope, so that" / `i = 5`; "The example
 * above would change to" / `makestep 1 -1`): without an end mark, it ends with a word that needs
 * what follows.
 */
export const UNFINISHED =
  /\b(?:a|an|and|are|as|by|for|if|in|is|of|or|so|than|that|the|then|to|when|which|with)$/i;

/** A line ending in a question this long at most is a question asked (a FAQ's), not prose. */
export const QUESTION_LENGTH = 240;
