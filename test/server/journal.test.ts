import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, JournalDamaged } from '../../src/server/state/journal.js';
import type { Operation } from '../../src/server/state/model.js';
import { tempDir } from '../helpers/cli.js';

const thread = (n: number): Operation => ({
  op: 'thread',
  thread: {
    id: `thr_${n}`,
    workspaceId: 'ws',
    title: `t${n}`,
    status: 'OPEN',
    createdAt: 'x',
    updatedAt: 'x',
  } as never,
});
const workspace: Operation = {
  op: 'workspace',
  workspace: { id: 'ws', name: 'main', createdAt: 'x' } as never,
};

describe('loading a damaged journal', () => {
  const write = (lines: string[]) => {
    const path = join(tempDir(), 'state.jsonl');
    fs.writeFileSync(path, lines.join('\n'));
    return path;
  };
  const good = [workspace, thread(1), thread(2)].map((op) => JSON.stringify(op));

  it('drops a torn last line: a crash mid-append', () => {
    const path = write([...good, '{"op":"thread","thr']);
    expect(new Journal(path).load()).toMatchObject({
      ops: [workspace, thread(1), thread(2)],
      tornTail: true,
    });
  });

  it.each([
    ['a damaged line in the middle', [good[0]!, '{"op":"thr', good[1]!, good[2]!], 2, /not JSON/],
    ['a damaged first line', ['garbage', ...good], 1, /not JSON/],
    ['a null line', [good[0]!, 'null', ...good.slice(1)], 2, /expected a record, found null/],
    ['an unknown operation', [good[0]!, '{"op":"drop"}', good[1]!], 2, /unknown operation "drop"/],
    [
      'a record without its fields',
      [good[0]!, '{"op":"messages","messages":[null]}', good[1]!],
      2,
      /"messages" without a valid "messages"/,
    ],
  ])('refuses %s, naming FILE:LINE, and changes nothing', (_, lines, line, problem) => {
    const path = write(lines as string[]);
    const before = fs.readFileSync(path);
    let error: unknown;
    try {
      new Journal(path).load();
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(JournalDamaged);
    expect((error as Error).message).toMatch(new RegExp(`^${path}:${line}: `));
    expect((error as Error).message).toMatch(problem as RegExp);
    expect(fs.readFileSync(path)).toEqual(before);
  });

  it('with repair, keeps every valid record and moves the original aside', () => {
    const path = write([good[0]!, 'null', good[1]!, '{bad', good[2]!]);
    const original = fs.readFileSync(path, 'utf8');
    const report = new Journal(path, fs, () => new Date('2026-11-22T12:00:00Z')).load({ repair: true });
    expect(report.ops).toEqual([workspace, thread(1), thread(2)]);
    expect(report.repaired).toEqual({ dropped: 2, movedTo: `${path}.damaged-2026-11-22T12-00-00-000Z` });
    expect(fs.readFileSync(report.repaired!.movedTo, 'utf8')).toBe(original);
  });
});
