/**
 * A line that is code by its shape alone, which heads nothing however short: a tag of markup or
 * of a configuration block (`</Plugin>`, `<Plugin curl_jolokia>`, `<VirtualHost *:80>`), or a line
 * of code and what it gives in a `//` comment (`semver.valid('a.b.c') // null`). Not a name in
 * angle brackets alone (git's `<stash>`, `<pathspec>`): a placeholder a manual defines.
 */
export function isCodeShaped(text: string): boolean {
  return TAG.test(text) || COMMENTED_CODE.test(text);
}

const TAG = /^(?:<\/[A-Za-z][\w:.-]*|<[A-Za-z][\w:.-]*\s[^<>]*)>$/;
const COMMENTED_CODE = /^[^/]*[=();{}[\]][^/]*\s\/\/(?:\s|$)/;
