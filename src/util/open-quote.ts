/**
 * Whether code leaves a quoted string open at its end: a shell example whose program goes on over
 * the lines under it (`postqueue -j | jq -r '` … `' | postsuper -d -`). A single quote holds
 * anything to the next one, a double quote anything but an escaped `"`; a quote right after a
 * letter or digit opens nothing (an apostrophe: `don't`).
 */
export function leavesQuoteOpen(code: string): boolean {
  let quote: string | undefined;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (quote === '"') {
      if (c === '\\') i++;
      else if (c === '"') quote = undefined;
    } else if (c === '\\') i++;
    else if ((c === "'" || c === '"') && !/[\p{L}\p{N}]/u.test(code[i - 1] ?? '')) quote = c;
  }
  return quote !== undefined;
}
