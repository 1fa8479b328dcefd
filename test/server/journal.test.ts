import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, JournalDamaged, type JournalFs, StorageError } from '../../src/server/state/journal.js';
import type { Operation } from '../../src/server/state/model.js';
import { Store } from '../../src/server/state/store.js';
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

/** The real file system, with a disk that holds at most `capacity` bytes of journal and may write short. */
function smallDisk(options: { capacity: number; shortWrites?: boolean; failFsync?: () => boolean }) {
  const disk = {
    capacity: options.capacity,
    ...fs,
    writeSync: ((fd: number, buffer: Buffer, offset: number, length: number, position: number) => {
      const size = fs.fstatSync(fd).size;
      const room = disk.capacity - Math.max(size, position);
      if (room <= 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      const n = Math.min(length, room, options.shortWrites ? Math.max(1, Math.ceil(length / 3)) : length);
      return fs.writeSync(fd, buffer, offset, n, position);
    }) as JournalFs['writeSync'],
    fsyncSync: ((fd: number) => {
      if (options.failFsync?.()) throw Object.assign(new Error('I/O error'), { code: 'EIO' });
      return fs.fsyncSync(fd);
    }) as JournalFs['fsyncSync'],
  };
  return disk;
}

describe('the journal keeps exactly what was acknowledged', () => {
  it('fails an append the disk cannot hold whole, leaves no torn line, and recovers when space returns', () => {
    const path = join(tempDir(), 'state.jsonl');
    const disk = smallDisk({ capacity: 2048, shortWrites: true });
    const journal = new Journal(path, disk);
    journal.open([workspace]);
    const acknowledged: Operation[] = [workspace];
    let refused = 0;
    for (let n = 0; n < 40; n++) {
      try {
        journal.append([thread(n)]);
        acknowledged.push(thread(n));
      } catch (err) {
        expect(err).toBeInstanceOf(StorageError);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
    // Only whole records are on disk, and exactly the acknowledged ones.
    expect(new Journal(path).load()).toEqual({ ops: acknowledged, tornTail: false });
    disk.capacity = 1 << 20;
    journal.append([thread(99)]);
    journal.close();
    expect(new Journal(path).load().ops).toEqual([...acknowledged, thread(99)]);
  });

  it('treats a failed fsync as a failed append', () => {
    const path = join(tempDir(), 'state.jsonl');
    let fail = false;
    const journal = new Journal(path, smallDisk({ capacity: 1 << 20, failFsync: () => fail }));
    journal.open([workspace]);
    fail = true;
    expect(() => journal.append([thread(1)])).toThrow(StorageError);
    fail = false;
    journal.append([thread(2)]);
    journal.close();
    expect(new Journal(path).load().ops).toEqual([workspace, thread(2)]);
  });

  it('a store applies nothing that the journal could not hold', () => {
    const path = join(tempDir(), 'state.jsonl');
    const disk = smallDisk({ capacity: 1 << 20 });
    const store = new Store();
    store.attach(new Journal(path, disk));
    store.commit(workspace);
    disk.capacity = 0;
    expect(() => store.commit(thread(1))).toThrow(StorageError);
    expect(store.threads.has('thr_1')).toBe(false);
  });

  it('compacts through a new 0600 file that is created exclusively, then renamed', () => {
    const dir = tempDir();
    const path = join(dir, 'state.jsonl');
    const opened: [string, string][] = [];
    const spy = {
      ...fs,
      openSync: ((p: string, flags: string, mode?: number) => {
        opened.push([p, flags]);
        return fs.openSync(p, flags, mode);
      }) as JournalFs['openSync'],
    };
    new Journal(path, spy).open([workspace]);
    const [tmp, flags] = opened[0]!;
    expect(flags).toBe('wx');
    expect(tmp).toMatch(/\/\.state\.jsonl\.[0-9a-f-]{36}\.tmp$/);
    expect(fs.statSync(path).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['state.jsonl']);
  });
});

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
