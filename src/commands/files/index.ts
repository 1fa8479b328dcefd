import { Command } from 'commander';
import deleteCommand from './delete.js';
import getCommand from './get.js';
import listCommand from './list.js';
import uploadCommand, { UPLOAD_NOTE } from './upload.js';
import waitCommand from './wait.js';

export default function filesCommand(): Command {
  return new Command('files')
    .alias('file')
    .description('List, inspect, wait for and delete knowledge-base files')
    .addCommand(listCommand())
    .addCommand(getCommand())
    .addCommand(deleteCommand())
    .addCommand(waitCommand())
    .addCommand(uploadCommand())
    .addHelpText(
      'after',
      `
${UPLOAD_NOTE}

Examples:
  $ kb files list --status FAILED
  $ kb files get file_123
  $ kb files wait file_123 --timeout 5m
  $ kb files list --status FAILED --ids | kb files delete --yes -`,
    );
}
