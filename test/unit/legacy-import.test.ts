import * as fs from 'node:fs';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase, scalar } from '../../src/server/state/database.js';
import { JournalDamaged } from '../../src/server/state/journal.js';
import {
  type ImportFs,
  importLegacyJournal,
  isLegacyJournal,
  LegacyImportConflict,
} from '../../src/server/state/legacy-import.js';
import type { Operation } from '../../src/server/state/model.js';
import { tempDir } from '../helpers/cli.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'legacy-journal');
const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as {
  dataFile: string;
  operations: Record<string, number>;
  workspaces: Record<string, string>;
};
const ALL_KINDS = [
  'workspace',
  'key',
  'user',
  'thread',
  'threadStatus',
  'messages',
  'messageUpdate',
  'messageText',
  'messageDeleted',
  'file',
  'fileIndexed',
  'fileChunks',
  'fileDeleted',
  'webhook',
  'webhookDeleted',
] satisfies Operation['op'][];

/** The fixture copied into a new folder: the path of its journal. */
function legacyData(): string {
  const dir = tempDir('kb-legacy-');
  for (const name of readdirSync(FIXTURE))
    if (name.startsWith(expected.dataFile)) cpSync(join(FIXTURE, name), join(dir, name), { recursive: true });
  return join(dir, expected.dataFile);
}

/** A commit that counts what it is given and stores the workspaces, so the database shows whose import it holds. */
function fakeCommit() {
  const calls: Operation[][] = [];
  const commit = (ops: Operation[], db: Database) => {
    calls.push(ops);
    db.transaction(() => {
      for (const op of ops)
        if (op.op === 'workspace')
          db.prepare('INSERT INTO workspaces VALUES (?, ?, ?)').run(
            op.workspace.id,
            op.workspace.name,
            op.workspace.createdAt,
          );
    })();
  };
  return { calls, commit };
}

function workspacesIn(path: string): number {
  const db = openDatabase(path);
  try {
    return Number(scalar(db, 'SELECT count(*) FROM workspaces'));
  } finally {
    db.close();
  }
}

/** The real file system, whose `failAt`th rename (from 1) fails as a crash at that moment would leave it. */
function crashingFs(failAt: number): ImportFs {
  let renames = 0;
  return {
    ...fs,
    renameSync: (from: fs.PathLike, to: fs.PathLike) => {
      if (++renames === failAt) throw new Error('killed');
      fs.renameSync(from, to);
    },
  };
}

describe('importing a journal written before the database', () => {
  it('tells a journal from a database, and from nothing', () => {
    const path = legacyData();
    expect(isLegacyJournal(path)).toBe(true);
    expect(isLegacyJournal(`${path}.index`)).toBe(false);
    expect(isLegacyJournal(`${path}.missing`)).toBe(false);
    const db = join(tempDir(), 'state.db');
    openDatabase(db).close();
    expect(isLegacyJournal(db)).toBe(false);
    const empty = join(tempDir(), 'empty');
    writeFileSync(empty, '');
    expect(isLegacyJournal(empty)).toBe(false);
    const link = join(tempDir(), 'link');
    fs.symlinkSync(path, link);
    expect(isLegacyJournal(link)).toBe(false);
  });

  it('keeps the old files closed to others: the journal holds the API keys in clear', () => {
    const path = legacyData();
    for (const file of [path, `${path}.index`, `${path}.vectors`]) fs.chmodSync(file, 0o644);
    importLegacyJournal(path, fakeCommit().commit);
    for (const file of [`${path}.bak`, `${path}.index.bak`, `${path}.vectors.bak`])
      expect(fs.statSync(file).mode & 0o777, file).toBe(0o600);
  });

  it('commits every operation once, in order, then keeps the old files as .bak and the database at --data', () => {
    const path = legacyData();
    const original = readFileSync(path);
    const { calls, commit } = fakeCommit();
    const report = importLegacyJournal(path, commit)!;

    expect(calls).toHaveLength(1);
    const lines = original.toString().trim().split('\n');
    expect(calls[0]).toEqual(lines.map((line) => JSON.parse(line)));
    expect(report.imported).toEqual(expected.operations);
    for (const kind of ALL_KINDS) expect(report.imported[kind], kind).toBeGreaterThan(0);
    expect(report.renamed).toEqual([
      [`${path}.index`, `${path}.index.bak`],
      [`${path}.vectors`, `${path}.vectors.bak`],
      [path, `${path}.bak`],
    ]);
    expect(report.resumed).toBe(false);
    expect(readFileSync(`${path}.bak`).equals(original)).toBe(true);
    expect(isLegacyJournal(path)).toBe(false);
    expect(workspacesIn(path)).toBe(Object.keys(expected.workspaces).length);
    expect(existsSync(`${path}.uploads`)).toBe(true);
    expect(readdirSync(join(path, '..')).filter((n) => /\.import(ing|ed)/.test(n))).toEqual([]);

    // The next start finds a database: nothing to import.
    expect(importLegacyJournal(path, commit)).toBeUndefined();
    expect(calls).toHaveLength(1);
  });

  it('refuses a damaged journal, naming its line, and changes nothing', () => {
    const path = legacyData();
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[4] = '{"op":"thread","thread":';
    writeFileSync(path, lines.join('\n'));
    const { calls, commit } = fakeCommit();
    let error: unknown;
    try {
      importLegacyJournal(path, commit);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(JournalDamaged);
    expect((error as JournalDamaged).line).toBe(5);
    expect((error as Error).message).toContain(`${path}:5: not JSON`);
    expect(calls).toHaveLength(0);
    expect(readdirSync(join(path, '..')).sort()).toEqual(
      ['', '.index', '.uploads', '.vectors'].map((s) => `${expected.dataFile}${s}`),
    );
  });

  it('with repair, imports every valid record and keeps the damaged journal under its .damaged- name', () => {
    const path = legacyData();
    const original = readFileSync(path, 'utf8');
    const lines = original.split('\n');
    const dropped = JSON.parse(lines[4]!) as Operation;
    lines[4] = 'garbage';
    writeFileSync(path, lines.join('\n'));
    const { calls, commit } = fakeCommit();
    const report = importLegacyJournal(path, commit, { repair: true })!;
    expect(calls[0]).toHaveLength(original.trim().split('\n').length - 1);
    expect(report.imported[dropped.op]).toBe(expected.operations[dropped.op]! - 1);
    expect(report.repaired?.dropped).toBe(1);
    expect(report.repaired?.movedTo).toMatch(/\.damaged-/);
    expect(readFileSync(report.repaired!.movedTo, 'utf8')).toBe(lines.join('\n'));
    expect(report.renamed.at(-1)).toEqual([path, report.repaired!.movedTo]);
    expect(workspacesIn(path)).toBe(Object.keys(expected.workspaces).length);
  });

  it('drops a torn last line, as a start did before', () => {
    const path = legacyData();
    fs.appendFileSync(path, '{"op":"messages","messa');
    const { calls, commit } = fakeCommit();
    const report = importLegacyJournal(path, commit)!;
    expect(report.tornTail).toBe(true);
    expect(report.imported).toEqual(expected.operations);
    expect(calls).toHaveLength(1);
  });

  it('imports again after a crash during the commit: what was being written is never used', () => {
    const path = legacyData();
    expect(() =>
      importLegacyJournal(path, (ops, db) => {
        fakeCommit().commit(ops, db);
        throw new Error('killed');
      }),
    ).toThrow('killed');
    expect(existsSync(`${path}.importing`)).toBe(true);
    expect(isLegacyJournal(path)).toBe(true);
    const { calls, commit } = fakeCommit();
    const report = importLegacyJournal(path, commit)!;
    expect(calls).toHaveLength(1);
    expect(report.resumed).toBe(false);
    expect(workspacesIn(path)).toBe(Object.keys(expected.workspaces).length);
  });

  // Renames: 1 .importing -> .imported, 2 .index, 3 .vectors, 4 the journal, 5 .imported -> --data.
  for (const failAt of [1, 2, 3, 4, 5]) {
    it(`a crash at rename ${failAt} of 5 leaves a state the next start completes, importing once`, () => {
      const path = legacyData();
      const original = readFileSync(path);
      const first = fakeCommit();
      expect(() => importLegacyJournal(path, first.commit, { fs: crashingFs(failAt) })).toThrow('killed');
      expect(first.calls).toHaveLength(1);

      const second = fakeCommit();
      const report = importLegacyJournal(path, second.commit)!;
      // Once the database was on disk (.imported), it is the import: the journal is not read again.
      expect(second.calls).toHaveLength(failAt === 1 ? 1 : 0);
      expect(report.resumed).toBe(failAt > 1);
      expect(workspacesIn(path)).toBe(Object.keys(expected.workspaces).length);
      const dir = readdirSync(join(path, '..'));
      const journal = dir.find((n) => /^kb-data\.jsonl\.bak(\.\d+)?$/.test(n))!;
      expect(readFileSync(join(path, '..', journal)).equals(original)).toBe(true);
      expect(dir.filter((n) => n.startsWith(`${expected.dataFile}.index.bak`))).toHaveLength(1);
      expect(dir.filter((n) => n.startsWith(`${expected.dataFile}.vectors.bak`))).toHaveLength(1);
      expect(dir.filter((n) => /\.import(ing|ed)/.test(n))).toEqual([]);
      expect(importLegacyJournal(path, second.commit)).toBeUndefined();
    });
  }

  it('refuses to choose between a committed import and another database at --data', () => {
    const path = legacyData();
    expect(() => importLegacyJournal(path, fakeCommit().commit, { fs: crashingFs(4) })).toThrow('killed');
    fs.renameSync(path, `${path}.elsewhere`);
    openDatabase(path).close();
    expect(() => importLegacyJournal(path, fakeCommit().commit)).toThrow(LegacyImportConflict);
  });
});
