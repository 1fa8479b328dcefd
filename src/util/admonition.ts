/**
 * A box's title alone on its line ("Note", "Warning", "See also"), as Sphinx, DocBook and
 * Markdown mark an aside: it labels the paragraph after it, inside the section it is in, and
 * heads nothing (Supervisor's "startsecs" / … / "Note" / … / "Default: 1" is startsecs' default).
 */
export function isAdmonition(text: string): boolean {
  // A manual page's sections in capitals head what follows (cron(8)'s `NOTES`, `SEE ALSO`).
  if (/^(?:NOTES|SEE ALSO)$/.test(text)) return false;
  return /^(?:notes?|warning|caution|important|tip|hint|attention|danger|see also|seealso)\s*:?$/i.test(text);
}
