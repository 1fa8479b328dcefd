import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, type SignatureScheme, verifySignature } from './signature.js';

export interface Delivery {
  receivedAt: string;
  verified: boolean;
  reason?: string;
  headers: IncomingHttpHeaders;
  event: { id?: string; type?: string; [key: string]: unknown } | null;
  /** The raw body exactly as received (what the signature covers). */
  body: string;
  /** Seen before (same event id): answered 200, not forwarded again. */
  duplicate: boolean;
  /** Not one of the --events kinds: answered 200, not forwarded. */
  skipped: boolean;
  forward?: { url: string; status?: number; error?: string };
}

export interface ListenerOptions {
  port: number;
  host: string;
  path: string;
  /** Read at each delivery, so a secret saved later is picked up. */
  secrets: () => string[];
  forwardTo?: string;
  events?: string[];
  toleranceSeconds: number;
  scheme: SignatureScheme;
  onDelivery: (delivery: Delivery) => void;
}

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
]);
const MAX_BODY = 5 * 1024 * 1024;

/** A local webhook receiver: verifies each delivery, answers 2xx or 400, forwards valid ones. */
export async function startListener(
  options: ListenerOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'POST' || path !== options.path) {
      res.writeHead(req.method === 'POST' ? 404 : 405, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `POST ${options.path} only` } }));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const header = req.headers[SIGNATURE_HEADER];
      const result =
        size > MAX_BODY
          ? { valid: false as const, reason: 'body larger than 5 MiB' }
          : verifySignature(raw, Array.isArray(header) ? header[0] : header, options.secrets(), {
              toleranceSeconds: options.toleranceSeconds,
              scheme: options.scheme,
            });
      let event: Delivery['event'] = null;
      try {
        event = JSON.parse(raw.toString('utf8'));
      } catch {
        event = null;
      }
      const id = typeof event?.id === 'string' ? event.id : undefined;
      const delivery: Delivery = {
        receivedAt: new Date().toISOString(),
        verified: result.valid,
        ...(result.valid ? {} : { reason: result.reason }),
        headers: req.headers,
        event,
        body: raw.toString('utf8'),
        duplicate: false,
        skipped: false,
      };
      if (!result.valid) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: result.reason } }));
        options.onDelivery(delivery);
        return;
      }
      delivery.duplicate = id !== undefined && seen.has(id);
      if (id) seen.add(id);
      delivery.skipped = Boolean(options.events?.length && !options.events.includes(String(event?.type)));
      if (options.forwardTo && !delivery.duplicate && !delivery.skipped) {
        delivery.forward = await forward(options.forwardTo, req.headers, raw);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      options.onDelivery(delivery);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${options.path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends the raw body with the original headers (less hop-by-hop ones) to another receiver. */
async function forward(
  url: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<NonNullable<Delivery['forward']>> {
  const outgoing: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(key)) continue;
    outgoing[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: outgoing,
      body,
      signal: AbortSignal.timeout(10_000),
      redirect: 'manual',
    });
    await response.arrayBuffer().catch(() => undefined);
    return { url, status: response.status };
  } catch (err) {
    const cause = (err as Error & { cause?: Error }).cause;
    return { url, error: cause?.message ?? (err as Error).message };
  }
}
