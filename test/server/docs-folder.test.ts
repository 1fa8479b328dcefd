import { searchedStore } from '../helpers/searched-store.js';
import { appendFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocsFolder } from '../../src/server/ingest/docs-folder.js';
import { readAndExtract } from '../../src/server/ingest/extraction/extract-chunks.js';
import { type ExtractDocument, Indexer } from '../../src/server/ingest/indexer.js';
import { StorageError } from '../../src/server/state/storage-error.js';
import { tempDir } from '../helpers/cli.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A docs folder of `count` notes in two subfolders, followed into a store; counts its scans. */
function followed(count: number, extract: ExtractDocument = (name, bytes) => readAndExtract(name, bytes)) {
  const root = tempDir();
  for (const sub of ['a', 'b']) mkdirSync(join(root, sub));
  for (let i = 0; i < count; i++)
    writeFileSync(join(root, i % 2 ? 'a' : 'b', `note-${i}.md`), `Note ${i} is about topic${i}.`);
  const store = searchedStore();
  store.commit({ op: 'workspace', workspace: { id: 'ws', name: 'main', createdAt: 'x' } });
  const indexer = new Indexer(store, {
    stepDelayMs: 0,
    extract,
  });
  const scans: number[] = [];
  const folder = new DocsFolder(store, indexer, 'ws', root, {
    isOwn: () => false,
    maxFileBytes: 1 << 20,
    isUpload: () => false,
    onScan: () => scans.push(Date.now()),
  });
  const completed = () => store.everyFile().filter((f) => f.indexingStatus === 'COMPLETED');
  return { root, store, indexer, folder, scans, completed };
}

describe('a docs folder', () => {
  it('is walked once at start, each folder watched before it is listed, and answers meanwhile', async () => {
    const { root, indexer, folder, scans, completed } = followed(1200);
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    folder.start();
    // The walk lets other work run while it goes (1,200 entries: at least twice).
    expect(scans).toEqual([]);
    await until(() => scans.length > 0, 'the first scan');
    clearInterval(counting);
    expect(turns).toBeGreaterThan(0);
    await until(() => completed().length === 1200, 'every note indexed', 20_000);
    await sleep(400);
    // Watching a folder it had just walked once made a second walk of everything.
    expect(scans).toHaveLength(1);
    writeFileSync(join(root, 'a', 'late.md'), 'A late note about lateness.');
    await until(() => completed().length === 1201, 'the late note indexed');
    expect(scans).toHaveLength(2);
    folder.close();
    indexer.close();
  });

  it('is not idle until its scan has queued what it found', async () => {
    const { indexer, folder, completed } = followed(1200);
    folder.start();
    await indexer.idle();
    expect(completed()).toHaveLength(1200);
    folder.close();
    indexer.close();
  });

  it('queues what a scan found a part at a time, with other work run between the parts', async () => {
    // Queuing 20,000 files at once held kb serve's event loop for 0.76 s (bench/scale.js's folder).
    const { indexer, folder } = followed(2500);
    const seen = new Set<number>();
    let watching = true;
    const watch = () => {
      seen.add(indexer.progress().total);
      if (watching) setImmediate(watch);
    };
    folder.start();
    watch();
    await indexer.idle();
    watching = false;
    expect([...seen].some((total) => total > 0 && total < 2500)).toBe(true);
    folder.close();
    indexer.close();
  });

  it('looks for files gone from the folder a page of stored paths at a time, with other work run between', async () => {
    // Read at once, 100,000 stored paths held kb serve's event loop for 160 ms at each scan (a restart, a new file).
    const { root, store, indexer, folder } = followed(2500);
    folder.start();
    await indexer.idle();
    folder.close();
    let turn = 0;
    let turning = true;
    const turns = () => {
      turn++;
      if (turning) setImmediate(turns);
    };
    const pagesAt: number[] = [];
    const sourcePaths = store.sourcePaths.bind(store);
    store.sourcePaths = (...args) => {
      pagesAt.push(turn);
      return sourcePaths(...args);
    };
    const scans: number[] = [];
    const again = new DocsFolder(store, indexer, 'ws', root, {
      isOwn: () => false,
      maxFileBytes: 1 << 20,
      isUpload: () => false,
      onScan: () => scans.push(Date.now()),
    });
    turns();
    again.start();
    await until(() => scans.length === 1, 'the scan after the restart');
    turning = false;
    expect(pagesAt.length).toBeGreaterThanOrEqual(3);
    expect(new Set(pagesAt).size).toBe(pagesAt.length);
    expect(store.everyFile().filter((f) => f.deletedAt)).toEqual([]);
    again.close();
    indexer.close();
  });

  it('queues every file, once, when the disk refused a write halfway through a scan', async () => {
    const { store, indexer, folder, scans, completed } = followed(1200);
    const commit = store.commit.bind(store);
    let pending = 0;
    store.commit = (...ops) => {
      // The third write of PENDING files: 500 are queued already.
      if (ops[0]?.op === 'file' && ops[0].file.indexingStatus === 'PENDING' && ++pending === 3)
        throw new StorageError(Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' }));
      commit(...ops);
    };
    folder.start();
    await until(() => completed().length === 1200, 'every note indexed', 20_000);
    expect(scans.length).toBeGreaterThanOrEqual(1);
    expect(new Set(store.everyFile().map((f) => f.source?.path)).size).toBe(1200);
    expect(store.everyFile()).toHaveLength(1200);
    folder.close();
    indexer.close();
  });

  it('keeps one record per file, and none of a file gone, for files changed or removed while queued', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Each file is read, then held in extraction: the scan after the changes sees them queued, not stored.
    const { root, store, indexer, folder, scans } = followed(6, async (name, bytes) => {
      await gate;
      return readAndExtract(name, bytes);
    });
    folder.start();
    await until(() => scans.length === 1, 'the first scan');
    await sleep(100);
    appendFileSync(join(root, 'a', 'note-1.md'), ' Changed while queued.');
    rmSync(join(root, 'b', 'note-0.md'));
    await until(() => scans.length >= 2, 'the scan after the changes');
    release();
    const live = () =>
      store
        .everyFile()
        .filter((f) => !f.deletedAt)
        .map((f) => f.originalFilename)
        .sort();
    const inFolder = ['a/note-1.md', 'a/note-3.md', 'a/note-5.md', 'b/note-2.md', 'b/note-4.md'];
    await until(() => JSON.stringify(live()) === JSON.stringify(inFolder), 'the folder as it is', 5000).catch(
      () => expect(live()).toEqual(inFolder),
    );
    await indexer.idle();
    await sleep(300);
    expect(live()).toEqual(inFolder);
    folder.close();
    indexer.close();
  });

  it('keeps one FAILED record for a link out of the folder, scan after scan', async () => {
    const { root, store, indexer, folder, scans } = followed(2);
    symlinkSync(tempDir(), join(root, 'a', 'elsewhere'));
    folder.start();
    await indexer.idle();
    for (const name of ['late-1.md', 'late-2.md']) {
      const before = scans.length;
      writeFileSync(join(root, 'b', name), `A note called ${name}.`);
      await until(() => scans.length > before, `the scan after ${name}`);
      await indexer.idle();
    }
    const links = store.everyFile().filter((f) => f.originalFilename === 'a/elsewhere' && !f.deletedAt);
    expect(links.map((f) => f.indexingError?.code)).toEqual(['outside_folder']);
    folder.close();
    indexer.close();
  });
});
