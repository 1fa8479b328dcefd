import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// A new user's trial 28 (W02): Knot DNS's README, made a Word document, says "Install
// prerequisites:" over `sudo apt-get install \` and, on the line under it, the packages. The
// answer showed the command without them: a line that ends with a shell's continuation goes on.
const README = doc(
  'knot/README.docx',
  [
    'Debian based distributions',
    'Update the system:',
    'sudo apt-get update',
    'Install prerequisites:',
    'sudo apt-get install \\',
    'libtool autoconf automake make pkg-config liburcu-dev libgnutls28-dev libedit-dev liblmdb-dev',
    'Install optional packages:',
    'sudo apt-get install \\',
    'libcap-ng-dev libsystemd-dev libidn2-0-dev',
  ].join('\n'),
);

describe('a command line that ends with a continuation (`\\`)', () => {
  it('is read as the one line it is, without its continuations', () => {
    expect(passagesOf(README).map((p) => p.text)).toContain(
      'Install prerequisites: sudo apt-get install libtool autoconf automake make pkg-config liburcu-dev libgnutls28-dev libedit-dev liblmdb-dev',
    );
  });

  it('so that the answer shows the whole command', async () => {
    const answer = await answerOf(
      libraryOf([README], { [stem('prerequisites')]: 5, [stem('debian')]: 3 }),
      'Which prerequisites must be installed to build Knot DNS on Debian?',
    );
    expect(answer).toContain('liburcu-dev');
  });
});
