import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { serveRefusal } from '../helpers/serve-process.js';

// The uploaded bytes are read back to be indexed again: a folder others can write to (or one a
// link points elsewhere) would let them replace what the answers are drawn from.
describe('kb serve refuses an uploads folder beside --data that is not its own (#34)', () => {
  it('refuses FILE.uploads when others can write to it', async () => {
    const dir = tempDir();
    const uploads = join(dir, 'state.db.uploads');
    mkdirSync(uploads);
    chmodSync(uploads, 0o777);
    const refused = await serveRefusal(dir, ['--data', join(dir, 'state.db')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${uploads} can be written by every user (mode 777); chmod 700 it`);
    expect(refused.stdout).toBe('');
  });

  it('refuses FILE.uploads when it is a symbolic link', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'state.db.uploads'));
    const refused = await serveRefusal(dir, ['--data', join(dir, 'state.db')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('state.db.uploads is a symbolic link, which kb serve does not follow');
  });
});
