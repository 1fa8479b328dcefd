import type { SignalName } from './io/signals.js';

/** Exit codes, documented in README and `kb help exit-codes`. */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  auth: 4,
  unavailable: 5,
  rateLimited: 6,
  timedOut: 124,
  interrupted: 130,
} as const;

/** The `code` of an error that has none of its own, by exit code (in `--json` error objects). */
export const ERROR_CODES: Record<number, string> = {
  1: 'failed',
  2: 'usage',
  3: 'not_found',
  4: 'unauthenticated',
  5: 'unavailable',
  6: 'rate_limited',
  124: 'timed_out',
  130: 'interrupted',
};

/** An error the CLI reports as one line, with an optional hint and a chosen exit code. */
export class CliError extends Error {
  override name = 'CliError';

  constructor(
    message: string,
    readonly exitCode: number = ExitCode.failure,
    readonly hint?: string,
    readonly code: string = ERROR_CODES[exitCode] ?? 'failed',
  ) {
    super(message);
  }
}

export class UsageError extends CliError {
  override name = 'UsageError';

  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
  }
}

/**
 * Ctrl-C or Esc ended what the command was waiting for (a request, a prompt): exit 130. With
 * `quiet`, people see only a newline (a cancelled prompt needs no explanation).
 */
export class Interrupted extends CliError {
  override name = 'Interrupted';

  constructor(
    readonly quiet = false,
    message = 'interrupted',
  ) {
    super(message, ExitCode.interrupted);
  }
}

/**
 * A server (kb serve, kb webhooks listen) stopped by Ctrl-C or SIGTERM, as it is meant to be:
 * the exit code shells give that signal (130, 143), with nothing more on stderr (it said it stopped).
 */
export class Stopped extends Interrupted {
  override name = 'Stopped';

  constructor(readonly signal: SignalName = 'SIGINT') {
    super(true, 'stopped');
  }
}

/** Ctrl-C while a command waits: reported as "interrupted", exit 130. */
export function interrupted(): Interrupted {
  return new Interrupted();
}

/** One item of a batch that failed, and why. */
export interface ItemFailure {
  id: string;
  error: unknown;
}

/**
 * A batch verb finished with some items failed: what succeeded is already printed; each
 * failure is reported, then kb exits with `exitCode` (that of the first failure, by default).
 */
export class PartialFailure extends CliError {
  override name = 'PartialFailure';

  constructor(
    message: string,
    readonly failures: ItemFailure[],
    exitCode: number,
  ) {
    super(message, exitCode);
  }
}
