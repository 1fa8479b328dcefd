import {
  accessSync,
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { errnoText } from './user-file.js';

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
    const target = resolve(this.path);
    const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
    let fd: number | undefined;
    try {
      fd = openSync(
        temporary,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o644,
      );
      const bytes = Buffer.from(content);
      for (let at = 0; at < bytes.length;) {
        const n = writeSync(fd, bytes, at, bytes.length - at);
        if (n <= 0) throw Object.assign(new Error('no progress writing'), { code: 'ENOSPC' });
        at += n;
      }
      fsyncSync(fd);
      closeSync(fd);
      fd = undefined;
      renameSync(temporary, target);
    } catch (err) {
      if (fd !== undefined) closeSync(fd);
      try {
        unlinkSync(temporary);
      } catch {
        // never made, or already renamed
      }
      throw new CliError(`cannot write ${this.what} ${this.path}: ${errnoText(err)}`, ExitCode.failure);
    }
  }
}
