import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A service that answers whatever bytes a test gives it, by `METHOD /path` (query ignored):
 * the hostile or broken server kb must survive. Unknown routes answer 404.
 */
export async function hostileServer(routes: Record<string, Route>) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const route = routes[`${req.method} ${req.url!.split('?')[0]}`];
      if (route) route(req, res);
      else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"code":"route_not_found","message":"No such route"}}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const send =
  (status: number, body: string | Buffer, type = 'application/json'): Route =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': type, 'x-request-id': 'req_hostile' });
    res.end(body);
  };

/** Everything a hostile string may carry to act on a terminal: OSC, CSI, C1 CSI, DCS, bidi, zero-width, BEL. */
export const EVIL = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\u001bPq#\u001b\\\u202e\u200b\u0007';

/** Terminal text with kb's own colour (SGR) sequences removed: what is left must be inert. */
export function inert(screen: string): boolean {
  const withoutSgr = screen.replace(/\u001b\[[0-9;]*m/g, '');
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]/.test(
    withoutSgr,
  );
}
