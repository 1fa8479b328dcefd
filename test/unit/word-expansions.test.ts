import { describe, expect, it } from 'vitest';
import { extractiveAnswer, retrieve } from '../../src/server/answer/assistant.js';
import { stem } from '../../src/server/answer/relevance.js';
import { doc as chunk, exchange, libraryOf } from '../helpers/library.js';

// A new user's trial (#33, trial 18): after "What does apt-mark hold do?", "How do I undo that?"
// was answered from three other programs' documents that say "undocumented", which the search
// had found for "undo", a word no document holds, as the start of a longer one.
const APT_MARK = chunk(
  'apt-mark.8.pdf',
  [
    'PREVENT CHANGES FOR A PACKAGE',
    'hold',
    'hold is used to mark a package as held back, which will prevent the package from being automatically installed, upgraded or removed.',
    'unhold',
    'unhold is used to cancel a previously set hold on a package to allow all actions again.',
  ].join('\n'),
);
const OTHERS = [
  chunk(
    'wget-NEWS',
    '** NTLM authentication is now supported. This authentication method is undocumented and only used by IIS.',
  ),
  chunk(
    'haproxy-configuration.html',
    'Both browsers and proxies ignore this header for proxied connections and make use of the undocumented, non-standard Proxy-Connection header instead.',
  ),
];

describe('a word of the language the search expanded to a longer word', () => {
  it('is not matched by the longer word ("undo" is not "undocumented")', async () => {
    const expanded: [string, string][] = [[stem('undo'), stem('undocumented')]];
    const library = libraryOf(
      [APT_MARK, ...OTHERS],
      { undo: 5, [stem('undocumented')]: 5, apt: 2, mark: 2, hold: 3 },
      [stem('undo')],
      Object.fromEntries(OTHERS.map((c) => [c.id, expanded])),
    );
    const first = extractiveAnswer(await retrieve(library, 'ws', 'What does apt-mark hold do?', []));
    expect(first.sources).toEqual(['apt-mark.8.pdf']);
    const next = extractiveAnswer(
      await retrieve(library, 'ws', 'How do I undo that?', exchange('What does apt-mark hold do?', first)),
    );
    expect(next.content).not.toContain('undocumented');
    expect(next.sources).not.toContain('wget-NEWS');
    expect(next.sources).not.toContain('haproxy-configuration.html');
  });

  it('a name cut short is still matched by the names it begins (`auth` finds "authentication")', async () => {
    const library = libraryOf(OTHERS.slice(0, 1), {}, [stem('auth')], {
      [OTHERS[0]!.id]: [[stem('auth'), stem('authentication')]],
    });
    const answer = extractiveAnswer(
      await retrieve(library, 'ws', 'Which auth method is used only by IIS?', []),
    );
    expect(answer.sources).toEqual(['wget-NEWS']);
  });
});
