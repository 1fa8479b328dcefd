import { Command } from 'commander';
import listCommand from './list.js';
import loginCommand from './login.js';
import logoutCommand from './logout.js';
import statusCommand from './status.js';
import switchCommand from './switch.js';
import tokenCommand from './token.js';

export default function authCommand(): Command {
  return new Command('auth')
    .description('Log in, show status, list and switch profiles, print the token')
    .addCommand(loginCommand())
    .addCommand(statusCommand())
    .addCommand(listCommand())
    .addCommand(logoutCommand())
    .addCommand(tokenCommand())
    .addCommand(switchCommand())
    .addHelpText(
      'after',
      `
Keys are stored in the config file (mode 0600) per profile; KB_API_KEY overrides them.
A key is never accepted as a command-line argument: it would land in shell history and ps.

Examples:
  $ kb auth login --base-url https://kb.example.com
  $ echo "$KB_KEY" | kb auth login --with-key --profile ci --base-url https://kb.example.com
  $ kb auth status
  $ kb auth list
  $ kb auth logout --profile staging --forget`,
    );
}
