import { describe, expect, it } from 'vitest';
import { docLines, followUpOf, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 36 (f08): after "How soon does runit pick up a new service after I create the
// symbolic link in /service/?", "And how do I remove it again?" was answered with how to add one
// again, then with another FAQ entry on creating symbolic links: the words of the question before
// (new service, create, symbolic link) outweighed the one word the follow-up newly asks.
const FAQ = [
  docLines('runit/faq.html', 0, [
    'How do I tell runit about a new service',
    'Answer: Create a symbolic link in /service/ pointing to the service directory, runit will pick up the service within the next five seconds, and automatically start it on system boot.',
  ]),
  docLines('runit/faq.html', 1, [
    'It is very nice to simply create symbolic links to add system-wide services. Does this work for user-specific services too?',
    'Answer: Yes. Create a service runsvdir-floyd, create a symbolic link to it in /service/, and runit will pick up the new service as soon as it is there.',
  ]),
  docLines('runit/faq.html', 2, [
    'How do I remove a service',
    'Answer: Remove the symbolic link in /service/ pointing to the service directory, runit recognizes the removed service within the next five seconds.',
  ]),
];

describe('a follow-up that newly asks one thing', () => {
  it('is answered by a passage that holds it, where one answers', async () => {
    const library = libraryOf(
      FAQ,
      weightsOf({
        runit: 3,
        pick: 3,
        new: 2,
        service: 2,
        create: 3,
        symbolic: 3,
        link: 3,
        soon: 3,
        remove: 1.5,
      }),
    );
    const { first, next } = await followUpOf(
      library,
      'How soon does runit pick up a new service after I create the symbolic link in /service/?',
      'And how do I remove it again?',
    );
    expect(first.content).toContain('runit will pick up the service within the next five seconds');
    expect(next.content).toContain('Remove the symbolic link in /service/');
  });
});
