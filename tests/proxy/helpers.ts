/** An upstream server for the proxy tests, and helpers to start servers on 127.0.0.1 only. */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listen on 127.0.0.1 on a free port; resolve the base URL. */
export function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

export type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** An upstream with fixed routes; unknown paths are 404. */
export function upstreamServer(routes: Record<string, Route>): Server {
  return createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    Promise.resolve(route(req, res)).catch((err: Error) => res.destroy(err));
  });
}
