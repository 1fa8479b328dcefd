/** A change could not be made durable: it was not applied and must not be acknowledged. */
export class StorageError extends Error {
  override name = 'StorageError';
  constructor(override readonly cause: unknown) {
    super(`cannot write kb serve's state: ${(cause as NodeJS.ErrnoException)?.code ?? String(cause)}`);
  }
}

/** SQLite's codes for storage that cannot take a write now (full, failing, read-only, busy). */
const STORAGE_CODES = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|BUSY|LOCKED|NOMEM|CORRUPT|PROTOCOL)/;

/** Whether `err` says the storage failed (a 503 and retry later), not that the write was wrong (a defect). */
export const isStorageFailure = (err: unknown): boolean =>
  STORAGE_CODES.test(String((err as { code?: unknown })?.code ?? ''));
