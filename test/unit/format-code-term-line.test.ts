import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 30 (q58): varnishncsa(1) as a PDF defines each format code and its text on
// one line (`%D In client mode, time taken to serve the request, in microseconds.`). Not read as a
// term, "What does %D mean in a varnishncsa log format?" was answered with another code's line
// that mentions it ("…ms or us (same as %D).").
const FORMATTERS = docLines('varnish/varnishncsa.1.pdf', 4, [
  'FORMAT',
  'Supported formatters are:',
  "%b In client mode, size of response in bytes, excluding HTTP headers. In CLF format, i.e. a '-' rather than a 0 when no bytes are sent.",
  '%D In client mode, time taken to serve the request, in microseconds. In backend mode, time from the request was sent to the entire body had been received. This is equivalent to %{us}T.',
  '%{X}T In client mode, time taken to serve the request, in the format specified by X. The time specification format can be one of the following: s (same as %T), ms or us (same as %D).',
]);

describe('a format code and its text on one line (`%D In client mode, …`)', () => {
  it('is a term and its definition', () => {
    const passages = passagesOf(FORMATTERS);
    expect(
      passages.find((p) =>
        p.text.startsWith('In client mode, time taken to serve the request, in microseconds'),
      ),
    ).toMatchObject({
      lead: '%D',
      defines: true,
    });
    expect(
      passages.find((p) =>
        p.text.startsWith('In client mode, time taken to serve the request, in the format'),
      )?.lead,
    ).toBe('%{X}T');
  });

  it('so that it answers what the code means', async () => {
    const answer = await answerOf(
      libraryOf([FORMATTERS], weightsOf({ '%D': 6, mean: 1, varnishncsa: 5, log: 1.5, format: 1.5 })),
      'What does %D mean in a varnishncsa log format?',
    );
    expect(answer).toMatch(/^%D: In client mode, time taken to serve the request, in microseconds\./);
  });
});
