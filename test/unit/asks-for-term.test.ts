import { describe, expect, it } from 'vitest';
import { retrieve } from '../../src/server/answer/assistant.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// GNU time's manual (a fourteenth new user's trial): "Which format letter makes time print the
// maximum resident set size?" was refused, though `M` / "Maximum resident set size of the
// process…" answers it: "format letter" is the kind of term asked for, which the definition's
// term is, not words the definition must say ("letter" is in no document, so it weighed most).
const TIME = [
  '1.2.2 Memory Resources',
  'M',
  'Maximum resident set size of the process during its lifetime, in Kilobytes.',
  't',
  'Average resident set size of the process, in Kilobytes.',
  'K',
  'Average total (data+stack+text) memory use of the process, in Kilobytes.',
].join('\n');
const IDF = { letter: 4, format: 1.5, maximum: 2, resid: 2.5, size: 1.5, print: 1.5, averag: 2, swap: 4 };

describe('a question asking which term does something', () => {
  it("is answered by the term's definition, the term shown with it", async () => {
    const library = libraryOf([doc('time.html', TIME)], IDF, ['letter']);
    const content = await answerOf(
      library,
      'Which format letter makes time print the maximum resident set size?',
    );
    expect(content).toMatch(
      /^M: Maximum resident set size of the process during its lifetime, in Kilobytes\.\n\nSources: \[time\.html\]$/,
    );
  });

  it('is not answered by a definition that says too little of what is asked', async () => {
    const library = libraryOf([doc('time.html', TIME)], IDF, ['letter', 'swap']);
    const r = await retrieve(library, 'ws', 'Which format letter makes time print how often it swapped?', []);
    expect(r.passages).toEqual([]);
  });
});
