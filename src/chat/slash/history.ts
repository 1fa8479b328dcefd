import type { SlashCommand } from './command.js';

export const history: SlashCommand = {
  name: 'history',
  args: '[n]',
  description: 'show the last n messages of this thread (default 10)',
  async run(repl, args) {
    const n = args.trim() ? Number.parseInt(args, 10) : 10;
    if (!Number.isInteger(n) || n < 1) {
      repl.warn('usage: /history [n], with n a whole number of 1 or more');
      return undefined;
    }
    if (!repl.session.id) {
      repl.print(repl.color.dim('No messages yet.\n'));
      return undefined;
    }
    const thread = await repl.session.load(repl.session.id, repl.signal());
    await repl.showMessages(thread.messages.slice(-n));
    return undefined;
  },
};
