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
        expect(wrapText(text, width)).toBe(wrappedByWrapAnsi(text, width));
  });

  it('leaves no blank at the end of a line it breaks (the twelfth new user: kb threads get), nor at the start of the next', () => {
    const wrapped = wrapText(
      'How long can an FTP client sit idle between commands before vsftpd disconnects it?',
      30,
    );
    expect(wrapped.split('\n')).toEqual([
      'How long can an FTP client sit',
      'idle between commands before',
      'vsftpd disconnects it?',
    ]);
    // Colour ends after the words, not after a blank.
    expect(
      wrapText('\u001b[2mone two three four five six\u001b[22m', 10)
        .split('\n')
        .every((l) => !/ (?:\u001b\[\d+m)*$/.test(l)),
    ).toBe(true);
    // An indented line keeps its indent.
    expect(wrapText('    code that is indented and long', 20).startsWith('    code')).toBe(true);
  });
});

/** wrap-ansi's lines, without the blank it leaves where it broke one. */
function wrappedByWrapAnsi(text: string, width: number): string {
  const wrapped = wrapAnsi(text, width, { hard: true, trim: false });
  if (wrapped === text) return text;
  return wrapped
    .split('\n')
    .map((l, i) => (i > 0 ? l.replace(/^((?:\u001b\[[0-9;:]*m)*)[ \t]+/, '$1') : l))
    .map((l) => l.replace(/[ \t]+((?:\u001b\[[0-9;:]*m)*)$/, '$1'))
    .join('\n');
}
