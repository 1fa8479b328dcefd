import { Command } from 'commander';
import { integer } from '../shared/options.js';
import { CliError, ExitCode, Stopped, UsageError } from '../../errors.js';
import type { SignalName } from '../../io/signals.js';
import { Context } from '../../factory.js';
import type { IO } from '../../io/streams.js';
import { sanitizeField } from '../../util/sanitize.js';
import type { Delivery } from '../../webhooks/listener.js';
import { EVENT_KINDS } from '../../webhooks/samples.js';
import { resolveSecrets } from '../../webhooks/secrets.js';
import type { SignatureScheme } from '../../webhooks/signature.js';
import { collect, schemeOption } from './scheme.js';

interface ListenOptions {
  port: number;
  host: string;
  path: string;
  secretFile?: string[];
  webhook?: string;
  forwardTo?: string;
  events?: string;
  tolerance: number;
  scheme: SignatureScheme;
}

const int = (unit: string, max: number) => integer({ unit, max });

export default function listenCommand(run = runListen): Command {
  return new Command('listen')
    .description('receive deliveries locally: verify, print, and forward them to your app')
    .option('--port <port>', 'port to listen on (0 picks a free one)', int('port', 65535), 8787)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--path <path>', 'path that receives deliveries', '/')
    .option('--secret-file <file>', 'file holding the secret (repeatable)', collect)
    .option('--webhook <id>', 'use the secret saved for this webhook by create --save-secret')
    .option('--forward-to <url>', 'forward each verified delivery (raw body and headers) here')
    .option('--events <kinds>', `only these kinds, comma-separated (${EVENT_KINDS.join(',')})`)
    .option(
      '--tolerance <seconds>',
      'largest allowed age of t; 0 turns the check off',
      int('number of seconds', 86_400),
      300,
    )
    .addOption(schemeOption())
    .addHelpText(
      'after',
      `
Answers 200 to valid deliveries and 400 to invalid ones. A delivery whose event id was seen
before is answered 200 and not forwarded again. On a terminal each delivery is one line
(time, --> kind and id, ✓ or ✗, and <-- with your app's status); piped, one JSON object per
line: {receivedAt, verified, reason, headers, event, body, duplicate, forward}.

Examples:
  $ kb webhooks listen --webhook wh_123 --forward-to http://localhost:3000/webhooks
  $ kb webhooks listen --port 0 --secret-file secret.txt | jq -c 'select(.verified) | .event.type'`,
    )
    .action((opts: ListenOptions, cmd: Command) => run(Context.for(cmd), opts));
}

function line(io: IO, d: Delivery): string {
  const c = io.color;
  const time = c.dim(new Date(d.receivedAt).toLocaleTimeString('en-GB', { hour12: false }));
  const kind = sanitizeField(String(d.event?.type ?? 'unknown'));
  const id = sanitizeField(String(d.event?.id ?? ''));
  const mark = d.verified ? c.green('✓') : `${c.red('✗')} ${c.red(sanitizeField(d.reason ?? 'invalid'))}`;
  let out = `${time}  --> ${c.bold(kind)} ${c.dim(id)} ${mark}${d.duplicate ? c.yellow(' (duplicate, not forwarded)') : ''}${d.skipped ? c.dim(' (skipped by --events)') : ''}`;
  if (d.forward) {
    const status =
      d.forward.status !== undefined ? String(d.forward.status) : c.red(d.forward.error ?? 'failed');
    const ok = d.forward.status !== undefined && d.forward.status >= 200 && d.forward.status < 300;
    out += `\n${time}  <-- ${ok ? c.green(status) : c.red(status)} ${c.dim(d.forward.url)}`;
  }
  return out;
}

export async function runListen(ctx: Context, opts: ListenOptions): Promise<void> {
  const { io } = ctx;
  const events = opts.events
    ?.split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const unknown = events?.filter((e) => !(EVENT_KINDS as readonly string[]).includes(e)) ?? [];
  if (unknown.length)
    throw new UsageError(
      `unknown event kind ${unknown.map((e) => `"${e}"`).join(', ')}`,
      `known kinds: ${EVENT_KINDS.join(', ')}`,
    );
  if (!opts.path.startsWith('/')) throw new UsageError('--path must start with /');
  if (opts.forwardTo) {
    try {
      new URL(opts.forwardTo);
    } catch {
      throw new UsageError(`invalid --forward-to URL "${opts.forwardTo}"`);
    }
  }
  // Checked now for a clear error; read again per delivery, so a secret saved later is used.
  resolveSecrets(ctx, opts, { required: true });
  const { startListener } = await import('../../webhooks/listener.js');
  let listener: Awaited<ReturnType<typeof startListener>>;
  try {
    listener = await startListener({
      port: opts.port,
      host: opts.host,
      path: opts.path,
      secrets: () => {
        try {
          return resolveSecrets(ctx.fresh(), opts, { required: true });
        } catch {
          return [];
        }
      },
      forwardTo: opts.forwardTo,
      events,
      toleranceSeconds: opts.tolerance,
      scheme: opts.scheme,
      onDelivery: (d) => ctx.output.event(d, (safe) => line(io, safe)),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new CliError(
        `port ${opts.port} is already in use`,
        ExitCode.failure,
        'pick another with --port, or --port 0 for a free one',
        'port_in_use',
      );
    throw err;
  }
  io.err(
    `${io.errColor.green('Ready!')} Listening on ${listener.url}${opts.forwardTo ? `, forwarding to ${opts.forwardTo}` : ''} ${io.errColor.dim('(Ctrl-C to stop)')}\n`,
  );
  const stoppedBy = await new Promise<SignalName>((resolve) => {
    const release = ctx.signals.trap((signal) => {
      release();
      resolve(signal);
    });
  });
  await listener.close();
  if (io.stderrIsTTY) io.err('Stopped listening\n');
  throw new Stopped(stoppedBy);
}
