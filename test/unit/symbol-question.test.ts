import { describe, expect, it } from 'vitest';
import { withSymbolsNamed } from '../../src/server/answer/relevance.js';
import { answerOf, doc as chunk, libraryOf } from '../helpers/library.js';

// A new user's trial (#33, trial 18): "What happens to a % character in a crontab command?" lost
// its "%" to the tokenizer and was answered with crontab(1)'s CRONTAB_NOHEADER.
const CRONTAB_1 = chunk(
  'cron/crontab.1.pdf',
  "You may obtain the original behaviour by setting the environment variable CRONTAB_NOHEADER to 'N', which will cause the crontab -l command to emit the extraneous header.",
);
const CRONTAB_5 = chunk(
  'cron/crontab.5.pdf',
  'The "sixth" field (the rest of the line) specifies the command to be run. Percent-signs (%) in the command, unless escaped with backslash (\\), will be changed into newline characters, and all data after the first % will be sent to the command as standard input.',
);

describe('a character a question asks about by itself', () => {
  it('is asked about by its name too, as documents name it ("Percent-signs (%)")', async () => {
    expect(withSymbolsNamed('What happens to a % character in a crontab command?')).toBe(
      'What happens to a % percent character in a crontab command?',
    );
    expect(withSymbolsNamed('What does "~" mean in a path?')).toBe('What does "~ tilde" mean in a path?');
    // Not one inside a name or a figure: `%j`, 50%, `a|b`.
    for (const q of ['What does %j print?', 'Is 50% the limit?', 'What does a|b match?'])
      expect(withSymbolsNamed(q)).toBe(q);
    const answer = await answerOf(
      // "crontab" is rarer than "character" in the trial's folder: crontab(1) held it, (5) did not.
      libraryOf([CRONTAB_1, CRONTAB_5], { crontab: 3, percent: 4 }),
      'What happens to a % character in a crontab command?',
    );
    expect(answer).toMatch(/^Percent-signs \(%\) in the command/);
    expect(answer).not.toContain('CRONTAB_NOHEADER');
  });
});
