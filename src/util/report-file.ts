import { accessSync, constants, lstatSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { errnoText } from './user-file.js';
import { writeFileAtomic } from './write-atomic.js';

/**
 * A report kb writes to a path the user named (`--junit report.xml`): checked before any work,
 * so a run is never made only to lose its report, then written whole or not at all: to a new
 * file beside it, renamed over the path. A link planted at the path is replaced, never followed.
 */
export class ReportFile {
  private constructor(
    readonly path: string,
    readonly what: string,
  ) {}

  /** The file, once its folder exists and can be written and the path is not a folder (exit 2 otherwise). */
  static check(path: string, what: string): ReportFile {
    const folder = dirname(resolve(path));
    try {
      if (!statSync(folder).isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR' });
      accessSync(folder, constants.W_OK);
    } catch (err) {
      throw new UsageError(`cannot write ${what} ${path}: ${errnoText(err)}`);
    }
    let existing;
    try {
      existing = lstatSync(path);
    } catch {
      existing = undefined;
    }
    if (existing?.isDirectory()) throw new UsageError(`cannot write ${what} ${path}: it is a folder`);
    return new ReportFile(path, what);
  }

  write(content: string): void {
    try {
      writeFileAtomic(resolve(this.path), content, { mode: 0o644 });
    } catch (err) {
      throw new CliError(`cannot write ${this.what} ${this.path}: ${errnoText(err)}`, ExitCode.failure);
    }
  }
}
