import { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { closestName, type Named, typoEdits } from '../../util/closest-name.js';
import { TOPICS } from './topics.js';

/** `kb help [topic|command...]`: a topic, or the help of a command. */
export default function helpCommand(program: Command): Command {
  return new Command('help')
    .description(`show help for a command, or a topic: ${Object.keys(TOPICS).join(', ')}`)
    .argument('[topic...]', 'topic or command')
    .addHelpText('after', '\nExamples:\n  $ kb help exit-codes\n  $ kb help threads list')
    .action((words: string[]) => {
      const [first] = words;
      if (!first) return program.help();
      const topic = TOPICS[first];
      if (topic) {
        // the writer main gave commander: help is printed the way usage is
        program.configureOutput().writeOut?.(`${topic()}\n`);
        return;
      }
      let command: Command = program;
      for (const [i, word] of words.entries()) {
        const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!next) throw noHelpFor(words, command, i);
        command = next;
      }
      command.help();
    });
}

/** No command or topic by the words given: a hint at the one meant, where a typo is near one. */
function noHelpFor(words: string[], parent: Command, at: number): UsageError {
  const typed = words[at]!;
  const names: Named[] = parent.commands.map((c) => ({ name: c.name(), aliases: c.aliases() }));
  if (at === 0) names.push(...Object.keys(TOPICS).map((name) => ({ name })));
  const meant = closestName(typed, names, typoEdits(typed));
  return new UsageError(
    `no help for "${words.join(' ')}"`,
    meant
      ? `did you mean \`kb help ${[...words.slice(0, at), meant].join(' ')}\`?`
      : `topics: ${Object.keys(TOPICS).join(', ')}; or a command name`,
  );
}
