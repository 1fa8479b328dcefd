import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const HISTORY_LIMIT = 500;

/** Input history, newest first (as readline keeps it). Missing or unreadable: empty. */
export function loadHistory(path: string): { lines: string[]; warning?: string } {
  try {
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).map(unescapeLine).reverse();
    const mode = statSync(path).mode & 0o777;
    const warning =
      mode & 0o077 ? `history file ${path} is readable by others; run: chmod 600 ${path}` : undefined;
    return { lines: lines.slice(0, HISTORY_LIMIT), warning };
  } catch {
    return { lines: [] };
  }
}

/** Writes the newest HISTORY_LIMIT entries, oldest first, 0600 in a 0700 directory. */
export function saveHistory(path: string, newestFirst: string[]): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const lines = newestFirst.slice(0, HISTORY_LIMIT).reverse().map(escapeLine);
  writeFileSync(path, lines.length ? `${lines.join('\n')}\n` : '', { mode: 0o600 });
  chmodSync(path, 0o600);
}

function escapeLine(line: string): string {
  return line.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function unescapeLine(line: string): string {
  return line.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}
