import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// Man pages as PDFs (a README check as a new user): "What does tar -x do?" was answered with
// tar's -x, then grep's `-x, --line-regexp` and ls's `-x`, citing all three: the same option of
// other programs. A question that names the program a document is named after is about it.
const TAR = docLines('man-tar.pdf', 0, ['-x, --extract, --get', 'Extract files from an archive.']);
const GREP = docLines('man-grep.pdf', 0, [
  '-x, --line-regexp',
  'Select only those matches that exactly match the whole line.',
]);
const LS = docLines('man-ls.pdf', 0, ['-x', 'list entries by lines instead of by columns']);

describe('a question naming the program a document is named after', () => {
  it("is answered from that program's document alone", async () => {
    const library = libraryOf([TAR, GREP, LS], weightsOf({ tar: 0.54, x: 0.89, '-x': 2.81 }));
    const answer = await answerOf(library, 'What does tar -x do?');
    expect(answer).toContain('Extract files from an archive.');
    expect(answer).not.toContain('line-regexp');
    expect(answer).not.toContain('list entries by lines');
    expect(answer).toMatch(/Sources: \[man-tar\.pdf\]$/);
  });
});
