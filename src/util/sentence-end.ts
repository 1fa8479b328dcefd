/**
 * Sentence ends, for chunks and for answers' passages alike: a full stop, ! or ? and a space,
 * before a word that does not start in lowercase (as Unicode's sentence rules have it:
 * "msg00011. html) by Bruce Perens" is a URL a PDF's line end cut, and goes on).
 */
export const SENTENCE_END = /(?<=[.!?])[ \t]+(?!\p{Ll})/u;
