#!/usr/bin/env node
// Load test of the example proxy (packages/example-proxy): an upstream and the proxy on 127.0.0.1,
// N concurrent fetch clients for a fixed duration (capped in requests), half the pages gzip-compressed
// upstream; every response body is checked against the expected rewrite. Prints throughput; exits 1 on
// any wrong or failed response. Stops by itself.
//
// Run after building: npx tsc -b packages/example-proxy && node bench/proxy-load.mjs [--clients 16] [--seconds 10]
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoadTest } from '../packages/example-proxy/dist/index.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const clients = option('--clients', 16);
const seconds = option('--seconds', 10);
const maxRequests = option('--max-requests', 200_000);

// Real pages: the first 40 of htmlparser-benchmark's (valid UTF-8 only: the proxy rewrites UTF-8).
const dir = join(fileURLToPath(new URL('.', import.meta.url)), 'node_modules', 'htmlparser-benchmark', 'files');
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const pages = [];
for (const f of readdirSync(dir).sort()) {
  if (pages.length >= 40) break;
  try {
    pages.push(decoder.decode(readFileSync(join(dir, f))));
  } catch {
    // not UTF-8
  }
}
const avg = pages.reduce((n, p) => n + Buffer.byteLength(p), 0) / pages.length;

const r = await runLoadTest({ clients, durationMs: seconds * 1000, maxRequests, pages });
console.log(`${clients} clients, ${r.seconds.toFixed(1)} s, ${pages.length} pages (avg ${(avg / 1024).toFixed(0)} KiB; half gzip upstream)`);
console.log(`${r.requests} requests   ${r.requestsPerSecond.toFixed(0)} req/s   ${r.megabytesPerSecond.toFixed(1)} MB/s of rewritten HTML`);
console.log(`wrong bodies: ${r.mismatches}   failed requests: ${r.errors}${r.firstError ? `   first: ${r.firstError}` : ''}`);
if (r.mismatches > 0 || r.errors > 0) process.exit(1);
