import { Command } from 'commander';
import getCommand from './get.js';
import { SETTINGS } from './keys.js';
import listCommand from './list.js';
import pathCommand from './path.js';
import setCommand from './set.js';
import unsetCommand from './unset.js';

const KEYS_HELP = Object.entries(SETTINGS)
  .map(([k, s]) => `  ${k.padEnd(8)} ${s.description}${s.values ? ` (${s.values.join('|')})` : ''}`)
  .join('\n');

export default function configCommand(): Command {
  return new Command('config')
    .description('Read and change non-secret settings')
    .addHelpText(
      'after',
      `\nSettings:\n${KEYS_HELP}\n\nExamples:\n  $ kb config set format json\n  $ kb config get timeout\n  $ kb config list`,
    )
    .addCommand(getCommand())
    .addCommand(setCommand())
    .addCommand(unsetCommand())
    .addCommand(listCommand())
    .addCommand(pathCommand());
}
