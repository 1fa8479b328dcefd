import * as nodeFs from 'node:fs';
import type { Operation } from './model.js';

/** The file-system calls reading a journal makes (tests pass their own). */
export type JournalFs = Pick<typeof nodeFs, 'readFileSync' | 'renameSync' | 'existsSync'>;

/** The journal holds a line that is not a record, before its last line: kb serve will not guess. */
export class JournalDamaged extends Error {
  override name = 'JournalDamaged';
  constructor(
    readonly path: string,
    readonly line: number,
    readonly problem: string,
    readonly damagedLines: number,
  ) {
    super(`${path}:${line}: ${problem}`);
  }
}

/** What loading kept and dropped. */
export interface LoadReport {
  ops: Operation[];
  /** A half-written last line (a crash mid-append) was dropped. */
  tornTail: boolean;
  /** With repair: how many damaged lines were dropped, and where the original was moved. */
  repaired?: { dropped: number; movedTo: string };
}

const OBJECT = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
const WITH_ID = (v: unknown) => OBJECT(v) && typeof (v as { id?: unknown }).id === 'string';
const STRING = (v: unknown) => typeof v === 'string';

/** For each operation, the field it carries and what that field must look like. */
const SHAPES: Record<Operation['op'], [field: string, valid: (v: unknown) => boolean][]> = {
  workspace: [['workspace', WITH_ID]],
  key: [['key', (k) => OBJECT(k) && STRING((k as any).key) && STRING((k as any).workspaceId)]],
  user: [['user', WITH_ID]],
  thread: [['thread', WITH_ID]],
  threadStatus: [
    ['id', STRING],
    ['status', STRING],
  ],
  messages: [['messages', (m) => Array.isArray(m) && m.every((x) => WITH_ID(x) && STRING(x.threadId))]],
  messageUpdate: [['message', (m) => WITH_ID(m) && STRING((m as any).threadId)]],
  messageText: [
    ['threadId', STRING],
    ['id', STRING],
    ['content', STRING],
  ],
  messageDeleted: [
    ['threadId', STRING],
    ['id', STRING],
  ],
  file: [['file', WITH_ID]],
  fileIndexed: [
    ['file', WITH_ID],
    ['chunks', Array.isArray],
  ],
  fileChunks: [
    ['fileId', STRING],
    ['chunks', Array.isArray],
  ],
  fileDeleted: [['id', STRING]],
  webhook: [['webhook', WITH_ID]],
  webhookDeleted: [['id', STRING]],
};

/** The record on `line`, or why it is not one. */
export function parseRecord(line: string): { record: Operation } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { problem: `not JSON (${(err as Error).message})` };
  }
  if (!OBJECT(value))
    return { problem: `expected a record, found ${value === null ? 'null' : typeof value}` };
  const op = (value as { op?: unknown }).op;
  if (typeof op !== 'string' || !Object.hasOwn(SHAPES, op))
    return { problem: `unknown operation ${JSON.stringify(op)}` };
  for (const [field, valid] of SHAPES[op as Operation['op']])
    if (!valid((value as Record<string, unknown>)[field]))
      return { problem: `"${op}" without a valid "${field}"` };
  return { record: value as Operation };
}

/** Why `line` is not a record, or undefined when it is one. */
export function problemWith(line: string): string | undefined {
  const parsed = parseRecord(line);
  return 'problem' in parsed ? parsed.problem : undefined;
}

/**
 * The JSONL journal kb serve kept its state in before the database (#34): one operation per line,
 * acknowledged ones whole. Only read now, by the import of an older kb's state
 * (legacy-import.ts).
 */
export class Journal {
  constructor(
    readonly path: string,
    private readonly fs: JournalFs = nodeFs,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * The operations stored. A bad last line is a crash mid-append and is dropped; a bad line
   * before it is damage: JournalDamaged names it, unless `repair` keeps every valid record and
   * moves the original aside.
   */
  load(options: { repair?: boolean } = {}): LoadReport {
    if (!this.fs.existsSync(this.path)) return { ops: [], tornTail: false };
    const data = this.fs.readFileSync(this.path);
    const ops: Operation[] = [];
    const problems: { number: number; problem: string }[] = [];
    let lastProblem = -1;
    data
      .toString('utf8')
      .split('\n')
      .forEach((text, i) => {
        if (text.trim() === '') return;
        const parsed = parseRecord(text);
        if ('record' in parsed) ops.push(parsed.record);
        else problems.push({ number: i + 1, problem: parsed.problem });
        lastProblem = 'record' in parsed ? -1 : problems.length - 1;
      });
    const tornTail = lastProblem >= 0;
    const damaged = tornTail ? problems.slice(0, -1) : problems;
    if (damaged.length === 0) return { ops, tornTail };
    const first = damaged[0]!;
    if (!options.repair) throw new JournalDamaged(this.path, first.number, first.problem, damaged.length);
    const movedTo = `${this.path}.damaged-${this.now().toISOString().replace(/[:.]/g, '-')}`;
    this.fs.renameSync(this.path, movedTo);
    return { ops, tornTail, repaired: { dropped: damaged.length + (tornTail ? 1 : 0), movedTo } };
  }
}
