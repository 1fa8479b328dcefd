import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv, tempDir } from '../helpers/cli.js';
import { api, freePort } from '../helpers/server.js';
import { startServeProcess } from '../helpers/serve-process.js';

const KEY = 'kb_generation_key';
const keys = { KB_SERVE_API_KEYS: `demo:${KEY}` };
const QUESTION = 'How much is the Growth plan?';

/** Resolves once every document of the demo has been indexed (or failed). */
async function indexed(server: { url: string }) {
  await expect
    .poll(
      async () => {
        const files = (await api(server, KEY, 'GET', '/v1/files?limit=100')).json.data as {
          indexingStatus: string;
        }[];
        return (
          files.length > 0 &&
          files.every((f) => f.indexingStatus === 'COMPLETED' || f.indexingStatus === 'FAILED')
        );
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBe(true);
}

/** A kb serve --demo with --data that streams slowly, its documents indexed, and a new thread. */
async function slowDemo(title: string, extra: string[] = []) {
  const dir = tempDir();
  const args = [
    '--demo',
    '--data',
    join(dir, 'state.db'),
    '--stream-delay',
    '150',
    '--index-delay',
    '0',
    // Its scanned PDF and diagram unread: OCR took the demo's indexing past the wait on a loaded machine.
    '--no-ocr',
    ...extra,
  ];
  const server = await startServeProcess(dir, args, keys);
  await indexed(server);
  const thread = (await api(server, KEY, 'POST', '/v1/threads', { title })).json.data;
  return { dir, args, server, thread };
}

describe('an accepted generation is durable (beta streaming)', () => {
  it('survives kill -9 mid-reply: the question and the text so far are kept, the reply marked incomplete', async () => {
    const demo = await slowDemo('durable');
    const { dir, args, thread } = demo;
    let { server } = demo;
    const accepted = await api(server, KEY, 'POST', `/v1/threads/${thread.id}/generations`, {
      content: QUESTION,
    });
    expect(accepted.status).toBe(202);
    // Acknowledged is stored: the question, and the reply pending, before any of it is written.
    const during = (await api(server, KEY, 'GET', `/v1/threads/${thread.id}`)).json.data.messages;
    expect(during.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(during[1]).toMatchObject({ incomplete: true, inProgress: true });
    await new Promise((r) => setTimeout(r, 1_700));
    server.child.kill('SIGKILL');
    await new Promise((r) => server.child.once('exit', r));

    server = await startServeProcess(dir, args, keys);
    try {
      expect(server.stderr()).toMatch(
        /1 reply was being written when kb serve stopped: kept as written, marked incomplete/,
      );
      const messages = (await api(server, KEY, 'GET', `/v1/threads/${thread.id}`)).json.data.messages;
      expect(messages).toHaveLength(2);
      expect(messages[0]).toMatchObject({ role: 'user', content: QUESTION });
      expect(messages[1]).toMatchObject({ role: 'assistant', incomplete: true });
      expect(messages[1].inProgress).toBeUndefined();
      expect(messages[1].content.length).toBeGreaterThan(5);
      expect('The Growth plan costs 29 dollars per agent per month').toContain(
        messages[1].content.trim().slice(0, 20),
      );
    } finally {
      server.child.kill('SIGINT');
    }
  }, 30_000);

  it('kb threads send --stream says the reply was interrupted when the service restarts mid-reply', async () => {
    const demo = await slowDemo('cli', ['--port', String(await freePort())]);
    const { dir, args, thread } = demo;
    let { server } = demo;
    const child = spawn(process.execPath, [BIN, 'threads', 'send', thread.id, QUESTION, '--stream'], {
      env: baseEnv(dir, { KB_BASE_URL: server.url, KB_API_KEY: KEY }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    await expect.poll(() => stdout.length, { timeout: 20_000 }).toBeGreaterThan(10);
    server.child.kill('SIGKILL');
    await new Promise((r) => server.child.once('exit', r));
    server = await startServeProcess(dir, args, keys);
    try {
      expect(await exited).toBe(1);
      expect(stderr).toMatch(
        /^error: the reply was interrupted: the service no longer knows generation gen_\w+ .*what it kept is in thread thr_\w+\n/m,
      );
      const messages = (await api(server, KEY, 'GET', `/v1/threads/${thread.id}`)).json.data.messages;
      expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    } finally {
      server.child.kill('SIGINT');
    }
  }, 30_000);
});
