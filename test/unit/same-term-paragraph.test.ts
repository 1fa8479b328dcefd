import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial (34): git-config(1) as text, asked "What is the default value of gc.auto in
// git config?", answered "gc.auto: The default value is 6700. gc.auto: Setting this to 0
// disables…": the next paragraph of the same variable was shown as an item of a list, with its
// term again (sshd_config(5)'s X11Forwarding and unbound.conf(5)'s do-ip6 alike).
describe('the next paragraph under the same term', () => {
  const chunks = [
    docLines('git-config.1.txt', 0, [
      'gc.aggressiveWindow',
      'The window size parameter used in the delta compression algorithm used by git gc --aggressive. This defaults to 250, which is a much more aggressive window size than the default --window of 10.',
      'gc.auto',
      'When there are approximately more than this many loose objects in the repository, git gc --auto will pack them. Some Porcelain commands use this command to perform a light-weight garbage collection from time to time. The default value is 6700.',
    ]),
    docLines('git-config.1.txt', 1, [
      'gc.auto',
      'Some Porcelain commands use this command to perform a light-weight garbage collection from time to time. The default value is 6700.',
      'Setting this to 0 disables not only automatic packing based on the number of loose objects, but any other heuristic git gc --auto will otherwise use to determine if there’s work to do, such as gc.autoPackLimit.',
      'gc.autoPackLimit',
      'When there are more than this many packs that are not marked with *.keep file in the repository, git gc --auto consolidates them into one larger pack. The default value is 50.',
    ]),
  ];
  const library = libraryOf(chunks, weightsOf({ gc: 5, auto: 5, default: 1, value: 1, git: 2, config: 2 }));

  it('is no item of a list: the term is said once, its default answered', async () => {
    const answer = await answerOf(library, 'What is the default value of gc.auto in git config?');
    expect(answer).toContain('gc.auto: The default value is 6700.');
    expect(answer.match(/gc\.auto:/g)).toHaveLength(1);
  });
});
