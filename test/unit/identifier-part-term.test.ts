import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// A new user's trial 28 (F4a): unbound-control(8) as a PDF lists its commands, each a term with
// what it does: `flush name`, then `flush_type name type`, `flush_zone name`, `flush_bogus`,
// `flush_negative`. "What does unbound-control flush do?" was answered with flush_bogus',
// flush_negative's and flush_requestlist's entries: `flush`, a part of each of those terms, was
// taken for what they define.
const COMMANDS = doc(
  'unbound/unbound-control.8.pdf',
  [
    'lookup name',
    'Print to stdout the name servers that would be used to look up the name specified.',
    'flush name',
    'Remove the name from the cache. Removes the types A, AAAA, NS, SOA, CNAME, DNAME, MX, PTR, SRV, NAPTR, SVCB and HTTPS. Because that is fast to do. Other record types can be removed using flush_type or flush_zone.',
    'flush_type name type',
    'Remove the name, type information from the cache.',
  ].join('\n'),
  4,
);
const MORE = doc(
  'unbound/unbound-control.8.pdf',
  [
    'flush_bogus',
    'Remove all bogus data from the cache.',
    'flush_negative',
    'Remove all negative data from the cache. This is nxdomain answers, nodata answers and servfail answers.',
  ].join('\n'),
  5,
);

describe('a word that is only a part of a snake_case term', () => {
  it('is not what that term defines (`flush` of `flush_bogus`)', async () => {
    const answer = await answerOf(
      libraryOf([MORE, COMMANDS], { [stem('flush')]: 5, [stem('unbound-control')]: 6 }),
      'What does unbound-control flush do?',
    );
    expect(answer).toContain('Remove the name from the cache.');
    expect(answer).not.toContain('bogus');
  });
});
