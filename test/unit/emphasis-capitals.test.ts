import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// vsftpd's FAQ (a seventeenth new user's trial): the answer goes on past a word in capitals that
// only stresses ("should NOT be owned").
const FAQ = doc(
  'vsftpd/FAQ',
  [
    'Q) Help! I\'m getting the error message "refusing to run with writable root". A) vsftpd is protecting against dangerous configurations. The cause of this message is usually dodgy ownership of the ftp home directory. The home directory should NOT be owned by the ftp user itself. Neither should it be writable by the ftp user. A way to fix this is:',
    'chown root ~ftp; chmod -w ~ftp',
  ].join('\n'),
);

describe('a word in capitals that stresses a word of the language ("NOT")', () => {
  it('is no other subject: the answer goes on over it', async () => {
    const answer = await answerOf(
      libraryOf([FAQ], { vsftpd: 3, refus: 2, writabl: 3, root: 2, error: 1 }),
      'What does vsftpd\'s "refusing to run with writable root" error mean?',
    );
    expect(answer).toContain('The home directory should NOT be owned by the ftp user itself.');
  });
});
