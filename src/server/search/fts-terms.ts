import type { IndexedTerms } from '../state/model.js';
import { documentTerms } from './tokens.js';

/** FTS5 splits kb's terms on spaces only; a capital (kept in `-A`, `%H`) is written `^a`, since unicode61 folds case. */
export const encode = (term: string) =>
  /[A-Z]/.test(term) ? term.replace(/[A-Z]/g, (c) => `^${c.toLowerCase()}`) : term;
export const decode = (term: string) => term.replace(/\^([a-z])/g, (_, c: string) => c.toUpperCase());
/** A term as an FTS5 query string: quoted, so that `-`, `.` and `%` are not query syntax. */
export const phrase = (term: string) => `"${encode(term)}"`;

/**
 * What the FTS5 tables hold of a text: kb's terms (identifiers whole, Porter2 stems, the words of
 * CamelCase names too) encoded and separated by spaces, and how many there are (BM25's document
 * length).
 */
export function indexedText(text: string): IndexedTerms {
  const terms = documentTerms(text);
  return { terms: terms.map(encode).join(' '), count: terms.length };
}
