import { describe, expect, it } from 'vitest';
import { docLines, followUpOf, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial (34): after 'What does the do-ip6 option in unbound.conf do?', the follow-up
// 'Is it enabled by default?' was answered "do-ip6: <yes or no>: Default is yes. prefer-ip6: <yes
// or no>: Default is no.": the name "it" stands for was held by any option that writes `ip6`
// ("do" is a stop word), as if the follow-up had named none.
describe('a follow-up whose "it" is a hyphenated name', () => {
  const chunks = [
    docLines('unbound.conf.5.txt', 0, [
      'do-ip4: <yes or no>',
      'Enable or disable whether ip4 queries are answered or issued. Default is yes.',
      'do-ip6: <yes or no>',
      'Enable or disable whether ip6 queries are answered or issued. Default is yes. If disabled, queries are not answered on IPv6, and queries are not sent on IPv6 to the internet nameservers.',
    ]),
    docLines('unbound.conf.5.txt', 1, [
      'prefer-ip4: <yes or no>',
      'If enabled, prefer IPv4 transport for sending DNS queries to internet nameservers. Default is no.',
      'prefer-ip6: <yes or no>',
      'If enabled, prefer IPv6 transport for sending DNS queries to internet nameservers. Default is no.',
    ]),
  ];
  const library = libraryOf(
    chunks,
    weightsOf({ ip6: 6, ip4: 6, unbound: 3, conf: 2, option: 1, enabled: 2, default: 1 }),
  );

  it('is answered about that name alone', async () => {
    const { next } = await followUpOf(
      library,
      'What does the do-ip6 option in unbound.conf do?',
      'Is it enabled by default?',
    );
    expect(next.content).toContain('do-ip6: <yes or no>: Default is yes.');
    expect(next.content).not.toContain('prefer-ip6');
  });
});
