import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// A new user's trial 28 (I07): e2fsprogs' e2scrub.conf, each setting commented out under the
// comment that says what it is, written `name=value` (`# snap_size_mb=256`). "What is snap_size_mb
// in e2scrub.conf?" was refused: the commented-out setting was read as a setting only when written
// with spaces (`# set tabsize 8`), so the comment above it had no subject.
const E2SCRUB = doc(
  'filesystems/e2scrub.conf',
  [
    '# e2scrub configuration file',
    '',
    '# e-mail sender used by e2scrub_fail when problems are found with',
    '# the file system.',
    '# sender=e2scrub@host.domain.name',
    '',
    '# Snapshots will be created to run fsck; the snapshot will be of this size.',
    '# snap_size_mb=256',
    '',
    '# Set this to 1 to enable fstrim for everyone.',
    '# fstrim=0',
  ].join('\n'),
);

describe('a setting commented out as `# name=value` under the comment that says what it is', () => {
  it("is that comment's subject, and its value the default", async () => {
    const answer = await answerOf(
      libraryOf([E2SCRUB], { [stem('snap_size_mb')]: 7, [stem('e2scrub.conf')]: 5 }),
      'What is snap_size_mb in e2scrub.conf?',
    );
    expect(answer).toContain('Snapshots will be created to run fsck; the snapshot will be of this size.');
    expect(answer).toContain('snap_size_mb=256');
    expect(answer).not.toContain('fstrim');
  });
});
