import { Command } from 'commander';
import listCommand from './list.js';

export default function usersCommand(): Command {
  return new Command('users')
    .alias('user')
    .description('List the members of the workspace')
    .addCommand(listCommand())
    .addHelpText(
      'after',
      "\nExamples:\n  $ kb users list --query zoe\n  $ kb users list --json | jq -r '.[].email'",
    );
}
