import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { RUN_PID, runTempFolder, sweepAbandonedRuns } from '../global-temp.js';

// Every run of the suite left its folders (kb-test-*, a 127 MB copy of node, kb serve's uploads)
// in /tmp: 177,450 of them, 78 GB, filled the CI machine's disk and failed a run.
describe('the test run', () => {
  it('makes its temporary folders inside one folder of its own, in this worker and in what it starts', () => {
    const run = dirname(tempDir());
    expect(basename(run)).toMatch(/^kb-test-run-/);
    expect(tmpdir()).toBe(run);
    expect(process.env.TMPDIR).toBe(run);
  });

  it('removes that folder, whatever is in it, when the run ends', async () => {
    const before = process.env.TMPDIR;
    const teardown = runTempFolder();
    try {
      const run = process.env.TMPDIR!;
      expect(dirname(run)).toBe(before);
      tempDir();
      expect(readdirSync(run).filter((name) => name !== RUN_PID)).toHaveLength(1);
      await teardown();
      expect(existsSync(run)).toBe(false);
      expect(process.env.TMPDIR).toBe(before);
    } finally {
      process.env.TMPDIR = before;
    }
  });
});

describe('a run killed before its end', () => {
  it("leaves a folder the next run removes: only a run's whose process is gone, never a link", async () => {
    const root = tempDir();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const abandoned = join(root, 'kb-test-run-abandoned');
    mkdirSync(join(abandoned, 'kb-test-x'), { recursive: true });
    writeFileSync(join(abandoned, RUN_PID), String(gone));
    const running = join(root, 'kb-test-run-running');
    mkdirSync(running);
    writeFileSync(join(running, RUN_PID), String(process.pid));
    const elsewhere = tempDir();
    writeFileSync(join(elsewhere, RUN_PID), String(gone));
    symlinkSync(elsewhere, join(root, 'kb-test-run-link'));
    const other = join(root, 'kb-other');
    mkdirSync(other);
    sweepAbandonedRuns(root);
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(running)).toBe(true);
    expect(existsSync(elsewhere)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });
});
