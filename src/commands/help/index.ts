import { Command } from 'commander';
import { UsageError } from '../../errors.js';
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
      let command: Command | undefined = program;
      for (const word of words) {
        command = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!command) {
          throw new UsageError(
            `no help for "${words.join(' ')}"`,
            `topics: ${Object.keys(TOPICS).join(', ')}; or a command name`,
          );
        }
      }
      command.help();
    });
}
