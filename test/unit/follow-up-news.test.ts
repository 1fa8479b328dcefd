import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';
import { doc, docLines, followUpOf, libraryOf, weightsOf } from '../helpers/library.js';
import type { Library } from '../../src/server/answer/assistant.js';

// A new user's trial 36 (f06): after "What is the default TLS listening port of the coturn TURN
// server?" (answered "TURN listener port for TLS (Default: 5349)."), "And the default plain UDP
// and TCP listener port?" was answered with that same line again: it holds the follow-up's words
// but none of those it newly asks (UDP, TCP; "listener" is no news after "listening"), and the
// previous answer drew on it. Chunked as kb serve chunks turnserver.conf.
const chunk = (n: number, lines: string[]) => doc('turn/turnserver.conf', unwrapText(lines.join('\n')), n);

/** Asks `question` then `followUp`, and checks each answer holds its text and the second not the first's. */
async function expectFollowUp(
  library: Library,
  [question, followUp]: [string, string],
  [firstHolds, nextHolds]: [string, string],
): Promise<void> {
  const { first, next } = await followUpOf(library, question, followUp);
  expect(first.content).toContain(firstHolds);
  expect(next.content).toContain(nextHolds);
  expect(next.content).not.toContain(firstHolds);
}

describe('a follow-up that asks something new of the same document', () => {
  const library = libraryOf(
    [
      chunk(0, [
        '# Listener interface device (optional, Linux only).',
        '# NOT RECOMMENDED.',
        '#',
        '#listening-device=eth0',
        '',
        '# TURN listener port for UDP and TCP (Default: 3478).',
        '# Note: actually, TLS & DTLS sessions can connect to the',
        '# "plain" TCP & UDP port(s), too - if allowed by configuration.',
        '#',
        '#listening-port=3478',
      ]),
      chunk(1, [
        '#listening-port=3478',
        '',
        '# TURN listener port for TLS (Default: 5349).',
        '# Note: actually, "plain" TCP & UDP sessions can connect to the TLS & DTLS',
        '# port(s), too - if allowed by configuration. The TURN server',
        '# "automatically" recognizes the type of traffic. Actually, two listening',
        '# endpoints (the "plain" one and the "tls" one) are equivalent in terms of',
        '# functionality; but Coturn keeps both endpoints to satisfy the RFC 5766 specs.',
        '# For secure TCP connections, Coturn currently supports',
        '# TLS version 1.0, 1.1 and 1.2.',
        '# For secure UDP connections, Coturn supports DTLS version 1.',
        '#',
        '#tls-listening-port=5349',
      ]),
    ],
    weightsOf({
      coturn: 5,
      turn: 3,
      tls: 3,
      listening: 2,
      listener: 2,
      port: 1.5,
      default: 1,
      plain: 3,
      udp: 3,
      tcp: 3,
    }),
  );

  it('is not answered with what the previous answer said', async () => {
    await expectFollowUp(
      library,
      [
        'What is the default TLS listening port of the coturn TURN server?',
        'And the default plain UDP and TCP listener port?',
      ],
      ['TURN listener port for TLS (Default: 5349).', 'TURN listener port for UDP and TCP (Default: 3478).'],
    );
  });
});

// A new user's trial 36 (f08): after "How soon does runit pick up a new service after I create the
// symbolic link in /service/?", "And how do I remove it again?" was answered with how to add one
// again, then with another FAQ entry on creating symbolic links: the words of the question before
// (new service, create, symbolic link) outweighed the one word the follow-up newly asks.
const FAQ = [
  docLines('runit/faq.html', 0, [
    'How do I tell runit about a new service',
    'Answer: Create a symbolic link in /service/ pointing to the service directory, runit will pick up the service within the next five seconds, and automatically start it on system boot.',
  ]),
  docLines('runit/faq.html', 1, [
    'It is very nice to simply create symbolic links to add system-wide services. Does this work for user-specific services too?',
    'Answer: Yes. Create a service runsvdir-floyd, create a symbolic link to it in /service/, and runit will pick up the new service as soon as it is there.',
  ]),
  docLines('runit/faq.html', 2, [
    'How do I remove a service',
    'Answer: Remove the symbolic link in /service/ pointing to the service directory, runit recognizes the removed service within the next five seconds.',
  ]),
];

describe('a follow-up that newly asks one thing', () => {
  it('is answered by a passage that holds it, where one answers', async () => {
    const library = libraryOf(
      FAQ,
      weightsOf({
        runit: 3,
        pick: 3,
        new: 2,
        service: 2,
        create: 3,
        symbolic: 3,
        link: 3,
        soon: 3,
        remove: 1.5,
      }),
    );
    await expectFollowUp(
      library,
      [
        'How soon does runit pick up a new service after I create the symbolic link in /service/?',
        'And how do I remove it again?',
      ],
      [
        'runit will pick up the service within the next five seconds',
        'Remove the symbolic link in /service/',
      ],
    );
  });
});
