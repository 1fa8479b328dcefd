import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// certbot(1) as Debian ships it (argparse's `--help`, a new user's trial 41): an option too long for
// its column has its description on the lines under it. Each such option had been read as the last
// words of the description above it ("Size of the RSA key. (default: 2048) --key-type {rsa,ecdsa}"),
// and a default cut after its colon ("(default:" / "ecdsa)") lost its value.
const HELP = [
  '\t  obtain, install, and renew certificates:',
  '\t      (default) run   Obtain & install a certificate in your current webserver',
  '\t      certonly\t      Obtain or renew a certificate, but do not install it',
  '\t      renew\t      Renew all previously obtained certificates that are near expiry',
  '',
  '\t  security:',
  '\t    Security parameters & server settings',
  '',
  '\t    --rsa-key-size N\t  Size of the RSA key. (default: 2048)',
  '\t    --key-type {rsa,ecdsa}',
  '\t\t\t\t  Type of generated private key. Only *ONE* per',
  '\t\t\t\t  invocation can be provided at this time. (default:',
  '\t\t\t\t  ecdsa)',
  '\t    --elliptic-curve N\t  The SECG elliptic curve name to use. Please see RFC',
  '\t\t\t\t  8446 for supported values. (default: secp256r1)',
  '\t    --must-staple\t  Adds the OCSP Must-Staple extension to the',
  '\t\t\t\t  certificate. Autoconfigures OCSP Stapling for',
  '\t\t\t\t  supported setups (Apache version >= 2.3.3 ). (default:',
  '\t\t\t\t  False)',
].join('\n');

describe("a program's options as --help prints them", () => {
  it('has an option set left of the description above it on a line of its own, its default whole', () => {
    const lines = unwrapText(HELP)
      .split('\n')
      .map((line) => line.trim());
    expect(lines).toContain('Size of the RSA key. (default: 2048)');
    // Its subcommands, each a line of its own.
    expect(lines.slice(1, 4).map((line) => line.split(/\s{2,}/)[0])).toEqual([
      '(default) run',
      'certonly',
      'renew',
    ]);
    expect(lines).toContain('--key-type {rsa,ecdsa}');
    expect(lines).toContain(
      'Type of generated private key. Only *ONE* per invocation can be provided at this time. (default: ecdsa)',
    );
    expect(lines).toContain(
      'The SECG elliptic curve name to use. Please see RFC 8446 for supported values. (default: secp256r1)',
    );
    expect(lines).toContain('--must-staple');
    expect(lines.at(-1)).toBe(
      'Adds the OCSP Must-Staple extension to the certificate. Autoconfigures OCSP Stapling for supported setups (Apache version >= 2.3.3 ). (default: False)',
    );
  });
});

describe('an option whose choices argparse lists in braces', () => {
  const help = doc(
    'certbot.1.txt',
    unwrapText(HELP)
      .split('\n')
      .map((line) => line.trim())
      .join('\n'),
  );

  it("heads its definition, and is no example of the option's above", () => {
    const passages = passagesOf(help);
    expect(passages.find((p) => p.text === 'Type of generated private key.')?.lead).toBe(
      '--key-type {rsa,ecdsa}',
    );
    expect(passages.find((p) => p.text.startsWith('Size of the RSA key'))?.example).toBeUndefined();
  });

  it('answers for its default', async () => {
    const answer = await answerOf(
      libraryOf([help], { certbot: 2, '--key-type': 6, key: 2, type: 2, default: 0.5 }),
      "What does certbot's --key-type option default to?",
    );
    expect(answer).toContain('(default: ecdsa)');
  });
});
