import { describe, expect, it } from 'vitest';
import { fitTable, fitWidths } from '../../src/io/output.js';
import { humanSize, maskSecret, relativeTime } from '../../src/io/format.js';
import { safeJson, sanitizeDeep, sanitizeField, sanitizeText } from '../../src/util/sanitize.js';
import { Chalk } from 'chalk';
import {
  AbortedError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServerError,
} from '../../src/api/errors.js';
import { checkBaseUrl } from '../../src/config/resolve.js';
import { Interrupted, PartialFailure, UsageError } from '../../src/errors.js';
import { resolveFormat } from '../../src/io/output.js';
import { Signals } from '../../src/io/signals.js';
import { exitCodeFor, reportError } from '../../src/report.js';
import { colorLevel } from '../../src/io/color.js';
import { parseDuration } from '../../src/util/duration.js';

describe('fitWidths', () => {
  it('keeps natural widths that fit', () => {
    expect(fitWidths([10, 20, 8], [false, true, false], 80)).toEqual([10, 20, 8]);
  });
  it('shrinks the widest flexible column first, to 12 while that fits', () => {
    expect(fitWidths([18, 60, 40, 9], [false, true, true, false], 100)).toEqual([18, 33, 34, 9]);
    expect(fitWidths([18, 60], [false, true], 40)).toEqual([18, 20]);
  });
  it('shrinks flexible columns below 12 (to 6 at most) rather than let the table wrap', () => {
    // kb files list in the demo at 80 columns: ID, NAME, SIZE, TYPE, STATUS, CREATED, ERROR.
    const natural = [19, 24, 5, 24, 9, 7, 16];
    const flexible = [false, true, false, true, false, false, true];
    const widths = fitWidths(natural, flexible, 80);
    expect(widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1)).toBe(80);
    expect(Math.min(...widths.filter((_, i) => flexible[i]))).toBeGreaterThanOrEqual(9);
    expect(fitWidths([18, 60], [false, true], 20)).toEqual([18, 6]);
  });
  it('shrinks a column that gives way first (to 6) before any other flexible one', () => {
    // kb search at 80 columns: #, SOURCE with its page, SCORE, ANSWERS, TEXT.
    expect(fitWidths([1, 46, 5, 7, 200], [false, true, false, false, 'first'], 80)).toEqual([
      1, 46, 5, 7, 13,
    ]);
    expect(fitWidths([1, 46, 5, 7, 200], [false, true, false, false, 'first'], 70)).toEqual([1, 43, 5, 7, 6]);
  });
});

describe('fitTable', () => {
  // kb files list at 80 columns (the twelfth new user's folder): ID, NAME, SIZE, TYPE, STATUS, CREATED.
  const specs = [{}, { flex: true }, {}, { flex: 'first' as const, optional: 1 }, {}, {}];
  it('leaves an optional column out rather than cut another', () => {
    expect(fitTable([19, 25, 6, 24, 9, 8], specs, 80)).toEqual({
      shown: [0, 1, 2, 4, 5],
      widths: [19, 25, 6, 9, 8],
    });
  });
  it('keeps it, cut, when only it gives way', () => {
    expect(fitTable([19, 25, 6, 24, 9, 8], specs, 100)).toEqual({
      shown: [0, 1, 2, 3, 4, 5],
      widths: [19, 25, 6, 23, 9, 8],
    });
  });
  it('cuts the others as before when it is gone and they still do not fit', () => {
    const { shown, widths } = fitTable([19, 60, 6, 24, 9, 8], specs, 80);
    expect(shown).toEqual([0, 1, 2, 4, 5]);
    expect(widths).toEqual([19, 30, 6, 9, 8]);
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
    // At a unit's edge the next unit: not "60m ago" nor "24h ago".
    expect(relativeTime('2026-01-10T11:00:01Z', now)).toBe('1h ago');
    expect(relativeTime('2026-01-10T11:01:00Z', now)).toBe('59m ago');
    expect(relativeTime('2026-01-09T12:10:00Z', now)).toBe('1d ago');
    expect(relativeTime('2026-01-10T12:59:40Z', now)).toBe('in 1h');
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

describe('the sanitiser', () => {
  it('removes one-byte C1 sequences, bidi controls and zero-width characters too', () => {
    expect(sanitizeText('a\u009b2Jb\u009d0;title\u0007c')).toBe('abc');
    expect(sanitizeText('\u202egnp.exe\u202c \u200bzero\u200d\ufeff\u2066x\u2069')).toBe('gnp.exe zerox');
    expect(sanitizeText('line\u2028next')).toBe('line\nnext');
    expect(sanitizeText('unterminated \u001b]0;title')).toBe('unterminated ');
  });

  it('sanitises every string of a record, keys included, and leaves other values alone', () => {
    expect(sanitizeDeep({ 'a\u001b[2J': ['x\u202e', 1, null, { b: 'y\u0007' }], n: 2 })).toEqual({
      a: ['x', 1, null, { b: 'y' }],
      n: 2,
    });
  });

  it('writes JSON that a terminal cannot act on and that parses to the same value', () => {
    const value = { s: 'a\u001b]0;t\u0007\u009b\u202e\u200b\u2028z' };
    const text = safeJson(value, 2);
    expect(text).not.toMatch(/[\u001b\u0007\u009b\u202e\u200b\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('resolveFormat', () => {
  const none = () => undefined;
  it('takes one flag, else KB_FORMAT, else the setting, else human', () => {
    expect(resolveFormat({ jsonl: true }, 'json', none)).toBe('jsonl');
    expect(resolveFormat({}, 'json', () => 'jsonl')).toBe('json');
    expect(resolveFormat({}, '', () => 'jsonl')).toBe('jsonl');
    expect(resolveFormat({}, undefined, () => 'table')).toBe('human');
    expect(resolveFormat({}, undefined, none)).toBe('human');
  });
  it('refuses two flags and unknown names as usage errors', () => {
    expect(() => resolveFormat({ json: true, jsonl: true }, undefined, none)).toThrow(UsageError);
    expect(() => resolveFormat({}, 'yaml', none)).toThrow(/KB_FORMAT is "yaml"/);
    expect(() => resolveFormat({}, undefined, () => 'xml')).toThrow(/the format setting is "xml"/);
  });
});

describe('reportError', () => {
  const collect = (err: unknown, json: boolean) => {
    let text = '';
    const code = reportError(err, {
      json,
      debug: false,
      color: new Chalk({ level: 0 }),
      write: (s) => (text += s),
    });
    return { code, text };
  };
  it('prints one line and a hint for people, with hostile text made safe', () => {
    const err = new ServerError('boom\u001b]0;x\u0007 <html>\u202e', {
      status: 503,
      requestId: 'req\u009b1',
    });
    expect(collect(err, false)).toEqual({ code: 5, text: 'error: boom <html> (request req1)\n' });
  });
  it('prints exactly one JSON object per error with --json', () => {
    const { code, text } = collect(
      new NotFoundError('thread not found', { status: 404, code: 'not_found' }),
      true,
    );
    expect(code).toBe(3);
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({
      error: { code: 'not_found', message: 'thread not found', exitCode: 3, status: 404 },
    });
    expect(JSON.parse(collect(new UsageError('bad flag', 'try --help'), true).text)).toEqual({
      error: { code: 'usage', message: 'bad flag', hint: 'try --help', exitCode: 2 },
    });
  });
  it("gives a connection failure a word for its code, never the system's (ECONNREFUSED)", () => {
    const codeOf = (code?: string) =>
      JSON.parse(collect(new ConnectionError('cannot connect', { code }), true).text).error.code;
    const words: Record<string, string> = {
      ECONNREFUSED: 'connection_refused',
      EAI_AGAIN: 'host_not_found',
      ENETUNREACH: 'host_unreachable',
      UND_ERR_CONNECT_TIMEOUT: 'connection_timed_out',
      ECONNRESET: 'connection_closed',
      BODY_TOO_LARGE: 'response_too_large',
      EPROTO: 'connection_failed',
      DEPTH_ZERO_SELF_SIGNED_CERT: 'certificate_self_signed',
      CERT_HAS_EXPIRED: 'certificate_expired',
      UNABLE_TO_GET_ISSUER_CERT: 'certificate_untrusted',
    };
    expect(Object.fromEntries(Object.keys(words).map((code) => [code, codeOf(code)]))).toEqual(words);
    expect(codeOf(undefined)).toBe('connection_failed');
  });
  it('maps errors to codes by class, and a cancelled prompt to a quiet 130', () => {
    expect(exitCodeFor(new RateLimitError('slow down'))).toBe(6);
    expect(exitCodeFor(new AbortedError('aborted'))).toBe(130);
    expect(exitCodeFor(new Error('bug'))).toBe(1);
    expect(collect(new Interrupted(true), false)).toEqual({ code: 130, text: '\n' });
    expect(
      collect(
        new PartialFailure('1 of 2 not deleted', [{ id: 'f2', error: new NotFoundError('gone') }], 3),
        false,
      ),
    ).toEqual({
      code: 3,
      text: '✗ f2: gone\nerror: 1 of 2 not deleted\n',
    });
  });
  it('gives each failed item of a batch its request id, and the hint they share once, under the summary', () => {
    const missing = (id: string) =>
      new NotFoundError(`file ${id} not found`, {
        status: 404,
        requestId: `req_${id}`,
        url: `http://127.0.0.1:4010/v1/files/${id}`,
      });
    const failures = ['f1', 'f2'].map((id) => ({ id, error: missing(id) }));
    expect(collect(new PartialFailure('2 of 2 not deleted', failures, 3), false)).toEqual({
      code: 3,
      text:
        '✗ file f1 not found (request req_f1)\n✗ file f2 not found (request req_f2)\n' +
        'error: 2 of 2 not deleted\nhint: `kb files list` shows the files there are\n',
    });
  });
});

describe('Signals', () => {
  it('lets the newest trap decide, and falls back when it is released', () => {
    const seen: string[] = [];
    const signals = new Signals((s) => seen.push(`fallback ${s}`));
    const releaseA = signals.trap((s) => seen.push(`a ${s}`));
    const releaseB = signals.trap((s) => seen.push(`b ${s}`));
    signals.deliver('SIGINT');
    releaseB();
    signals.deliver('SIGTERM');
    releaseA();
    signals.deliver('SIGINT');
    expect(seen).toEqual(['b SIGINT', 'a SIGTERM', 'fallback SIGINT']);
  });
});

describe('checkBaseUrl', () => {
  it('drops a trailing /v1 (kb adds it to every path) and keeps other prefixes', () => {
    expect(checkBaseUrl('http://127.0.0.1:4010/v1')).toBe('http://127.0.0.1:4010');
    expect(checkBaseUrl('https://kb.example.com/api/v1/')).toBe('https://kb.example.com/api');
    expect(checkBaseUrl('https://kb.example.com/api')).toBe('https://kb.example.com/api');
  });
});

describe('readLines', () => {
  it('splits lines across chunks, drops \\r, and refuses a line longer than the limit as it arrives', async () => {
    const { Readable } = await import('node:stream');
    const { readLines } = await import('../../src/io/stdin.js');
    const lines: string[] = [];
    for await (const l of readLines(Readable.from([Buffer.from('a\r\nb'), Buffer.from('c\n\nd')]), 'x', 10))
      lines.push(l);
    expect(lines).toEqual(['a', 'bc', '', 'd']);
    let read = 0;
    const endless = Readable.from(
      (function* () {
        for (;;) {
          read++;
          yield Buffer.alloc(1000, 97);
        }
      })(),
    );
    await expect(async () => {
      for await (const _ of readLines(endless, 'a line', 4096)) void _;
    }).rejects.toThrow(/a line is larger than 4.1 kB \(4096 bytes\); nothing was sent/);
    expect(read).toBeLessThan(10);
  });
});
