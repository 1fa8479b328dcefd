import { describe, expect, it } from 'vitest';
import { extractChunks } from '../../src/server/ingest/extraction/extract-chunks.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twenty-seventh new user's trial (K13): OpenVPN's sample server.conf says what its `server`
// line does in a comment of several sentences, the setting under the last of them; asked with the
// comment's first sentence, the answer was that sentence alone, without the setting it describes.
const OPENVPN = [
  "# Non-Windows systems usually don't need this.",
  ';dev-node MyTap',
  '',
  '# SSL/TLS root certificate (ca), certificate',
  '# (cert), and private key (key).  Each client',
  '# and the server must have their own cert and',
  '# key file.  The server and all clients will',
  '# use the same ca file.',
  '#',
  '# See the "easy-rsa" project at',
  '# https://github.com/OpenVPN/easy-rsa',
  '# for generating RSA certificates',
  '# and private keys.  Remember to use',
  '# a unique Common Name for the server',
  '# and each of the client certificates.',
  '#',
  '# Any X509 key management system can be used.',
  '# OpenVPN can also use a PKCS #12 formatted key file',
  '# (see "pkcs12" directive in man page).',
  '#',
  '# If you do not want to maintain a CA',
  '# and have a small number of clients',
  '# you can also use self-signed certificates',
  '# and use the peer-fingerprint option.',
  '# See openvpn-examples man page for a',
  '# configuration example.',
  'ca ca.crt',
  'cert server.crt',
  'key server.key  # This file should be kept secret',
  '',
  '# Diffie hellman parameters.',
  '# Generate your own with:',
  '#   openssl dhparam -out dh2048.pem 2048',
  'dh dh2048.pem',
  '',
  '# Allow to connect to really old OpenVPN versions',
  '# without AEAD support (OpenVPN 2.3.x or older)',
  '# This adds AES-256-CBC as fallback cipher and',
  '# keeps the modern ciphers as well.',
  ';data-ciphers AES-256-GCM:AES-128-GCM:?CHACHA20-POLY1305:AES-256-CBC',
  '',
  '# Network topology',
  '# Should be subnet (addressing via IP)',
  '# unless Windows clients v2.0.9 and lower have to',
  '# be supported (then net30, i.e. a /30 per client)',
  '# Defaults to net30 (not recommended)',
  'topology subnet',
  '',
  '# Configure server mode and supply a VPN subnet',
  '# for OpenVPN to draw client addresses from.',
  '# The server will take 10.8.0.1 for itself,',
  '# the rest will be made available to clients.',
  '# Each client will be able to reach the server',
  '# on 10.8.0.1. Comment this line out if you are',
  '# ethernet bridging. See the man page for more info.',
  'server 10.8.0.0 255.255.255.0',
  '',
  '# Maintain a record of client <-> virtual IP address',
  '# associations in this file.  If OpenVPN goes down or',
  '# is restarted, reconnecting clients can be assigned',
  '# the same virtual IP address from the pool that was',
];
const SERVER_CONF = doc(
  'openvpn/server.conf',
  OPENVPN.slice(
    OPENVPN.indexOf('# Network topology'),
    OPENVPN.indexOf('# associations in this file.  If OpenVPN goes down or'),
  ).join('\n'),
);

describe('a comment of several sentences above the setting it describes', () => {
  it('shows that setting under whichever of its sentences answers', async () => {
    const answer = await answerOf(
      libraryOf([SERVER_CONF], { openvpn: 3, vpn: 2.5, subnet: 2.5, draw: 3, client: 1.5, address: 1.5 }),
      'Which VPN subnet does the sample server.conf supply for OpenVPN to draw client addresses from?',
    );
    expect(answer).toContain('server 10.8.0.0 255.255.255.0');
  });
});

// The same file as kb reads it, with three settings above, so that a chunk ended inside that
// comment: its first sentence was that chunk's last, and answered without the setting.
const SAMPLE = [
  ...[0, 1, 2].flatMap((i) => [`# Setting number ${i} says how long to wait.`, `wait${i} ${i * 10}`, '', '']),
  ...OPENVPN,
].join('\n');

describe('a comment at the end of a chunk', () => {
  it('goes on to the next chunk whole, with the setting under it', async () => {
    const extraction = await extractChunks('openvpn/server.conf', new TextEncoder().encode(SAMPLE));
    if (!extraction.ok) throw new Error(extraction.error.message);
    const chunks = extraction.chunks.map((c) => c.text);
    expect(chunks.length).toBeGreaterThan(2);
    const holding = chunks.filter((c) => c.includes('# Configure server mode'));
    expect(holding).toHaveLength(1);
    expect(holding[0]).toContain('server 10.8.0.0 255.255.255.0');
    const answer = await answerOf(
      libraryOf(
        chunks.map((text, i) => doc('openvpn/server.conf', text, i)),
        { openvpn: 3, vpn: 2.5, subnet: 2.5, draw: 3, client: 1.5, address: 1.5 },
      ),
      'Which VPN subnet does the sample server.conf supply for OpenVPN to draw client addresses from?',
    );
    expect(answer).toContain('server 10.8.0.0 255.255.255.0');
  });
});

// A new user's trial 30 (q12): PowerDNS's pdns.conf is comments only, each setting a block of its
// name and what it does, an empty `#`, and the setting commented out with its default (`#
// webserver-port	Port of webserver/API to listen on` / `#` / `# webserver-port=8081`). A chunk
// ended after the empty `#`: only the setting's line, a comment of its own after it, went on to
// the next chunk, without the line saying what it is.
const PDNS = [
  ...Array.from({ length: 24 }, (_, i) => [
    '#################################',
    `# webserver-setting${i}\tWhat the webserver does with setting number ${i} when it runs`,
    '#',
    `# webserver-setting${i}=${i}`,
    '',
  ]).flat(),
].join('\n');

describe('a comment block at the end of a chunk, an empty `#` line in it', () => {
  it('is kept whole in a chunk, the setting with the line that says what it is', async () => {
    const extraction = await extractChunks('pdns/pdns.conf', new TextEncoder().encode(PDNS));
    if (!extraction.ok) throw new Error(extraction.error.message);
    const chunks = extraction.chunks.map((c) => c.text);
    expect(chunks.length).toBeGreaterThan(2);
    for (let i = 0; i < 24; i++)
      expect(
        chunks.some((c) =>
          c.includes(`# webserver-setting${i}\tWhat`) || c.includes(`# webserver-setting${i} What`)
            ? c.includes(`# webserver-setting${i}=${i}`)
            : false,
        ),
        `setting ${i}`,
      ).toBe(true);
  });
});

// squid.conf's settings are each a comment of paragraphs apart by empty `#` lines, its default
// last (`#Default:` / `# cache_mem 256 MB`): its last paragraph goes on to the next chunk whole,
// the default with the line that says it is one (trial 26's D5).
const SQUID = Array.from({ length: 12 }, (_, i) => [
  `#  TAG: setting${i}\t(bytes)`,
  `#\tThe amount of memory setting number ${i} may use for objects that are being`,
  '#\ttransferred and for hot objects that are kept in memory for a while.',
  '#',
  '#\tIf shared memory caching is enabled, Squid does not use the shared',
  '#\tcache space for in-transit objects, but they still consume memory.',
  '#Default:',
  `# setting${i} ${i} MB`,
  '',
]).flat();
const SQUID_CONF = ['http_port 3128', ...SQUID].join('\n');

describe('a comment of several paragraphs at the end of a chunk', () => {
  it('goes on to the next chunk with its last paragraph whole, the default under its label', async () => {
    const extraction = await extractChunks('config/squid.conf', new TextEncoder().encode(SQUID_CONF));
    if (!extraction.ok) throw new Error(extraction.error.message);
    const chunks = extraction.chunks.map((c) => c.text);
    expect(chunks.length).toBeGreaterThan(2);
    for (let i = 0; i < 12; i++)
      expect(
        chunks.some((c) => c.includes(`#Default:\n# setting${i} ${i} MB`)),
        `setting ${i}`,
      ).toBe(true);
  });
});
