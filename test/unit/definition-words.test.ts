import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';
import type { Chunk } from '../../src/server/state/model.js';

/** Each word's weight as the trial's folder gave it (a rare name weighs most). */
const idf = (weights: Record<string, number>) =>
  Object.fromEntries(Object.entries(weights).map(([w, n]) => [stem(w), n]));

const chunk = (filename: string, n: number, lines: string[]): Chunk => ({
  ...doc(filename, lines.join('\n')),
  id: `${filename}:${n}`,
});

// The twentieth new user's trial (gnupg's man pages rendered to PDF).
const PRESET = chunk('gnupg/gpg-agent.1.pdf', 0, [
  '--allow-preset-passphrase',
  'This option allows the use of gpg-preset-passphrase to seed the internal cache of gpg-agent with passphrases.',
  '--no-allow-external-cache',
  'Tell Pinentry not to enable features which use an external cache for passphrases.',
]);
const CACHE_TTL = chunk('gnupg/gpg-agent.1.pdf', 1, [
  '--ignore-cache-for-signing',
  'Note that there is also a per-session option to control this behavior but this command line option takes precedence.',
  '--default-cache-ttl n',
  'Set the time a cache entry is valid to n seconds. The default is 600 seconds. Each time a cache entry is accessed, the entry’s timer is reset. To set an entry’s maximum lifetime, use max-cache-ttl. Note that a cached passphrase may not be evicted immediately from memory if no client requests a cache operation.',
]);

describe('the value a term’s definition states, asked for', () => {
  it('answers with the words of the whole definition, not a sentence that only shares more of them', async () => {
    const library = libraryOf(
      [PRESET, CACHE_TTL],
      idf({ passphrase: 4.5, cached: 3.4, gpg: 2.6, agent: 3.1, keep: 1.15, default: 1.2 }),
    );
    const reply = await answerOf(library, 'How long does gpg-agent keep a passphrase cached by default?');
    expect(reply).toContain('The default is 600 seconds.');
    expect(reply).not.toContain('seed the internal cache');
  });
});
