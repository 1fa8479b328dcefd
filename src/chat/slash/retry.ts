import { sanitizeText } from '../../util/sanitize.js';
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
    repl.print(`${repl.color.dim('Sending again:')} ${sanitizeText(last)}\n`);
    await repl.sendMessage(last);
    return undefined;
  },
};
