/**
 * A line that names an option as a man page's definition list does, with its arguments and
 * without its definition: `-s ca_key`, `-L, --location`, `--login-options <options>`,
 * `-t dsa | ecdsa | ecdsa-sk | ed25519 | ed25519-sk | rsa`, `-R hostname | [hostname]:port`. It
 * leads the lines under it, its definition, and only those: the next option or heading ends it.
 * Not a line that goes on in words (`-N Disables quiet mode…`) or ends as a sentence.
 */
export function isOptionLine(text: string): boolean {
  return (
    text.length <= 120 &&
    /^--?[A-Za-z0-9]/.test(text) &&
    !/[.!?:;]$/.test(text) &&
    !text.split(/[\s,]+/).some((word) => /^[A-Z][a-z]/.test(word))
  );
}

/** A line without the quotes an info manual writes around a term: `‘-A NUM’`, `'--max-cache-ttl N'`. */
export function unquoted(text: string): string {
  const quoted = /^(?:‘([^‘’]+)’|'([^']+)'|`([^`']+)')$/.exec(text);
  return quoted ? (quoted[1] ?? quoted[2] ?? quoted[3])! : text;
}
