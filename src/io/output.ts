import { sanitizeField, sanitizeText } from '../util/sanitize.js';
import { relativeTime } from './format.js';
import type { IO } from './streams.js';

export type Format = 'human' | 'json' | 'jsonl' | 'ids';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Colouring for the TTY table, applied after sanitising. */
  style?: (text: string, row: T) => string;
  /** Render as relative time on a TTY, ISO when piped. */
  time?: boolean;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string'
    ? value
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
}

export function printJson(io: IO, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** A list in the chosen format: TTY table, tab-separated rows when piped, JSON, JSON Lines or ids. */
export async function printList<T extends { id?: unknown }>(
  io: IO,
  format: Format,
  rows: T[],
  columns: Column<T>[],
  options: { empty?: string } = {},
): Promise<void> {
  if (format === 'json') return printJson(io, rows);
  if (format === 'jsonl') {
    io.out(rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
    return;
  }
  if (format === 'ids') {
    io.out(rows.map((row) => `${sanitizeField(text(row.id))}\n`).join(''));
    return;
  }
  if (!io.stdoutIsTTY) {
    io.out(
      rows.map((row) => `${columns.map((c) => sanitizeField(text(c.value(row)))).join('\t')}\n`).join(''),
    );
    return;
  }
  if (rows.length === 0) {
    if (options.empty) io.err(`${options.empty}\n`);
    return;
  }
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: columns.map((c) => io.color.bold(c.header)),
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 2 },
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '',
    },
    wordWrap: false,
  });
  for (const row of rows) {
    table.push(
      columns.map((c) => {
        const raw = c.value(row);
        const cell = sanitizeField(c.time ? relativeTime(raw) : text(raw));
        return c.style ? c.style(cell, row) : cell;
      }),
    );
  }
  io.out(
    `${table
      .toString()
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n')}\n`,
  );
}

export type Field = [label: string, value: unknown, style?: (text: string) => string];

/** One record: aligned key/value lines on a TTY, `key<TAB>value` when piped, or JSON. */
export function printRecord(io: IO, format: Format, record: unknown, fields: Field[]): void {
  if (format === 'json' || format === 'jsonl') {
    io.out(format === 'json' ? `${JSON.stringify(record, null, 2)}\n` : `${JSON.stringify(record)}\n`);
    return;
  }
  if (format === 'ids') {
    io.out(`${sanitizeField(text((record as { id?: unknown }).id))}\n`);
    return;
  }
  const shown = fields.filter(([, value]) => value !== undefined && value !== null && value !== '');
  if (!io.stdoutIsTTY) {
    io.out(shown.map(([label, value]) => `${label}\t${sanitizeField(text(value))}\n`).join(''));
    return;
  }
  const width = Math.max(...shown.map(([label]) => label.length));
  io.out(
    shown
      .map(([label, value, style]) => {
        const cell = sanitizeText(text(value));
        return `${io.color.dim(`${label}:`.padEnd(width + 2))}${style ? style(cell) : cell}\n`;
      })
      .join(''),
  );
}
