import { UnsupportedError } from '../../api/errors.js';
import { CliError, ExitCode } from '../../errors.js';

/**
 * Runs a request to an extension of the published interface (kb serve's uploads, search). A
 * service without it (404 for the route, 405 or 501: the client's UnsupportedError) is said in
 * one line, `missing`, with where to go instead, and exits 2: asking this service for it is the
 * mistake, and asking again will not help.
 */
export async function withExtension<T>(
  run: () => Promise<T>,
  { missing, hint }: { missing: string; hint: string },
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof UnsupportedError) throw new CliError(missing, ExitCode.usage, hint);
    throw err;
  }
}
