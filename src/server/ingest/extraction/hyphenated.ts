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
 * `ANCE_BANNED_CPUS=fc0`; "SSH-" / "HTTP-based" is no such name), or that is written whole beside it.
 */
export function goesOnHyphenated(line: string, next: string): boolean {
  if (HYPHENATED.test(line) && /^\p{Ll}/u.test(next)) return true;
  const cut = CAPITALS_CUT.exec(line);
  if (!cut) return false;
  const rest = /^\p{Lu}[\p{Lu}\p{N}_]*/u.exec(next)?.[0];
  if (!rest) return false;
  // Or a word in capitals the two lines write whole elsewhere (ufw(8)'s "…going DIRECTION, where
  // DI‐" / "RECTION is one of…": a new user's trial 39).
  const whole = cut[0].slice(0, -1) + rest;
  return rest.includes('_') || `${line} ${next}`.split(/[^\p{L}\p{N}_]+/u).includes(whole);
}
