#!/usr/bin/env node
// Serves the built playground (dist/) on localhost: a small static file server on node:http, for
// `npm run playground`. Any static file server works as well; the page has no backend.
// Usage: node packages/playground/serve.mjs [--port N]   (default 5173; 0 picks a free port)
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), 'dist');
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** A server for `dir`'s files (GET and HEAD; `/` is index.html; nothing outside `dir`). */
export function createPlaygroundServer(dir = dist) {
  return createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let path;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end('bad path');
      return;
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(dir, path));
    if (!file.startsWith(dir + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: ${path}`);
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(join(dist, 'index.html'))) {
    console.error(`playground: ${dist} has no index.html; build it first (npm run setup, or node packages/playground/build.mjs)`);
    process.exit(1);
  }
  const i = process.argv.indexOf('--port');
  const port = i >= 0 ? Number(process.argv[i + 1]) : 5173;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`playground: --port must be a port number (0–65535), got ${process.argv[i + 1]}`);
    process.exit(1);
  }
  const server = createPlaygroundServer();
  server.on('error', (e) => {
    console.error(`playground: cannot listen on port ${port}: ${e.message} (try --port 0)`);
    process.exit(1);
  });
  server.listen(port, '127.0.0.1', () => {
    console.log(`sluice playground: http://127.0.0.1:${server.address().port}/  (Ctrl-C to stop)`);
  });
}
