import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 39 (#33): fail2ban's jail.conf. "Where should I put my fail2ban
// customizations instead of editing jail.conf?" said the comment's sentence that ends with "e.g.:",
// then, as what it introduces, the lines it is wrapped over ("file, but provide customizations in
// jail.local file, …"): what it introduced was read from its first line, not its last.
const HEAD = [
  '#',
  '# WARNING: heavily refactored in 0.9.0 release.  Please review and',
  '#          customize settings for your setup.',
  '#',
  '# Changes:  in most of the cases you should not modify this',
  '#           file, but provide customizations in jail.local file,',
  '#           or separate .conf files under jail.d/ directory, e.g.:',
  '#',
  '# HOW TO ACTIVATE JAILS:',
];
const FIRST = doc('fail2ban-jail.conf', HEAD.join('\n'), 0);
const NEXT = doc('fail2ban-jail.conf', HEAD.slice(5).join('\n'), 1);

describe('what a sentence wrapped over several lines introduces', () => {
  it('is read after its last line, not its first: its own lines are not said again', async () => {
    const answer = await answerOf(
      libraryOf(
        [FIRST, NEXT],
        weightsOf({ customizations: 4, fail2ban: 3, 'jail.conf': 3, editing: 2, put: 1 }),
      ),
      'Where should I put my fail2ban customizations instead of editing jail.conf?',
    );
    expect(answer).toContain('provide customizations in jail.local file');
    expect(answer.match(/provide customizations/g)).toHaveLength(1);
  });
});
