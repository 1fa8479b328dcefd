import wrapAnsi from 'wrap-ansi';
import { describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/chat/render.js';
import { wrapText } from '../../src/io/wrap-text.js';
import { REPLY } from '../helpers/markdown-reply.js';

describe('wrapText', () => {
  it('gives what wrap-ansi gives, keeping lines that fit without measuring them', async () => {
    const lines = [
      'plain words that fit',
      'a line far too long for twenty columns, broken at words',
      '\u001b[1mbold\u001b[22m and \u001b[31mred\u001b[39m',
      '┌──────┬───────┐ │ Plan │ Price │',
      'tab\there',
      'wide 漢字漢字漢字漢字漢字漢字',
      'e\u0301 combining',
      '\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007',
    ];
    const rendered = (await createRenderer({ width: () => 60, raw: false, color: true })).render(REPLY);
    for (const width of [20, 40, 60])
      for (const text of [...lines, ...rendered.split('\n')])
        expect(wrapText(text, width)).toBe(wrapAnsi(text, width, { hard: true, trim: false }));
  });
});
