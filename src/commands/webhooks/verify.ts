import { Command } from 'commander';
import { integer } from '../shared/options.js';
import { CliError, ExitCode } from '../../errors.js';
import { Context } from '../../factory.js';
import { readPayload } from '../../webhooks/payload.js';
import { resolveSecrets } from '../../webhooks/secrets.js';
import { type SignatureScheme, verifySignature } from '../../webhooks/signature.js';
import { collect, schemeOption } from './scheme.js';

export interface VerifyOptions {
  header: string;
  payloadFile?: string;
  secretFile?: string[];
  webhook?: string;
  tolerance: number;
  scheme: SignatureScheme;
}

export default function verifyCommand(run = runVerify): Command {
  return new Command('verify')
    .description("check a delivery's Service-Signature against its raw body: exit 0 valid, 1 invalid")
    .requiredOption('--header <value>', 'the Service-Signature header value, e.g. "t=…,v1=…"')
    .option('--payload-file <file>', 'raw body (default: stdin)')
    .option('--secret-file <file>', 'file holding the secret (repeatable: any may match)', collect)
    .option('--webhook <id>', 'use the secret saved for this webhook by create --save-secret')
    .option(
      '--tolerance <seconds>',
      'largest allowed age of t in seconds; 0 turns the check off',
      integer({ unit: 'number of seconds' }),
      300,
    )
    .addOption(schemeOption())
    .addHelpText(
      'after',
      `
Examples:
  $ kb webhooks verify --header "$HTTP_SERVICE_SIGNATURE" --payload-file body.json --secret-file secret.txt
  $ KB_WEBHOOK_SECRET=… kb webhooks verify --header "t=1700000000,v1=5f…" --tolerance 0 < body.json`,
    )
    .action((opts: VerifyOptions, cmd: Command) => run(Context.for(cmd), opts));
}

/** Prints the result (`valid`, or the result object for scripts); an invalid signature exits 1. */
export async function runVerify(ctx: Context, opts: VerifyOptions): Promise<void> {
  const secrets = resolveSecrets(ctx, opts, { required: true });
  const body = await readPayload(ctx.io, opts.payloadFile);
  const result = verifySignature(body, opts.header, secrets, {
    toleranceSeconds: opts.tolerance,
    scheme: opts.scheme,
  });
  if (ctx.format === 'human') {
    if (result.valid) ctx.output.text('valid\n');
  } else ctx.output.json(result);
  if (!result.valid)
    throw new CliError(
      `invalid signature: ${result.reason}`,
      ExitCode.failure,
      undefined,
      'invalid_signature',
    );
}
