import type { Repl } from '../repl.js';

/** What a slash command returns: `exit` ends the REPL. */
export type SlashResult = undefined | 'exit';

export interface SlashCommand {
  name: string;
  aliases?: string[];
  /** Argument synopsis for /help, e.g. "[title]". */
  args?: string;
  description: string;
  run(repl: Repl, args: string): Promise<SlashResult> | SlashResult;
}
