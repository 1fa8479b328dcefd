/**
 * A line of code with a `//` comment after it (`semver.valid('a.b.c') // null`): an example's
 * line and what it gives, which heads nothing, however short.
 */
export function isCommentedCode(text: string): boolean {
  return /^[^/]*[=();{}[\]][^/]*\s\/\/(?:\s|$)/.test(text);
}
