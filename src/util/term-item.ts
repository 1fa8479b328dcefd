/**
 * An item of a list written as a term, a dash and what the term is (pgbouncer.ini's
 * `;;   transaction  - after transaction finishes`), as the source of a pattern: a text's reader
 * keeps each such item a line of its own, and a configuration file's comment of that shape is
 * one item of the list above a setting.
 */
export const TERM_ITEM = String.raw`[\p{L}\p{N}_.-]+\s+[-–—]\s+(?=\p{L})`;
