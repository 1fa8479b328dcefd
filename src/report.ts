import type { ChalkInstance } from 'chalk';
import { CliError, ExitCode } from './errors.js';

/** Minimal view of the API error classes, so reporting does not load the HTTP client. */
interface ApiLike extends Error {
  status?: number;
  code?: string;
  requestId?: string;
  url?: string;
}

function isApiError(err: unknown): err is ApiLike {
  return err instanceof Error && (err as { isKbApiError?: unknown }).isKbApiError === true;
}

/** The one place where errors become exit codes. */
export function exitCodeFor(err: unknown): number {
  if (err instanceof CliError) return err.exitCode;
  if (!isApiError(err)) return ExitCode.failure;
  switch (err.name) {
    case 'AbortedError':
      return ExitCode.interrupted;
    case 'NotFoundError':
      return ExitCode.notFound;
    case 'AuthenticationError':
    case 'PermissionDeniedError':
      return ExitCode.auth;
    case 'RateLimitError':
      return ExitCode.rateLimited;
    case 'BadRequestError':
    case 'UnprocessableError':
    case 'PayloadTooLargeError':
      return ExitCode.usage;
    case 'ServerError':
    case 'ConnectionError':
    case 'TimeoutError':
    case 'InvalidResponseError':
      return ExitCode.unavailable;
    default:
      return ExitCode.failure;
  }
}

export function hintFor(err: unknown): string | undefined {
  if (err instanceof CliError) return err.hint;
  if (!isApiError(err)) return undefined;
  switch (err.name) {
    case 'AuthenticationError':
      return 'run `kb auth login` (or check KB_API_KEY)';
    case 'PermissionDeniedError':
      return 'this API key is not allowed to do that';
    case 'RateLimitError':
      return 'the service is rate limiting this key; wait a little and try again';
    case 'ConnectionError':
      return err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN'
        ? 'check the host name in the base URL (`kb auth status` shows it)'
        : 'is the service running? check the base URL with `kb auth status`';
    case 'TimeoutError':
      return 'raise the limit with --timeout, or try again later';
    default:
      return undefined;
  }
}

export interface ReportOptions {
  json: boolean;
  debug: boolean;
  color: ChalkInstance;
  write: (text: string) => void;
}

/** Prints `error: <message>` (plus hint, and JSON with --json) to stderr; returns the exit code. */
export function reportError(err: unknown, options: ReportOptions): number {
  const code = exitCodeFor(err);
  if (code === ExitCode.interrupted) {
    options.write(`${options.color.dim('interrupted')}\n`);
    return code;
  }
  const message = err instanceof Error ? err.message : String(err);
  const hint = hintFor(err);
  const api = isApiError(err) ? err : undefined;
  const requestId = api?.requestId ? ` (request ${api.requestId})` : '';
  options.write(`${options.color.red('error:')} ${firstLine(message)}${requestId}\n`);
  if (hint) options.write(`${options.color.dim(`hint: ${hint}`)}\n`);
  if (options.json) {
    const body = {
      message,
      code: api?.code,
      status: api?.status,
      requestId: api?.requestId,
      exitCode: code,
      hint,
    };
    options.write(`${JSON.stringify({ error: body })}\n`);
  }
  if (options.debug && err instanceof Error && !(err instanceof CliError) && !api) {
    options.write(`${err.stack ?? ''}\n`);
  }
  return code;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
