import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// borg-prune(1) as a PDF (a seventeenth new user's trial): its example's comment says what the
// command under it does.
const BORG = doc(
  'man/borg-prune.1.pdf',
  [
    'EXAMPLES',
    '# Keep 7 end of day and 4 additional end of week archives.',
    '# Do a dry-run without actually deleting anything.',
    '$ borg prune -v --list --dry-run --keep-daily=7 --keep-weekly=4 /path/to/repo',
    '# Same as above but only apply to archive names starting with the hostname',
    '# of the machine followed by a "-" character:',
    "$ borg prune -v --list --keep-daily=7 --keep-weekly=4 --glob-archives='{hostname}-*' /path/to/repo",
  ].join('\n'),
);

describe('a command under the shell comment that says what it does', () => {
  it('is shown with it', async () => {
    const answer = await answerOf(
      libraryOf([BORG], { prune: 3, delet: 2, dri: 2 }),
      'How can I do a dry run of borg prune without deleting anything?',
    );
    expect(answer).toContain(
      'Do a dry-run without actually deleting anything.\n\n```\nborg prune -v --list --dry-run --keep-daily=7 --keep-weekly=4 /path/to/repo\n```',
    );
  });
});
