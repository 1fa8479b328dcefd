import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// smartd.conf(5) as a PDF (a fifteenth new user's trial): each "To …, use:" is followed by the
// `-s` value to use. The answer began with the example before it as a heading
// ("-s L/../(01|15)/./22: To schedule…") and its own example came after "use." as a sentence.
const SMARTD = [
  'To schedule a long Self-Test between 10–11 pm on the first and fifteenth day of each month, use:',
  '-s L/../(01|15)/./22',
  'To schedule an Offline Immediate test after every midnight, 6 am, noon, and 6 pm, plus a Short Self-Test daily at 1–2 am and a Long Self-Test every Saturday at 3–4 am, use:',
  '-s (O/../.././(00|06|12|18)|S/../.././01|L/../../6/03)',
  'If Long Self-Tests of a large disks take longer than the system uptime, a full disk test can be performed by several Selective Self-Tests.',
].join('\n');

describe('the line a sentence ending "…, use:" introduces', () => {
  it('is what it says to use, shown as written under it, and heads nothing', async () => {
    const content = await answerOf(
      libraryOf([doc('man/smartd.conf.5.pdf', SMARTD)]),
      'How do I get smartd to run a long self-test every Saturday around 3 am?',
    );
    expect(content).toMatch(
      /^To schedule an Offline Immediate test .* every Saturday at 3–4 am, use:\n\n```\n-s \(O\/\.\.\/\.\.\/\.\/\(00\|06\|12\|18\)\|S\/\.\.\/\.\.\/\.\/01\|L\/\.\.\/\.\.\/6\/03\)\n```\n/,
    );
    expect(content).not.toContain('22:');
  });

  it('needs no option line before it as its heading: it says what to use itself', async () => {
    // The same page, a chunk later: the example of a sentence in the chunk before headed it.
    const chunk = ['HH', '-s L/../../7/04:003-010', SMARTD].join('\n');
    const content = await answerOf(
      libraryOf([doc('man/smartd.conf.5.pdf', chunk)]),
      'How do I get smartd to run a long self-test every Saturday around 3 am?',
    );
    expect(content).toMatch(/^To schedule an Offline Immediate test /);
  });
});
