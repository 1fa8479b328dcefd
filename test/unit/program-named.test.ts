import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 37 (q6): "Which wget option limits the download speed?" was answered with
// aria2c's --max-overall-download-limit and --max-download-limit, though wget's --limit-rate was
// retrieved too: "wget option" is the kind of term asked for, and its words were left out of what
// a definition must say, the program's name with them. Chunked as kb serve chunks the two manual
// pages saved as text.
const WGET = docLines('wget.1.txt', 12, [
  'Download Options',
  '--read-timeout=seconds',
  'This option does not directly affect the duration of the entire download.',
  '--limit-rate=amount',
  'Limit the download speed to amount bytes per second. Amount may be expressed in bytes, kilobytes with the k suffix, or megabytes with the m suffix.',
]);
const ARIA2C = docLines('aria2c.1.txt', 40, [
  'Advanced Options',
  '--max-overall-download-limit=<SPEED>',
  'Set max overall download speed in bytes/sec. 0 means unrestricted. Default: 0',
  '--max-download-limit=<SPEED>',
  'Set max download speed per each download in bytes/sec. 0 means unrestricted. Default: 0',
]);
const WEIGHTS = weightsOf({ wget: 2.8, aria2c: 2.8, option: 0.9, limits: 2, download: 1.7, speed: 2.8 });

describe('a question on a program\'s kind of term ("Which wget option…")', () => {
  it("is answered by that program's term, not another program's", async () => {
    const answer = await answerOf(
      libraryOf([ARIA2C, WGET], WEIGHTS),
      'Which wget option limits the download speed?',
    );
    expect(answer).toMatch(/^--limit-rate=amount: Limit the download speed/);
    expect(answer).not.toContain('aria2c');
    expect(answer).not.toContain('--max-download-limit');
  });

  it("is answered by the other program's term when the question names that one", async () => {
    const answer = await answerOf(
      libraryOf([ARIA2C, WGET], WEIGHTS),
      'Which aria2c option limits the download speed of each download?',
    );
    expect(answer).toContain('--max-download-limit');
  });
});
