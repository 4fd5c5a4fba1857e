#!/usr/bin/env node
// Bounded memory: a passthrough rewrite of a generated 1 GB document (generated on the fly, never held
// whole), streamed through sluice's HTMLRewriter as UTF-8 bytes in 64 KiB chunks, output consumed and
// dropped. Samples RSS and heap after every chunk; prints the peaks; exits 1 if peak RSS ≥ 100 MB or if
// the output differs from the input (checked by length and a running hash).
//
// Run after building: npx tsc -b packages/rewriter && node bench/rewrite-memory.mjs [--mb 1024]
import { createHash } from 'node:crypto';
import { HTMLRewriter } from '../packages/rewriter/dist/index.js';

const args = process.argv.slice(2);
const MB = Number(args.includes('--mb') ? args[args.indexOf('--mb') + 1] : 1024);
const TOTAL = MB * 1024 * 1024;
const CHUNK = 64 * 1024;
const LIMIT = 100 * 1024 * 1024;

// A page-like document: nested sections of articles with links, text, lists, tables, comments, a
// script and multi-byte text, repeated until TOTAL bytes.
function block(i) {
  return `<section id="s${i}" class="block ${i % 3 ? 'odd' : 'even'}"><h2>Section ${i}</h2>` +
    `<article><p>Text ${i} with <a href="http://example.com/${i}">a link</a>, <b>bold</b>, <i>it</i> &amp; caf\u00e9 \u65e5\u672c.</p>` +
    `<ul><li>one<li>two<li><a href="/rel/${i}">three</a></ul><!-- c${i} -->` +
    `<table><tr><td>${i}</td><td>cell</td></tr></table><img src="/i/${i}.png" alt=""><br>` +
    `<script>var x${i % 10} = "<\\/p>" + ${i};</script></article></section>\n`;
}

const encoder = new TextEncoder();
const head = encoder.encode('<!DOCTYPE html><html><head><title>1 GB</title></head><body>\n');
const tail = encoder.encode('</body></html>\n');

// A 4 MiB stretch of blocks, cut into CHUNK-byte pieces anywhere (through multi-byte characters too),
// made once; the document is head + these pieces over and over + tail, produced chunk by chunk and
// never held whole. (Made once so that the generator's own garbage does not dominate the measurement.)
const stretch = encoder.encode(Array.from({ length: 6000 }, (_, i) => block(i)).join('').slice(0, 4 * 1024 * 1024));
const pieces = [];
for (let at = 0; at < stretch.length; at += CHUNK) pieces.push(stretch.subarray(at, at + CHUNK));

/** Yields the document in pieces of at most CHUNK bytes, TOTAL bytes in all. */
function* generate() {
  yield head;
  let produced = head.length;
  for (let k = 0; produced < TOTAL - tail.length; k++) {
    const piece = pieces[k % pieces.length];
    const room = TOTAL - tail.length - produced;
    const out = piece.length <= room ? piece : piece.subarray(0, room);
    produced += out.length;
    yield out;
  }
  yield tail;
}

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
for (const chunk of generate()) {
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
