import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runTempFolder } from '../global-temp.js';

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
      expect(readdirSync(run)).toHaveLength(1);
      await teardown();
      expect(existsSync(run)).toBe(false);
      expect(process.env.TMPDIR).toBe(before);
    } finally {
      process.env.TMPDIR = before;
    }
  });
});
