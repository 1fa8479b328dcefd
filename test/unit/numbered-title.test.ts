import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { doc, libraryOf, replyOf } from '../helpers/library.js';

// A new user's trial 32 (q40): newsboat's FAQ, each entry a numbered title ("1. I get errors like
// "`color01' is not a valid color"") and prose under it. The title, too long to be a heading by its
// shape, was read as a sentence under "Newsboat FAQ": "How do I fix my config?" was answered with
// it and why ("Numbers that start with zero are treated as octal…"), not with what to do
// ("Convert octal numbers to decimal, and drop the leading zero."), which says nothing of colours.
const FAQ = doc(
  'media/newsboat/faq.html',
  [
    'Newsboat FAQ',
    '1. I get errors like "`color01\' is not a valid color"',
    'Numbers that start with zero are treated as octal; starting with Newsboat 2.10, these are not allowed since they only add confusion.',
    'Convert octal numbers to decimal, and drop the leading zero. For example, color01 should be replaced with color1, color016 with color14 etc.',
    '2. I want to have a feed that contains all unread articles of all feeds',
    'This is supported since Newsbeuter 0.7. All you need to do is add the following line to your urls file:',
  ].join('\n'),
);

describe('a numbered title with prose under it', () => {
  it('heads that prose: what to do answers how to fix what the title says', async () => {
    const library = libraryOf([FAQ], {
      newsboat: 3,
      color01: 8,
      valid: 2.5,
      [stem('color')]: 2.5,
      fix: 2.5,
      config: 2,
      says: 1,
    });
    const reply = await replyOf(
      library,
      'Newsboat says "\'color01\' is not a valid color". How do I fix my config?',
    );
    expect(reply.content).toContain('Convert octal numbers to decimal, and drop the leading zero.');
  });

  it('but a numbered step, another under it, is a step: what it says answers', async () => {
    const steps = doc(
      'INSTALL.txt',
      [
        'Installing',
        '1. Download the release tarball from the project page',
        '2. Unpack the tarball into a folder of its own with tar xf',
        '3. Run make install as root',
        'The program is then installed under /usr/local.',
      ].join('\n'),
    );
    const library = libraryOf([steps], { [stem('unpack')]: 4, tarball: 4, folder: 2 });
    const reply = await replyOf(library, 'How do I unpack the tarball?');
    expect(reply.content).toContain('Unpack the tarball into a folder of its own with tar xf');
  });
});
