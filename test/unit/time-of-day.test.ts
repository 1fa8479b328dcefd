import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// at(1) and anacron's README (a sixteenth new user's trial): "What time is 'teatime' when
// scheduling an at job?" was answered with anacron's "Every time Anacron is run…": "what time"
// asks for a time of day ("teatime (4pm)"), not a duration, which neither passage holds.
const AT = [
  'DESCRIPTION',
  'At allows fairly complex time specifications, extending the POSIX.2 standard. It accepts times of the form HH:MM to run a job at a specific time of day. (If that time is already past, the next day is assumed.) You may also specify midnight, noon, or teatime (4pm) and you can have a time-of-day suffixed with AM or PM for running in the morning or the evening.',
].join('\n');
const ANACRON = [
  'What is Anacron ?',
  'Anacron is a periodic command scheduler. It executes commands at intervals specified in days.',
  'Every time Anacron is run, it reads a configuration file that specifies the jobs Anacron controls, and their periods in days.',
].join('\n');

describe('"What time…?"', () => {
  it('asks for a time of day, which the answer holds', async () => {
    const library = libraryOf([doc('man-pdf/at.1.pdf', AT), doc('scheduling/anacron-README.txt', ANACRON)], {
      teatim: 7,
      time: 1.5,
      schedul: 4.5,
      job: 3,
    });
    const content = await answerOf(library, "What time is 'teatime' when scheduling an at job?");
    expect(content).toContain('teatime (4pm)');
    expect(content).not.toMatch(/Anacron/);
  });
});
