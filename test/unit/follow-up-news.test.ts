import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';
import { doc, followUpOf, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 36 (f06): after "What is the default TLS listening port of the coturn TURN
// server?" (answered "TURN listener port for TLS (Default: 5349)."), "And the default plain UDP
// and TCP listener port?" was answered with that same line again: it holds the follow-up's words
// but none of those it newly asks (UDP, TCP; "listener" is no news after "listening"), and the
// previous answer drew on it. Chunked as kb serve chunks turnserver.conf.
const chunk = (n: number, lines: string[]) => doc('turn/turnserver.conf', unwrapText(lines.join('\n')), n);

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
    const { first, next } = await followUpOf(
      library,
      'What is the default TLS listening port of the coturn TURN server?',
      'And the default plain UDP and TCP listener port?',
    );
    expect(first.content).toContain('TURN listener port for TLS (Default: 5349).');
    expect(next.content).toContain('TURN listener port for UDP and TCP (Default: 3478).');
    expect(next.content).not.toContain('5349');
  });
});
