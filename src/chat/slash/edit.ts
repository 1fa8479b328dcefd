import type { SlashCommand } from './command.js';

export const edit: SlashCommand = {
  name: 'edit',
  description: 'write the next message in $EDITOR',
  async run(repl) {
    const text = await repl.editMessage();
    if (text?.trim()) {
      repl.print(`${repl.color.dim(text.trim())}\n`);
      await repl.sendMessage(text.trim());
    } else repl.print(repl.color.dim('Empty message; nothing sent.\n'));
    return undefined;
  },
};
