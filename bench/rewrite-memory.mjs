#!/usr/bin/env node
// Bounded memory: a passthrough rewrite of a generated 1 GB document (generated on the fly, never held
// whole), streamed through sluice's HTMLRewriter as UTF-8 bytes in 64 KiB chunks, output consumed and
// dropped. Samples RSS and heap after every chunk; prints the peaks; exits 1 if peak RSS ≥ 100 MB or if
// the output differs from the input (checked by length and a running hash).
//
// Run after building: npx tsc -b packages/rewriter && node bench/rewrite-memory.mjs [--mb 1024]
import { createHash } from 'node:crypto';
import { HTMLRewriter } from '../packages/rewriter/dist/index.js';
import { bigDocument } from './lib/big-document.mjs';

const args = process.argv.slice(2);
const MB = Number(args.includes('--mb') ? args[args.indexOf('--mb') + 1] : 1024);
const TOTAL = MB * 1024 * 1024;
const CHUNK = 64 * 1024;
const LIMIT = 100 * 1024 * 1024;

let hrefs = 0;
const rewriter = new HTMLRewriter().on('a[href]', {
  element(el) {
    hrefs += el.getAttribute('href').length > 0 ? 1 : 0;
  },
});
const inHash = createHash('sha256');
const outHash = createHash('sha256');
let inBytes = 0;
let outBytes = 0;
const t = rewriter.createTransformer((s) => {
  outBytes += Buffer.byteLength(s, 'utf8');
  outHash.update(s, 'utf8');
});
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

let peakRss = 0;
let peakHeap = 0;
const sample = () => {
  const m = process.memoryUsage();
  if (m.rss > peakRss) peakRss = m.rss;
  if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
};

const start = performance.now();
let n = 0;
for (const chunk of bigDocument(TOTAL, '<!DOCTYPE html><html><head><title>1 GB</title></head><body>\n', CHUNK)) {
  inBytes += chunk.length;
  inHash.update(chunk);
  const p = t.write(decoder.decode(chunk, { stream: true }));
  if (p !== undefined) await p;
  if ((n++ & 15) === 0) sample();
}
await t.end();
sample();
const seconds = (performance.now() - start) / 1000;
const same = inBytes === outBytes && inHash.digest('hex') === outHash.digest('hex');
const maxRss = process.resourceUsage().maxRSS * 1024;
const fmt = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`;
console.log(`passthrough rewrite of ${fmt(inBytes)} in ${seconds.toFixed(1)} s (${(inBytes / 1e6 / seconds).toFixed(1)} MB/s), ${hrefs} a[href] handled`);
console.log(`output identical to input: ${same}`);
console.log(`peak RSS ${fmt(Math.max(peakRss, maxRss))} (sampled ${fmt(peakRss)}, getrusage maxRSS ${fmt(maxRss)})   peak heap used ${fmt(peakHeap)}   bound ${fmt(LIMIT)}`);
if (!same || Math.max(peakRss, maxRss) >= LIMIT) {
  console.log('FAIL');
  process.exit(1);
}
console.log('PASS');
