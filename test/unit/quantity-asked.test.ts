import { describe, expect, it } from 'vitest';
import { holdsAnswerType, quantitiesOf } from '../../src/server/answer/answer-type.js';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// mkfs.xfs(8) as a PDF (a new user's trial 41): "By default, what share of a 10 TB XFS filesystem
// may be used for inodes?" was refused. Its 10 was a name the answer must hold, and "10 TB" the
// heaviest of its words, where the manual states a rule ("5% for filesystems under 50TB").
const MKFS = doc(
  'mkfs.xfs.8.pdf',
  [
    '-m global_metadata_options',
    'By default, mkfs.xfs will create free inode btrees for filesystems created with the (default) -m crc=1 option set.',
    'maxpct=value',
    'This specifies the maximum percentage of space in the filesystem that can be allocated to inodes. The default value is 25% for filesystems under 1TB, 5% for filesystems under 50TB and 1% for filesystems over 50TB.',
  ].join('\n'),
);

describe('a quantity the question gives', () => {
  it('is its number and unit, not a bare number or a name', () => {
    expect([...quantitiesOf('What share of a 10 TB filesystem, every 300 ms, for 5 minutes?')]).toEqual([
      '10',
      'tb',
      '300',
      'ms',
      '5',
      'minutes',
    ]);
    expect(quantitiesOf('What does the value 252 give with hdparm -S?').size).toBe(0);
    expect(quantitiesOf('What changed in Debian 12?').size).toBe(0);
  });

  it('need not be in the answer, which says the rule it falls under', async () => {
    const answer = await answerOf(
      libraryOf(
        [MKFS],
        weightsOf({
          default: 0.7,
          share: 2.1,
          10: 3,
          tb: 5,
          xfs: 2.9,
          filesystem: 2.4,
          may: 0.6,
          inode: 2.5,
        }),
      ),
      'By default, what share of a 10 TB XFS filesystem may be used for inodes?',
    );
    expect(answer).toContain('5% for filesystems under 50TB');
    expect(answer).not.toContain('free inode btrees');
  });
});

describe('a question on what share', () => {
  it('is held by a percentage or a fraction', () => {
    expect(holdsAnswerType('What share of the disk is reserved?', 'The default value is 25%.')).toBe(true);
    expect(holdsAnswerType('What percentage of the disk is reserved?', 'Half of it is reserved.')).toBe(true);
    expect(holdsAnswerType('What share of the disk is reserved?', 'Free inode btrees are created.')).toBe(
      false,
    );
  });
});
