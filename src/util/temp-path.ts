import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/**
 * Where to write a new version of `path` before renaming it over the old one: in the same
 * directory (so that the rename is atomic) and under a name no one can have planted, for a
 * create with 'wx' (which never follows a link).
 */
export function siblingTempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
}
