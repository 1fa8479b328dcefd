/**
 * An item of a list written as a term, a dash and what the term is (pgbouncer.ini's
 * `;;   transaction  - after transaction finishes`), as the source of a pattern: a text's reader
 * keeps each such item a line of its own, and a configuration file's comment of that shape is
 * one item of the list above a setting.
 */
export const TERM_ITEM = String.raw`[\p{L}\p{N}_.-]+\s+[-–—]\s+(?=\p{L})`;

/**
 * An item written as a term in lower case, a colon and what the term is (redis.conf's `# always:
 * fsync after every write…`), as the source of a pattern, its term captured: a text's reader
 * keeps such an item after a sentence's end a line of its own, and a configuration comment of
 * that shape defines its term.
 */
export const TERM_COLON_ITEM = String.raw`([a-z][\w.-]*):\s+(?=\p{L})`;
