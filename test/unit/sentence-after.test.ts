import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// ZNC's README as pandoc made it a DOCX (a new user's trial 41): the sentence that shares most
// words with the question leads up to the one that answers it, which had been left out.
const README = doc(
  'znc-README.docx',
  [
    'Using ZNC',
    'Once you have started ZNC you can connect with your favorite IRC-client to ZNC. You should use username:password as the server password (e.g. /pass user:pass).',
    'Once you are connected you can do /msg *status help for some commands.',
  ].join('\n'),
);
const WEIGHTS = weightsOf({
  put: 1.4,
  server: 1.3,
  password: 1.9,
  connect: 1.8,
  irc: 2.9,
  client: 1.8,
  znc: 4.8,
});

describe('the sentence after the best one', () => {
  it('is said with it when it says a heavy word of the question the best does not', async () => {
    const answer = await answerOf(
      libraryOf([README], WEIGHTS),
      'What do I put as the server password when I connect my IRC client to ZNC?',
    );
    expect(answer).toContain('You should use username:password as the server password');
  });

  it('is not, when it says nothing the question asks that the best does not', async () => {
    const answer = await answerOf(libraryOf([README], WEIGHTS), 'How do I connect my IRC client to ZNC?');
    expect(answer).toContain('you can connect with your favorite IRC-client to ZNC.');
    expect(answer).not.toContain('username:password');
  });
});
