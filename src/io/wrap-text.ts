import wrapAnsi from 'wrap-ansi';

// wrap-ansi (and the string-width it uses) build Intl.Segmenter instances when loaded, which
// costs ~15 ms: this module is imported only where text is wrapped, on a terminal.

/** Word-wraps text that may carry colour codes at `width` columns, breaking long words. */
export function wrapText(text: string, width: number): string {
  return wrapAnsi(text, width, { hard: true, trim: false });
}
