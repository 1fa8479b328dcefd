/**
 * A line that ends a word's first part with a hyphen: ASCII's, or the one groff writes to a
 * terminal (U+2010: `man` saved as text says "The de‐" / "fault is 3"), or a soft hyphen.
 */
export const HYPHENATED = /\p{Ll}[-\u2010\u00AD]$/u;

/** A line that ends with the first part of a name in capitals, cut with a hyphen (`IRQBAL-`). */
const CAPITALS_CUT = /(?<![\p{L}\p{N}_-])\p{Lu}[\p{Lu}\p{N}_]*[-\u2010\u00AD]$/u;

/**
 * Whether `next`, the line after `line`, goes on with the word `line` ends hyphenated: a word in
 * lower case, or a name in capitals whose rest has an underscore (irqbalance(1)'s `IRQBAL-` /
 * `ANCE_BANNED_CPUS=fc0`; "SSH-" / "HTTP-based" is no such name).
 */
export function goesOnHyphenated(line: string, next: string): boolean {
  return (
    (HYPHENATED.test(line) && /^\p{Ll}/u.test(next)) ||
    (CAPITALS_CUT.test(line) && /^\p{Lu}[\p{Lu}\p{N}]*_/u.test(next))
  );
}
