import type { SlashCommand } from './command.js';

export const threads: SlashCommand = {
  name: 'threads',
  description: 'pick a recent thread to continue',
  async run(repl) {
    const id = await repl.pickThread();
    if (id) await repl.resume(id);
    return undefined;
  },
};
