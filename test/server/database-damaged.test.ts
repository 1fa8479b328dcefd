import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/state/database.js';
import { tempDir } from '../helpers/cli.js';
import { filledDatabase, overwritePage, pageHolding } from '../helpers/database-files.js';
import { api, startTestServer } from '../helpers/server.js';

const KEY = 'kb_damaged_key';

/** What SQLite throws when a query reaches a page that was overwritten after start-up. */
function corruptionMetWhileServing(): unknown {
  const path = join(tempDir(), 'state.db');
  filledDatabase(path);
  overwritePage(path, pageHolding(path, 'MARK-10-50.'));
  const db = openDatabase(path);
  try {
    db.prepare('SELECT text FROM chunks').raw().all();
  } catch (err) {
    return err;
  } finally {
    db.close();
  }
  throw new Error('the damaged page was read');
}

describe('a damaged database met while serving', () => {
  it('answers 503 storage_damaged saying what to do, says so once on the console, and goes on serving', async () => {
    const notices: string[] = [];
    const server = await startTestServer({ apiKeys: [`main:${KEY}`], onNotice: (m) => notices.push(m) });
    try {
      const store = server.service.store;
      const listThreads = store.listThreads.bind(store);
      const corruption = corruptionMetWhileServing();
      store.listThreads = () => {
        throw corruption;
      };
      for (let i = 0; i < 2; i++) {
        const res = await api(server, KEY, 'GET', '/v1/threads');
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBeNull();
        expect(res.json.error.code).toBe('storage_damaged');
        expect(res.json.error.message).toMatch(
          /is damaged: nothing was changed; restart kb serve with --repair/,
        );
      }
      expect(notices.filter((n) => n.includes('is damaged'))).toHaveLength(1);
      store.listThreads = listThreads;
      expect((await api(server, KEY, 'GET', '/v1/threads')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
