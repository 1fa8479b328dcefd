import type { SlashCommand } from './command.js';

export const help: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  description: 'list the commands',
  run(repl) {
    const rows = repl.commands.all().map((c) => [`/${c.name}${c.args ? ` ${c.args}` : ''}`, c.description]);
    const width = Math.max(...rows.map(([k]) => k!.length));
    repl.print(`${rows.map(([k, v]) => `  ${repl.color.cyan(k!.padEnd(width))}  ${v}`).join('\n')}\n`);
    repl.print(
      repl.color.dim(
        '\n  Multi-line: end a line with \\ to continue, or wrap the text in """ lines; a paste arrives as one message.\n  Up/Down and Ctrl-R search earlier messages; Ctrl-C cancels a reply in flight; Ctrl-D or /exit leaves.\n',
      ),
    );
    return undefined;
  },
};
