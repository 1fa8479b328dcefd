import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { BIN, baseEnv, tempDir } from '../helpers/cli.js';
import { api, startTestServer } from '../helpers/server.js';

let server: RunningServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startTestServer({ demo: true });
  env = { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! };
});
afterAll(() => server.close());

const MB = 1024 * 1024;

/** Pipes `total` bytes (no newline) into kb as fast as it reads; returns its exit, stderr and peak RSS. */
function pipeInto(args: string[], total: number) {
  return new Promise<{ code: number | null; stderr: string; peakMB: number; written: number }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: baseEnv(tempDir(), env) });
    let stderr = '';
    let peak = 0;
    let written = 0;
    child.stderr.on('data', (d) => (stderr += d));
    const poll = setInterval(() => {
      try {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (hwm) peak = Math.max(peak, Number(hwm[1]) / 1024);
      } catch {
        // exited
      }
    }, 10);
    child.stdin.on('error', () => {}); // EPIPE once kb stops reading
    const chunk = Buffer.alloc(MB, 'a');
    const pump = () => {
      while (written < total) {
        written += chunk.length;
        if (!child.stdin.write(chunk)) return void child.stdin.once('drain', pump);
      }
      child.stdin.end();
    };
    pump();
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ code, stderr, peakMB: peak, written });
    });
  });
}

describe('input bound for one request is bounded', () => {
  it.each([
    ['threads send T -', (t: string) => ['threads', 'send', t, '-']],
    ['kb chat, piped', (t: string) => ['chat', t]],
    ['kb api --input -', (t: string) => ['api', 'POST', `/v1/threads/${t}/messages`, '--input', '-']],
  ])(
    '%s: 200 MB on stdin ends in exit 2 before sending, in bounded memory',
    async (_, args) => {
      const thread = (await api(server, server.keys.demo, 'POST', '/v1/threads', { title: 'big input' })).json
        .data;
      const res = await pipeInto(args(thread.id), 200 * MB);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/^error: .* is larger than 1\.0 MB \(1048576 bytes\); nothing was sent$/m);
      expect(res.peakMB).toBeGreaterThan(0);
      expect(res.peakMB).toBeLessThan(150);
      expect(res.written).toBeLessThan(200 * MB);
      expect(
        (await api(server, server.keys.demo, 'GET', `/v1/threads/${thread.id}`)).json.data.messages,
      ).toEqual([]);
    },
    30_000,
  );
});
