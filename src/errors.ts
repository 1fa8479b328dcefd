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

/** An error the CLI reports as one line, with an optional hint and a chosen exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.failure,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Ctrl-C while a command waits: reported as "interrupted", exit 130. */
export function interrupted(): CliError {
  return new CliError('interrupted', ExitCode.interrupted);
}

export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
    this.name = 'UsageError';
  }
}
