import { Command } from 'commander';
import { CliError, ExitCode, interrupted, UsageError } from '../../errors.js';
import { Context } from '../../factory.js';
import { EVENT_KINDS, sampleEvent } from '../../webhooks/samples.js';
import { resolveSecrets } from '../../webhooks/secrets.js';
import { type SignatureScheme, signPayload } from '../../webhooks/signature.js';
import { collect, schemeOption } from './scheme.js';

const DELIVERY_TIMEOUT_MS = 10_000;

interface TriggerOptions {
  forwardTo: string;
  secretFile?: string[];
  webhook?: string;
  scheme: SignatureScheme;
}

export default function triggerCommand(run = runTrigger): Command {
  return new Command('trigger')
    .description('post a correctly signed sample event to a receiver, without calling the service')
    .argument('<kind>', `event kind (${EVENT_KINDS.join(', ')})`)
    .requiredOption('--forward-to <url>', 'the receiver')
    .option('--secret-file <file>', 'file holding the secret', collect)
    .option('--webhook <id>', 'use the secret saved for this webhook')
    .addOption(schemeOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ kb webhooks trigger file.indexed --forward-to http://localhost:3000/hook --secret-file secret.txt',
    )
    .action((kind: string, opts: TriggerOptions, cmd: Command) => run(Context.for(cmd), kind, opts));
}

export async function runTrigger(ctx: Context, kind: string, opts: TriggerOptions): Promise<void> {
  if (!(EVENT_KINDS as readonly string[]).includes(kind))
    throw new UsageError(`unknown event kind "${kind}"`, `known kinds: ${EVENT_KINDS.join(', ')}`);
  let target: URL;
  try {
    target = new URL(opts.forwardTo);
  } catch {
    throw new UsageError(`invalid URL "${opts.forwardTo}"`);
  }
  const secrets = resolveSecrets(ctx, opts, { required: true });
  const event = sampleEvent(kind);
  const body = JSON.stringify(event);
  let status: number;
  // A timer rather than AbortSignal.timeout inside AbortSignal.any, which can stop firing after a GC on Node 20.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), DELIVERY_TIMEOUT_MS);
  const stop = () => deadline.abort();
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'service-signature': signPayload(body, secrets, { scheme: opts.scheme }),
        'user-agent': 'kb-webhooks-trigger',
      },
      body,
      signal: deadline.signal,
    });
    await response.body?.cancel().catch(() => undefined); // the answer's body is not read: any size
    status = response.status;
  } catch (err) {
    if (ctx.signal.aborted) throw interrupted();
    const cause = (err as Error & { cause?: Error }).cause;
    throw new CliError(
      `cannot deliver to ${target.host}: ${cause?.message ?? (err as Error).message}`,
      ExitCode.unavailable,
    );
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', stop);
  }
  ctx.output.result(
    { id: event.id, event, status },
    { line: (r) => `${kind} ${r.id} -> ${r.status}`, fields: (r) => [kind, r.id, r.status] },
  );
  if (status < 200 || status >= 300) throw new CliError(`the receiver answered ${status}`, ExitCode.failure);
}
