import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import type { Operation } from './model.js';

/**
 * An append-only log of operations. Each write is fsynced before the request that caused it
 * is answered, so a kill -9 loses nothing acknowledged; a half-written last line (a crash
 * mid-append) is dropped on load. On open the log is compacted into a fresh file atomically.
 */
export class Journal {
  #fd: number | undefined;

  constructor(readonly path: string) {}

  /** The operations stored so far. */
  load(): Operation[] {
    if (!existsSync(this.path)) return [];
    const ops: Operation[] = [];
    for (const line of readFileSync(this.path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        ops.push(JSON.parse(line) as Operation);
      } catch {
        break; // a torn final write; everything before it was acknowledged
      }
    }
    return ops;
  }

  /** Rewrites the log as `ops` (via a temp file and rename) and keeps it open for appends. */
  open(ops: Operation[]): void {
    const tmp = `${this.path}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    writeSync(fd, ops.map((op) => `${JSON.stringify(op)}\n`).join(''));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, this.path);
    this.#fd = openSync(this.path, 'a', 0o600);
  }

  append(ops: Operation[]): void {
    if (this.#fd === undefined) return;
    writeSync(this.#fd, ops.map((op) => `${JSON.stringify(op)}\n`).join(''));
    fsyncSync(this.#fd);
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}
