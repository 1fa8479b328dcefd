import { describe, expect, it } from 'vitest';
import { isTermLead } from '../../src/server/answer/passages.js';
import { answerOf, docLines as chunk, followUpOf, libraryOf, weightsOf as idf } from '../helpers/library.js';

// The twentieth new user's trial (gnupg's man pages rendered to PDF).
const PRESET = chunk('gnupg/gpg-agent.1.pdf', 0, [
  '--allow-preset-passphrase',
  'This option allows the use of gpg-preset-passphrase to seed the internal cache of gpg-agent with passphrases.',
  '--no-allow-external-cache',
  'Tell Pinentry not to enable features which use an external cache for passphrases.',
]);
const CACHE_TTL = chunk('gnupg/gpg-agent.1.pdf', 1, [
  '--ignore-cache-for-signing',
  'Note that there is also a per-session option to control this behavior but this command line option takes precedence.',
  '--default-cache-ttl n',
  'Set the time a cache entry is valid to n seconds. The default is 600 seconds. Each time a cache entry is accessed, the entry’s timer is reset. To set an entry’s maximum lifetime, use max-cache-ttl. Note that a cached passphrase may not be evicted immediately from memory if no client requests a cache operation.',
]);

describe('the value a term’s definition states, asked for', () => {
  it('answers with the words of the whole definition, not a sentence that only shares more of them', async () => {
    const library = libraryOf(
      [PRESET, CACHE_TTL],
      idf({ passphrase: 4.5, cached: 3.4, gpg: 2.6, agent: 3.1, keep: 1.15, default: 1.2 }),
    );
    const reply = await answerOf(library, 'How long does gpg-agent keep a passphrase cached by default?');
    expect(reply).toContain('The default is 600 seconds.');
    expect(reply).not.toContain('seed the internal cache');
  });

  it('borrows no word of the question before for a follow-up (iptables: limit-burst, not hashlimit-burst)', async () => {
    // The nineteenth new user's trial (F1): both options' definitions say "…; the default is 5.";
    // hashlimit-burst's next sentence says "rate", a word of the question before, not of this one.
    const file = 'iptables/iptables-extensions.8.pdf';
    const library = libraryOf(
      [
        chunk(file, 0, [
          '--hashlimit-burst amount',
          'Maximum initial number of packets to match: this number gets recharged by one every time the limit specified above is not reached, up to this number; the default is 5. When byte-based rate matching is requested, this option specifies the amount of bytes that can exceed the given rate. This option should be used with caution -- if the entry expires, the burst value is reset too.',
        ]),
        chunk(file, 1, [
          'limit',
          'This module matches at a limited rate using a token bucket filter.',
          '--limit rate[/second|/minute|/hour|/day]',
          'Maximum average matching rate: specified as a number, with an optional ‘/second’, ‘/minute’, ‘/hour’, or ‘/day’ suffix; the default is 3/hour.',
          '--limit-burst number',
        ]),
        chunk(file, 2, [
          'limit',
          'Maximum average matching rate: specified as a number, with an optional ‘/second’, ‘/minute’, ‘/hour’, or ‘/day’ suffix; the default is 3/hour.',
          '--limit-burst number',
          'Maximum initial number of packets to match: this number gets recharged by one every time the limit specified above is not reached, up to this number; the default is 5.',
        ]),
      ],
      idf({ burst: 4.8, rate: 2.4, iptables: 2.3, limit: 1.5, match: 1.5, default: 0.9 }),
    );
    const question = 'What is the default rate of the iptables limit match?';
    const { first, next } = await followUpOf(library, question, 'And what is its default burst?');
    expect(first.content).toContain('the default is 3/hour');
    expect(next.content).toContain('--limit-burst number');
    expect(next.content).not.toContain('hashlimit');
  });

  it('under a parameter named with its type (`redact (Array | Object):`), as under an option', () => {
    expect(isTermLead('redact (Array | Object):')).toBe(true);
    expect(isTermLead('--default-cache-ttl n')).toBe(true);
    expect(isTermLead('keepAliveTimeout')).toBe(true);
    expect(isTermLead('Orbitdesk Master Services Agreement (signed copy)')).toBe(false);
    // A name and the kind of thing it is, as Apache's reference heads each directive.
    expect(isTermLead('MaxRequestWorkers Directive')).toBe(true);
    expect(isTermLead('Apache Module mod_expires')).toBe(false);
    expect(isTermLead('Configuration Directives')).toBe(false);
  });

  it("not under a heading that is no term: a document's title (the demo's scanned agreement)", async () => {
    const agreement = chunk('signed-agreement-scanned.pdf', 0, [
      'Orbitdesk Master Services Agreement (signed copy)',
      'Either party may end this agreement with 60 days written notice.',
      'Invoices are payable within 30 days of the invoice date.',
      "Each party keeps the other party's confidential information secret",
      'for five years after the agreement ends.',
      'Signed for the provider: M. Okafor Signed for the customer: J. Rivera',
    ]);
    const reply = await answerOf(libraryOf([agreement]), 'How much notice ends the agreement?');
    expect(reply).toMatch(/^Either party may end this agreement with 60 days written notice\./);
  });

  it("under a name and its kind ('MaxRequestWorkers Directive': the twenty-first new user's trial, S6)", async () => {
    const mpm = chunk('apache/mod/mpm_common.html', 0, [
      'MaxRequestWorkers Directive',
      'Context: server config.',
      'Status: MPM.',
      'Module: event, worker, prefork.',
      'The MaxRequestWorkers directive sets the limit on the number of simultaneous requests that will be served. Any connection attempts over the MaxRequestWorkers limit will normally be queued, up to a number based on the ListenBacklog directive. Once a child process is freed at the end of a different request, the connection will then be serviced.',
      'For non-threaded servers (i.e., prefork), MaxRequestWorkers translates into the maximum number of child processes that will be launched to serve requests. The default value is 256; to increase it, you must also raise ServerLimit.',
    ]);
    const reply = await answerOf(
      libraryOf(
        [mpm],
        idf({
          prefork: 5,
          mpm: 4.1,
          simultaneous: 4.1,
          requests: 1.6,
          limit: 2.2,
          else: 4.1,
          raised: 4.9,
          above: 2.4,
        }),
      ),
      'For the prefork MPM, what is the default limit on simultaneous requests, and what else must be raised to go above it?',
    );
    expect(reply).toContain('The default value is 256; to increase it, you must also raise ServerLimit.');
  });
});
