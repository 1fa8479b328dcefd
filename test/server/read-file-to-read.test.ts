import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAndExtract } from '../../src/server/ingest/extraction/extract-chunks.js';
import type { FileToRead } from '../../src/server/ingest/extraction/protocol.js';
import { tempDir } from '../helpers/cli.js';

/** A docs-folder file as the scan saw it. */
function scanned(text: string, maxBytes = 1024 * 1024): FileToRead {
  const path = join(tempDir(), 'note.md');
  writeFileSync(path, text);
  const stat = statSync(path);
  return { path, dev: stat.dev, ino: stat.ino, size: stat.size, maxBytes };
}

describe('a docs-folder file read by the thread that extracts it', () => {
  it('is read and extracted, with its size and SHA-256', async () => {
    const file = scanned('# Backups\n\nBackups run nightly at 02:00.');
    const result = await readAndExtract('note.md', file);
    expect(result.ok && result.chunks.map((c) => c.text).join(' ')).toContain(
      'Backups run nightly at 02:00.',
    );
    expect(result.read).toEqual({
      size: file.size,
      sha256: createHash('sha256').update('# Backups\n\nBackups run nightly at 02:00.').digest('hex'),
    });
  });

  it('is gone when the file was removed after the scan', async () => {
    const file = scanned('soon gone');
    rmSync(file.path);
    expect(await readAndExtract('note.md', file)).toEqual({ ok: false, gone: true });
  });

  it('is not read when it became a link to a file outside the folder', async () => {
    const file = scanned('kept');
    const secret = join(tempDir(), 'secret.txt');
    writeFileSync(secret, 'the secret');
    rmSync(file.path);
    symlinkSync(secret, file.path);
    const result = await readAndExtract('note.md', file);
    expect(result).toMatchObject({ ok: false, error: { code: 'outside_folder' } });
    expect(result.read).toBeUndefined();
  });

  it('is not read when the path now leads to another file', async () => {
    const file = scanned('first');
    const other = join(tempDir(), 'other.md');
    writeFileSync(other, 'another file');
    renameSync(other, file.path);
    expect(await readAndExtract('note.md', file)).toMatchObject({
      ok: false,
      error: { code: 'outside_folder', message: 'the path now leads to another file' },
    });
  });

  it('is refused without waiting when it became a FIFO', async () => {
    const file = scanned('x');
    rmSync(file.path);
    execFileSync('mkfifo', [file.path]);
    const { dev, ino } = statSync(file.path);
    expect(await readAndExtract('note.md', { ...file, dev, ino })).toMatchObject({
      ok: false,
      error: { code: 'not_regular' },
    });
  });

  it('is too_large when it grew past the limit after the scan', async () => {
    const file = scanned('small', 64);
    writeFileSync(file.path, 'x'.repeat(65));
    expect(await readAndExtract('note.md', file)).toMatchObject({ ok: false, error: { code: 'too_large' } });
  });
});
