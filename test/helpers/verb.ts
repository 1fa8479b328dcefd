import { Command, CommanderError } from 'commander';
import { configureTree, createRoot } from '../../src/program.js';

export interface Parsed {
  /** What the verb's run function was given, after its context; undefined when it was not run. */
  args?: unknown[];
  /** commander's refusal, when parsing failed. */
  error?: CommanderError;
  stderr: string;
}

/**
 * Parses `argv` (after `kb`) in-process with the real root options and the verb built by
 * `factory` under `group`, its run function replaced: flag parsing tested without a process,
 * as gh's NewCmdX(f, runF).
 */
export async function parseVerb(
  group: string | undefined,
  factory: (run: (...args: any[]) => Promise<void>) => Command,
  argv: string[],
): Promise<Parsed> {
  const parsed: Parsed = { stderr: '' };
  const verb = factory(async (_ctx, ...args: unknown[]) => {
    parsed.args = args;
  });
  const root = createRoot();
  root.addCommand(group ? new Command(group).addCommand(verb) : verb);
  configureTree(root, { out: () => {}, err: (s) => (parsed.stderr += s) });
  try {
    await root.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    parsed.error = err;
  }
  return parsed;
}
