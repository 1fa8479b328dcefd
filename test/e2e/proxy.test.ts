import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKb } from '../helpers/cli.js';
import { json, type ScriptedServer, scriptedServer } from '../helpers/scripted.js';

let target: ScriptedServer;
let proxy: ReturnType<typeof createServer>;
let proxyUrl = '';
const proxied: string[] = [];

beforeAll(async () => {
  target = await scriptedServer([json(200, { data: [] })]);
  // A forward proxy: undici tunnels every request through CONNECT.
  proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, client, head) => {
    proxied.push(req.url!);
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await target.close();
  await new Promise<void>((r) => proxy.close(() => r()));
});

describe('proxies', () => {
  it('sends requests through HTTP_PROXY, and straight to hosts in NO_PROXY', async () => {
    const env = { KB_BASE_URL: target.url, KB_API_KEY: 'kb_proxy', HTTP_PROXY: proxyUrl };
    const res = await runKb(['threads', 'list', '--json'], { env });
    expect(res.code).toBe(0);
    expect(proxied).toEqual([target.url.replace('http://', '')]);
    const direct = await runKb(['threads', 'list', '--json'], { env: { ...env, NO_PROXY: '127.0.0.1' } });
    expect(direct.code).toBe(0);
    expect(proxied).toHaveLength(1);
    expect(target.requests).toHaveLength(2);
  });
});
