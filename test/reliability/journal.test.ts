import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { api } from '../helpers/server.js';
import { startServeProcess } from '../helpers/serve-process.js';
import { freeBytes, itWithTmpfs, mountTmpfs, unmount } from '../helpers/tmpfs.js';

const KEY = 'kb_persist_key';
const keys = { KB_SERVE_API_KEYS: `main:${KEY}` };

describe('kb serve --data keeps every acknowledged write', () => {
  it('across a kill -9 loop with concurrent writers', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.db');
    const acknowledged = new Set<string>();
    for (let round = 0; round < 4; round++) {
      const server = await startServeProcess(dir, ['--data', data], keys);
      let thisRound = 0;
      const writers = Array.from({ length: 30 }, async (_, i) => {
        const res = await api(server, KEY, 'POST', '/v1/threads', { title: `r${round} t${i}` }).catch(
          () => undefined,
        );
        if (res?.status !== 201) return;
        acknowledged.add(res.json.data.id);
        thisRound++;
        const sent = await api(server, KEY, 'POST', `/v1/threads/${res.json.data.id}/messages`, {
          content: 'How much is the Growth plan?',
        }).catch(() => undefined);
        if (sent?.status === 201) acknowledged.add(sent.json.data.userMessage.id);
      });
      // Killed mid-burst: once something was acknowledged, at a different moment each round.
      while (thisRound === 0) await new Promise((r) => setTimeout(r, 2));
      await new Promise((r) => setTimeout(r, round * 7));
      server.child.kill('SIGKILL');
      await Promise.allSettled(writers);
    }
    const server = await startServeProcess(dir, ['--data', data], keys);
    try {
      const threads = (await api(server, KEY, 'GET', '/v1/threads?limit=100')).json.data;
      const stored = new Set<string>(threads.map((t: { id: string }) => t.id));
      for (const t of threads) {
        const messages = (await api(server, KEY, 'GET', `/v1/threads/${t.id}`)).json.data.messages;
        for (const m of messages) stored.add(m.id);
      }
      expect(acknowledged.size).toBeGreaterThan(0);
      for (const id of acknowledged) expect(stored).toContain(id);
    } finally {
      server.child.kill('SIGTERM');
    }
  }, 60_000);
});

describe('kb serve --data on a full disk', () => {
  itWithTmpfs(
    'answers 503 storage_unavailable for what it cannot store, loses nothing acknowledged, recovers when space returns',
    async () => {
      const dir = tempDir();
      const disk = join(dir, 'disk');
      mkdirSync(disk);
      expect(mountTmpfs(disk, '512k')).toBe(true);
      try {
        const data = join(disk, 'state.db');
        let server = await startServeProcess(dir, ['--data', data], keys);
        const thread = (await api(server, KEY, 'POST', '/v1/threads', { title: 'full disk' })).json.data;
        // Leave a few pages: room for some messages, not for all (each transaction appends the
        // pages it changed, 4 KiB each, to the -wal).
        const filler = join(disk, 'filler');
        const free = freeBytes(disk);
        writeFileSync(filler, Buffer.alloc(Math.max(0, free - 48 * 1024)));
        const acknowledged: string[] = [];
        const statuses: number[] = [];
        for (let i = 0; i < 20; i++) {
          const res = await api(server, KEY, 'POST', `/v1/threads/${thread.id}/messages`, {
            content: `message ${i} ${'x'.repeat(400)}`,
          });
          statuses.push(res.status);
          if (res.status === 201) acknowledged.push(res.json.data.userMessage.content);
          else {
            expect(res.json.error.code).toBe('storage_unavailable');
            expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
          }
        }
        expect(statuses).toContain(201);
        expect(statuses).toContain(503);
        // Nothing unacknowledged is visible.
        const visible = (await api(server, KEY, 'GET', `/v1/threads/${thread.id}`)).json.data.messages
          .filter((m: { role: string }) => m.role === 'user')
          .map((m: { content: string }) => m.content);
        expect(visible).toEqual(acknowledged);
        rmSync(filler);
        const after = await api(server, KEY, 'POST', `/v1/threads/${thread.id}/messages`, {
          content: 'after',
        });
        expect(after.status).toBe(201);
        acknowledged.push('after');
        server.child.kill('SIGKILL');
        server = await startServeProcess(dir, ['--data', data], keys);
        const stored = (await api(server, KEY, 'GET', `/v1/threads/${thread.id}`)).json.data.messages
          .filter((m: { role: string }) => m.role === 'user')
          .map((m: { content: string }) => m.content);
        expect(stored).toEqual(acknowledged);
        server.child.kill('SIGTERM');
      } finally {
        await new Promise((r) => setTimeout(r, 200));
        unmount(disk);
      }
    },
    60_000,
  );
});
