import { lookup } from 'node:dns/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import { deliverable, isLocalhostName, literalHost } from './address-policy.js';

/** Resolves a host name to all its addresses (tests pass a fixed table). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export type TargetCheck =
  | { ok: true; address: string; family: 4 | 6 }
  /** The name does not resolve now: accepted at registration, checked again at delivery. */
  | { ok: false; unresolved: true }
  | { ok: false; unresolved: false; reason: string };

/**
 * Where a webhook URL may be delivered: the address to connect to, when the host is, and
 * resolves only to, public addresses (loopback too with `allowLoopback`). Every address a name
 * resolves to is checked, and the delivery connects to the one returned, so a second DNS
 * answer cannot point it elsewhere.
 */
export async function checkTarget(url: URL, allowLoopback: boolean, resolve: Resolver): Promise<TargetCheck> {
  const literal = literalHost(url.hostname);
  let addresses: { address: string; family: number }[];
  if (literal) addresses = [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
  else if (isLocalhostName(url.hostname)) addresses = [{ address: '127.0.0.1', family: 4 }];
  else {
    try {
      addresses = await resolve(url.hostname);
    } catch {
      return { ok: false, unresolved: true };
    }
    if (addresses.length === 0) return { ok: false, unresolved: true };
  }
  for (const { address } of addresses) {
    const verdict = deliverable(address, allowLoopback);
    if (!verdict.ok)
      return {
        ok: false,
        unresolved: false,
        reason: `${url.hostname} ${literal ? 'is' : 'resolves to'} a ${verdict.kind} address (${address}); webhooks are delivered to public addresses only`,
      };
  }
  const first = addresses[0]!;
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** What went wrong with a delivery, as the log records it (never the socket's own message). */
export type DeliveryErrorCategory = 'timeout' | 'unreachable' | 'unresolved' | 'blocked_address';

/**
 * POSTs `body` to `url`, connecting to `address` only (the checked one) and following no
 * redirect. Resolves with the status, or rejects with an error whose `category` says what failed.
 */
export function postTo(
  url: URL,
  target: { address: string; family: 4 | 6 },
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<number> {
  const client = url.protocol === 'https:' ? https : http;
  const name = literalHost(url.hostname) ? undefined : url.hostname;
  return new Promise((resolve, reject) => {
    const fail = (category: DeliveryErrorCategory) =>
      reject(Object.assign(new Error(category), { category }));
    const req = client.request(
      {
        method: 'POST',
        host: target.address,
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, host: url.host, 'content-length': Buffer.byteLength(body) },
        // The certificate is checked against the name in the URL.
        servername: name,
        lookup: (_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          options.all
            ? callback(null, [{ address: target.address, family: target.family }])
            : callback(null, target.address, target.family),
        timeout: timeoutMs,
        agent: false,
      } as https.RequestOptions,
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => fail('unreachable'));
      },
    );
    req.on('timeout', () => {
      req.destroy();
      fail('timeout');
    });
    req.on('error', () => fail('unreachable'));
    req.end(body);
  });
}
