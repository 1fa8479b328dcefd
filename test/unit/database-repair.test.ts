import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, scalar } from '../../src/server/state/database.js';
import { repairDatabase, repairIfDamaged } from '../../src/server/state/database-repair.js';
import { tempDir } from '../helpers/cli.js';
import {
  PAGE_SIZE,
  countOf,
  filledDatabase,
  overwritePage,
  pageHolding,
  rootPageOf,
} from '../helpers/database-files.js';

const NOW = new Date('2026-11-24T20:30:00.000Z');
const byTable = (repair: ReturnType<typeof repairDatabase>) =>
  Object.fromEntries(repair.tables.map(({ table, kept, lost }) => [table, { kept, lost }]));

describe('repairDatabase', () => {
  it('keeps every readable row of a table with a damaged page, and counts the rows of that page lost', () => {
    const path = join(tempDir(), 'state.db');
    filledDatabase(path);
    const page = pageHolding(path, 'MARK-10-50.');
    const bytes = readFileSync(path)
      .subarray((page - 1) * PAGE_SIZE, page * PAGE_SIZE)
      .toString('latin1');
    const onPage = new Set(bytes.match(/MARK-\d+-\d+\./g));
    overwritePage(path, page);
    const damaged = readFileSync(path);

    const repair = repairDatabase(path, NOW);

    expect(byTable(repair)).toMatchObject({
      workspaces: { kept: 1, lost: 0 },
      files: { kept: 20, lost: 0 },
      chunks: { kept: 2000 - onPage.size, lost: onPage.size },
    });
    expect(repair.movedTo).toBe(`${path}.damaged-2026-11-24T20-30-00-000Z`);
    expect(readFileSync(repair.movedTo).equals(damaged)).toBe(true);
    const db = openDatabase(path);
    expect(countOf(db, 'chunks')).toBe(2000 - onPage.size);
    expect(scalar(db, "SELECT count(*) FROM chunks WHERE text LIKE 'MARK-10-50.%'")).toBe(0);
    expect(scalar(db, "SELECT text FROM chunks WHERE id = 'chunk_19_99'")).toMatch(/^MARK-19-99\. /);
    expect(scalar(db, 'PRAGMA integrity_check')).toBe('ok');
    db.close();
  });

  it('drops the chunks of a file that was lost, counting them lost', () => {
    const path = join(tempDir(), 'state.db');
    filledDatabase(path);
    overwritePage(path, rootPageOf(path, 'files'));
    const repair = byTable(repairDatabase(path, NOW));
    expect(repair.files).toEqual({ kept: 0, lost: 20 });
    expect(repair.chunks).toEqual({ kept: 0, lost: 2000 });
    expect(repair.workspaces).toEqual({ kept: 1, lost: 0 });
    const db = openDatabase(path);
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    db.close();
  });

  it('turns a file that is not a database into an empty one, keeping the original and its -wal aside', () => {
    const path = join(tempDir(), 'state.db');
    const garbage = randomBytes(8 * PAGE_SIZE);
    writeFileSync(path, garbage, { mode: 0o600 });
    writeFileSync(`${path}-wal`, randomBytes(PAGE_SIZE), { mode: 0o600 });
    const repair = repairDatabase(path, NOW);
    expect(repair.unreadable).toMatch(/not a database/);
    expect(repair.tables.every(({ kept, lost }) => kept === 0 && lost === 0)).toBe(true);
    expect(readFileSync(repair.movedTo).equals(garbage)).toBe(true);
    expect(existsSync(`${repair.movedTo}-wal`)).toBe(true);
    const db = openDatabase(path);
    expect(countOf(db, 'workspaces')).toBe(0);
    db.close();
  });

  it('--repair leaves a sound database, a missing one and a journal as they are, and repairs damage deep in a table', () => {
    const dir = tempDir();
    const path = join(dir, 'state.db');
    expect(repairIfDamaged(path)).toBeUndefined();
    filledDatabase(path);
    const sound = readFileSync(path);
    expect(repairIfDamaged(path)).toBeUndefined();
    expect(readFileSync(path).equals(sound)).toBe(true);
    writeFileSync(join(dir, 'state.jsonl'), '{"op":"workspace"}\n', { mode: 0o600 });
    expect(repairIfDamaged(join(dir, 'state.jsonl'))).toBeUndefined();

    overwritePage(path, pageHolding(path, 'MARK-3-7.'));
    expect(byTable(repairIfDamaged(path, NOW)!).chunks!.lost).toBeGreaterThan(0);
  });
});
