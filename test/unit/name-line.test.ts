import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// lighttpd's mod_userdir.txt, reStructuredText read as text (a new user's trial 26): "What does
// lighttpd's mod_userdir do?" was answered "Module: mod_userdir.", its title, which names only
// what the question names; what it does is the first sentence of its description.
const USERDIR = docLines('lighttpd/mod_userdir.txt', 0, [
  'userdir',
  'Module: mod_userdir',
  ':Author: Jan Kneschke',
  ':Revision: $Revision: 1.1 $',
  ':abstract:',
  'The userdir module ...',
  ':keywords: lighttpd, userdir',
  'Description',
  'The userdir module provides a simple way to link user-based directories into the global namespace of the webserver.',
  'Requests in the form /~user/page.html are rewritten to take the file page.html from the home directory of the user.',
]);

describe('a line that names only what the question names', () => {
  it('is answered by the first sentence under it that says something of it', async () => {
    const library = libraryOf(
      [USERDIR],
      weightsOf({ lighttpd: 3, mod_userdir: 6, userdir: 4, mod: 2, do: 0.5 }),
    );
    const answer = await answerOf(library, "What does lighttpd's mod_userdir do?");
    expect(answer).toContain('provides a simple way to link user-based directories');
  });
});
