import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openDatabase, scalar } from '../../src/server/state/database.js';
import { tempDir } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';

interface Found {
  data: { filename: string; score: number; answers: boolean }[];
}

it('answers a search as before while a large file holding its word is indexed in parts', async () => {
  const dataFile = join(tempDir(), 'state.db');
  const server = await startTestServer({ dataFile });
  const key = Object.values(server.keys)[0]!;
  const upload = async (filename: string, text: string) => {
    const res = await fetch(`${server.url}/v1/files?filename=${filename}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
      body: text,
    });
    expect(res.status).toBe(201);
  };
  const search = async () => {
    const res = await fetch(`${server.url}/v1/search?q=ferry`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const { data } = (await res.json()) as Found;
    return data.map(({ filename, score, answers }) => ({ filename, score: score.toFixed(6), answers }));
  };
  try {
    await upload('trip.md', 'Our trip: the ferry from the harbour left at dawn, and the buses were cheap.');
    await server.service.indexer.idle();
    const before = await search();
    expect(before).toMatchObject([{ filename: 'trip.md', answers: true }]);
    // 2.6 MB, the word in every chunk: stored in some 40 parts.
    await upload('log.txt', 'The ferry ferry left the ferry dock on time.\n'.repeat(60_000));
    const db = openDatabase(dataFile);
    const staged = () => Number(scalar(db, 'SELECT count(*) FROM search_staged'));
    const indexed = server.service.indexer.idle();
    let done = false;
    void indexed.then(() => (done = true));
    const whileStaged: unknown[] = [];
    while (!done) {
      const parts = staged();
      const found = await search();
      if (parts > 0 && staged() > 0) whileStaged.push(found);
    }
    db.close();
    expect(whileStaged.length).toBeGreaterThan(0);
    for (const found of whileStaged) expect(found).toEqual(before);
    const after = await search();
    expect(after.map((f) => f.filename)).toContain('log.txt');
  } finally {
    await server.close();
  }
}, 120_000);

it('takes a large file deleted out of every answer at once, and its search rows out a part at a time', async () => {
  const dataFile = join(tempDir(), 'state.db');
  const server = await startTestServer({ dataFile });
  const key = Object.values(server.keys)[0]!;
  const auth = { authorization: `Bearer ${key}` };
  const upload = async (filename: string, text: string) => {
    const res = await fetch(`${server.url}/v1/files?filename=${filename}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body: text,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  const search = async () => {
    const res = await fetch(`${server.url}/v1/search?q=ferry`, { headers: auth });
    const { data } = (await res.json()) as Found;
    return data.map(({ filename, score, answers }) => ({ filename, score: score.toFixed(6), answers }));
  };
  const db = openDatabase(dataFile);
  const count = (sql: string) => Number(scalar(db, sql));
  try {
    await upload('trip.md', 'Our trip: the ferry from the harbour left at dawn, and the buses were cheap.');
    await server.service.indexer.idle();
    const before = await search();
    // Some 6,000 chunks, the word in each (a dozen parts to purge, so that some are left when the
    // DELETE's answer comes); the last rows, so the next chunk is given one of their numbers.
    const log = await upload('log.txt', 'The ferry ferry left the ferry dock on time.\n'.repeat(120_000));
    await server.service.indexer.idle();
    expect((await search()).map((f) => f.filename)).toContain('log.txt');

    const deleted = await fetch(`${server.url}/v1/files/${log}`, { method: 'DELETE', headers: auth });
    expect(deleted.status).toBe(204);
    // Out of every answer at once, ranked as before it came, while its FTS5 rows wait to go.
    expect(count('SELECT count(*) FROM search_purge')).toBeGreaterThan(0);
    expect(await search()).toEqual(before);
    // A chunk given a row number the deleted file's had is searchable.
    await upload('again.md', 'The ferry came back at noon.');
    await server.service.indexer.idle();
    expect((await search()).map((f) => f.filename).sort()).toEqual(['again.md', 'trip.md']);
    const deadline = Date.now() + 20_000;
    while (count('SELECT count(*) FROM search_purge') > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(count('SELECT count(*) FROM search_purge')).toBe(0);
    expect(count('SELECT count(*) FROM search_fts_1')).toBe(count('SELECT count(*) FROM search_chunks'));
  } finally {
    db.close();
    await server.close();
  }
}, 120_000);
