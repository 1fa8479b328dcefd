import { Command } from 'commander';
import createCommand from './create.js';
import getCommand from './get.js';
import listCommand from './list.js';
import sendCommand from './send.js';

export default function threadsCommand(): Command {
  return new Command('threads')
    .alias('thread')
    .description('List, create, read and message chat threads')
    .addCommand(listCommand())
    .addCommand(createCommand())
    .addCommand(getCommand())
    .addCommand(sendCommand())
    .addHelpText(
      'after',
      `
Examples:
  $ kb threads list --status OPEN
  $ T=$(kb threads create --title "Release notes" --ids)
  $ kb threads send "$T" "What changed in v2?"
  $ kb threads get "$T" --json | jq '.messages | length'`,
    );
}
