// A proxy scenario run by strict.test.ts in a child process under `node --unhandled-rejections=strict`:
// every way an exchange can fail (timeouts, resets, corrupt and truncated bodies, a token past the
// bound, handlers that throw or reject, clients that abort mid-body), many at once. Any promise left
// rejected and unhandled kills the process with a non-zero exit code. Uses the built packages (dist).
// Servers listen on 127.0.0.1, ephemeral ports; the whole run is bounded in time and requests.
import { createServer, request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createProxy, exampleRewriter } from '../../packages/example-proxy/dist/index.js';

const failsafe = setTimeout(() => {
  console.error('strict-scenario: not done within 30 s');
  process.exit(3);
}, 30_000);
failsafe.unref();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const page = (i) => `<html><body>${'<p>x <a href="http://e.x/">y</a></p>'.repeat(200)}<b data-throw=${i}>b</b><i data-reject=${i}>i</i>${'<p>z</p>'.repeat(200)}</body></html>`;

const upstream = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  const html = { 'content-type': 'text/html' };
  switch (path) {
    case '/ok':
    case '/throw':
    case '/reject':
      res.writeHead(200, html);
      res.end(page(1));
      return;
    case '/silent':
      return;
    case '/stall':
      res.writeHead(200, html);
      res.write('<html><body><p>first');
      return;
    case '/truncated':
      res.writeHead(200, { ...html, 'content-length': 100_000 });
      res.write(page(2).slice(0, 3000));
      setTimeout(() => res.destroy(), 20);
      return;
    case '/corrupt':
      res.writeHead(200, { ...html, 'content-encoding': 'gzip' });
      res.end(Buffer.from('not gzip'));
      return;
    case '/corrupt-late': {
      const z = gzipSync(page(3));
      res.writeHead(200, { ...html, 'content-encoding': 'gzip' });
      res.write(z.subarray(0, z.length >> 1));
      setTimeout(() => res.end(Buffer.alloc(64, 0xee)), 20);
      return;
    }
    case '/long':
      res.writeHead(200, html);
      res.end(`<p>a</p><p title="${'x'.repeat(5000)}">b</p>`);
      return;
    case '/endless': {
      res.writeHead(200, html);
      const more = () => {
        if (res.destroyed) return;
        if (res.write('<p>more <a href="http://e.x/">and more</a></p>'.repeat(100))) setImmediate(more);
        else res.once('drain', more);
      };
      more();
      return;
    }
    default:
      res.writeHead(404).end();
  }
});

/** The example rewrite, plus handlers that throw (`b`) and reject later (`i`) on the pages that ask for it. */
const hostileRewriter = (mode) => {
  const rw = exampleRewriter(undefined, { maxBufferedBytes: 1024 });
  if (mode === 'throw') rw.on('b[data-throw]', { element() { throw new Error('handler threw'); } });
  if (mode === 'reject') rw.on('i[data-reject]', { async element() { await sleep(5); throw new Error('handler rejected'); } });
  return rw;
};

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}
function close(server) {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

const upPort = await listen(upstream);
const logs = [];
const proxies = {};
for (const mode of ['plain', 'throw', 'reject']) {
  proxies[mode] = createProxy({
    upstream: `http://127.0.0.1:${upPort}`,
    maxBufferedBytes: 1024,
    timeouts: { connect: 1000, headers: 300, idle: 300 },
    rewriter: () => (mode === 'plain' ? exampleRewriter(undefined, { maxBufferedBytes: 1024 }) : hostileRewriter(mode)),
    log: (e) => logs.push(e),
  });
}
const ports = {};
for (const [mode, p] of Object.entries(proxies)) ports[mode] = await listen(p);

/** GET with node:http; `abortAfter` bytes read, the client destroys the request. Resolves, never rejects. */
function get(mode, path, abortAfter = Infinity) {
  return new Promise((resolve) => {
    const req = request(`http://127.0.0.1:${ports[mode]}${path}`, (res) => {
      let n = 0;
      res.on('data', (c) => {
        n += c.length;
        if (n >= abortAfter) {
          req.destroy();
          resolve({ status: res.statusCode, aborted: true });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode, bytes: n }));
      res.on('error', () => resolve({ status: res.statusCode, error: true }));
    });
    req.on('error', () => resolve({ error: true }));
    req.end();
  });
}

/** fetch, aborted with an AbortController after a few ms on some requests. Resolves, never rejects. */
async function fetchMaybeAbort(mode, path, abortMs) {
  const ac = new AbortController();
  const t = abortMs === undefined ? null : setTimeout(() => ac.abort(new Error('client gave up')), abortMs);
  try {
    const res = await fetch(`http://127.0.0.1:${ports[mode]}${path}`, { signal: ac.signal });
    await res.text();
  } catch {
    // Expected for aborted and cut responses.
  } finally {
    if (t !== null) clearTimeout(t);
  }
}

const paths = ['/ok', '/silent', '/stall', '/truncated', '/corrupt', '/corrupt-late', '/long', '/throw', '/reject'];
const jobs = [];
for (let round = 0; round < 3; round++) {
  for (const mode of ['plain', 'throw', 'reject']) {
    for (const path of paths) {
      jobs.push(get(mode, path));
      jobs.push(fetchMaybeAbort(mode, path, round === 0 ? undefined : 1 + round * 3));
    }
    jobs.push(get(mode, '/endless', 64 * 1024));
    jobs.push(fetchMaybeAbort(mode, '/endless', 20));
    jobs.push(get(mode, '/reject', 10));
  }
}
await Promise.all(jobs);
// Let late timers and stream teardown run before the servers close.
await sleep(400);
for (const p of Object.values(proxies)) await close(p);
await close(upstream);

const events = new Set(logs.map((l) => l.event));
for (const needed of ['timeout-headers', 'timeout-idle', 'upstream-error', 'decode-error', 'rewrite-error', 'degraded', 'client-gone']) {
  if (!events.has(needed)) {
    console.error(`strict-scenario: no ${needed} in the log: ${JSON.stringify([...events])}`);
    process.exit(4);
  }
}
console.log(`strict-scenario: ok, ${jobs.length} requests, ${logs.length} log entries`);
