import { closeSync, constants, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../util/write-atomic.js';
import { refuseLink } from '../config/links.js';
import { importPackage } from '../import-package.js';

export const HISTORY_LIMIT = 500;
/** The file is cut back to HISTORY_LIMIT entries once it holds this many. */
const COMPACT_AT = 2 * HISTORY_LIMIT;

/**
 * The chat's input history: one entry per message (a multi-line message is one entry), oldest
 * first, one line each with `\` and newlines escaped. Invariant: entries are only ever
 * appended, each under the history lock; compaction holds the same lock, so REPLs running at
 * once never lose each other's entries. The file is 0600 and never followed through a link.
 */
export class HistoryFile {
  #count = 0;
  #pending: Promise<void> = Promise.resolve();
  #refused = false;

  constructor(readonly path: string) {}

  /** Entries, newest first (as readline keeps them), and a warning when the file is unsafe. */
  load(): { entries: string[]; warning?: string } {
    try {
      refuseLink(dirname(this.path), 'history directory');
      refuseLink(this.path, 'history file');
    } catch (err) {
      this.#refused = true;
      return { entries: [], warning: `${(err as Error).message}; history is not kept` };
    }
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return { entries: [] };
    }
    const entries = text.split('\n').filter(Boolean).map(unescapeLine);
    this.#count = entries.length;
    const mode = statSync(this.path).mode & 0o777;
    const warning =
      mode & 0o077
        ? `history file ${this.path} is readable by others; run: chmod 600 ${this.path}`
        : undefined;
    return { entries: entries.reverse().slice(0, HISTORY_LIMIT), warning };
  }

  /** Appends an entry (in the background; `flush` waits for it). Failures are reported to `onError`. */
  add(entry: string, onError: (err: Error) => void = () => {}): void {
    if (this.#refused) return;
    this.#pending = this.#pending.then(() => this.#append(entry)).catch(onError);
  }

  /** Resolves when every entry added so far is written. */
  flush(): Promise<void> {
    return this.#pending;
  }

  async #append(entry: string): Promise<void> {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const lockfile = await importPackage<typeof import('proper-lockfile')>('proper-lockfile');
    const release = await lockfile.lock(this.path, {
      realpath: false,
      stale: 10_000,
      retries: { retries: 100, minTimeout: 5, maxTimeout: 50, randomize: true },
    });
    try {
      // O_NOFOLLOW: a link planted at the path is an error, never followed.
      const fd = openSync(
        this.path,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
        0o600,
      );
      try {
        writeSync(fd, `${escapeLine(entry)}\n`);
      } finally {
        closeSync(fd);
      }
      if (++this.#count >= COMPACT_AT) this.#compact();
    } finally {
      await release();
    }
  }

  /** Keeps the newest HISTORY_LIMIT entries: a new file, renamed over the old one. Called under the lock. */
  #compact(): void {
    const lines = readFileSync(this.path, 'utf8').split('\n').filter(Boolean).slice(-HISTORY_LIMIT);
    writeFileAtomic(this.path, lines.map((l) => `${l}\n`).join(''));
    this.#count = lines.length;
  }
}

function escapeLine(line: string): string {
  return line.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n');
}

function unescapeLine(line: string): string {
  return line.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}
