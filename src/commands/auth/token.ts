import { Command } from 'commander';
import { CliError, ExitCode } from '../../errors.js';
import { Context } from '../../factory.js';

export default function tokenCommand(run = runToken): Command {
  return new Command('token')
    .description('print the API key, for scripts (only when asked)')
    .addHelpText(
      'after',
      `
Examples (the header is read from stdin, so the key stays out of argv):
  $ kb auth token | sed 's/^/Authorization: Bearer /' | curl -sH @- https://kb.example.com/v1/threads`,
    )
    .action((_opts: unknown, cmd: Command) => run(Context.for(cmd)));
}

export async function runToken(ctx: Context): Promise<void> {
  const { apiKey, profile } = ctx.auth;
  if (!apiKey)
    throw new CliError(`not logged in (profile "${profile}")`, ExitCode.auth, 'run `kb auth login`');
  ctx.output.text(`${apiKey}\n`);
}
