/**
 * An item of a list written as a term, a dash and what the term is (pgbouncer.ini's
 * `;;   transaction  - after transaction finishes`), as the source of a pattern: a text's reader
 * keeps each such item a line of its own, and a configuration file's comment of that shape is
 * one item of the list above a setting.
 */
export const TERM_ITEM = String.raw`[\p{L}\p{N}_.-]+\s+[-–—]\s+(?=\p{L})`;

/**
 * An item written as a term in lower case or in CamelCase, a colon and what the term is
 * (redis.conf's `# always: fsync after every write…`, Apache's `# MaxSpareThreads: maximum number
 * of…`), as the source of a pattern, its term captured: a text's reader keeps such an item after
 * a sentence's end, or after another, a line of its own, and a configuration comment of that
 * shape defines its term. Not a word with a capital ("Note: …").
 */
export const TERM_COLON_ITEM = String.raw`([a-z][\w.-]*|[A-Z][a-z\d]+[A-Z][\w.-]*):\s+(?=\p{L})`;

/**
 * A label of a few words, a colon, and its value after the space that lines it up (`log file:
 * Check your syslog settings…`), the label with its colon and the space captured.
 */
export const LABEL_ROW = /^(\s*\p{L}[\p{L}\p{N}_.-]*(?: [\p{L}\p{N}_.-]+){0,2}:)( +)\S/u;
