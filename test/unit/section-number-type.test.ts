import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// Privoxy's config.html (a sixteenth new user's trial): each setting under its numbered heading,
// a definition list of Specifies / Type of value / Default value / Notes.
const PRIVOXY = doc(
  'privoxy/manual/config.html',
  [
    '7.6.8. socket-timeout',
    'Example:',
    'socket-timeout 300',
    '7.6.9. max-client-connections',
    'Specifies:',
    'Maximum number of client connections that will be served.',
    'Type of value:',
    'Positive number.',
    'Default value:',
    '128',
    'Notes:',
    'Connections are served until a resource limit is reached.',
    "Privoxy creates one thread (or process) for every incoming client connection that isn't rejected based on the access control settings.",
    'If the system is powerful enough, Privoxy can theoretically deal with several hundred (or thousand) connections at the same time, but some operating systems enforce resource limits by shutting down offending processes and their default limits may be below the ones Privoxy would require under heavy load.',
  ].join('\n'),
);

describe("a heading's section number is not the value a question asks for", () => {
  it('"How many … by default?" is answered by the default row, not by rows whose heading is numbered 7.6.9', async () => {
    const answer = await answerOf(
      libraryOf([PRIVOXY]),
      'How many client connections will Privoxy serve at most by default?',
    );
    expect(answer).toContain('Default value: 128');
    expect(answer).not.toContain('Notes:');
  });
});
