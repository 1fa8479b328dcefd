import { describe, expect, it } from 'vitest';
import { extractiveAnswer, retrieve } from '../../src/server/answer/assistant.js';
import type { Chunk, MessageRecord } from '../../src/server/state/model.js';
import { exchange, libraryOf } from '../helpers/library.js';

const manual = (n: number, text: string): Chunk => ({
  id: `file_1:${n}`,
  fileId: 'file_1',
  filename: 'tmux.1.pdf',
  text,
  pages: [27 + n, 27 + n],
});
const escapeTime = manual(
  0,
  'escape-time time\nSet the time in milliseconds for which tmux waits after an escape is input to determine if it is part of a function or meta key sequences. The default is 500 milliseconds.',
);
const defaultShell = manual(
  1,
  'default-shell path\nSpecify the default shell. This is used as the login shell for new windows when the default-command option is set to empty. The default is the shell of the user.',
);

/** Asks `questions` in one thread, in turn; returns each answer. */
async function converse(questions: string[], chunks = [defaultShell, escapeTime]): Promise<string[]> {
  const library = libraryOf(chunks, { default: 1, escap: 4, wait: 3, key: 2, histsiz: 5, savehist: 5 });
  const history: MessageRecord[] = [];
  const answers: string[] = [];
  for (const [i, question] of questions.entries()) {
    const reply = extractiveAnswer(await retrieve(library, 'ws', question, history));
    history.push(...exchange(question, reply, i));
    answers.push(reply.content);
  }
  return answers;
}

describe('a follow-up asked again', () => {
  it('keeps the subject of the question the first one followed (a new user asked "What does it default to?" twice)', async () => {
    const answers = await converse([
      'How long does tmux wait after an escape key?',
      'What does it default to?',
      'What does it default to?',
    ]);
    expect(answers[1]).toContain('500 milliseconds');
    expect(answers[2]).toContain('500 milliseconds');
  });

  it('stops at a follow-up that names its own subject', async () => {
    const zsh = (n: number, text: string): Chunk => ({
      id: `file_2:${n}`,
      fileId: 'file_2',
      filename: 'zsh/Parameters.html',
      text,
    });
    const answers = await converse(
      [
        'How many events does the history list keep (HISTSIZE)?',
        'And what about SAVEHIST?',
        'What does it default to?',
      ],
      [
        zsh(
          0,
          'HISTSIZE\nThe maximum number of events stored in the internal history list. The default is 30.',
        ),
        zsh(
          1,
          'SAVEHIST\nThe maximum number of history events to save in the history file. The default is 0.',
        ),
      ],
    );
    expect(answers[1]).toContain('history file');
    expect(answers[2]).toContain('The default is 0');
    expect(answers[2]).not.toContain('The default is 30');
  });
});
