import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

const page = (n: number, text: string) => doc('smartmontools/smartd.8.pdf', text, n);

// A new user's trial (#33, trial 19): "How often does smartd check the disks by default?" was
// answered with an example's "checking the disk status every 30 seconds" (`smartd -d -i 30`), not
// with -i's "The default is 1800 seconds.", which its definition leaves to a later sentence.
const INTERVAL = page(
  3,
  [
    '-i N, --interval=N',
    'Sets the interval between disk checks to N seconds, where N is a decimal integer. The minimum allowed value is ten and the maximum is the largest positive integer that can be represented on your system (often 2^31-1). The default is 1800 seconds.',
    'Note that the superuser can make smartd check the status of the disks at any time by sending it the SIGUSR1 signal.',
  ].join('\n'),
);
const EXAMPLES = page(
  5,
  [
    'smartd',
    'Runs the daemon in forked mode. This is the normal way to run smartd.',
    'smartd -d -i 30',
    'Run in foreground (debug) mode, checking the disk status every 30 seconds.',
  ].join('\n'),
);

describe('"by default"', () => {
  it("asks for the default: a definition whose figure is the default stated under it answers, not an example's figure", async () => {
    const answer = await answerOf(
      libraryOf([EXAMPLES, INTERVAL], { smartd: 3.3, check: 2, disk: 2.3, default: 0.7 }),
      'How often does smartd check the disks by default?',
    );
    expect(answer).toContain('The default is 1800 seconds.');
    expect(answer).not.toContain('every 30 seconds');
  });
});
