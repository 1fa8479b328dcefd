import * as nodeFs from 'node:fs';
import { writeAll, writeFileAtomic } from '../../util/write-atomic.js';
import type { Operation } from './model.js';
import { StorageError } from './storage-error.js';

/** The file-system calls the journal makes; tests pass one that fails (ENOSPC, short writes). */
export type JournalFs = Pick<
  typeof nodeFs,
  | 'openSync'
  | 'writeSync'
  | 'fsyncSync'
  | 'ftruncateSync'
  | 'closeSync'
  | 'readFileSync'
  | 'renameSync'
  | 'existsSync'
  | 'unlinkSync'
>;

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

const FOLDED = 'folded';

/**
 * Progress that a crash may lose without losing anything acknowledged: a large file's parts
 * (its fileIndexed is fsynced) and a reply's text so far (its completion is fsynced).
 */
const UNSYNCED = new Set<Operation['op']>(['fileChunks', 'messageText']);

/**
 * What a record stands for: a later record with the same key replaces it when the log is
 * compacted. FOLDED for a change that compaction folds into the record it changes; undefined
 * for what compaction keeps as it is (messages).
 */
function recordKey(op: Operation): string | undefined {
  switch (op.op) {
    case 'workspace':
      return `workspace ${op.workspace.id}`;
    case 'key':
      return `key ${op.key.key}`;
    case 'user':
      return `user ${op.user.id}`;
    case 'thread':
      return `thread ${op.thread.id}`;
    case 'file':
    case 'fileIndexed':
      return `file ${op.file.id}`;
    case 'webhook':
      return `webhook ${op.webhook.id}`;
    case 'messages':
      return undefined;
    case 'threadStatus':
    case 'messageUpdate':
    case 'messageText':
    case 'messageDeleted':
    case 'fileChunks':
    case 'fileDeleted':
    case 'webhookDeleted':
      return FOLDED;
  }
}

/** Why `line` is not a record, or undefined when it is one. */
export function problemWith(line: string): string | undefined {
  const parsed = parseRecord(line);
  return 'problem' in parsed ? parsed.problem : undefined;
}

/**
 * An append-only log of operations. Invariant: the file holds exactly the operations that were
 * acknowledged, each on its own line. An append is written whole and fsynced before the
 * request that caused it is answered; when it cannot be (a full disk, an I/O error), the file
 * is cut back to its last whole record and the append fails, so the change is neither applied
 * nor acknowledged, and later appends start on a clean line. On open the log is compacted
 * into a fresh file, atomically, unless it is whole and already compact.
 */
export class Journal {
  #fd: number | undefined;
  /** Bytes of whole, acknowledged records: where the next append goes. */
  #size = 0;
  /** A failed append may have left bytes past #size that could not be cut yet. */
  #dirty = false;
  /** What `load` found, when every line of the file was a whole record: it can be appended to as it is. */
  #whole: { bytes: number; superseded: number } | undefined;

  constructor(
    readonly path: string,
    private readonly fs: JournalFs = nodeFs,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * The operations stored so far. A bad last line is a crash mid-append and is dropped; a bad
   * line before it is damage: JournalDamaged names it, unless `repair` keeps every valid
   * record and moves the original aside.
   */
  load(options: { repair?: boolean } = {}): LoadReport {
    this.#whole = undefined;
    if (!this.fs.existsSync(this.path)) return { ops: [], tornTail: false };
    const data = this.fs.readFileSync(this.path);
    const ops: Operation[] = [];
    const problems: { number: number; problem: string }[] = [];
    let lastProblem = -1;
    // How much of the file compaction would drop (in characters, near enough to bytes).
    const latest = new Map<string, number>();
    let superseded = 0;
    data
      .toString('utf8')
      .split('\n')
      .forEach((text, i) => {
        if (text.trim() === '') return;
        const parsed = parseRecord(text);
        if ('record' in parsed) {
          ops.push(parsed.record);
          const key = recordKey(parsed.record);
          if (key === FOLDED) superseded += text.length;
          else if (key) {
            superseded += latest.get(key) ?? 0;
            latest.set(key, text.length);
          }
        } else problems.push({ number: i + 1, problem: parsed.problem });
        lastProblem = 'record' in parsed ? -1 : problems.length - 1;
      });
    const tornTail = lastProblem >= 0;
    const damaged = tornTail ? problems.slice(0, -1) : problems;
    if (damaged.length === 0) {
      if (!tornTail && (data.length === 0 || data[data.length - 1] === 0x0a))
        this.#whole = { bytes: data.length, superseded };
      return { ops, tornTail };
    }
    const first = damaged[0]!;
    if (!options.repair) throw new JournalDamaged(this.path, first.number, first.problem, damaged.length);
    const movedTo = `${this.path}.damaged-${this.now().toISOString().replace(/[:.]/g, '-')}`;
    this.fs.renameSync(this.path, movedTo);
    return { ops, tornTail, repaired: { dropped: damaged.length + (tornTail ? 1 : 0), movedTo } };
  }

  /**
   * Keeps the log open for appends, first rewriting it as `ops` (a new file, then rename)
   * unless it is whole and at most half of it is records that later ones replace: rewriting a
   * large log that is nearly compact would only cost time at every start.
   */
  open(ops: Operation[]): void {
    if (this.#whole && this.#whole.superseded * 2 <= this.#whole.bytes) {
      this.#fd = this.fs.openSync(this.path, 'r+', 0o600);
      this.#size = this.#whole.bytes;
      return;
    }
    const data = Buffer.from(ops.map((op) => `${JSON.stringify(op)}\n`).join(''));
    try {
      writeFileAtomic(this.path, data, { fs: this.fs });
    } catch (err) {
      throw new StorageError(err);
    }
    this.#fd = this.fs.openSync(this.path, 'r+', 0o600);
    this.#size = data.length;
  }

  /**
   * Makes `ops` durable, or throws StorageError having changed nothing. Parts of a file being
   * indexed (fileChunks) alone are written without an fsync: nothing anyone sees depends on
   * them, and the fileIndexed that completes the file is fsynced, and the parts with it.
   */
  append(ops: Operation[]): void {
    if (this.#fd === undefined) return;
    const data = Buffer.from(ops.map((op) => `${JSON.stringify(op)}\n`).join(''));
    try {
      if (this.#dirty) this.#cutBack();
      writeAll(this.fs, this.#fd, data, this.#size);
      if (!ops.every((op) => UNSYNCED.has(op.op))) this.fs.fsyncSync(this.#fd);
      this.#size += data.length;
    } catch (err) {
      this.#dirty = true;
      try {
        this.#cutBack();
      } catch {
        // cut at the next append, before anything else is written
      }
      throw new StorageError(err);
    }
  }

  close(): void {
    if (this.#fd !== undefined) this.fs.closeSync(this.#fd);
    this.#fd = undefined;
  }

  #cutBack(): void {
    this.fs.ftruncateSync(this.#fd!, this.#size);
    this.fs.fsyncSync(this.#fd!);
    this.#dirty = false;
  }
}
