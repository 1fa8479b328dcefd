import { join } from 'node:path';
import Libsql from 'libsql';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { api } from '../helpers/server.js';
import { startServeProcess } from '../helpers/serve-process.js';

const KEY = 'kb_storage_notice_key';

/** stderr once it holds `text`: the child's console may reach us a moment after its answer. */
async function stderrWith(server: { stderr: () => string }, text: string): Promise<string> {
  for (let waited = 0; !server.stderr().includes(text) && waited < 5000; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return server.stderr();
}

describe('kb serve says on its console when it cannot store changes (#34)', () => {
  it('says once that writes fail, and once that they are stored again', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const server = await startServeProcess(dir, ['--data', data, '--api-key', `ws:${KEY}`]);
    // Another process holding the write lock: kb serve's writes fail (busy) as on a full disk.
    const other = new Libsql(data);
    try {
      other.exec('BEGIN IMMEDIATE');
      const refused = await api(server, KEY, 'POST', '/v1/threads', { title: 'one' });
      expect(refused.status).toBe(503);
      expect(await stderrWith(server, `cannot store changes in ${data}`)).toContain(
        `cannot store changes in ${data}`,
      );
      other.exec('COMMIT');
      expect((await api(server, KEY, 'POST', '/v1/threads', { title: 'two' })).status).toBe(201);
      expect(await stderrWith(server, `stores changes in ${data} again`)).toContain(
        `stores changes in ${data} again`,
      );
      expect(server.stderr().match(/cannot store changes/g)).toHaveLength(1);
    } finally {
      other.close();
      server.child.kill('SIGTERM');
    }
  }, 30_000);
});
