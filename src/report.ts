import type { ChalkInstance } from 'chalk';
import {
  AbortedError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InvalidResponseError,
  MethodNotAllowedError,
  ConflictError,
  InvalidIdError,
  UnsupportedError,
  NotFoundError,
  NotTheServiceError,
  ReplyInterruptedError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnprocessableError,
} from './api/errors.js';
import { type CertificateProblem, certificateProblem } from './api/certificate.js';
import { CliError, ERROR_CODES, ExitCode, Interrupted, PartialFailure, Stopped } from './errors.js';
import { signalExitCode } from './io/signals.js';
import { safeJson, sanitizeField } from './util/sanitize.js';

/** The one place where errors become exit codes. */
export function exitCodeFor(err: unknown): number {
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof AbortedError) return ExitCode.interrupted;
  if (err instanceof InvalidIdError) return ExitCode.usage;
  if (err instanceof UnsupportedError) return ExitCode.failure;
  if (err instanceof NotFoundError) return ExitCode.notFound;
  if (err instanceof AuthenticationError || err instanceof PermissionDeniedError) return ExitCode.auth;
  if (err instanceof RateLimitError) return ExitCode.rateLimited;
  if (
    err instanceof BadRequestError ||
    err instanceof MethodNotAllowedError ||
    err instanceof UnprocessableError ||
    err instanceof PayloadTooLargeError
  )
    return ExitCode.usage;
  if (
    err instanceof NotTheServiceError ||
    err instanceof ServerError ||
    err instanceof ConnectionError ||
    err instanceof TimeoutError ||
    err instanceof InvalidResponseError
  )
    return ExitCode.unavailable;
  return ExitCode.failure;
}

const CERTIFICATE_HINTS: Record<CertificateProblem, string> = {
  self_signed:
    "trust it with NODE_EXTRA_CA_CERTS=FILE (the service's CA or certificate, PEM), or give the service one from a trusted authority",
  untrusted:
    'trust its authority with NODE_EXTRA_CA_CERTS=FILE (PEM), or give the service one from a trusted authority',
  wrong_host:
    'use a base URL with a host name the certificate names (`kb auth status` shows the URL), or a certificate for this one',
  expired: "the service's certificate must be renewed (or this machine's clock is wrong)",
  not_yet_valid: "this machine's clock, or the service's certificate, is wrong",
};

/** A connection failure's code for scripts (`--json`): a word, not the system's name for it. */
const CONNECTION_CODES = new Map([
  ['ECONNREFUSED', 'connection_refused'],
  ['ENOTFOUND', 'host_not_found'],
  ['EAI_AGAIN', 'host_not_found'],
  ['EHOSTUNREACH', 'host_unreachable'],
  ['ENETUNREACH', 'host_unreachable'],
  ['UND_ERR_CONNECT_TIMEOUT', 'connection_timed_out'],
  ['ETIMEDOUT', 'connection_timed_out'],
  ['ECONNRESET', 'connection_closed'],
  ['BODY_TOO_LARGE', 'response_too_large'],
]);

function connectionCode(code: string | undefined): string {
  const certificate = certificateProblem(code);
  if (certificate) return `certificate_${certificate}`;
  return CONNECTION_CODES.get(code ?? '') ?? 'connection_failed';
}

/** A URL's path, or '' (a URL that does not parse). */
function safePath(url: string | undefined): string {
  try {
    return url ? new URL(url).pathname : '';
  } catch {
    return '';
  }
}

export function hintFor(err: unknown): string | undefined {
  if (err instanceof CliError) return err.hint;
  if (err instanceof AuthenticationError) return 'run `kb auth login` (or check KB_API_KEY)';
  if (err instanceof PermissionDeniedError) return 'this API key is not allowed to do that';
  if (err instanceof RateLimitError)
    return 'the service is rate limiting this key; wait a little and try again';
  if (err instanceof ConnectionError && err.code === 'BODY_TOO_LARGE')
    return 'ask for less: a smaller --limit, or kb api with a narrower query';
  if (err instanceof ConnectionError && certificateProblem(err.code))
    return CERTIFICATE_HINTS[certificateProblem(err.code)!];
  if (err instanceof ConnectionError)
    return err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN'
      ? 'check the host name in the base URL (`kb auth status` shows it)'
      : 'is the service running? check the base URL with `kb auth status`';
  if (err instanceof TimeoutError) return 'raise the limit with --timeout, or try again later';
  if (err instanceof NotTheServiceError)
    return "set the service's URL with --base-url, KB_BASE_URL or `kb auth login --base-url URL`";
  if (err instanceof ConflictError && err.code === 'thread_not_open')
    return 'start a new thread (`kb threads create`), or reopen this one: kb api PATCH /v1/threads/ID -f status=OPEN';
  if (err instanceof ApiError && err.status !== undefined && err.status >= 300 && err.status < 400)
    return 'kb does not follow redirects (the key would go with it): check the base URL with `kb auth status`';
  if (err instanceof NotFoundError) {
    const list = /\/v1\/(threads|files|webhooks|users)(?:[/?]|$)/.exec(safePath(err.url))?.[1];
    if (list) return `\`kb ${list} list\` shows the ${list} there are`;
  }
  if (err instanceof InvalidIdError)
    return 'an id is one of those a list shows (`kb threads list`, `kb files list`): not empty, ".", ".." nor with control characters';
  if (err instanceof ReplyInterruptedError)
    return '`kb threads get THREAD` (or /history in kb chat) shows what was kept';
  return undefined;
}

/** An error as scripts read it with `--json`, and as people read it otherwise. */
export interface ErrorReport {
  code: string;
  message: string;
  hint?: string;
  exitCode: number;
  requestId?: string;
  status?: number;
  /** The item of a batch that failed. */
  id?: string;
}

/** What to say about `err`: every string from outside made safe for a terminal. */
export function describeError(err: unknown): ErrorReport {
  const exitCode = exitCodeFor(err);
  const api = err instanceof ApiError ? err : undefined;
  const message = err instanceof Error ? err.message : String(err);
  const hint = hintFor(err);
  const code =
    err instanceof CliError
      ? err.code
      : err instanceof ConnectionError
        ? connectionCode(err.code)
        : (api?.code ?? ERROR_CODES[exitCode] ?? 'failed');
  return {
    code: sanitizeField(code),
    message: sanitizeField(firstLine(message)) || 'failed',
    hint: hint === undefined ? undefined : sanitizeField(hint),
    exitCode,
    requestId: api?.requestId === undefined ? undefined : sanitizeField(api.requestId),
    status: api?.status,
  };
}

export interface ReportOptions {
  json: boolean;
  debug: boolean;
  color: ChalkInstance;
  write: (text: string) => void;
}

/**
 * Reports `err` on stderr and returns the exit code. People get `error: <message>` and a hint;
 * with `--json`, stderr carries exactly one JSON object per error and nothing else.
 */
export function reportError(err: unknown, options: ReportOptions): number {
  const { color, write } = options;
  const reports =
    err instanceof PartialFailure
      ? err.failures.map((f) => ({ ...describeError(f.error), id: sanitizeField(f.id) }))
      : [describeError(err)];
  if (err instanceof Stopped) return signalExitCode(err.signal);
  if (options.json) {
    for (const report of reports) write(`${safeJson({ error: report })}\n`);
    return exitCodeFor(err);
  }
  if (err instanceof Interrupted || err instanceof AbortedError) {
    write(
      err instanceof Interrupted && err.quiet
        ? '\n'
        : `${color.dim(err instanceof Interrupted ? sanitizeField(err.message) : 'interrupted')}\n`,
    );
    return ExitCode.interrupted;
  }
  if (err instanceof PartialFailure) {
    // The id once: a message that names it already is enough.
    for (const r of reports)
      write(
        `${color.red('✗')} ${r.id && r.message.includes(r.id) ? '' : `${r.id}: `}${r.message}${requestOf(r)}\n`,
      );
    write(`${color.red('error:')} ${sanitizeField(err.message)}\n`);
    // Failures alike (ids not found) share their hint: said once, under the summary.
    for (const hint of new Set(reports.map((r) => r.hint)))
      if (hint) write(`${color.dim(`hint: ${hint}`)}\n`);
    return err.exitCode;
  }
  const [report] = reports as [ErrorReport];
  write(`${color.red('error:')} ${report.message}${requestOf(report)}\n`);
  if (report.hint) write(`${color.dim(`hint: ${report.hint}`)}\n`);
  if (options.debug && err instanceof Error && !(err instanceof CliError) && !(err instanceof ApiError)) {
    write(`${err.stack ?? ''}\n`);
  }
  return report.exitCode;
}

function requestOf(report: ErrorReport): string {
  return report.requestId ? ` (request ${report.requestId})` : '';
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim()) ?? '';
}
