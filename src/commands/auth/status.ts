import { Command } from 'commander';
import { AbortedError, AuthenticationError, PermissionDeniedError } from '../../api/errors.js';
import { CliError, ExitCode } from '../../errors.js';
import { Context } from '../../factory.js';
import { maskSecret } from '../../io/format.js';

export default function statusCommand(run = runStatus): Command {
  return new Command('status')
    .description('show the profile, service URL and masked key, and check the key live')
    .addHelpText(
      'after',
      '\nExit status 4 when not logged in or the key is refused.\n\nExamples:\n  $ kb auth status\n  $ kb auth status --json | jq .valid',
    )
    .action((_opts: unknown, cmd: Command) => run(Context.for(cmd)));
}

type Check = 'valid' | 'refused' | 'unreachable' | 'not logged in';

export async function runStatus(ctx: Context): Promise<void> {
  const { io } = ctx;
  const auth = ctx.auth;
  let check: Check = 'not logged in';
  let detail: string | undefined;
  if (auth.apiKey && auth.baseUrl) {
    const client = await ctx.client();
    try {
      await client.users.list({ limit: 1, signal: ctx.signal });
      check = 'valid';
    } catch (err) {
      if (err instanceof AbortedError) throw err;
      check =
        err instanceof AuthenticationError || err instanceof PermissionDeniedError
          ? 'refused'
          : 'unreachable';
      detail = (err as Error).message;
    }
  }
  const record = {
    profile: auth.profile,
    baseUrl: auth.baseUrl ?? null,
    baseUrlSource: auth.baseUrlSource,
    apiKey: auth.apiKey ? maskSecret(auth.apiKey) : null,
    apiKeySource: auth.apiKeySource,
    status: check,
    valid: check === 'valid',
    ...(detail ? { detail } : {}),
    profiles: Object.keys(ctx.config.profiles),
  };
  const styled = (text: string) =>
    check === 'valid' ? io.color.green(`✓ ${text}`) : io.color.red(`✗ ${text}`);
  ctx.output.record(record, [
    ['Profile', auth.profile],
    ['Base URL', auth.baseUrl ? `${auth.baseUrl} (${auth.baseUrlSource})` : 'not set'],
    ['API key', auth.apiKey ? `${maskSecret(auth.apiKey)} (${auth.apiKeySource})` : 'not set'],
    ['Status', check, styled],
    ['Detail', detail],
  ]);
  if (check === 'not logged in')
    throw new CliError(`not logged in (profile "${auth.profile}")`, ExitCode.auth, 'run `kb auth login`');
  if (check === 'refused') throw new CliError('the service refused this API key', ExitCode.auth);
  if (check === 'unreachable') throw new CliError('the service could not be reached', ExitCode.unavailable);
}
