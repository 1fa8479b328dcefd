import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { serveRefusal } from '../helpers/serve-process.js';

describe('kb serve --data names a file (#34)', () => {
  it('refuses an empty --data (an unset variable) instead of starting in memory', async () => {
    const dir = tempDir();
    const refused = await serveRefusal(dir, ['--data', '']);
    expect(refused.stdout).toBe('');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--data is empty: give the file that keeps the state');
  });

  it('refuses a --data path that ends in a slash, in one line', async () => {
    const dir = tempDir();
    const refused = await serveRefusal(dir, ['--data', join(dir, 'state.db') + '/']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('ends in /: give a file, not a folder');
    expect(refused.stderr).not.toContain('ENOENT');
    expect(existsSync(join(dir, 'state.db'))).toBe(false);
  });
});
