import { describe, expect, it } from 'vitest';
import { extractiveAnswer, retrieve } from '../../src/server/answer/assistant.js';
import { doc, libraryOf } from '../helpers/library.js';

describe('a name the question gives that the answering sentence leaves to the text around it', () => {
  // bench:real dat-ident-5: the README shows `console.log(…, log_locals=True)`, then says what the argument does.
  const readme = doc(
    'readme-rich.md',
    [
      'Log',
      'The Console object has a log() method which has a similar interface to print(). Here is an example.',
      'from rich.console import Console',
      'console = Console()',
      'console.log(test_data, log_locals=True)',
      'The above produces the following output:',
      'Log',
      'Note the log_locals argument, which outputs a table containing the local variables where the log method was called.',
      'The log method could be used for logging to the terminal for long running applications such as servers.',
    ].join('\n'),
  );
  const idf = { 'console.log': 6, log_locals: 9, argument: 2.5, rich: 4 };

  it('is held there: the sentence answers', async () => {
    const reply = extractiveAnswer(
      await retrieve(
        libraryOf([readme], idf),
        'ws',
        "What does the log_locals argument of Rich's console.log do?",
        [],
      ),
    );
    expect(reply.content).toContain('table containing the local variables');
    expect(reply.sources).toEqual(['readme-rich.md']);
  });

  it("is not held when the text around it lacks it too (another function's argument)", async () => {
    const other = doc(
      'readme-other.md',
      'Note the log_locals argument, which outputs a table containing the local variables where the log method was called.',
    );
    const reply = extractiveAnswer(
      await retrieve(
        libraryOf([other], idf),
        'ws',
        "What does the log_locals argument of Rich's console.print do?",
        [],
      ),
    );
    expect(reply.sources).toEqual([]);
  });
});
