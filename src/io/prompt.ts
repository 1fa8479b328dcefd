import { importPackage } from '../import-package.js';
import { Interrupted, UsageError } from '../errors.js';
import type { IO } from './streams.js';

type Prompts = typeof import('@inquirer/prompts');

interface PromptContext {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  clearPromptOnDone: boolean;
  signal?: AbortSignal;
}

/**
 * @inquirer/prompts, writing to stderr so stdout stays data-only. Refuses without a terminal.
 * Use with `ask`, which turns cancelling into `Interrupted`.
 */
async function loadPrompts(io: IO, what: string): Promise<{ prompts: Prompts; context: PromptContext }> {
  if (!io.canPrompt) {
    throw new UsageError(`cannot ask for ${what}: not running in an interactive terminal`);
  }
  const prompts = await importPackage<Prompts>('@inquirer/prompts');
  const context = {
    input: io.stdin as NodeJS.ReadableStream,
    output: io.stderr as NodeJS.WritableStream,
    clearPromptOnDone: false,
  };
  return { prompts, context };
}

/**
 * Asks with one of the prompts. Ctrl-C, Ctrl-D (and, with `escape`, Esc) cancel: it throws a quiet
 * `Interrupted` (exit 130 with a newline, none of the library's text) that a caller such as the
 * chat REPL may catch to go back where it was.
 */
export async function ask<T>(
  io: IO,
  what: string,
  question: (prompts: Prompts, context: PromptContext) => Promise<T>,
  options: { escape?: boolean } = {},
): Promise<T> {
  const { prompts, context } = await loadPrompts(io, what);
  const cancel = new AbortController();
  let cancelled = false;
  const onKey = (_: unknown, key?: { name?: string; ctrl?: boolean }) => {
    if (key?.ctrl && key.name === 'c') cancelled = true;
    // Ctrl-D, the end of input, cancels too: the library leaves its prompt unanswered and kb
    // would end with exit 0, nothing done (`kb files delete X && …` going on as if deleted).
    else if ((key?.ctrl && key.name === 'd') || (options.escape && key?.name === 'escape')) {
      cancelled = true;
      cancel.abort();
    }
  };
  io.stdin.on('keypress', onKey);
  try {
    // A cancelled prompt is erased whole, its key help too ("ctrl+t toggle visibility"), which
    // the library leaves drawn; an answered one stays as drawn. The library reads this once the
    // prompt has settled, after the key that cancelled it.
    return await question(prompts, {
      ...context,
      signal: cancel.signal,
      get clearPromptOnDone() {
        return cancelled;
      },
    });
  } catch (err) {
    // The library's ExitPromptError (Ctrl-C) and AbortPromptError (our signal): the one place
    // its errors are recognised, by name, as the package is loaded at run time.
    const name = (err as Error | undefined)?.name;
    if (name === 'ExitPromptError' || name === 'AbortPromptError') throw new Interrupted(true);
    throw err;
  } finally {
    io.stdin.removeListener('keypress', onKey);
  }
}
