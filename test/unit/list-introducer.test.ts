import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// SQLite's lang_datefunc.html (the held-out benchmark's ho-sqlite-datefunc-1): a table without a
// header, its rows "cell; cell", under the sentence that says what they are.
const DATEFUNC = doc(
  'corpus/sqlite-lang_datefunc.html',
  [
    '1. Overview',
    'The following is a complete list of valid strftime() substitutions:',
    '%d; day of month: 00.',
    '%f; fractional seconds: SS.SSS.',
    '%H; hour: 00-24.',
    '%j; day of year: 001-366.',
    '%J; Julian day number (fractional).',
    '%m; month: 01-12.',
    'All other date and time functions can be expressed in terms of strftime():',
    "Function: date(...); Equivalent (or nearly) strftime(): strftime('%Y-%m-%d', ...).",
  ].join('\n'),
);

describe('the rows of a list under the sentence that introduces it with a colon', () => {
  it('are about what that sentence says they are ("valid strftime() substitutions")', async () => {
    const answer = await answerOf(
      libraryOf([DATEFUNC], { j: 2, substitut: 5, strftim: 5.9, produc: 4.5, sqlite: 1.2, '%j': 7.8 }),
      'What does the %j substitution of strftime() produce in SQLite?',
    );
    expect(answer).toContain('%j; day of year: 001-366.');
  });
});
