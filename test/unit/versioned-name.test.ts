import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// Debian's exim4 package (a seventeenth new user's trial): the folder and the package name the
// program with its major version.
const README = doc(
  'exim4/README.Debian',
  [
    '2.1.1.7. Smarthost',
    'If the smarthost only accepts your mail on a port different from TCP/25, append two colons and the port number (for example smarthost.example::587 or 192.168.254.254::2525).',
  ].join('\n'),
);

describe("a program's name with its version in a file's name (exim4)", () => {
  it('names the program the question names without it (exim)', async () => {
    const answer = await answerOf(
      libraryOf([README], {
        provid: 2.6,
        mail: 2.3,
        relay: 4.7,
        onli: 1,
        accept: 2.7,
        port: 2,
        '587': 6.4,
        tell: 3.4,
        exim: 3.4,
        about: 2.5,
      }),
      "My provider's mail relay only accepts mail on port 587. How do I tell exim about that port?",
    );
    expect(answer).toContain('append two colons and the port number');
  });
});
