import { Command } from 'commander';
import { integer } from '../shared/options.js';
import { Context } from '../../factory.js';
import { readPayload } from '../../webhooks/payload.js';
import { resolveSecrets } from '../../webhooks/secrets.js';
import { type SignatureScheme, signPayload } from '../../webhooks/signature.js';
import { collect, schemeOption } from './scheme.js';

export interface SignOptions {
  payloadFile?: string;
  secretFile?: string[];
  webhook?: string;
  timestamp?: number;
  scheme: SignatureScheme;
}

export default function signCommand(run = runSign): Command {
  return new Command('sign')
    .description('print a valid Service-Signature header for a body, to test receivers')
    .option('--payload-file <file>', 'raw body (default: stdin)')
    .option('--secret-file <file>', 'file holding a secret (repeatable: one v1= per secret)', collect)
    .option('--webhook <id>', 'use the secret saved for this webhook')
    .option(
      '--timestamp <unix-seconds>',
      'the t= value (default: now)',
      integer({ unit: 'unix time in seconds' }),
    )
    .addOption(schemeOption())
    .addHelpText(
      'after',
      `
Examples:
  $ kb webhooks sign --payload-file event.json --secret-file secret.txt
  $ curl -H "Service-Signature: $(kb webhooks sign --secret-file s.txt < event.json)" --data-binary @event.json http://localhost:3000/hook`,
    )
    .action((opts: SignOptions, cmd: Command) => run(Context.for(cmd), opts));
}

export async function runSign(ctx: Context, opts: SignOptions): Promise<void> {
  const secrets = resolveSecrets(ctx, opts, { required: true });
  const body = await readPayload(ctx.io, opts.payloadFile);
  ctx.output.text(`${signPayload(body, secrets, { timestamp: opts.timestamp, scheme: opts.scheme })}\n`);
}
