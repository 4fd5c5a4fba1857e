/**
 * A loopback HTTP server that serves bodies the test puts in `served` (path → bytes) as real pages, with
 * the headers given (e.g. `content-type`, a `content-security-policy`); 404 for anything else.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BodyServer {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  close(): Promise<void>;
}

export async function serveBodies(served: ReadonlyMap<string, Uint8Array>, headers: Record<string, string>): Promise<BodyServer> {
  const server = createServer((req, res) => {
    const body = served.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end();
      return;
    }
    res.writeHead(200, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
