import { describe, expect, it } from 'vitest';
import { type WindowQuery, windowOf as windowOfListing } from '../../src/server/web-console/list-window.js';
import { cursorAfter, type Listing, listingOf, NEWEST_FIRST } from '../../src/server/state/paging.js';
import type { FileRecord } from '../../src/server/state/model.js';
import { Store } from '../../src/server/state/store.js';

/** Records 0..n-1, newest (highest) first, as the store lists them. */
const records = (n: number) =>
  Array.from({ length: n }, (_, k) => {
    const i = n - 1 - k;
    return {
      id: `r${String(i).padStart(3, '0')}`,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    };
  });
const ids = (w: { records: { id: string }[] }) => w.records.map((r) => r.id);
const cursorOf = (list: ReturnType<typeof records>, id: string) =>
  cursorAfter(
    list.find((r) => r.id === id)!,
    NEWEST_FIRST,
  );

type Row = { id: string; createdAt: string };

/** The list in memory, and as the database lists a workspace's files. */
const LISTINGS: [string, (rows: Row[]) => Listing<Row>][] = [
  ['in memory', (rows) => listingOf(rows, NEWEST_FIRST)],
  [
    'in the database',
    (rows) => {
      const store = new Store();
      store.commit(
        { op: 'workspace', workspace: { id: 'ws', name: 'ws', createdAt: 'a' } },
        ...rows.map((r) => ({ op: 'file' as const, file: fileOf(r) })),
      );
      return store.fileListing('ws');
    },
  ],
];

const fileOf = ({ id, createdAt }: Row): FileRecord => ({
  id,
  workspaceId: 'ws',
  originalFilename: `${id}.txt`,
  fileSize: 1,
  mimeType: 'text/plain',
  indexingStatus: 'COMPLETED',
  createdAt,
  updatedAt: createdAt,
  indexingStartedAt: null,
  indexedAt: null,
  chunkCount: 0,
  indexingError: null,
});

describe.each(LISTINGS)("the console's list windows, %s", (_, listing) => {
  const list = records(25);
  const windowOf = (rows: Row[], order: typeof NEWEST_FIRST, size: number, query: WindowQuery) =>
    windowOfListing(listing(rows), order, size, query);

  it('walk older and newer through the whole list, each record once', () => {
    const first = windowOf(list, NEWEST_FIRST, 10, {});
    expect([first.start, first.total, first.newer]).toEqual([0, 25, null]);
    expect(ids(first)[0]).toBe('r024');
    const second = windowOf(list, NEWEST_FIRST, 10, { after: first.older! });
    const third = windowOf(list, NEWEST_FIRST, 10, { after: second.older! });
    expect([...ids(first), ...ids(second), ...ids(third)]).toEqual(ids({ records: list }));
    expect([third.start, third.older]).toEqual([20, null]);
    expect(ids(windowOf(list, NEWEST_FIRST, 10, { before: third.newer! }))).toEqual(ids(second));
    expect(ids(windowOf(list, NEWEST_FIRST, 10, { before: second.newer! }))).toEqual(ids(first));
  });

  it('stay put when newer records arrive above them', () => {
    const older = windowOf(list, NEWEST_FIRST, 10, { after: cursorOf(list, 'r015') });
    const grown = records(30);
    expect(ids(windowOf(grown, NEWEST_FIRST, 10, { after: cursorOf(list, 'r015') }))).toEqual(ids(older));
  });

  it('give the nearest full page for a cursor near either end, and the first for one not ours', () => {
    expect(ids(windowOf(list, NEWEST_FIRST, 10, { before: cursorOf(list, 'r022') }))).toEqual(
      ids(windowOf(list, NEWEST_FIRST, 10, {})),
    );
    const pastEnd = windowOf(list, NEWEST_FIRST, 10, { after: cursorOf(list, 'r000') });
    expect([pastEnd.start, pastEnd.records.length, pastEnd.older]).toEqual([15, 10, null]);
    expect(windowOf(list, NEWEST_FIRST, 10, { after: 'not-a-cursor' }).start).toBe(0);
    expect(windowOf([], NEWEST_FIRST, 10, { after: cursorOf(list, 'r000') })).toEqual({
      records: [],
      start: 0,
      total: 0,
      newer: null,
      older: null,
    });
  });
});
