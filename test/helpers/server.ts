import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { type RunningServer, type ServerOptions, startServer } from '../../src/server/index.js';

/** A real local service on 127.0.0.1 with a free port; indexing without pauses unless asked. */
export async function startTestServer(options: ServerOptions = {}): Promise<RunningServer> {
  // OCR off unless a test asks for it: the demo's two scans cost every in-process demo server
  // seconds of CPU on a loaded machine. test/e2e/ocr.test.ts reads them in a kb serve process.
  const server = await startServer({ port: 0, indexDelayMs: 0, ocr: false, ...options });
  await server.service.indexer.idle();
  return server;
}

export async function api(
  server: { url: string },
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(server.url + path, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** The demo service for one test file: started before its tests and closed after them. */
export function demoServerForFile(): { server: RunningServer; env: Record<string, string> } {
  const demo = {} as { server: RunningServer; env: Record<string, string> };
  beforeAll(async () => {
    demo.server = await startTestServer({ demo: true });
    demo.env = { KB_BASE_URL: demo.server.url, KB_API_KEY: demo.server.keys.demo! };
  });
  afterAll(() => demo.server.close());
  return demo;
}

/** A port that was free a moment ago (nothing listens there now). */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
