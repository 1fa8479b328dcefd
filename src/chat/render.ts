import { Marked } from 'marked';
import { markedTerminal } from 'marked-terminal';
import wrapAnsi from 'wrap-ansi';
import { sanitizeText } from '../util/sanitize.js';

export interface Renderer {
  render(markdown: string): string;
}

/** Markdown for the terminal, wrapped to `width`; raw mode prints the text as received. */
export function createRenderer(options: { width: number; raw: boolean; color: boolean }): Renderer {
  if (options.raw) return { render: (text) => `${sanitizeText(text).trimEnd()}\n` };
  const width = Math.max(20, Math.min(options.width, 120));
  // marked-terminal's options are typed loosely upstream
  const extension = markedTerminal({
    width,
    reflowText: true,
    tab: 2,
    showSectionPrefix: false,
  } as never) as never;
  const marked = new Marked(extension);
  return {
    render: (text) => {
      const clean = sanitizeText(text);
      let out: string;
      try {
        out = marked.parse(clean, { async: false }) as string;
      } catch {
        out = clean;
      }
      return `${wrapAnsi(out.trimEnd(), width, { hard: true, trim: false })}\n`;
    },
  };
}
