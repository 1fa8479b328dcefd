import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// chrony's FAQ (a new user's trial 26): "Does chrony support Windows?" was answered with the
// sentences after the FAQ's "No.", which hold the question's words; the answer lost its first word.
const FAQ = docLines('chrony-FAQ.txt', 0, [
  '8. Operating systems',
  '8.1. Does chrony support Windows?',
  'No. The chronyc program (the command-line client used for configuring chronyd while it is running) has been successfully built and run under Cygwin in the past. chronyd is not portable, because part of it is very system-dependent. It needs adapting to work with Windows’ equivalent of the adjtimex() call, and it needs to be made to work as a service.',
  '8.2. Are there any plans to support Windows?',
  'We have no plans to do this. Anyone is welcome to pick this work up and contribute it back to the project.',
]);

describe("the yes or no a FAQ's answer starts with", () => {
  it('starts the answer drawn from the sentences after it', async () => {
    const library = libraryOf([FAQ], weightsOf({ chrony: 4, support: 2, windows: 5 }));
    const answer = await answerOf(library, 'Does chrony support Windows?');
    expect(answer).toMatch(/^(?:8\.1\. Does chrony support Windows\? )?No\. The chronyc program/);
  });
});
