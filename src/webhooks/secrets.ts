import { UsageError } from '../errors.js';
import type { Context } from '../factory.js';
import { readUserFile } from '../util/user-file.js';

export interface SecretSources {
  secretFile?: string[];
  webhook?: string;
}

/**
 * Signing secrets from --secret-file (repeatable), --webhook ID (saved with --save-secret),
 * or KB_WEBHOOK_SECRET, in that order. Secrets are never taken as argument values.
 */
export function resolveSecrets(
  ctx: Context,
  sources: SecretSources,
  options: { required: boolean },
): string[] {
  if (sources.secretFile?.length) {
    return sources.secretFile.map((file) => {
      const secret = readUserFile(file, 'secret file', 64 * 1024)
        .toString('utf8')
        .trim();
      if (!secret) throw new UsageError(`secret file ${file} is empty`);
      return secret;
    });
  }
  if (sources.webhook) {
    const secret = ctx.config.profiles[ctx.auth.profile]?.webhookSecrets?.[sources.webhook];
    if (!secret) {
      throw new UsageError(
        `no saved secret for webhook ${sources.webhook} in profile "${ctx.auth.profile}"`,
        'secrets are saved by `kb webhooks create --save-secret`; otherwise use --secret-file',
      );
    }
    return [secret];
  }
  if (ctx.env.KB_WEBHOOK_SECRET !== undefined && ctx.env.KB_WEBHOOK_SECRET !== '') {
    // An empty key makes an HMAC anyone can compute.
    if (!ctx.env.KB_WEBHOOK_SECRET.trim()) throw new UsageError('KB_WEBHOOK_SECRET is blank');
    return [ctx.env.KB_WEBHOOK_SECRET];
  }
  if (options.required) {
    throw new UsageError(
      'no webhook secret given',
      'pass --secret-file FILE or --webhook ID, or set KB_WEBHOOK_SECRET',
    );
  }
  return [];
}
