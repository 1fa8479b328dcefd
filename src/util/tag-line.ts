/**
 * A line that is a tag of markup or of a configuration block, alone: `</Plugin>`, `<Plugin
 * curl_jolokia>`, `<URL "http://…">`, `<VirtualHost *:80>`. Code, which heads nothing. Not a
 * name in angle brackets alone (git's `<stash>`, `<pathspec>`): a placeholder a manual defines.
 */
export function isTagLine(text: string): boolean {
  return /^(?:<\/[A-Za-z][\w:.-]*|<[A-Za-z][\w:.-]*\s[^<>]*)>$/.test(text);
}
