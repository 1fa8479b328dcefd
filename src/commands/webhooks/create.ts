import { Command } from 'commander';
import { WEBHOOK_EVENTS } from '../../api/types.js';
import { UnprocessableError } from '../../api/errors.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { Context } from '../../factory.js';
import { ask } from '../../io/prompt.js';
import { isLoopbackHost } from '../../util/loopback.js';
import { sanitizeField } from '../../util/sanitize.js';
import { collect } from '../shared/options.js';
import { webhookFields } from './columns.js';

export interface CreateOptions {
  url: string;
  event: string[];
  saveSecret?: boolean;
}

export function checkWebhookUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid URL "${raw}"`, 'expected e.g. https://hooks.example.com/kb');
  }
  if (url.protocol === 'https:') return url.toString();
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url.toString();
  throw new UsageError(
    `webhook URLs must use https: "${raw}"`,
    'plain http is accepted only for loopback receivers of a local service (kb serve --allow-local-webhooks)',
  );
}

export default function createCommand(run = runCreate): Command {
  return new Command('create')
    .description('register an HTTPS endpoint for events; prints the signing secret once')
    .requiredOption('--url <url>', 'HTTPS URL that receives the events')
    .option('-e, --event <kind>', `event kind, repeatable (${WEBHOOK_EVENTS.join(', ')})`, collect, [])
    .option('--save-secret', "keep the secret in this profile's config (0600) for verify/listen --webhook ID")
    .addHelpText(
      'after',
      `
Without --event on a terminal, you pick the kinds from a list.

Examples:
  $ kb webhooks create --url https://hooks.example.com/kb --event file.indexed --event thread.message.created
  $ kb webhooks create --url http://127.0.0.1:8787/ --event file.indexed --save-secret --json | jq -r .id`,
    )
    .action((opts: CreateOptions, cmd: Command) => run(Context.for(cmd), opts));
}

export async function runCreate(ctx: Context, opts: CreateOptions): Promise<void> {
  const { io } = ctx;
  const url = checkWebhookUrl(opts.url);
  let events = [...new Set(opts.event)];
  const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (unknown.length)
    throw new UsageError(
      `unknown event kind ${unknown.map((e) => `"${e}"`).join(', ')}`,
      `known kinds: ${WEBHOOK_EVENTS.join(', ')}`,
    );
  if (events.length === 0) {
    if (!io.canPrompt)
      throw new UsageError(
        'no --event given',
        `pass --event KIND (${WEBHOOK_EVENTS.join(', ')}), repeatable`,
      );
    events = await ask(io, 'event kinds', (prompts, context) =>
      prompts.checkbox(
        {
          message: 'Which events?',
          choices: WEBHOOK_EVENTS.map((e) => ({ name: e, value: e, checked: true })),
          required: true,
        },
        context,
      ),
    );
  }
  const client = await ctx.client();
  let webhook;
  try {
    webhook = await client.webhooks.create({ url, events }, ctx.signal);
  } catch (err) {
    // A local kb serve refuses plain http unless it was told otherwise.
    if (err instanceof UnprocessableError && url.startsWith('http:'))
      throw new CliError(
        err.message,
        ExitCode.usage,
        'a local kb serve accepts http:// loopback receivers only when started with --allow-local-webhooks',
        err.code,
      );
    throw err;
  }
  if (opts.saveSecret && webhook.secret) {
    const profile = ctx.auth.profile;
    await ctx.updateConfig((data) => {
      const stored = data.profiles[profile] ?? {};
      stored.webhookSecrets = { ...stored.webhookSecrets, [webhook.id]: webhook.secret! };
      data.profiles[profile] = stored;
    });
  }
  ctx.output.record(webhook, [
    ...webhookFields(ctx.output, webhook),
    ['Secret', webhook.secret, (s) => io.color.bold.yellow(s)],
  ]);
  if (webhook.secret && ctx.format === 'human') {
    io.err(
      `${io.errColor.yellow('!')} The signing secret is shown only once.${opts.saveSecret ? ` Saved in profile "${sanitizeField(ctx.auth.profile)}": use --webhook ${sanitizeField(webhook.id)}.` : ' Store it now (or use --save-secret next time).'}\n`,
    );
  }
}
