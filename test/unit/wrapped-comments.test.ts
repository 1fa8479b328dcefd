import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// keepalived.conf(5) as a PDF (a fifteenth new user's trial): its example configuration says what
// `nopreempt` does in a comment whose sentences wrap over four `#` lines; each line was read
// alone, so no sentence of it was whole and nothing answered, even asked in its own words.
const KEEPALIVED = [
  '# Drop packets to non address-owner.',
  'no_accept',
  '# A higher priority VRRP instance will normally preempt a lower priority instance',
  '# when it comes online. "nopreempt" stops the higher priority machine taking',
  '# over the master role, and allows the lower priority machine to remain as',
  '# master.',
  '# NOTE: For this to work, the initial state must not be MASTER.',
  '# --',
  'nopreempt',
  '# for backwards compatibility',
  'preempt',
].join('\n');

describe("a comment's sentences wrapped over several lines", () => {
  it('are read whole', async () => {
    const content = await answerOf(
      libraryOf([doc('man/keepalived.conf.5.pdf', KEEPALIVED)]),
      'Which option stops the higher priority machine taking over the master role?',
    );
    expect(content).toContain(
      '"nopreempt" stops the higher priority machine taking over the master role, and allows the lower priority machine to remain as master.',
    );
    // A comment's sentences, all of them, describe what comes after, not the line before.
    expect(content).not.toMatch(/no_accept/);
  });

  it('but a setting commented out under a comment is no part of its sentence', async () => {
    const faillock = [
      '# The access will be re-enabled after n seconds after the lock out.',
      '# The value 0 has the same meaning as value `never` - the access',
      '# will not be re-enabled without resetting the faillock',
      '# entries by the `faillock` command.',
      '# The default is 600 (10 minutes).',
      '# unlock_time = 600',
    ].join('\n');
    const content = await answerOf(
      libraryOf([doc('faillock.conf', faillock)]),
      'What is the default unlock_time?',
    );
    expect(content).toMatch(/^The default is 600 \(10 minutes\)\.\n\n```\n# unlock_time = 600\n```\n/);
  });
});
