import { describe, expect, it } from 'vitest';
import { questionWords } from '../../src/server/answer/relevance.js';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial (34): 'Can root log in over SSH with a password out of the box?' was
// refused, its heaviest word "box" (5.1, against ssh's 3.4): the idiom asks for a default (as
// answer-type.ts reads it), and its words are in no answer; PostgreSQL's "SSL works out of the
// box" ranked above sshd_config's "The default is prohibit-password."
describe('"out of the box"', () => {
  it('asks for a default: its words are no words of the question', () => {
    expect(questionWords('Can root log in over SSH with a password out of the box?')).not.toContain('box');
    expect(questionWords('Does it work out-of-the-box?')).not.toContain('box');
  });

  it('is answered by the default', async () => {
    const library = libraryOf(
      [
        docLines('README.Debian.txt', 0, [
          'SSL',
          'When a cluster is created with pg_createcluster, SSL support will automatically be enabled, so that SSL works out of the box. Client-side authentication with the root certificate is not enabled by default.',
        ]),
        docLines('sshd_config.5.pdf', 0, [
          'PermitRootLogin',
          'Specifies whether root can log in using ssh(1). The argument must be yes, prohibit-password, forced-commands-only, or no. The default is prohibit-password.',
          'If this option is set to prohibit-password (or its deprecated alias, without-password), password and keyboard-interactive authentication are disabled for root.',
        ]),
      ],
      weightsOf({ box: 5, ssh: 3.4, password: 2.5, root: 2.1, log: 1.4, over: 1, out: 1 }),
    );
    const answer = await answerOf(library, 'Can root log in over SSH with a password out of the box?');
    // With what it is the default of: the question does not say PermitRootLogin.
    expect(answer).toContain('PermitRootLogin: The default is prohibit-password.');
    expect(answer).toContain('[sshd_config.5.pdf]');
  });
});
