import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 37 (q15): cron(8) saved with `man cron | col -b`, chunked as kb serve chunks
// it. "What does cron log by default with its -L option?" was answered with -L's list, the next
// section's heading ("NOTES.") and then the list's last three sentences again.
const CRON = docLines('cron.8.txt', 3, [
  '-L loglevel',
  'Tell cron what to log about jobs (errors are logged regardless of this value) as the sum of the following values:',
  '1 will log the start of all cron jobs',
  '2 will log the end of all cron jobs',
  '4 will log all failed jobs (exit status != 0)',
  '8 will log the process number of all cron jobs',
  'The default is to log the start of all jobs (1). Logging will be disabled if levels is set to zero (0). A value of fifteen (15) will select all options.',
  'NOTES',
  'cron searches its spool area (/var/spool/cron/crontabs) for crontab files (which are named after accounts in /etc/passwd); crontabs found are loaded into memory. Note that crontabs in this directory should not be accessed directly - the crontab command should be used to access and update them.',
]);

describe("an option's list of values and the sentences after it", () => {
  it("are said once each, without the next section's heading", async () => {
    const library = libraryOf([CRON], weightsOf({ cron: 3, log: 2, default: 0.5 }));
    const answer = await answerOf(library, 'What does cron log by default with its -L option?');
    expect(answer).toContain('The default is to log the start of all jobs (1).');
    expect(answer.split('The default is to log the start').length).toBe(2);
    expect(answer).not.toContain('NOTES');
    expect(answer).not.toContain('spool');
  });

  it('leave the next section to its heading: a manual\'s NOTES is no box\'s title ("Note")', () => {
    const cron = passagesOf(CRON).find((p) => p.text.startsWith('cron searches'));
    expect(cron?.lead).toBe('NOTES');
  });

  // q16 of the same trial, once NOTES headed its section: "NOTES: The files under…".
  it("are not led by a manual's section name, which says nothing of what they are about", async () => {
    const notes = docLines('cron.8.txt', 4, [
      'NOTES',
      'The files under /etc/cron.d do not need to be executable, while the files under /etc/cron.hourly, /etc/cron.daily, /etc/cron.weekly and /etc/cron.monthly do, as they are run by run-parts (see run-parts(8) for more information).',
    ]);
    const answer = await answerOf(
      libraryOf([notes], weightsOf({ files: 1, drop: 3, executable: 3 })),
      'Do the files I drop into /etc/cron.d have to be executable?',
    );
    expect(answer).toMatch(/^The files under \/etc\/cron\.d do not need to be executable/);
  });
});
