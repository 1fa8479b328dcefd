import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 43 (p09): ImageMagick's security policy page writes a command after a prompt
// (`-> identify -list policy`) and its output under it; the command was read as a heading, and an
// answer began "-> identify -list policy: Path: ImageMagick-6/policy.xml."
const POLICY = docLines('imagemagick/security-policy.html', 13, [
  'Security Policy',
  'You can verify your policy changes are in effect with this command:',
  '-> identify -list policy',
  'Path: ImageMagick-6/policy.xml',
  'Policy: Resource',
  'name: list-length',
  'value: 32',
]);

describe('a command after a prompt', () => {
  it('is the example its sentence introduces, not a heading over its output', async () => {
    const passages = passagesOf(POLICY);
    expect(passages.find((p) => p.text.startsWith('You can verify'))?.example).toBe(
      '-> identify -list policy',
    );
    expect(passages.some((p) => p.lead === '-> identify -list policy')).toBe(false);
    const answer = await answerOf(
      libraryOf([POLICY], weightsOf({ check: 4, policy: 1, changes: 2.6, effect: 2.6 })),
      'How do I check that my policy changes are in effect?',
    );
    expect(answer).toContain('```\n-> identify -list policy\n```');
  });
});
