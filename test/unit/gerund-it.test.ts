import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// unbound.conf(5) as a PDF (a seventeenth new user's trial).
const UNBOUND = doc(
  'man/unbound.conf.5.pdf',
  [
    'do-not-query-localhost: <yes or no>',
    'If yes, localhost is added to the do-not-query-address entries, both IP6 ::1 and IP4 127.0.0.1/8. If no, then localhost can be used to send queries to. Default is yes.',
    'prefetch: <yes or no>',
    'If yes, message cache elements are prefetched before they expire to keep the cache up to date. Default is no. Turning it on gives about 10 percent more traffic and load on the machine, but popular items do not expire from the cache.',
    'prefetch-key: <yes or no>',
    'If yes, fetch the DNSKEYs earlier in the validation process, when a DS record is encountered. This lowers the latency of requests. Default is no.',
  ].join('\n'),
);

describe('a sentence that names its subject only as "it" after a verb ("Turning it on…")', () => {
  it('is shown with the term it is under', async () => {
    const answer = await answerOf(
      libraryOf([UNBOUND], { unbound: 3, popular: 3, expir: 2, cach: 1.5, refresh: 2 }),
      'Does unbound refresh popular cache entries before they expire?',
    );
    expect(answer).toMatch(/^prefetch: <yes or no>: .*Turning it on gives about 10 percent more traffic/);
  });
});
