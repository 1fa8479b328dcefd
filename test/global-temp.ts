import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'kb-test-run-';
/** The file in a run's folder that names the process it belongs to. */
export const RUN_PID = '.pid';

/**
 * One temporary folder for the whole run, set as TMPDIR before the workers start, so that what
 * the tests and the processes they start make (config dirs, documents, kb serve's uploads, a copy
 * of node) is removed with it when the run ends, passed or failed. A run killed before its end
 * leaves its folder: the next run removes it (see sweepAbandonedRuns).
 */
export function runTempFolder(): () => Promise<void> {
  const before = process.env.TMPDIR;
  sweepAbandonedRuns(tmpdir());
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  writeFileSync(join(dir, RUN_PID), String(process.pid));
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

/**
 * Removes the folders in `root` of runs whose process is gone: a folder of ours (not a link),
 * named as a run's, whose `.pid` names no live process. Another run going on keeps its own.
 */
export function sweepAbandonedRuns(root: string): void {
  for (const name of readdirSync(root)) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(root, name);
    try {
      const stat = lstatSync(dir);
      if (!stat.isDirectory() || stat.uid !== process.getuid?.()) continue;
      const pid = Number(readFileSync(join(dir, RUN_PID), 'utf8'));
      if (Number.isSafeInteger(pid) && pid > 0 && alive(pid)) continue;
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Not a run's folder as this code makes them (no .pid): left as it is.
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export default runTempFolder;
