import { CliError, ExitCode } from '../../errors.js';
import type { LegacyImportReport } from '../../server/state/legacy-import.js';
import type { DatabaseRepair } from '../../server/state/database-repair.js';

/** How long kb serve waits for another one on its --data to finish stopping (a restart). */
const STOPPING_MS = 2000;

/**
 * One kb serve per --data file: the lock is taken before the state is opened (or repaired)
 * and released after it is closed. Loaded only by kb serve, with the database binding.
 */
export async function lockState(path: string, waitMs = STOPPING_MS) {
  const { lockDatabase, DatabaseInUse } = await import('../../server/state/database-lock.js');
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return lockDatabase(path);
    } catch (err) {
      if (err instanceof DatabaseInUse && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      await refuseState(err);
      throw err;
    }
  }
}

/** A state file kb serve cannot use, said in one line that names it and what to do. */
export async function refuseState(err: unknown): Promise<void> {
  const [{ DatabaseDamaged, DatabaseFromNewerKb, UnsafeDatabaseFile }, { DatabaseInUse }] = await Promise.all(
    [import('../../server/state/database.js'), import('../../server/state/database-lock.js')],
  );
  if (err instanceof DatabaseInUse)
    throw new CliError(
      `${err.message}: stop it first, or give this one another --data file`,
      ExitCode.failure,
      undefined,
      'database_in_use',
    );
  if (err instanceof DatabaseFromNewerKb)
    throw new CliError(
      `${err.message}: serve it with that kb, or restore a backup made before`,
      ExitCode.failure,
      undefined,
      'database_too_new',
    );
  if (err instanceof DatabaseDamaged)
    throw new CliError(
      `${err.message}: start with --repair to keep every readable record (the original is moved aside), or restore a backup (sqlite3 ${err.path} ".backup" made one)`,
      ExitCode.failure,
      undefined,
      'database_damaged',
    );
  if (err instanceof UnsafeDatabaseFile)
    throw new CliError(err.message, ExitCode.failure, undefined, 'unsafe_data_file');
}

/** The line --repair prints: the rows kept and lost, table by table, and where the original is. */
export function describeRepair(path: string, repair: DatabaseRepair): string {
  const list = (key: 'kept' | 'lost') =>
    repair.tables
      .filter((t) => t[key] > 0)
      .map((t) => `${t.table} ${t[key]}`)
      .join(', ');
  const kept = repair.unreadable
    ? `no record could be read (${repair.unreadable}): it starts empty`
    : `kept ${list('kept') || 'nothing'}; lost ${list('lost') || 'nothing'}`;
  return `repaired ${path}: ${kept}; the original is ${repair.movedTo}`;
}

/** The line a first start on an older kb's journal prints: what was imported, where the old files are. */
export function describeImport(path: string, report: LegacyImportReport): string {
  const journal = report.renamed.at(-1)?.[1];
  const kept = journal ? `; the journal is kept as ${journal}` : '';
  if (report.resumed) return `finished importing ${path} into its database${kept}`;
  const records = Object.values(report.imported).reduce((sum, n) => sum + (n ?? 0), 0);
  return `imported ${path}, a journal of an older kb, into a database: ${records} record${records === 1 ? '' : 's'}${kept}`;
}
