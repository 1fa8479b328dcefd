import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 30 (q09): postgrey(8) lists its options as `--help` prints them, a long option
// with its argument and what it does on one line (`--max-age=N delete entries older than N days …
// (default: 35)`). Read as rows of the SYNOPSIS heading (for their "default: 35"), the option
// asked about was shown with the next option's row after it.
const OPTIONS = doc(
  'mail/postgrey/postgrey.8.pdf',
  [
    'SYNOPSIS',
    '--delay=N greylist for N seconds (default: 300)',
    '--max-age=N delete entries older than N days since the last time that they have been seen (default: 35)',
    "--retry-window=N allow only N days for the first retrial (default: 2) append 'h' if you want to specify it in hours",
    '--greylist-action=A if greylisted, return A to Postfix (default: DEFER_IF_PER',
  ].join('\n'),
);

describe('a long option, its argument and what it does on one line (`--max-age=N delete entries …`)', () => {
  it('is a term and its definition', () => {
    const passages = passagesOf(OPTIONS);
    expect(passages.find((p) => p.text.startsWith('delete entries older'))).toMatchObject({
      lead: '--max-age=N',
      defines: true,
    });
    expect(passages.find((p) => p.text.startsWith('greylist for N seconds'))?.lead).toBe('--delay=N');
  });

  it('answers for that option alone', async () => {
    const answer = await answerOf(
      libraryOf([OPTIONS], weightsOf({ postgrey: 5, '--max-age': 6, control: 1.5, default: 1.2 })),
      "What does postgrey's --max-age option control and what is its default?",
    );
    expect(answer).toContain(
      'delete entries older than N days since the last time that they have been seen (default: 35)',
    );
    expect(answer).not.toContain('--retry-window');
  });
});

describe('a sentence that begins with a long option', () => {
  it('is no term line (stat(1): "--terse is equivalent to the following FORMAT:")', () => {
    const passages = passagesOf(
      doc(
        'man-stat.pdf',
        '--terse is equivalent to the following FORMAT:\n%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o %C',
      ),
    );
    expect(passages.some((p) => p.lead === '--terse' && p.defines)).toBe(false);
  });
});
