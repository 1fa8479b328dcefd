import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 30 (q08): postgrey(8)'s `--delay=N greylist for N seconds (default: 300)` is
// a duration, its unit after the option's placeholder and its figure the default; "How long does
// postgrey greylist a new sender by default?" was refused, no figure standing before "seconds".
const OPTIONS = doc(
  'mail/postgrey/postgrey.8.pdf',
  [
    'SYNOPSIS',
    '--dbdir=PATH put db files in PATH (default: /var/lib/postgrey)',
    '--delay=N greylist for N seconds (default: 300)',
    '--max-age=N delete entries older than N days since the last time that they have been seen (default: 35)',
  ].join('\n'),
);

describe("an option's unit of time after its placeholder (`for N seconds`)", () => {
  it('holds a duration; a word before the unit does not', () => {
    const q = 'How long does postgrey greylist a new sender by default?';
    expect(holdsAnswerType(q, '--delay=N greylist for N seconds (default: 300)')).toBe(true);
    expect(holdsAnswerType('How long does it wait?', 'It waits a day or a week.')).toBe(false);
  });

  it("so that the option's line answers how long", async () => {
    const answer = await answerOf(
      libraryOf([OPTIONS], weightsOf({ postgrey: 5, greylist: 4, sender: 2.5, new: 1, default: 1.2 })),
      'How long does postgrey greylist a new sender by default?',
    );
    expect(answer).toMatch(/^--delay=N:? greylist for N seconds \(default: 300\)/);
  });
});
