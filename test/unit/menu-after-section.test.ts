import { describe, expect, it } from 'vitest';
import { isNavigation, passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// GNU sed's manual as text (bench:real's gnu-sed.txt): a chunk that ends the section on exit
// statuses and starts the next chapter with its menu was read as navigation whole, so none of its
// sentences could answer "What does exit status 4 from GNU sed mean?" (its chunks had only to
// start two lines later for it: a change of headings elsewhere in the file did that).
const CHUNK = [
  '2.3 Exit status',
  '2',
  'One or more of the input file specified on the command line could not be opened (e.g. if a file is not found, or read permission is denied). Processing continued with other files.',
  '4',
  'An I/O error, or a serious processing error during runtime, GNU ‘sed’ aborted immediately.',
  'Additionally, the commands ‘q’ and ‘Q’ can be used to terminate ‘sed’ with a custom exit code value (this is a GNU ‘sed’ extension):',
  "$ echo | sed 'Q42' ; echo $?",
  '42',
  '3 ‘sed’ scripts',
  '* Menu:',
  '* sed script overview:: ‘sed’ script overview',
  '* sed commands list:: ‘sed’ commands summary',
  '* The "s" Command:: ‘sed’’s Swiss Army Knife',
  '* Common Commands:: Often used commands',
  '* Other Commands:: Less frequently used commands',
  '* Programming Commands:: Commands for ‘sed’ gurus',
].join('\n');

describe('a menu after the end of a section, in one chunk', () => {
  it('is navigation, and the section’s sentences above it still answer', async () => {
    const chunk = doc('gnu-sed.txt', CHUNK);
    expect(isNavigation(CHUNK)).toBe(false);
    const texts = passagesOf(chunk).map((p) => p.text);
    expect(texts.some((t) => t.startsWith('An I/O error'))).toBe(true);
    expect(texts.some((t) => t.includes('Swiss Army Knife') || t.includes('Often used commands'))).toBe(
      false,
    );
    const answer = await answerOf(
      libraryOf([chunk], { exit: 2, status: 2, sed: 2.5, gnu: 1.5, 4: 2, mean: 1 }),
      'What does exit status 4 from GNU sed mean?',
    );
    expect(answer).toContain('An I/O error, or a serious processing error');
  });
});
