import { describe, expect, it } from 'vitest';
import { extractiveAnswer, NOT_FOUND, retrieve } from '../../src/server/answer/assistant.js';
import { doc, libraryOf } from '../helpers/library.js';

// A new user's trial (#33): "How do I stop cron from emailing me the output of my jobs?" was
// answered "Normally, logrotate is run as a daily cron job." — it names cron, as the question
// does, so it answered at the lower threshold of a paraphrase that holds every name asked about.
// That threshold is for a passage about the name (by its heading or its document), not one
// that mentions it in passing.
describe('a name the question gives, in a passage about something else', () => {
  const logrotate = doc(
    'logrotate.8.pdf',
    'Normally, logrotate is run as a daily cron job. It will not modify a log more than once in one day unless the criterion for that log is based on the log size.',
  );

  it('does not make it an answer', async () => {
    const r = await retrieve(
      libraryOf([logrotate]),
      'ws',
      'How do I stop cron from emailing me the output of my jobs?',
      [],
    );
    expect(extractiveAnswer(r).content).toBe(NOT_FOUND);
  });

  it('still lets a passage about it answer in other words', async () => {
    const crontab = doc(
      'crontab.5.pdf',
      'CRONTAB(5)\nIf MAILTO is defined but empty, no mail will be sent. Cron sends the output of a job by email to the owner of the crontab.',
    );
    const r = await retrieve(
      libraryOf([logrotate, crontab]),
      'ws',
      'How do I stop cron from emailing me the output of my jobs?',
      [],
    );
    expect(extractiveAnswer(r).sources).toEqual(['crontab.5.pdf']);
  });
});
