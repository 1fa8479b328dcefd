import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// restic's manual as HTML (a twenty-ninth new user's trial, q38): the sentence that holds the
// question's words says again, "in other words", what the one before says with the option's name.
const BACKUP = doc(
  'restic/040_backup.html',
  [
    'By specifying the option --one-file-system you can instruct restic to only backup files from the file systems the initially specified files or directories reside on. In other words, it will prevent restic from crossing filesystem boundaries and subvolumes when performing a backup.',
    'For example, if you backup / with this option and you have external media mounted under /media/usb then restic will not back up /media/usb at all because this is a different file system than /.',
  ].join('\n'),
);

describe('a sentence that says again "in other words" what the one before says', () => {
  it('is shown after it', async () => {
    const answer = await answerOf(
      libraryOf([BACKUP], { restic: 3, cross: 4, filesystem: 4, boundari: 5, backup: 1.5, stop: 1 }),
      'How do I stop restic from crossing filesystem boundaries during a backup?',
    );
    expect(answer).toContain('--one-file-system');
    expect(answer).toContain('In other words, it will prevent restic');
  });
});
