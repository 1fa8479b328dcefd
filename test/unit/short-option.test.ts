import { describe, expect, it } from 'vitest';
import { extractiveAnswer, retrieve } from '../../src/server/answer/assistant.js';
import { exchange, libraryOf } from '../helpers/library.js';
import type { Chunk } from '../../src/server/state/model.js';

const chunk = (text: string, n: number): Chunk => ({
  id: `file_1:${n}`,
  fileId: 'file_1',
  filename: 'bash-manual.pdf',
  text,
  pages: [n, n],
});

// bench:real (#33), gnu-fu-1: "set -o pipefail" asks about pipefail; -o is how set is told it.
describe('a short option before the name it introduces', () => {
  const shopt = chunk(
    [
      'shopt [-pqsu] [-o] [optname ...]',
      '-q Suppresses normal output; the return status indicates whether the optname is set or unset.',
      '-o Restricts the values of optname to be those defined for the -o option to the set builtin.',
    ].join('\n'),
    77,
  );
  const pipelines = chunk(
    [
      'The exit status of a pipeline is the exit status of the last command in the pipeline, unless the pipefail option is enabled.',
      'If pipefail is enabled, the pipeline’s return status is the value of the last (rightmost) command to exit with a non-zero status, or zero if all commands exit successfully.',
    ].join('\n'),
    16,
  );

  it('is not a name the answer must hold: the passage on pipefail answers', async () => {
    const r = await retrieve(
      libraryOf([shopt, pipelines]),
      'ws',
      'What does set -o pipefail change about the return status of a pipeline in bash?',
      [],
    );
    expect(r.terms.find((t) => t.term === '-o')?.required).toBeFalsy();
    const content = extractiveAnswer(r).content;
    expect(content).toContain('last (rightmost) command to exit with a non-zero status');
    expect(content).not.toContain('Restricts the values');
  });

  it('is still one when the question names nothing else ("What does -o do?")', async () => {
    const r = await retrieve(libraryOf([shopt]), 'ws', 'What does shopt -o do?', []);
    expect(r.terms.find((t) => t.term === '-o')?.required).toBe(true);
  });

  it('nor one a follow-up must hold: "Is it turned on by default?" is answered where pipefail is', async () => {
    const options = chunk(
      [
        'pipefail',
        'If set, the return value of a pipeline is the value of the last (rightmost) command to exit with a non-zero status, or zero if all commands in the pipeline exit successfully. This option is disabled by default.',
      ].join('\n'),
      75,
    );
    const question = 'What does set -o pipefail change about the return status of a pipeline in bash?';
    // As the words weigh in bash's manual: "turned" as much as "default" (a word the Bible uses too).
    const library = libraryOf([options], { turn: 2.5, default: 2.5, pipefail: 8 });
    const first = extractiveAnswer(await retrieve(library, 'ws', question, []));
    const history = exchange(question, first);
    const r = await retrieve(library, 'ws', 'Is it turned on by default?', history);
    expect(extractiveAnswer(r).content).toContain('This option is disabled by default.');
    // -o (and its letter) is no name the answer must say: a passage on pipefail holds every name asked.
    expect(r.terms.filter((t) => t.term === '-o' || t.term === 'o').map((t) => t.word)).toEqual([true, true]);
  });
});
