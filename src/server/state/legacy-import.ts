import * as nodeFs from 'node:fs';
import { dirname } from 'node:path';
import { companionsOf, type Database, openDatabase } from './database.js';
import { Journal, type JournalFs } from './journal.js';
import type { Operation } from './model.js';

/**
 * Before #34, kb serve kept its state in a JSONL journal at --data, with a search index
 * (`.index`) and vectors (`.vectors`) beside it. The first start of a kb that keeps it in SQLite
 * imports that journal once, into a database that then takes its place at --data; the old files
 * are kept, renamed `*.bak` (`.uploads/` stays: the bytes are still read from there).
 */

/** The file calls the import makes; a test passes one that fails part way, as a crash would. */
export type ImportFs = Pick<typeof nodeFs, 'renameSync' | 'fsyncSync' | 'openSync' | 'closeSync'>;

/** What an import did. */
export interface LegacyImportReport {
  /** Operations imported, by kind (none when `resumed`). */
  imported: Partial<Record<Operation['op'], number>>;
  /** Files moved aside, [from, to], the journal last. */
  renamed: [from: string, to: string][];
  /** A half-written last line (a crash mid-append) was dropped, as a start before #34 dropped it. */
  tornTail: boolean;
  /** With repair: the damaged lines dropped; the journal is kept under `movedTo` instead of `.bak`. */
  repaired?: { dropped: number; movedTo: string };
  /** An earlier start committed the import and stopped before the database took the journal's place. */
  resumed: boolean;
}

/** The import was committed but something else now sits at --data: kb serve will not guess which to keep. */
export class LegacyImportConflict extends Error {
  override name = 'LegacyImportConflict';
  constructor(
    readonly path: string,
    readonly imported: string,
  ) {
    super(
      `${imported} holds an imported journal, and ${path} is not that journal: move one of them away and start again`,
    );
  }
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0');

/** Being written: never trusted, removed at the next start. */
export const importingPathFor = (path: string) => `${path}.importing`;
/** Written whole and on disk: it takes the journal's place. */
export const importedPathFor = (path: string) => `${path}.imported`;

/**
 * Whether the file at `path` is a journal: a regular file (not reached through a link) whose
 * first non-blank byte opens a JSON record, not an SQLite database. An empty file is neither:
 * SQLite takes it as an empty database.
 */
export function isLegacyJournal(path: string): boolean {
  let fd: number;
  try {
    fd = nodeFs.openSync(
      path,
      nodeFs.constants.O_RDONLY | nodeFs.constants.O_NOFOLLOW | nodeFs.constants.O_NONBLOCK,
    );
  } catch {
    return false;
  }
  try {
    if (!nodeFs.fstatSync(fd).isFile()) return false;
    const head = Buffer.alloc(64);
    const n = nodeFs.readSync(fd, head, 0, head.length, 0);
    if (head.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) return false;
    return head.subarray(0, n).toString('latin1').trimStart().startsWith('{');
  } finally {
    nodeFs.closeSync(fd);
  }
}

/**
 * Imports the journal at `path` into a new database that takes its place, or finishes an import
 * an earlier start committed; undefined when there is nothing to import (no file, or already a
 * database). Call it before opening the database at `path`.
 *
 * `commit` writes `ops` (the journal's operations, in order) into `db` in one transaction; the
 * database is opened and closed here. A damaged journal throws JournalDamaged naming its line,
 * unless `repair` keeps every valid record (as --repair did before), and nothing is changed.
 *
 * Crash safety: the database is written to `<path>.importing`, which is never trusted (removed
 * at the next start, which imports again: the journal is still at `path`). Once it is on disk it
 * is renamed `<path>.imported`: from then on it is the import, and a start that finds it only
 * finishes the moves below, never imports a second time. The journal leaves `path` after that
 * rename, and the database comes to `path` last: whatever moment a crash picks, the state is
 * either still only in the journal or already whole in a database, never in both half-way.
 */
export function importLegacyJournal(
  path: string,
  commit: (ops: Operation[], db: Database) => void,
  options: { repair?: boolean; fs?: ImportFs } = {},
): LegacyImportReport | undefined {
  const fs = options.fs ?? nodeFs;
  const importing = importingPathFor(path);
  const imported = importedPathFor(path);
  removeWithCompanions(importing);
  if (isRegularFile(imported)) {
    if (isRegularFile(path) && !isLegacyJournal(path)) throw new LegacyImportConflict(path, imported);
    return { imported: {}, renamed: finish(path, fs), tornTail: false, resumed: true };
  }
  if (!isLegacyJournal(path)) return undefined;

  // With repair, the journal keeps the name load() gives it, but moves only once the import is on disk.
  let repairedTo: string | undefined;
  const deferRename: JournalFs = {
    ...nodeFs,
    renameSync: (_from: nodeFs.PathLike, to: nodeFs.PathLike) => {
      repairedTo = String(to);
    },
  };
  const loaded = new Journal(path, deferRename).load({ repair: options.repair });
  const db = openDatabase(importing);
  try {
    commit(loaded.ops, db);
    // Back to a rollback journal: the whole database in its one file, no -wal to carry along.
    db.prepare('PRAGMA journal_mode=DELETE').raw().get();
  } finally {
    db.close();
  }
  syncFile(importing, fs);
  fs.renameSync(importing, imported);
  syncDir(path, fs);

  const counts: LegacyImportReport['imported'] = {};
  for (const op of loaded.ops) counts[op.op] = (counts[op.op] ?? 0) + 1;
  return {
    imported: counts,
    renamed: finish(path, fs, repairedTo),
    tornTail: loaded.tornTail,
    ...(loaded.repaired && repairedTo ? { repaired: { ...loaded.repaired, movedTo: repairedTo } } : {}),
    resumed: false,
  };
}

/**
 * Moves the index, the vectors and then the journal aside (each if present), and the imported
 * database to `path`. Each step may be repeated after a crash: what was moved is not found again.
 */
function finish(path: string, fs: ImportFs, journalTo?: string): [string, string][] {
  const suffix = freeSuffix(path);
  const moves: [string, string][] = [
    [`${path}.index`, `${path}.index${suffix}`],
    [`${path}.vectors`, `${path}.vectors${suffix}`],
    [path, journalTo ?? `${path}${suffix}`],
  ];
  const renamed: [string, string][] = [];
  for (const [from, to] of moves) {
    if (!isRegularFile(from)) continue;
    fs.renameSync(from, to);
    // The journal holds the API keys in clear, the others the documents' text: the database is
    // 0600, and so are they now.
    nodeFs.chmodSync(to, 0o600);
    renamed.push([from, to]);
  }
  fs.renameSync(importedPathFor(path), path);
  syncDir(path, fs);
  return renamed;
}

/** `.bak`, or `.bak.2`, `.bak.3`… when an earlier import's backups are still there. */
function freeSuffix(path: string): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '.bak' : `.bak.${n}`;
    if ([path, `${path}.index`, `${path}.vectors`].every((p) => !nodeFs.existsSync(`${p}${suffix}`)))
      return suffix;
  }
}

function isRegularFile(path: string): boolean {
  return nodeFs.lstatSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

/** An import cut short before it was on disk: its database and SQLite's files beside it. */
function removeWithCompanions(path: string): void {
  for (const file of [path, ...companionsOf(path)]) nodeFs.rmSync(file, { force: true });
}

function syncFile(path: string, fs: ImportFs): void {
  const fd = fs.openSync(path, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The renames in `path`'s folder are on disk. */
function syncDir(path: string, fs: ImportFs): void {
  syncFile(dirname(path), fs);
}
