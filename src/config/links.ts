import { lstatSync } from 'node:fs';
import { CliError, ExitCode } from '../errors.js';

/**
 * Refuses a path that is a symbolic link: the config file, its directory and chat history are
 * never followed through one (a planted link would receive the keys, or be chmod-ed).
 */
export function refuseLink(path: string, what: string): void {
  let linked = false;
  try {
    linked = lstatSync(path).isSymbolicLink();
  } catch {
    return; // missing: kb creates it
  }
  if (linked)
    throw new CliError(
      `${what} ${path} is a symbolic link; kb does not follow links there`,
      ExitCode.failure,
      'replace the link with the file itself (or point KB_CONFIG_DIR / XDG dirs at the real directory)',
    );
}
