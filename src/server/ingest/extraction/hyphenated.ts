/**
 * A line that ends a word's first part with a hyphen: ASCII's, or the one groff writes to a
 * terminal (U+2010: `man` saved as text says "The de‐" / "fault is 3"), or a soft hyphen.
 */
export const HYPHENATED = /\p{Ll}[-\u2010\u00AD]$/u;
