import { join } from 'node:path';
import Libsql from 'libsql';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { api } from '../helpers/server.js';
import { startServeProcess } from '../helpers/serve-process.js';

const KEY = 'kb_storage_notice_key';

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
      expect(server.stderr()).toContain(`cannot store changes in ${data}`);
      other.exec('COMMIT');
      expect((await api(server, KEY, 'POST', '/v1/threads', { title: 'two' })).status).toBe(201);
      expect(server.stderr()).toContain(`stores changes in ${data} again`);
      expect(server.stderr().match(/cannot store changes/g)).toHaveLength(1);
    } finally {
      other.close();
      server.child.kill('SIGTERM');
    }
  }, 30_000);
});
