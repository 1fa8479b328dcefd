/** A list's item starts a line of its own, whatever the line before it. */
const ITEM = /^(?:[•·▪‣◦*–-]|\d+[.)])\s/;

/**
 * Recognised text as the chunker wants it: tesseract gives a line per printed line and a blank
 * line between paragraphs, so the lines of a paragraph are joined (a word hyphenated at a line's
 * end made whole), lest a sentence be cut at every line end; a list's items keep their lines.
 */
export function ocrText(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => {
      const lines = paragraph
        .split('\n')
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .filter(Boolean);
      let out = lines[0] ?? '';
      for (const line of lines.slice(1)) {
        if (ITEM.test(line)) out += `\n${line}`;
        else if (/\p{Ll}-$/u.test(out) && /^\p{Ll}/u.test(line)) out = out.slice(0, -1) + line;
        else out += ` ${line}`;
      }
      return out;
    })
    .filter(Boolean)
    .join('\n');
}

/** Letters and digits: how much text a page's layer or a recognition holds. */
export const textAmount = (text: string) => text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
