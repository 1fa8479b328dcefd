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
});
