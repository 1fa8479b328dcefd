import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 30 (q14, q15): tinc.conf(5) and tinc's manual name each variable with the
// syntax of its value and its default in parentheses after it (`Port = port ( 655 )`, `Cipher =
// <cipher> (aes-256-cbc)`, `BindToInterface = interface [experimental]`). Those lines were read as
// headings, not as the terms their definitions define: "Which port does tinc listen on by
// default?" was answered with BindToInterface's "tinc will by default listen on all of them" and
// Port's definition without its line, so 655 was nowhere in the answer.
const HOST_VARIABLES = docLines('vpn/tinc/tinc.conf.5.pdf', 7, [
  'HOST CONFIGURATION FILES',
  'Can be anything from "0" up to the length of the digest produced by the digest algorithm.',
  'PMTU = mtu ( 1514 )',
  'This option controls the initial path MTU to this node.',
  'PMTUDiscovery = yes | no ( yes )',
  'When this option is enabled, tinc will try to discover the path MTU to this node. After the path MTU has been discovered, it will be enforced on the VPN.',
  'Port = port ( 655 )',
  'The port number on which this tinc daemon is listening for incoming connections, which is used if no port number is specified in an Address statement.',
  'PublicKey = key [obsolete]',
  'The public RSA key of this tinc daemon. It will be used to cryptographically verify it’s identity and to set up a secure connection.',
]);
const SERVER_VARIABLES = docLines('vpn/tinc/tinc.conf.5.pdf', 2, [
  'SERVER CONFIGURATION',
  'This option may not work on all platforms.',
  'BindToInterface = interface [experimental]',
  'If your computer has more than one network interface, tinc will by default listen on all of them for incoming connections. It is possible to bind only to a single interface with this variable.',
  'This option may not work on all platforms.',
]);
const MANUAL = docLines('vpn/tinc/Host-configuration-variables.html', 0, [
  '4.4.2 Host configuration variables',
  'Cipher = <cipher> (aes-256-cbc)',
  'The symmetric cipher algorithm used to encrypt UDP packets. Any cipher supported by LibreSSL or OpenSSL is recognized. Furthermore, specifying "none" will turn off packet encryption.',
  'ClampMSS = <yes|no> (yes)',
  'This option specifies whether tinc should clamp the maximum segment size (MSS) of TCP packets to the path MTU.',
]);

describe('a variable named with its value and its default in parentheses (`Port = port ( 655 )`)', () => {
  it('leads its definition, as do the same with a note in brackets', () => {
    const leads = (chunk: typeof HOST_VARIABLES, start: string) =>
      passagesOf(chunk).find((p) => p.text.startsWith(start))?.lead;
    expect(leads(HOST_VARIABLES, 'The port number on which')).toBe('Port = port ( 655 )');
    expect(leads(HOST_VARIABLES, 'When this option is enabled')).toBe('PMTUDiscovery = yes | no ( yes )');
    expect(leads(HOST_VARIABLES, 'The public RSA key')).toBe('PublicKey = key [obsolete]');
    // The next variable's line is no example of the definition above it.
    expect(
      passagesOf(HOST_VARIABLES).find((p) => p.text.startsWith('The port number'))?.example,
    ).toBeUndefined();
    expect(leads(SERVER_VARIABLES, 'If your computer')).toBe('BindToInterface = interface [experimental]');
    expect(leads(MANUAL, 'The symmetric cipher')).toBe('Cipher = <cipher> (aes-256-cbc)');
  });

  it('so that its default is answered with its line', async () => {
    const library = libraryOf(
      [SERVER_VARIABLES, HOST_VARIABLES],
      weightsOf({ tinc: 5, port: 3.2, listen: 2.5, default: 1.2 }),
    );
    const answer = await answerOf(library, 'Which port does tinc listen on by default?');
    expect(answer).toMatch(/^Port = port \( 655 \): The port number on which this tinc daemon is listening/);
    const cipher = await answerOf(
      libraryOf([MANUAL], weightsOf({ tinc: 5, cipher: 4, encrypt: 3, udp: 3.5, packet: 2, default: 1.2 })),
      'What cipher does tinc use to encrypt UDP packets by default?',
    );
    expect(cipher).toMatch(/^Cipher = <cipher> \(aes-256-cbc\): The symmetric cipher algorithm/);
  });
});
