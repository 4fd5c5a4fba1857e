/**
 * A bounded load test of the proxy: an upstream and the proxy on 127.0.0.1, N concurrent clients
 * requesting for a fixed time (and at most a fixed number of requests), every response body checked
 * against the expected rewrite. It stops by itself and closes both servers.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createProxy } from './proxy.js';
import { exampleRewriter } from './rewriter.js';

/** Options of {@link runLoadTest}. */
export interface LoadTestOptions {
  /** Concurrent clients. Default 8. */
  clients?: number;
  /** How long clients keep sending, in ms. Default 3000. */
  durationMs?: number;
  /** Stop after this many requests in all. Default 100 000. */
  maxRequests?: number;
  /** The HTML pages the upstream serves (each also served gzip-compressed). */
  pages: readonly string[];
}

/** What {@link runLoadTest} measured. */
export interface LoadTestResult {
  requests: number;
  /** Responses whose body differed from the expected rewrite (should be 0). */
  mismatches: number;
  /** Requests that failed outright (should be 0). */
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  /** Rewritten HTML delivered, MB per second. */
  megabytesPerSecond: number;
  firstError: string | null;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** The expected output for a page, computed by the same rewriter in-process. */
async function expectedRewrite(page: string): Promise<string> {
  let out = '';
  const t = exampleRewriter().createTransformer((s) => (out += s));
  await t.write(page);
  await t.end();
  return out;
}

/** Run the load test. Only loopback addresses are used. */
export async function runLoadTest(options: LoadTestOptions): Promise<LoadTestResult> {
  const clients = options.clients ?? 8;
  const durationMs = options.durationMs ?? 3000;
  const maxRequests = options.maxRequests ?? 100_000;
  if (options.pages.length === 0) throw new Error('runLoadTest: pages must not be empty');
  const bodies = options.pages.map((p) => Buffer.from(p, 'utf8'));
  const gzipped = bodies.map((b) => gzipSync(b));
  const expected = await Promise.all(options.pages.map(expectedRewrite));

  const upstream = createServer((req, res) => {
    const m = /^\/(gz\/)?(\d+)$/.exec(req.url ?? '');
    const i = m === null ? -1 : Number(m[2]);
    if (m === null || i >= bodies.length) {
      res.writeHead(404).end();
      return;
    }
    if (m[1] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': gzipped[i]!.length });
      res.end(gzipped[i]);
    } else {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': bodies[i]!.length });
      res.end(bodies[i]);
    }
  });
  const upstreamPort = await listen(upstream);
  const proxy = createProxy({ upstream: `http://127.0.0.1:${upstreamPort}` });
  const proxyPort = await listen(proxy);

  let requests = 0;
  let mismatches = 0;
  let errors = 0;
  let bytes = 0;
  let firstError: string | null = null;
  const start = performance.now();
  const deadline = start + durationMs;
  const client = async (id: number) => {
    let k = id;
    while (performance.now() < deadline && requests < maxRequests) {
      requests++;
      const i = k++ % bodies.length;
      const path = k % 2 === 0 ? `/${i}` : `/gz/${i}`;
      try {
        const res = await fetch(`http://127.0.0.1:${proxyPort}${path}`);
        const text = await res.text();
        bytes += Buffer.byteLength(text);
        if (res.status !== 200 || text !== expected[i]) {
          mismatches++;
          firstError ??= `${path}: status ${res.status}, body ${text.length} chars, expected ${expected[i]!.length}`;
        }
      } catch (err) {
        errors++;
        firstError ??= `${path}: ${(err as Error).message}`;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: clients }, (_, id) => client(id)));
  } finally {
    await close(proxy);
    await close(upstream);
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    requests,
    mismatches,
    errors,
    seconds,
    requestsPerSecond: requests / seconds,
    megabytesPerSecond: bytes / 1e6 / seconds,
    firstError,
  };
}
