import { describe, expect, it } from 'vitest';
import { fitWidths } from '../../src/io/output.js';
import { humanSize, maskSecret, relativeTime } from '../../src/io/format.js';
import { sanitizeField, sanitizeText } from '../../src/util/sanitize.js';
import { colorLevel } from '../../src/io/color.js';
import { parseDuration } from '../../src/util/duration.js';

describe('fitWidths', () => {
  it('keeps natural widths that fit', () => {
    expect(fitWidths([10, 20, 8], [false, true, false], 80)).toEqual([10, 20, 8]);
  });
  it('shrinks the widest flexible column first, never below 12', () => {
    expect(fitWidths([18, 60, 40, 9], [false, true, true, false], 100)).toEqual([18, 33, 34, 9]);
    expect(fitWidths([18, 60], [false, true], 20)).toEqual([18, 12]);
  });
});

describe('formatting helpers', () => {
  it('formats sizes, relative times and masked secrets', () => {
    expect(humanSize(0)).toBe('0 B');
    expect(humanSize(1536)).toBe('1.5 kB');
    expect(humanSize(25_000_000)).toBe('25 MB');
    const now = Date.parse('2026-01-10T12:00:00Z');
    expect(relativeTime('2026-01-10T11:59:50Z', now)).toBe('just now');
    expect(relativeTime('2026-01-10T11:00:00Z', now)).toBe('1h ago');
    expect(relativeTime('2026-01-07T12:00:00Z', now)).toBe('3d ago');
    expect(relativeTime('2025-01-01T00:00:00Z', now)).toBe('2025-01-01');
    expect(maskSecret('kb_0123456789abcdef1a2b')).toBe('kb_…1a2b');
    expect(maskSecret('short')).toBe('…');
  });

  it('strips escape sequences and control characters but keeps newlines and tabs in text', () => {
    expect(sanitizeText('a\u001b[31mb\u001b]0;title\u0007c\u0000d\ne\tf')).toBe('abcd\ne\tf');
    expect(sanitizeField('a\tb\nc')).toBe('a b c');
  });

  it('decides colour from flags, NO_COLOR, FORCE_COLOR, the setting and the terminal', () => {
    expect(colorLevel({ env: {}, isTTY: true })).toBe(1);
    expect(colorLevel({ env: { TERM: 'xterm-256color' }, isTTY: true })).toBe(2);
    expect(colorLevel({ env: { NO_COLOR: '1' }, isTTY: true })).toBe(0);
    expect(colorLevel({ env: {}, isTTY: true, noColorFlag: true })).toBe(0);
    expect(colorLevel({ env: { FORCE_COLOR: '1' }, isTTY: false })).toBe(1);
    expect(colorLevel({ env: { FORCE_COLOR: '0' }, isTTY: true })).toBe(0);
    expect(colorLevel({ env: {}, isTTY: false, setting: 'always' })).toBe(2);
    expect(colorLevel({ env: {}, isTTY: true, setting: 'never' })).toBe(0);
    expect(colorLevel({ env: { TERM: 'dumb' }, isTTY: true })).toBe(0);
  });

  it('parses durations', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('2')).toBe(2000);
    expect(parseDuration('0')).toBeUndefined();
    expect(parseDuration('soon')).toBeUndefined();
  });
});
