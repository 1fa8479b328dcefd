import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 39 (#33): "What values can DeflateCompressionLevel take?" was answered with
// the directive's syntax ("Syntax: DeflateCompressionLevel value.") and what it does, not "The
// value must be between 1 (less compression) and 9 (more compression).". mod_deflate's manual
// as kb serve reads its HTML.
const DEFLATE = docLines('apache-mod_deflate.html', 3, [
  'DeflateCompressionLevel Directive',
  'Description: How much compression do we apply to the output.',
  'Syntax: DeflateCompressionLevel value',
  "Default: Zlib's default",
  'Context: server config, virtual host',
  'The DeflateCompressionLevel directive specifies what level of compression should be used, the higher the value, the better the compression, but the more CPU time is required to achieve this.',
  'The value must be between 1 (less compression) and 9 (more compression).',
]);

describe('the values a setting takes', () => {
  const asked = 'What values can DeflateCompressionLevel take?';

  it('are a range or a choice, not the word "value"', () => {
    expect(
      holdsAnswerType(asked, 'The value must be between 1 (less compression) and 9 (more compression).'),
    ).toBe(true);
    expect(holdsAnswerType(asked, 'Valid levels are 0..9; 0 means no compression.')).toBe(true);
    expect(holdsAnswerType(asked, 'It must be one of yes, no or auto.')).toBe(true);
    expect(holdsAnswerType(asked, 'Set it to debug, info, warn or error.')).toBe(true);
    expect(holdsAnswerType(asked, 'Syntax: DeflateCompressionLevel value')).toBe(false);
  });

  it('answer the question', async () => {
    const answer = await answerOf(
      libraryOf([DEFLATE], weightsOf({ deflatecompressionlevel: 5, values: 1.5, take: 1 })),
      asked,
    );
    expect(answer).toContain('The value must be between 1 (less compression) and 9 (more compression).');
  });
});
