import { importPackage } from '../import-package.js';
import { UsageError } from '../errors.js';
import type { IO } from './streams.js';

/** @inquirer/prompts, writing to stderr so stdout stays data-only. Refuses without a terminal. */
export async function loadPrompts(io: IO, what: string) {
  if (!io.canPrompt) {
    throw new UsageError(`cannot ask for ${what}: not running in an interactive terminal`);
  }
  const prompts = await importPackage<typeof import('@inquirer/prompts')>('@inquirer/prompts');
  const context = {
    input: io.stdin as NodeJS.ReadableStream,
    output: io.stderr as NodeJS.WritableStream,
    clearPromptOnDone: false,
  };
  return { prompts, context };
}
