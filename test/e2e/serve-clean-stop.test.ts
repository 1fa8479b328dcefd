import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { api } from '../helpers/server.js';
import { startServeProcess } from '../helpers/serve-process.js';

const KEY = 'kb_clean_stop_key';

describe('a clean stop leaves the whole state in the --data file (#34)', () => {
  it('a copy of FILE alone, taken after kb serve stopped, holds what it stored', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const server = await startServeProcess(dir, ['--data', data, '--api-key', `ws:${KEY}`]);
    expect((await api(server, KEY, 'POST', '/v1/threads', { title: 'kept after stop' })).status).toBe(201);
    await new Promise((resolve) => {
      server.child.on('exit', resolve);
      server.child.kill('SIGTERM');
    });
    // "Stop the service, copy its file": what a user backs up.
    const copy = join(dir, 'copy.db');
    copyFileSync(data, copy);
    const restored = await startServeProcess(dir, ['--data', copy, '--api-key', `ws:${KEY}`]);
    try {
      const threads = await api(restored, KEY, 'GET', '/v1/threads');
      expect(threads.json.data.map((t: { title: string }) => t.title)).toEqual(['kept after stop']);
    } finally {
      restored.child.kill('SIGTERM');
    }
  }, 30_000);
});
