import type { SlashCommand } from './command.js';

export const exit: SlashCommand = {
  name: 'exit',
  aliases: ['quit', 'q'],
  description: 'leave (Ctrl-D does the same)',
  run: () => 'exit',
};
