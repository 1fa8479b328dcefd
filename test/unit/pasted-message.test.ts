import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

const faq = (n: number, text: string) => doc('dnsmasq/FAQ', text, n);

// A new user's trial (#33, trial 19): the message dnsmasq logged, pasted with its real address,
// was refused, though the FAQ asks it with a placeholder; asked with "xxx.xxx.xxx.xxx", answered.
const FAQ = faq(
  0,
  [
    'Q: Dnsmasq sometimes logs "nameserver xxx.xxx.xxx.xxx refused to do a recursive query" and DNS stops working. What\'s going on?',
    'A: Probably the nameserver is an authoritative nameserver for a particular domain, but is not configured to answer general DNS queries for an arbitrary domain. It is not suitable for use by dnsmasq as an upstream server and should be removed from the configuration.',
  ].join('\n'),
);
const OTHER = faq(
  1,
  'Q: How do I send reverse queries to another server?\nA: For instance to send reverse queries on the range 192.168.0.0 to 192.168.0.255 to a nameserver at 10.0.0.1 do server=/0.168.192.in-addr.arpa/10.0.0.1',
);

describe('a message pasted into a question', () => {
  it('is read without the figures of its instance (a real address for the placeholder)', async () => {
    const library = libraryOf([OTHER, FAQ], {
      dnsmasq: 2.8,
      nameserver: 4.7,
      '192': 2,
      '168': 2,
      '1': 0.6,
      refused: 4.2,
      recursive: 4,
      query: 2.5,
    });
    const answer = await answerOf(
      library,
      'dnsmasq logs "nameserver 192.168.1.1 refused to do a recursive query" and DNS stops working. What\'s going on?',
    );
    expect(answer).toContain('Probably the nameserver is an authoritative nameserver');
  });

  it('keeps a figure asked about outside a quotation', async () => {
    const library = libraryOf([OTHER, FAQ], { '10.0.0.1': 5 });
    expect(await answerOf(library, 'Which reverse queries go to the nameserver at 10.0.0.1?')).toMatch(
      /10\.0\.0\.1/,
    );
  });
});
