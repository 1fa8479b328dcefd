import type { SlashCommand } from './command.js';

export const newChat: SlashCommand = {
  name: 'new',
  args: '[title]',
  description: 'start a new conversation (the thread is created with its first message)',
  run(repl, args) {
    repl.session.startNew(args);
    repl.print(
      repl.color.dim(`New conversation${args.trim() ? ` "${args.trim()}"` : ''}. Type your first message.\n`),
    );
    return undefined;
  },
};
