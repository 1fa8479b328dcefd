import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temporary folder for the whole run, set as TMPDIR before the workers start, so that what
 * the tests and the processes they start make (config dirs, documents, kb serve's uploads, a copy
 * of node) is removed with it when the run ends, passed or failed.
 */
export function runTempFolder(): () => Promise<void> {
  const before = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'kb-test-run-'));
  // Others may enter (not write): a test acting as a second user reaches the folders it opened
  // to them, as it would in /tmp; each folder inside is made 0700 by mkdtemp.
  chmodSync(dir, 0o755);
  process.env.TMPDIR = dir;
  return async () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}

export default runTempFolder;
