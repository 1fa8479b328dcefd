import type { SlashCommand } from './command.js';

export const retry: SlashCommand = {
  name: 'retry',
  description: 'send your last message again',
  async run(repl) {
    const last = repl.session.lastUserMessage;
    if (!last) {
      repl.warn('nothing to retry yet');
      return undefined;
    }
    await repl.sendMessage(last);
    return undefined;
  },
};
