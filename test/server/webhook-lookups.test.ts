import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import type { Resolver } from '../../src/server/webhooks/target.js';
import { api, startTestServer } from '../helpers/server.js';

/**
 * A resolver as the system's is: 4 threads (libuv's) take lookups in order. A name under
 * `.slow.example` holds its thread without an answer while `slow` is on, as a name whose DNS
 * servers do not answer does; other names resolve at once to a public address.
 */
function threadPoolResolver(threads = 4) {
  let busy = 0;
  const queue: (() => void)[] = [];
  const held: (() => void)[] = [];
  const pool = {
    slow: false,
    calls: 0,
    busy: () => busy,
    /** Ends every held lookup (as the system resolver gives up): not found. */
    release() {
      pool.slow = false;
      for (const end of held.splice(0)) end();
    },
    resolve: ((hostname: string) =>
      new Promise((resolve, reject) => {
        pool.calls++;
        queue.push(() => {
          busy++;
          const end = (answer: () => void) => {
            busy--;
            answer();
            queue.shift()?.();
          };
          if (pool.slow && hostname.endsWith('.slow.example'))
            held.push(() => end(() => reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }))));
          else setImmediate(() => end(() => resolve([{ address: '93.184.215.14', family: 4 }])));
        });
        if (busy < threads) queue.shift()!();
      })) as Resolver,
  };
  return pool;
}

let server: RunningServer | undefined;
let pool: ReturnType<typeof threadPoolResolver> | undefined;
afterEach(async () => {
  pool?.release();
  await server?.close();
});

describe('webhook registration while deliveries wait on slow names (#35)', () => {
  // Deliveries' lookups took every resolver thread, and POST /v1/webhooks waited behind them.
  it('answers a registration at once, and one for a slow name at its deadline; deliveries give up at theirs', async () => {
    pool = threadPoolResolver();
    server = await startTestServer({
      demo: true,
      resolve: pool.resolve,
      webhookLookupTimeoutMs: 1_000,
      webhookRetrySchedule: [],
    });
    const key = server.keys.demo!;
    const register = (url: string) =>
      api(server!, key, 'POST', '/v1/webhooks', { url, events: ['thread.message.created'] });
    for (let i = 0; i < 6; i++)
      expect((await register(`https://hook-${i}.slow.example/in`)).status).toBe(201);

    pool.slow = true;
    const thread = (await api(server, key, 'POST', '/v1/threads', {})).json.data;
    const calls = pool.calls;
    expect(
      (await api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content: 'hi' })).status,
    ).toBe(201);
    // Every delivery has asked for its name by now (or waits its turn to).
    await expect.poll(() => pool!.busy()).toBeGreaterThan(0);

    const fast = await register('https://receiver.example/in');
    expect(fast.status).toBe(201);
    expect(pool.calls).toBeGreaterThan(calls);
    // A name that does not answer is accepted at its deadline, to be checked at delivery.
    expect((await register('https://new.slow.example/in')).status).toBe(201);

    const webhooks = (await api(server, key, 'GET', '/v1/webhooks')).json.data as {
      id: string;
      url: string;
    }[];
    const slow = webhooks.find((w) => w.url === 'https://hook-0.slow.example/in')!;
    await expect
      .poll(async () => {
        const log = (await api(server!, key, 'GET', `/v1/webhooks/${slow.id}/deliveries`)).json.data;
        return log.map((d: { attempts: { error?: string }[] }) => d.attempts[0]?.error);
      })
      .toEqual(['unresolved', 'unresolved']);
  });
});
