import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, baseEnv, tempDir } from '../helpers/cli.js';
import { getJson } from '../helpers/http.js';

// In the suite a short run proves the properties (no error, no lost message, bounded memory);
// `npm run test:load` runs the full 30 s and records its figures in bench/load-results.json.
const SECONDS = Number(process.env.LOAD_SECONDS ?? 6);
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 200);
const RECORD = Boolean(process.env.LOAD_RESULTS);
const KEY = 'kb_load_test_key';

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

describe('the local service under load', () => {
  it(
    `serves ${CLIENTS} concurrent clients for ${SECONDS} s of mixed reads and posts with no errors and no lost messages`,
    async () => {
      const child = spawn(process.execPath, [BIN, 'serve', '--demo', '--port', '0', '--json'], {
        env: baseEnv(tempDir(), { KB_SERVE_API_KEYS: `demo:${KEY}` }),
      });
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!).url);
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      const rss = async () => (await getJson(`${url}/_kb/health`)).data.rss as number;
      // The demo's documents indexed first (its scan read by OCR loads an engine of ~100 MB): the
      // memory compared below is then the load's alone. CI once failed the bound by 2 MB with it.
      for (const status of ['PENDING', 'PROCESSING']) {
        await expect
          .poll(async () => (await getJson(`${url}/v1/files?status=${status}&limit=1`, { headers })).data, {
            timeout: 60_000,
            interval: 200,
          })
          .toEqual([]);
      }
      const threads: string[] = [];
      for (let i = 0; i < 20; i++)
        threads.push(
          (await getJson(`${url}/v1/threads`, { method: 'POST', headers, body: `{"title":"load ${i}"}` }))
            .data.id,
        );

      const latencies: number[] = [];
      const errors: string[] = [];
      const posted = new Map<string, number>();
      let requests = 0;
      const deadline = Date.now() + SECONDS * 1000;
      let rssAfterWarmup = 0;
      setTimeout(async () => (rssAfterWarmup = await rss()), Math.min(5000, SECONDS * 300));

      const client = async (n: number) => {
        let i = 0;
        while (Date.now() < deadline) {
          i++;
          const kind = (n + i) % 10;
          const thread = threads[(n + i) % threads.length]!;
          const started = performance.now();
          try {
            let response: Response;
            if (kind === 0) {
              response = await fetch(`${url}/v1/threads/${thread}/messages`, {
                method: 'POST',
                headers,
                body: JSON.stringify({ content: `load question ${n}-${i} about the Growth plan` }),
              });
              if (response.status === 201) posted.set(thread, (posted.get(thread) ?? 0) + 1);
            } else if (kind < 4) response = await fetch(`${url}/v1/threads?limit=20`, { headers });
            else if (kind < 7) response = await fetch(`${url}/v1/files`, { headers });
            else if (kind < 9) response = await fetch(`${url}/v1/threads/${thread}`, { headers });
            else response = await fetch(`${url}/v1/users?q=a`, { headers });
            await response.arrayBuffer();
            if (response.status >= 400) errors.push(`${response.status}`);
          } catch (err) {
            errors.push((err as Error).message);
          }
          latencies.push(performance.now() - started);
          requests++;
        }
      };
      const started = Date.now();
      await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
      const elapsed = (Date.now() - started) / 1000;
      const rssEnd = await rss();

      let stored = 0;
      for (const thread of threads) {
        const messages = (await getJson(`${url}/v1/threads/${thread}`, { headers })).data.messages;
        stored += messages.filter((m: { role: string }) => m.role === 'user').length;
      }
      const acknowledged = [...posted.values()].reduce((a, b) => a + b, 0);
      child.kill('SIGTERM');

      const results = {
        clients: CLIENTS,
        seconds: round(elapsed),
        requests,
        throughputPerSecond: round(requests / elapsed),
        p50Ms: round(percentile(latencies, 50)),
        p99Ms: round(percentile(latencies, 99)),
        errors: errors.length,
        messagesAcknowledged: acknowledged,
        messagesStored: stored,
        rssAfterWarmupMb: round(rssAfterWarmup / 1e6),
        rssEndMb: round(rssEnd / 1e6),
      };
      if (RECORD)
        writeFileSync(join(ROOT, 'bench', 'load-results.json'), `${JSON.stringify(results, null, 2)}\n`);
      console.log(`load: ${JSON.stringify(results)}`);

      expect(errors.slice(0, 5)).toEqual([]);
      expect(stored).toBe(acknowledged);
      // Enough traffic to mean something: every client posted at least once.
      expect(acknowledged).toBeGreaterThanOrEqual(CLIENTS / 10);
      expect(rssEnd).toBeLessThan(Math.max(rssAfterWarmup * 2, rssAfterWarmup + 150e6));
    },
    (SECONDS + 60) * 1000,
  );
});

function round(n: number) {
  return Math.round(n * 10) / 10;
}
