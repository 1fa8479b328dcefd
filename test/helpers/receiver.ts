import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  got: { headers: IncomingHttpHeaders; body: string }[];
  /** Statuses to answer with, in order; 200 once they run out. */
  statuses: number[];
  close(): Promise<void>;
}

/** A webhook receiver on loopback that records every delivery. */
export async function startReceiver(status = 200): Promise<Receiver> {
  const got: Receiver['got'] = [];
  const statuses: number[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(statuses.shift() ?? status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    statuses,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
