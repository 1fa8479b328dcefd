import { describe, expect, it } from 'vitest';
import { doc, followUpOf, libraryOf } from '../helpers/library.js';

// A new user's trial 32 (q02, q03): a paraphrase on Apache's MaxKeepAliveRequests was refused, and
// the follow-up "And what happens if I set that to 0?" was answered "Default: MaxConnectionsPerChild
// 0." and a sentence on protocols: "that" stood for what no document had been found to say, and the
// answer was whatever held a 0.
const MPM = doc(
  'web/apache/manual/mpm_common.html',
  [
    'MaxConnectionsPerChild Directive',
    'Default: MaxConnectionsPerChild 0',
    'If MaxConnectionsPerChild is 0, then the process will never expire. Setting it to a non-zero value limits the amount of memory a process can consume.',
  ].join('\n'),
);

describe('a follow-up whose "that" stands for what the answer before did not find', () => {
  const library = libraryOf([MPM], {
    browser: 4,
    reuse: 3,
    connection: 2,
    page: 3,
    fetch: 3,
    hang: 4,
    happen: 1,
    set: 1,
  });
  const question =
    'When a browser reuses one open connection to my Apache web server, how many pages can it fetch over it before the server hangs up?';

  it('is refused too: nothing says what "that" is', async () => {
    const { first, next } = await followUpOf(library, question, 'And what happens if I set that to 0?');
    expect(first.sources).toEqual([]);
    expect(next.sources).toEqual([]);
  });

  it('but one that names its own subject is answered', async () => {
    const { next } = await followUpOf(library, question, 'And what happens if MaxConnectionsPerChild is 0?');
    expect(next.content).toContain('the process will never expire');
  });
});
