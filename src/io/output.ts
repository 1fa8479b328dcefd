import { UsageError } from '../errors.js';
import { safeJson, sanitizeDeep, sanitizeField, sanitizeText } from '../util/sanitize.js';
import { relativeTime } from './format.js';
import type { IO } from './streams.js';

/**
 * The only writer of stdout. Every verb hands it records, and it prints them in the chosen
 * format: a table or aligned fields on a terminal; tab-separated fields piped; `--json` (one
 * document, indented by two spaces), `--jsonl` (one compact object per line) or `--ids` (one id
 * per line) for scripts. Every string from outside is made safe for a terminal on the way.
 */
export type Format = 'human' | 'json' | 'jsonl' | 'ids';

/** The formats KB_FORMAT and the `format` setting may name. */
export const DEFAULT_FORMATS = ['table', 'json', 'jsonl'] as const;

/** The format asked for: at most one of the flags, else KB_FORMAT, else the setting, else human. */
export function resolveFormat(
  flags: { json?: boolean; jsonl?: boolean; ids?: boolean },
  fromEnv: string | undefined,
  fromSettings: () => string | undefined,
): Format {
  const given = (['json', 'jsonl', 'ids'] as const).filter((name) => flags[name]);
  if (given.length > 1)
    throw new UsageError(
      `${given.map((g) => `--${g}`).join(' and ')} cannot be used together`,
      'pick one output format',
    );
  if (given[0]) return given[0];
  const [source, value] = fromEnv ? ['KB_FORMAT', fromEnv] : ['the format setting', fromSettings()];
  if (value === undefined || value === '') return 'human';
  if (!(DEFAULT_FORMATS as readonly string[]).includes(value))
    throw new UsageError(
      `${source} is "${sanitizeField(value)}", which is not a format`,
      `use one of ${DEFAULT_FORMATS.join(', ')}`,
    );
  return value === 'table' ? 'human' : (value as Format);
}

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Colouring for the TTY table, applied after sanitising. */
  style?: (text: string, row: T) => string;
  /** Render as relative time on a TTY, ISO when piped. */
  time?: boolean;
  /**
   * May be shortened (with …) so the table fits the terminal. `'first'`: before any other column
   * is, as far as it takes, for text whose beginning says enough (a passage, a media type) beside
   * columns whose end matters (a page, a file name).
   */
  flex?: boolean | 'first';
  /**
   * Left out on a terminal too narrow to show the other columns whole, rather than cut to a
   * stub (kb files list's TYPE: "appli…" says nothing, and cost the file's name its end): the
   * column of the lowest number first; one numbered 1 whenever another would be cut, a later one
   * only while another would be cut to fewer than STUB_WIDTH characters (kb files list: TYPE 1,
   * CREATED 2, SIZE 3: at 60 columns the names had been cut to six characters, `h…y.md`).
   */
  optional?: number;
  /**
   * Where a cut cell loses its text: at its end (the default), or in its middle, for a name whose
   * end tells it from others (a file's path: `etc/ad…duser.conf`, not `etc/adduser.c…`).
   */
  cut?: 'end' | 'middle';
}

export type Field = [label: string, value: unknown, style?: (text: string) => string];

/** How a record is shown to people: labelled fields, or a view of the sanitised record. */
export type RecordView<T> = Field[] | ((safe: T) => string);

const GAP = 2;
/** Flexible columns shrink to this first; below it only if the table would still be too wide. */
const MIN_FLEX = 12;
/** Below this a cell says too little: a table that needs less wraps on the terminal. */
const LAST_FLEX = 6;

/**
 * Column widths that fit `columns` characters. The columns that give way first shrink to 6
 * characters; then the widest flexible column, one character at a time: to 12 characters, then
 * (a table with many flexible columns, such as kb files list at 80) to 6.
 */
export function fitWidths(natural: number[], flex: Column<unknown>['flex'][], columns: number): number[] {
  const widths = [...natural];
  let over = widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1) - columns;
  const stages: [floor: number, shrinks: (f: Column<unknown>['flex']) => boolean][] = [
    [LAST_FLEX, (f) => f === 'first'],
    [MIN_FLEX, Boolean],
    [LAST_FLEX, Boolean],
  ];
  for (const [floor, shrinks] of stages) {
    while (over > 0) {
      let widest = -1;
      widths.forEach((w, i) => {
        if (shrinks(flex[i]) && w > floor && (widest < 0 || w > widths[widest]!)) widest = i;
      });
      if (widest < 0) break;
      widths[widest]!--;
      over--;
    }
  }
  return widths;
}

/** A cell cut to fewer characters than this is a stub (see Column.optional). */
const STUB_WIDTH = 20;

/**
 * The columns a terminal `columns` wide shows (their indexes) and their widths (see fitWidths):
 * an optional column is left out, the lowest numbered first, while another would be cut.
 */
export function fitTable(
  natural: number[],
  specs: Pick<Column<unknown>, 'flex' | 'optional'>[],
  columns: number,
): { shown: number[]; widths: number[] } {
  let shown = natural.map((_, i) => i);
  for (;;) {
    const widths = fitWidths(
      shown.map((i) => natural[i]!),
      shown.map((i) => specs[i]!.flex),
      columns,
    );
    const cutTo = (least: number) =>
      shown.some((i, k) => specs[i]!.optional === undefined && widths[k]! < Math.min(natural[i]!, least));
    const optional = shown
      .filter((i) => specs[i]!.optional !== undefined)
      .sort((a, b) => specs[a]!.optional! - specs[b]!.optional!)[0];
    if (optional === undefined || !cutTo(specs[optional]!.optional === 1 ? Infinity : STUB_WIDTH))
      return { shown, widths };
    shown = shown.filter((i) => i !== optional);
  }
}

function truncate(text: string, width: number, cut: Column<unknown>['cut'] = 'end'): string {
  if (text.length <= width) return text;
  if (cut === 'middle' && width >= 5) {
    // A third of what is kept from its start, the rest from its end.
    const head = Math.floor((width - 1) / 3);
    return `${text.slice(0, head)}…${text.slice(text.length - (width - 1 - head))}`;
  }
  return `${text.slice(0, Math.max(1, width - 1))}…`;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string'
    ? value
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
}

function idOf(record: unknown): string {
  const id = (record as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' && typeof id !== 'number')
    throw new UsageError('--ids: these records have no id', 'use --json or --jsonl');
  return sanitizeField(String(id));
}

const BORDERLESS = Object.fromEntries(
  [
    'top',
    'top-mid',
    'top-left',
    'top-right',
    'bottom',
    'bottom-mid',
    'bottom-left',
    'bottom-right',
    'left',
    'left-mid',
    'mid',
    'mid-mid',
    'right',
    'right-mid',
    'middle',
  ].map((k) => [k, '']),
);

export class Output {
  constructor(
    readonly io: IO,
    readonly format: Format,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether a person reads stdout (tables, colour, relative times) rather than a program. */
  get forPeople(): boolean {
    return this.format === 'human' && this.io.stdoutIsTTY;
  }

  /** Records: a table on a terminal, tab-separated rows piped, or JSON, JSON Lines, ids. */
  async list<T>(rows: T[], columns: Column<T>[], options: { empty?: string } = {}): Promise<void> {
    if (this.#machine(rows)) return;
    if (!this.io.stdoutIsTTY) {
      this.#write(
        rows.map((row) => `${columns.map((c) => sanitizeField(text(c.value(row)))).join('\t')}\n`).join(''),
      );
      return;
    }
    if (rows.length === 0) {
      if (options.empty) this.io.err(`${options.empty}\n`);
      return;
    }
    this.#write(await this.#table(rows, columns));
  }

  /**
   * Records that arrive a page at a time: printed as they come (rows, JSON Lines, ids, and
   * `--json` as one array written piece by piece), waiting for a slow reader between pages, so
   * memory does not grow with the list. A table for people needs every row, so it waits.
   */
  async listPages<T>(
    pages: AsyncIterable<T[]>,
    columns: Column<T>[],
    options: { empty?: string } = {},
  ): Promise<void> {
    if (this.format === 'human' && this.io.stdoutIsTTY) {
      const rows: T[] = [];
      for await (const page of pages) rows.push(...page);
      return this.list(rows, columns, options);
    }
    let first = true;
    for await (const page of pages) {
      if (this.format === 'json') {
        const items = page.map((item) => safeJson(item, 2).replace(/^/gm, '  '));
        if (items.length) this.#write(`${first ? '[\n' : ',\n'}${items.join(',\n')}`);
        if (items.length) first = false;
      } else if (this.format === 'human')
        this.#write(
          page.map((row) => `${columns.map((c) => sanitizeField(text(c.value(row)))).join('\t')}\n`).join(''),
        );
      else this.#machine(page);
      await this.#drained();
    }
    if (this.format === 'json') this.#write(first ? '[]\n' : '\n]\n');
  }

  /** Resolves once stdout has room again (at once when it has). */
  async #drained(): Promise<void> {
    const stdout = this.io.stdout as NodeJS.WritableStream & { writableNeedDrain?: boolean };
    if (!stdout.writableNeedDrain) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        stdout.off('drain', done);
        stdout.off('close', done);
        resolve();
      };
      stdout.once('drain', done);
      stdout.once('close', done);
    });
  }

  /** One record: aligned `label: value` lines (or a view) for people, `label<TAB>value` piped, or JSON. */
  record<T>(record: T, view: RecordView<T>): void {
    if (this.#machine(record)) return;
    if (typeof view === 'function') {
      this.#write(view(sanitizeDeep(record)));
      return;
    }
    const shown = view.filter(([, value]) => value !== undefined && value !== null && value !== '');
    if (!this.io.stdoutIsTTY) {
      this.#write(shown.map(([label, value]) => `${label}\t${sanitizeField(text(value))}\n`).join(''));
      return;
    }
    const width = Math.max(0, ...shown.map(([label]) => label.length));
    this.#write(
      shown
        .map(([label, value, style]) => {
          const cell = sanitizeText(text(value));
          return `${this.io.color.dim(`${label}:`.padEnd(width + 2))}${style ? style(cell) : cell}\n`;
        })
        .join(''),
    );
  }

  /**
   * What an action did to one item or several: for people a line per item (`line` sees the
   * sanitised item), piped `fields` tab-separated, for scripts the items themselves.
   */
  result<T>(items: T | T[], view: { line: (safe: T) => string; fields: (item: T) => unknown[] }): void {
    if (this.#machine(items)) return;
    const list = Array.isArray(items) ? items : [items];
    if (this.io.stdoutIsTTY) this.#write(list.map((item) => `${view.line(sanitizeDeep(item))}\n`).join(''));
    else
      this.#write(
        list
          .map(
            (item) =>
              `${view
                .fields(item)
                .map((f) => sanitizeField(text(f)))
                .join('\t')}\n`,
          )
          .join(''),
      );
  }

  /**
   * One item of a stream that has no end to wait for (deliveries, events): a line for people
   * (`line` sees the sanitised item), else one JSON object per line, `--json` included.
   */
  event<T>(item: T, line: (safe: T) => string): void {
    if (this.format === 'ids') this.#write(`${idOf(item)}\n`);
    else if (this.forPeople) this.#write(`${line(sanitizeDeep(item))}\n`);
    else this.#write(`${safeJson(item)}\n`);
  }

  /** Text that is itself the data (a reply, a header value), made safe for a terminal. */
  text(value: string): void {
    this.#write(sanitizeText(value));
  }

  /** Bytes passed through as received (`kb api`): exact when piped, made safe on a terminal. */
  bytes(body: Uint8Array): void {
    if (this.io.stdoutIsTTY) this.#write(sanitizeText(Buffer.from(body).toString('utf8')));
    else this.io.out(body);
  }

  /** A value as JSON, whatever the format: for verbs whose data is JSON by nature. */
  json(value: unknown, options: { compact?: boolean } = {}): void {
    this.#write(`${safeJson(value, options.compact || this.format === 'jsonl' ? undefined : 2)}\n`);
  }

  /**
   * stdout as a terminal, for the chat REPL (its line editor owns the screen) and a reply drawn
   * as Markdown while it arrives (chat/markdown-stream.ts, which sanitises what it draws). What
   * the REPL shows comes from a sanitised client (chat/session.ts).
   */
  get terminal(): NodeJS.WritableStream {
    if (!this.io.stdoutIsTTY) throw new Error('stdout is not a terminal');
    return this.io.stdout;
  }

  /** A time as people read it on a terminal, exact otherwise. */
  time(iso: unknown): string {
    return this.forPeople ? relativeTime(iso, this.now()) : String(iso ?? '');
  }

  /** Writes `data` in a machine format when one was chosen; returns whether it did. */
  #machine(data: unknown): boolean {
    const items = Array.isArray(data) ? data : [data];
    switch (this.format) {
      case 'json':
        this.#write(`${safeJson(data, 2)}\n`);
        return true;
      case 'jsonl':
        this.#write(items.map((item) => `${safeJson(item)}\n`).join(''));
        return true;
      case 'ids':
        this.#write(items.map((item) => `${idOf(item)}\n`).join(''));
        return true;
      default:
        return false;
    }
  }

  #write(text: string): void {
    if (text) this.io.out(text);
  }

  async #table<T>(rows: T[], all: Column<T>[]): Promise<string> {
    const { Table } = await import('./table.js');
    const { io } = this;
    const allCells = rows.map((row) =>
      all.map((c) => {
        const raw = c.value(row);
        return sanitizeField(c.time ? relativeTime(raw, this.now()) : text(raw));
      }),
    );
    // A column empty in every row (ERROR when nothing failed) says nothing: it takes no room.
    const filled = all.flatMap((c, i) => (allCells.some((r) => r[i]) ? [i] : []));
    const natural = filled.map((i) => Math.max(all[i]!.header.length, ...allCells.map((r) => r[i]!.length)));
    const fit = fitTable(
      natural,
      filled.map((i) => all[i]!),
      io.columns,
    );
    const shown = fit.shown.map((k) => filled[k]!);
    const { widths } = fit;
    const columns = shown.map((i) => all[i]!);
    const cells = allCells.map((r) => shown.map((i) => r[i]!));
    const table = new Table({
      head: columns.map((c) => io.color.bold(c.header)),
      style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 2 },
      chars: BORDERLESS,
      wordWrap: false,
    });
    rows.forEach((row, r) => {
      table.push(
        columns.map((c, i) => {
          const cell = truncate(cells[r]![i]!, widths[i]!, c.cut);
          return c.style ? c.style(cell, row) : cell;
        }),
      );
    });
    return `${table
      .toString()
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n')}\n`;
  }
}
