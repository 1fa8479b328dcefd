import { describe, expect, it } from 'vitest';
import { sanitizeText, streamSanitizer } from '../../src/util/sanitize.js';

/** `text` pushed in the pieces `cuts` (offsets) make, joined with what end() gives. */
function streamed(text: string, cuts: number[]): string {
  const safe = streamSanitizer();
  let out = '';
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    out += safe.push(text.slice(from, cut));
    from = cut;
  }
  return out + safe.end();
}

const HOSTILE = [
  'before\u001b[2Jafter',
  'a\u001b]0;title\u0007b',
  'a\u001b]0;title\u001b\\b',
  'a\u001bPq#0;2;0;0;0\u001b\\b',
  'x\u009b31my\u009d8;;http://e\u009cz',
  'one\u001b[1;31mred\u001b[0m two\u001b',
  'cut \u001b[12',
  'open \u001b]2;never ends\nstill title',
  'esc then text \u001bc done \u001b[?25l hidden',
  '\u001b]a\u001b]b\u0007c\u200bd\u2028e',
];

describe('streamSanitizer', () => {
  it('removes a sequence split across pieces whole, as sanitizeText does the text whole', () => {
    expect(streamed('see \u001b[2J here', [5])).toBe('see  here');
    expect(streamed('a\u001b]0;title\u0007b', [2])).toBe('ab');
  });

  it('gives sanitizeText of the whole for every split into two and three pieces', () => {
    for (const text of HOSTILE) {
      const whole = sanitizeText(text);
      for (let i = 0; i <= text.length; i++) {
        expect(streamed(text, [i]), JSON.stringify([text, i])).toBe(whole);
        for (let j = i; j <= text.length; j++)
          expect(streamed(text, [i, j]), JSON.stringify([text, i, j])).toBe(whole);
      }
    }
  });

  it('holds back only what may still be a sequence: plain text passes at once', () => {
    const safe = streamSanitizer();
    expect(safe.push('plain [2J text')).toBe('plain [2J text');
    expect(safe.push('then \u001b')).toBe('then ');
    expect(safe.push('[2Jmore')).toBe('more');
    expect(safe.end()).toBe('');
  });
});
