/**
 * Fault injection: the example proxy in front of an upstream that misbehaves in every way the proxy must
 * survive — slow, silent, truncated, corrupt, over-long, never-ending — while well-behaved clients, in
 * parallel, must all get their pages whole and right. Each case runs alone, then all run at once with
 * the well-behaved clients; each has a deadline and names itself when it fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { type Server, type ServerResponse, request } from 'node:http';
import { type Socket, connect } from 'node:net';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { DEFAULT_BANNER, createProxy, type ProxyLogEntry } from '../../packages/example-proxy/src/index.js';
import { close, listen, upstreamServer } from './helpers.js';

const BOUND = 1024;
// Short enough for a quick test, long enough that a good response on a loaded machine (vitest runs test
// files in parallel) never meets them.
const TIMEOUTS = { connect: 2000, headers: 1000, idle: 1000 };

const GOOD = (n: number) =>
  `<!DOCTYPE html><html><head><title>Page ${n}</title></head><body>` +
  Array.from({ length: 40 }, (_, i) => `<p>Item ${i} é <a href="http://example.com/${n}/${i}">link</a></p>`).join('\n') +
  '</body></html>';
const GOOD_OUT = (n: number) =>
  `<!DOCTYPE html><html><head><title>Page ${n}</title></head><body>` +
  Array.from({ length: 40 }, (_, i) => `<p>Item ${i} é <a href="https://example.com/${n}/${i}">link</a></p>`).join('\n') +
  `${DEFAULT_BANNER}</body></html>`;

const PAGE = '<html><body><a href="http://e.x/1">one</a><p>text</p></body></html>';
const PAGE_OUT = `<html><body><a href="https://e.x/1">one</a><p>text</p>${DEFAULT_BANNER}</body></html>`;
const PREFIX = '<html><body><a href="http://e.x/1">one</a>' + '<p>filler</p>'.repeat(20);
const PREFIX_OUT = '<html><body><a href="https://e.x/1">one</a>' + '<p>filler</p>'.repeat(20);
const LONG = `<p title="${'é'.repeat(3 * BOUND)}">long</p><a href="http://e.x/2">two</a></body></html>`;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Write `body` in pieces of `size` bytes, `gap` ms apart, then end (or not). */
async function dribble(res: ServerResponse, body: Buffer, size: number, gap: number, end = true): Promise<void> {
  for (let i = 0; i < body.length; i += size) {
    if (res.destroyed) return;
    res.write(body.subarray(i, i + size));
    await sleep(gap);
  }
  if (end) res.end();
}

/** Upstream responses to never-ending requests, to check that the proxy aborts them. */
const endless = new Map<string, { closed: Promise<void>; bytes: () => number }>();

const upstream: Server = upstreamServer({
  '/good': (req, res) => {
    const n = Number(new URL(req.url!, 'http://x').searchParams.get('n'));
    const gz = n % 2 === 0;
    const body = gz ? gzipSync(GOOD(n)) : Buffer.from(GOOD(n));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(gz ? { 'content-encoding': 'gzip' } : {}) });
    // In pieces, so that responses interleave with the faulty ones.
    void dribble(res, body, 700, 1);
  },
  '/slow-headers': (_req, res) => {
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
    }, 3000);
  },
  '/slow-ok': (_req, res) => {
    // Slow, but each gap is well under the idle timeout: the page must come whole.
    res.writeHead(200, { 'content-type': 'text/html' });
    void dribble(res, Buffer.from(PAGE), 7, 30);
  },
  '/stall': (_req, res) => {
    // A first part, then nothing, connection open.
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write(PREFIX);
  },
  '/stall-before-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.flushHeaders();
  },
  '/silent': () => {
    // Accepts the request, never answers.
  },
  '/truncated': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': 100_000 });
    res.write(PREFIX);
    setTimeout(() => res.destroy(), 50);
  },
  '/truncated-css': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/css', 'content-length': 100_000 });
    res.write('a { color: red }');
    setTimeout(() => res.destroy(), 50);
  },
  '/corrupt-gzip': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    res.end(Buffer.from('this is not gzip at all, not even its magic number'));
  },
  '/corrupt-gzip-late': (_req, res) => {
    // A good start, then garbage: the first part is rewritten and sent before the damage shows.
    // Text that compresses badly, so that the first half of the body holds more than PREFIX.
    const noise = Array.from({ length: 3000 }, (_, i) => ((i * 7919) % 10007).toString(36)).join(' ');
    const good = gzipSync(PREFIX + `<p>${noise}</p>`);
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    res.write(good.subarray(0, Math.floor(good.length / 2)));
    setTimeout(() => res.end(Buffer.alloc(200, 0xff)), 50);
  },
  '/raw-deflate': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'deflate' });
    void dribble(res, deflateRawSync(PAGE), 1, 0);
  },
  '/over-long': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    // Odd-sized pieces cut the two-byte é's.
    void dribble(res, Buffer.from(PREFIX + LONG), 333, 0);
  },
  '/endless': (req, res) => {
    let bytes = 0;
    const closed = new Promise<void>((r) => res.on('close', r));
    endless.set(new URL(req.url!, 'http://x').searchParams.get('id')!, { closed, bytes: () => bytes });
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><body>');
    // Mostly text, cheap to rewrite: the point is that it never ends.
    const chunk = Buffer.from(`<p>${'and on and on '.repeat(2000)}<a href="http://e.x/">and on</a></p>\n`);
    const more = () => {
      // Bounded even if the proxy never aborted: about 64 MiB, then stop. One piece per turn of the
      // event loop (a socket on loopback takes megabytes before write() says wait, and a loop until
      // then would stall everything else in this process).
      if (res.destroyed || bytes >= 64 * 1024 * 1024) return;
      bytes += chunk.length;
      if (res.write(chunk)) setImmediate(more);
      else res.once('drain', more);
    };
    more();
  },
});

const logs: ProxyLogEntry[] = [];
let upstreamUrl = '';
let proxyUrl = '';
let proxy: Server;
let seq = 0;

beforeAll(async () => {
  upstreamUrl = await listen(upstream);
  proxy = createProxy({ upstream: upstreamUrl, timeouts: TIMEOUTS, maxBufferedBytes: BOUND, log: (e) => logs.push(e) });
  proxyUrl = await listen(proxy);
});

afterAll(async () => {
  await close(proxy);
  await close(upstream);
});

/** GET through the proxy with node:http: status, body, and whether the body ended cleanly. */
function get(path: string): Promise<{ status: number; body: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    request(`${proxyUrl}${path}`, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const done = (complete: boolean) => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8'), complete });
      res.on('end', () => done(res.complete));
      res.on('aborted', () => done(false));
      res.on('error', () => done(false));
    })
      .on('error', reject)
      .end();
  });
}

/** A unique path for one run of a case (the log names it). */
const unique = (path: string) => `${path}?run=${++seq}`;

/** The log entries for `url`, waiting a little for one to come (the log line may follow the response). */
async function logFor(url: string, event: ProxyLogEntry['event']): Promise<ProxyLogEntry> {
  for (let i = 0; i < 100; i++) {
    const e = logs.find((l) => l.url === url && l.event === event);
    if (e !== undefined) return e;
    await sleep(10);
  }
  throw new Error(`no ${event} log entry for ${url}; got ${JSON.stringify(logs.filter((l) => l.url === url))}`);
}

interface Case {
  name: string;
  deadlineMs: number;
  run: () => Promise<void>;
}

const CASES: Case[] = [
  {
    name: 'slow headers: 504 after the header timeout',
    deadlineMs: 4000,
    run: async () => {
      const url = unique('/slow-headers');
      const r = await get(url);
      expect(r.status).toBe(504);
      expect((await logFor(url, 'timeout-headers')).outcome).toBe(504);
    },
  },
  {
    name: 'slow but steady body: the page comes whole',
    deadlineMs: 6000,
    run: async () => {
      const r = await get(unique('/slow-ok'));
      expect(r).toEqual({ status: 200, body: PAGE_OUT, complete: true });
    },
  },
  {
    name: 'silent upstream (accepts, never answers): 504',
    deadlineMs: 4000,
    run: async () => {
      const url = unique('/silent');
      const r = await get(url);
      expect(r.status).toBe(504);
      expect(r.body).toMatch(/upstream timeout/);
      await logFor(url, 'timeout-headers');
    },
  },
  {
    name: 'body stalls after a first part: that part, then a clean end, logged',
    deadlineMs: 4000,
    run: async () => {
      const url = unique('/stall');
      const r = await get(url);
      expect(r).toEqual({ status: 200, body: PREFIX_OUT, complete: true });
      expect((await logFor(url, 'timeout-idle')).outcome).toBe('ended');
    },
  },
  {
    name: 'body stalls before its first byte: 504',
    deadlineMs: 4000,
    run: async () => {
      const url = unique('/stall-before-body');
      const r = await get(url);
      expect(r.status).toBe(504);
      expect((await logFor(url, 'timeout-idle')).outcome).toBe(504);
    },
  },
  {
    name: 'truncated (content-length larger than sent, then close): the part sent, a clean end, logged',
    deadlineMs: 4000,
    run: async () => {
      const url = unique('/truncated');
      const r = await get(url);
      expect(r).toEqual({ status: 200, body: PREFIX_OUT, complete: true });
      expect((await logFor(url, 'upstream-error')).outcome).toBe('ended');
    },
  },
  {
    name: 'truncated passthrough with a declared length: the part sent, then the connection closes',
    deadlineMs: 4000,
    run: async () => {
      const url = unique('/truncated-css');
      const r = await get(url);
      expect(r.status).toBe(200);
      expect(r.body).toBe('a { color: red }');
      expect(r.complete).toBe(false);
      expect((await logFor(url, 'upstream-error')).outcome).toBe('closed');
    },
  },
  {
    name: 'corrupt gzip: 502 before the first byte',
    deadlineMs: 4000,
    run: async () => {
      const url = unique('/corrupt-gzip');
      const r = await get(url);
      expect(r.status).toBe(502);
      expect((await logFor(url, 'decode-error')).outcome).toBe(502);
    },
  },
  {
    name: 'gzip corrupt halfway: the decoded part, then a clean end, logged',
    deadlineMs: 4000,
    run: async () => {
      const url = unique('/corrupt-gzip-late');
      const r = await get(url);
      expect(r.status).toBe(200);
      expect(r.complete).toBe(true);
      expect(r.body.startsWith(PREFIX_OUT)).toBe(true);
      expect(r.body).not.toContain('sluice-banner');
      expect((await logFor(url, 'decode-error')).outcome).toBe('ended');
    },
  },
  {
    name: 'raw deflate under content-encoding: deflate: decoded and rewritten, as browsers accept it',
    deadlineMs: 4000,
    run: async () => {
      const r = await get(unique('/raw-deflate'));
      expect(r).toEqual({ status: 200, body: PAGE_OUT, complete: true });
    },
  },
  {
    name: 'a token past maxBufferedBytes: the page completes, the rest unrewritten, logged',
    deadlineMs: 4000,
    run: async () => {
      const url = unique('/over-long');
      const r = await get(url);
      expect(r.status).toBe(200);
      expect(r.complete).toBe(true);
      // Not a byte lost or doubled: the rewritten prefix, then the input as it came.
      expect(r.body === PREFIX_OUT + LONG).toBe(true);
      expect((await logFor(url, 'degraded')).outcome).toBe('continued');
    },
  },
  {
    name: 'never-ending body: the client reads some and aborts; the proxy aborts the upstream',
    deadlineMs: 4000,
    run: async () => {
      const id = String(++seq);
      const url = `/endless?id=${id}`;
      await new Promise<void>((resolve, reject) => {
        const req = request(`${proxyUrl}${url}`, (res) => {
          let got = 0;
          res.on('data', (c: Buffer) => {
            got += c.length;
            if (got >= 256 * 1024) {
              req.destroy();
              resolve();
            }
          });
          res.on('end', () => reject(new Error('the endless body ended')));
          res.on('error', () => {});
        });
        req.on('error', () => {});
        req.end();
      });
      const up = endless.get(id);
      expect(up).toBeDefined();
      await up!.closed;
      expect(up!.bytes()).toBeLessThan(64 * 1024 * 1024);
      expect((await logFor(url, 'client-gone')).outcome).toBe('none');
    },
  },
];

/** `p`, or a rejection naming `name` once `ms` have passed. */
function withDeadline<T>(name: string, ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name}: not done within ${ms} ms`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/** Run a case; its failure names it. */
async function runCase(c: Case): Promise<void> {
  try {
    await withDeadline(c.name, c.deadlineMs, c.run());
  } catch (err) {
    const e = err as Error;
    throw new Error(e.message.startsWith(c.name) ? e.message : `${c.name}: ${e.message}`, { cause: err });
  }
}

/** Well-behaved clients: each fetches good pages until `stop()`; every page must come whole. */
function goodClients(n: number): { stop: () => Promise<number> } {
  let stopping = false;
  let count = 0;
  const loops = Array.from({ length: n }, async (_, id) => {
    for (let k = 0; !stopping || k < 2; k++) {
      const page = id * 1000 + k;
      const r = await withDeadline(`well-behaved client ${id}, page ${page}`, 5000, get(`/good?n=${page}`));
      if (r.status !== 200 || !r.complete || r.body !== GOOD_OUT(page)) {
        const logged = JSON.stringify(logs.filter((l) => l.url === `/good?n=${page}`));
        throw new Error(`well-behaved client ${id}, page ${page}: status ${r.status}, complete ${r.complete}, ${r.body.length} chars, expected ${GOOD_OUT(page).length}; proxy log ${logged}`);
      }
      count++;
      if (k > 200) break; // bounded whatever happens
    }
  });
  // Collected by stop(); until then a failure must not be an unhandled rejection.
  const settled = Promise.allSettled(loops);
  return {
    stop: async () => {
      stopping = true;
      const failures = (await settled).filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failures.length > 0) throw new Error(failures.map((f) => (f.reason as Error).message).join('\n'));
      return count;
    },
  };
}

describe('proxy fault injection', () => {
  for (const c of CASES) it(c.name, () => runCase(c), c.deadlineMs + 1000);

  it('every fault at once, twice over, while 6 well-behaved clients get every page whole', async () => {
    const clients = goodClients(6);
    const results = await Promise.allSettled([...CASES, ...CASES].map(runCase));
    const count = await clients.stop();
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as Error).message);
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThanOrEqual(12);
  }, 20_000);

  it('no failure reached the proxy server itself (no error event, still serving)', async () => {
    const r = await get('/good?n=7');
    expect(r.body).toBe(GOOD_OUT(7));
  });
});

// A connect timeout needs a listener that never completes a handshake. Node accepts every connection it
// can, so a few lines of Python listen with a backlog of 0 and never accept: once one connection fills
// the accept queue, Linux drops further SYNs and connect() waits. Skipped without python3.
const hasPython = spawnSync('python3', ['-c', 'pass'], { timeout: 5000 }).status === 0;
const LISTENER = `
import socket, time
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(0)
print(s.getsockname()[1], flush=True)
time.sleep(20)
`;

describe('proxy fault injection: connect timeout', () => {
  it.skipIf(!hasPython)('an upstream that never completes the handshake: 504 after the connect timeout', async () => {
    const py = spawn('python3', ['-c', LISTENER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const fillers: Socket[] = [];
    const local: ProxyLogEntry[] = [];
    let p: Server | null = null;
    try {
      const port = await withDeadline('python listener', 5000, new Promise<number>((resolve) => py.stdout.once('data', (d: Buffer) => resolve(Number(String(d))))));
      // Fill the accept queue (one connection for a backlog of 0; a second to be sure).
      for (let i = 0; i < 2; i++) {
        const s = connect(port, '127.0.0.1');
        s.on('error', () => {});
        fillers.push(s);
      }
      await sleep(100);
      p = createProxy({ upstream: `http://127.0.0.1:${port}`, timeouts: { connect: 300 }, log: (e) => local.push(e) });
      const url = await listen(p);
      const start = performance.now();
      const r = await withDeadline('connect timeout', 3000, fetch(`${url}/x`).then(async (res) => ({ status: res.status, body: await res.text() })));
      expect(r.status).toBe(504);
      expect(performance.now() - start).toBeLessThan(2000);
      expect(local.map((e) => [e.url, e.event, e.outcome])).toEqual([['/x', 'timeout-connect', 504]]);
    } finally {
      for (const s of fillers) s.destroy();
      if (p !== null) await close(p);
      py.kill();
    }
  }, 10_000);
});
