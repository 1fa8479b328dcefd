import { wrapWords } from '../../util/wrap-words.js';
import type { SlashCommand } from './command.js';

export const help: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  description: 'list the commands',
  run(repl) {
    const columns = repl.columns();
    const rows = repl.commands.all().map((c) => [`/${c.name}${c.args ? ` ${c.args}` : ''}`, c.description]);
    const width = Math.max(...rows.map(([k]) => k!.length));
    // Descriptions wrap under themselves, at word boundaries, to the terminal's width.
    const indent = width + 4;
    const lines = rows.map(([k, v]) => {
      const text = wrapWords(v!, Math.max(20, columns - indent));
      return `  ${repl.color.cyan(k!.padEnd(width))}  ${text.join(`\n${' '.repeat(indent)}`)}`;
    });
    repl.print(`${lines.join('\n')}\n\n`);
    const notes = [
      'Multi-line: end a line with \\ to continue, or wrap the text in """ lines; a paste arrives as one message.',
      'Up/Down and Ctrl-R search earlier messages; Ctrl-C cancels a reply in flight; Ctrl-D or /exit leaves.',
    ];
    for (const note of notes)
      repl.print(
        repl.color.dim(
          `${wrapWords(note, columns - 2)
            .map((l) => `  ${l}`)
            .join('\n')}\n`,
        ),
      );
    return undefined;
  },
};
