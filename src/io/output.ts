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
  /** May be shortened (with …) so the table fits the terminal. */
  flex?: boolean;
}

const GAP = 2;
const MIN_FLEX = 12;

/** Column widths that fit `columns` characters, shrinking the widest flexible column first. */
export function fitWidths(natural: number[], flexible: boolean[], columns: number): number[] {
  const widths = [...natural];
  let over = widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1) - columns;
  while (over > 0) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (flexible[i] && w > MIN_FLEX && (widest < 0 || w > widths[widest]!)) widest = i;
    });
    if (widest < 0) break;
    widths[widest]!--;
    over--;
  }
  return widths;
}

function truncate(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(1, width - 1))}…` : text;
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
  const { Table } = await import('./table.js');
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
  const cells = rows.map((row) =>
    columns.map((c) => {
      const raw = c.value(row);
      return sanitizeField(c.time ? relativeTime(raw) : text(raw));
    }),
  );
  const natural = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i]!.length)));
  const widths = fitWidths(
    natural,
    columns.map((c) => Boolean(c.flex)),
    io.columns,
  );
  rows.forEach((row, r) => {
    table.push(
      columns.map((c, i) => {
        const cell = truncate(cells[r]![i]!, widths[i]!);
        return c.style ? c.style(cell, row) : cell;
      }),
    );
  });
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
