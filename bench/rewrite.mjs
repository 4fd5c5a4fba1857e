#!/usr/bin/env node
// Rewriting benchmark: bytes in, bytes out, over the 258 pages of htmlparser-benchmark, with one
// `a[href]` element handler that reads the attribute. sluice's HTMLRewriter against lol-html
// (html-rewriter-wasm) and parse5-html-rewriting-stream, in the same process, same inputs; prints MB/s
// and ratios. Every engine's output is checked to equal its input (the handler changes nothing).
// Each engine gets the same Uint8Array chunks and gives back Uint8Arrays: sluice through its byte
// interface; also shown, sluice's string interface between a TextDecoder and a TextEncoder (what the
// byte interface saves); parse5's stream works on strings, so it gets the decoder and encoder.
//
// A second table is the path users run: sluice's `HTMLRewriter.transform(Response)` on a Response whose
// body arrives in 16 KiB chunks (a pull source, one chunk per pull, read back chunk by chunk), against
// lol-html fed the same 16 KiB chunks, parse5-html-rewriting-stream fed them (through a TextDecoder and
// TextEncoder) and sluice's push interface on them; issue 19's goals are ≥ 2× lol-html and ≥ 10× parse5's
// rewriting stream. Last, this machine's limit on the same bytes (a bare byte-by-byte pass and an
// indexOf(0x3C) scan: lib/limit.mjs) and the share of it each row reaches.
//
// Between the two, legacy encodings (issue 15 item 8; `--only encodings` prints that table alone): the byte
// rewriter on the pages transcoded to windows-1252 and to Shift_JIS, each against its UTF-8 row.
//
// Run after building: npx tsc -b packages/rewriter && node bench/rewrite.mjs [--rounds N] [--chunk BYTES] [--only NAME|encodings|response]
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HTMLRewriter } from '../packages/rewriter/dist/index.js';
import { formatLimit, goalRow, machineLimit } from './lib/limit.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const require = createRequire(join(here, 'package.json'));
const { HTMLRewriter: LolHtmlRewriter } = require('html-rewriter-wasm');
const { RewritingStream } = require('parse5-html-rewriting-stream');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ROUNDS = option('--rounds', 5);
// 0: each page is written as one chunk; otherwise pages are cut into chunks of this many bytes.
const CHUNK = option('--chunk', 0);

const dir = join(here, 'node_modules', 'htmlparser-benchmark', 'files');
const pages = readdirSync(dir)
  .filter((f) => f.endsWith('.html'))
  .sort()
  .map((f) => new Uint8Array(readFileSync(join(dir, f))));
const totalBytes = pages.reduce((n, p) => n + p.length, 0);

function chunksOf(bytes) {
  if (CHUNK <= 0) return [bytes];
  const out = [];
  for (let i = 0; i < bytes.length; i += CHUNK) out.push(bytes.subarray(i, i + CHUNK));
  return out;
}
const chunked = pages.map(chunksOf);

let hrefChars = 0;

/**
 * sluice: bytes in, bytes out through `createByteTransformer` — each chunk decoded whole, and untouched
 * valid UTF-8 copied from the input rather than encoded again.
 */
async function sluice(chunks) {
  const out = [];
  const rewriter = new HTMLRewriter().on('a[href]', {
    element(el) {
      hrefChars += el.getAttribute('href').length;
    },
  });
  const t = rewriter.createByteTransformer((b) => out.push(b));
  for (const c of chunks) {
    const p = t.write(c);
    if (p !== undefined) await p;
  }
  const p = t.end();
  if (p !== undefined) await p;
  return out;
}

/** sluice's string interface with a streaming TextDecoder before it and a TextEncoder after it. */
async function sluiceStrings(chunks) {
  // ignoreBOM: keep a byte order mark as text, so that bytes out equal bytes in.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const encoder = new TextEncoder();
  const out = [];
  const rewriter = new HTMLRewriter().on('a[href]', {
    element(el) {
      hrefChars += el.getAttribute('href').length;
    },
  });
  const t = rewriter.createTransformer((s) => out.push(encoder.encode(s)));
  for (const c of chunks) {
    const p = t.write(decoder.decode(c, { stream: true }));
    if (p !== undefined) await p;
  }
  const tail = decoder.decode();
  if (tail.length > 0) await t.write(tail);
  await t.end();
  return out;
}

/** lol-html through html-rewriter-wasm: bytes in, bytes out. */
async function lolHtml(chunks) {
  const out = [];
  const rewriter = new LolHtmlRewriter((c) => out.push(c.slice()));
  rewriter.on('a[href]', {
    element(el) {
      hrefChars += el.getAttribute('href').length;
    },
  });
  try {
    for (const c of chunks) await rewriter.write(c);
    await rewriter.end();
  } finally {
    rewriter.free();
  }
  return out;
}

/**
 * sluice's public streaming path: `transform()` of a Response whose body is a pull source giving one chunk
 * per pull, the output body read chunk by chunk (as a server writing it to a socket would).
 */
async function sluiceResponse(chunks) {
  const rewriter = new HTMLRewriter().on('a[href]', {
    element(el) {
      hrefChars += el.getAttribute('href').length;
    },
  });
  let i = 0;
  const body = new ReadableStream(
    {
      pull(c) {
        if (i < chunks.length) c.enqueue(chunks[i++]);
        else c.close();
      },
    },
    { highWaterMark: 0 },
  );
  const reader = rewriter.transform(new Response(body)).body.getReader();
  const out = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

/** parse5-html-rewriting-stream: a Node Transform of strings; decode and encode around it. */
function parse5(chunks) {
  return new Promise((resolve, reject) => {
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const encoder = new TextEncoder();
    const out = [];
    const rewriter = new RewritingStream();
    rewriter.on('startTag', (tag, raw) => {
      if (tag.tagName === 'a') {
        const href = tag.attrs.find((a) => a.name === 'href');
        if (href !== undefined) hrefChars += href.value.length;
      }
      rewriter.emitRaw(raw);
    });
    rewriter.on('data', (s) => out.push(encoder.encode(s)));
    rewriter.on('end', () => resolve(out));
    rewriter.on('error', reject);
    for (const c of chunks) rewriter.write(decoder.decode(c, { stream: true }));
    rewriter.end(decoder.decode());
  });
}

function equalBytes(parts, expected) {
  let n = 0;
  for (const p of parts) n += p.length;
  if (n !== expected.length) return false;
  let at = 0;
  for (const p of parts) {
    for (let i = 0; i < p.length; i++) if (p[i] !== expected[at + i]) return false;
    at += p.length;
  }
  return true;
}

const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : null;
const engines = [
  ['sluice', sluice],
  ['sluice (strings + TextDecoder/Encoder)', sluiceStrings],
  ['lol-html (html-rewriter-wasm)', lolHtml],
  ['parse5-html-rewriting-stream', parse5],
].filter(([name]) => only === null || name === only || (name.startsWith(only) && !name.startsWith('sluice ')));

// Correctness first: every engine must give back every page unchanged.
for (const [name, run] of engines) {
  let bad = 0;
  for (let i = 0; i < pages.length; i++) if (!equalBytes(await run(chunked[i]), pages[i])) bad++;
  if (bad > 0) console.log(`note: ${name} changed ${bad} of ${pages.length} pages (its passthrough is not byte-exact)`);
}

async function measure(run, inputs = chunked) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < inputs.length; i++) await run(inputs[i]);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

// Interleave the engines round by round so they see the same machine state.
const times = new Map(engines.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS + 1; round++) {
  for (const [name, run] of engines) {
    const s = await measure(run);
    if (round > 0) times.get(name).push(s); // round 0 warms up
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mbps = new Map([...times].map(([name, ts]) => [name, totalBytes / 1e6 / median(ts)]));
console.log(`${pages.length} pages, ${(totalBytes / 1e6).toFixed(1)} MB, ${CHUNK > 0 ? `${CHUNK}-byte chunks` : 'one chunk per page'}, median of ${ROUNDS} rounds`);
const ours = mbps.get('sluice');
const oursTimes = times.get('sluice');
for (const [name, v] of mbps) {
  let ratio = '';
  if (!name.startsWith('sluice') && ours !== undefined) {
    // Also each round's own ratio (the engines run back to back in a round, so a busy spell on this
    // shared machine moves both times of a round together): its spread says how far to trust the median.
    const perRound = times.get(name).map((t, r) => t / oursTimes[r]);
    ratio = `   sluice is ${(ours / v).toFixed(2)}x (per round: median ${median(perRound).toFixed(2)}, ${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})`;
  }
  console.log(`${name.padEnd(40)} ${v.toFixed(1).padStart(7)} MB/s${ratio}`);
}

// Legacy encodings (issue 15 item 8): the byte rewriter on the same pages transcoded to windows-1252 (the
// web's default) and to Shift_JIS (a multi-byte one), the encoding named by a Content-Type charset as a
// server sends it, against the same rewriter on the UTF-8 pages named the same way. For these encodings the
// rewriter decodes each chunk and copies untouched input as the original bytes (docs/encoding.md), so the
// output must equal the input here too. lol-html: html-rewriter-wasm 0.4.1 has no encoding option (its
// HTMLRewriterOptions is `enableEsiTags` only; lol-html's Rust `Settings::encoding` is not exposed), so it
// reads every input as UTF-8; its row on the windows-1252 bytes is shown for its speed on them, not as the
// same work (non-ASCII bytes are malformed UTF-8 to it, and it decodes nothing in the legacy encoding).
if (only === null || only === 'encodings') {
  const texts = pages.map((p) => new TextDecoder().decode(p));
  // windows-1252: an encoder made by inverting the streaming TextDecoder (its one-shot decode of
  // windows-1252 is wrong in Node ≥ 20.18.3, nodejs/node#60888); a character it cannot hold becomes `?`.
  const windows1252Of = (() => {
    const decoder = new TextDecoder('windows-1252');
    const all = decoder.decode(Uint8Array.from({ length: 256 }, (_, i) => i), { stream: true }) + decoder.decode();
    if (all[0x80] !== '€') throw new Error('this TextDecoder decodes windows-1252 wrongly even when streaming');
    const table = new Map();
    for (let i = 0; i < 256; i++) table.set(all.charCodeAt(i), i);
    return (text) => {
      const out = [];
      for (const ch of text) out.push(table.get(ch.codePointAt(0)) ?? 0x3f);
      return Uint8Array.from(out);
    };
  })();
  // Shift_JIS: iconv-lite (a dev dependency of tests/, a maintained encoder; `?` for what Shift_JIS lacks).
  let iconv = null;
  try {
    iconv = createRequire(join(here, '..', 'tests', 'package.json'))('iconv-lite');
  } catch {
    console.log('\nnote: iconv-lite is not installed in tests/node_modules: no Shift_JIS row');
  }
  const inputs = [
    ['UTF-8', pages, 'text/html; charset=utf-8'],
    ['windows-1252', texts.map(windows1252Of), 'text/html; charset=windows-1252'],
    ...(iconv === null ? [] : [['Shift_JIS', texts.map((t) => new Uint8Array(iconv.encode(t, 'Shift_JIS'))), 'text/html; charset=Shift_JIS']]),
  ];
  /** sluice's byte rewriter told the encoding by a Content-Type value. */
  const sluiceWith = (contentType) => async (chunks) => {
    const out = [];
    const rewriter = new HTMLRewriter().on('a[href]', {
      element(el) {
        hrefChars += el.getAttribute('href').length;
      },
    });
    const t = rewriter.createByteTransformer((b) => out.push(b), { contentType });
    for (const c of chunks) {
      const p = t.write(c);
      if (p !== undefined) await p;
    }
    const p = t.end();
    if (p !== undefined) await p;
    return out;
  };
  const rows = [
    ...inputs.map(([encoding, bytes, contentType]) => [`sluice, ${encoding}`, sluiceWith(contentType), bytes]),
    ['lol-html, UTF-8', lolHtml, pages],
    ['lol-html, windows-1252 bytes (read as UTF-8)', lolHtml, inputs[1][1]],
  ].map(([name, run, bytes]) => [name, run, bytes, bytes.map(chunksOf), bytes.reduce((n, b) => n + b.length, 0)]);
  for (const [name, run, bytes, chunks] of rows) {
    let bad = 0;
    for (let i = 0; i < bytes.length; i++) if (!equalBytes(await run(chunks[i]), bytes[i])) bad++;
    if (bad > 0) console.log(`note: ${name} changed ${bad} of ${bytes.length} pages (its passthrough is not byte-exact)`);
  }
  const tEnc = new Map(rows.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const [name, run, , chunks] of rows) {
      const s = await measure(run, chunks);
      if (round > 0) tEnc.get(name).push(s);
    }
  }
  console.log(`\nLegacy encodings: the same pages transcoded, the encoding named by a Content-Type charset, ${CHUNK > 0 ? `${CHUNK}-byte chunks` : 'one chunk per page'}, median of ${ROUNDS} rounds`);
  const utf8 = tEnc.get('sluice, UTF-8');
  const lolUtf8 = tEnc.get('lol-html, UTF-8');
  for (const [name, , , , size] of rows) {
    const ts = tEnc.get(name);
    const base = name.startsWith('sluice') ? utf8 : lolUtf8;
    const perRound = ts.map((t, r) => t / base[r]);
    const ratio = ts === base ? '' : `   ${(median(ts) / median(base)).toFixed(2)}× the time of its UTF-8 row (per round: median ${median(perRound).toFixed(2)}, ${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})`;
    console.log(`${name.padEnd(46)} ${(size / 1e6 / median(ts)).toFixed(1).padStart(7)} MB/s ${(1000 * median(ts)).toFixed(0).padStart(6)} ms${ratio}`);
  }
  const lol1252 = tEnc.get('lol-html, windows-1252 bytes (read as UTF-8)');
  const sluice1252 = tEnc.get('sluice, windows-1252');
  console.log(`sluice windows-1252 / lol-html on the same bytes (which it reads as UTF-8): ${(median(lol1252) / median(sluice1252)).toFixed(2)}× lol-html's speed`);
}

// The Response path: transform() on 16 KiB chunks against lol-html on the same chunks (and sluice's push
// interface on them, to show what the stream glue costs), interleaved round by round like the table above.
if (only === null || only === 'response') {
  const RESPONSE_CHUNK = 16 * 1024;
  const chunked16 = pages.map((bytes) => {
    const out = [];
    for (let i = 0; i < bytes.length; i += RESPONSE_CHUNK) out.push(bytes.subarray(i, i + RESPONSE_CHUNK));
    return out;
  });
  const rows = [
    ['sluice transform(Response)', sluiceResponse],
    ['sluice push (createByteTransformer)', sluice],
    ['lol-html (html-rewriter-wasm)', lolHtml],
    ['parse5-html-rewriting-stream', parse5],
  ];
  for (const [name, run] of rows) {
    let bad = 0;
    for (let i = 0; i < pages.length; i++) if (!equalBytes(await run(chunked16[i]), pages[i])) bad++;
    if (bad > 0) console.log(`note: ${name} changed ${bad} of ${pages.length} pages on 16 KiB chunks`);
  }
  const t16 = new Map(rows.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const [name, run] of rows) {
      const s = await measure(run, chunked16);
      if (round > 0) t16.get(name).push(s);
    }
  }
  console.log(`\nResponse body streamed in ${RESPONSE_CHUNK}-byte chunks, median of ${ROUNDS} rounds`);
  const lol = t16.get('lol-html (html-rewriter-wasm)');
  const rowSpeed = [];
  for (const [name, ts] of t16) {
    const v = totalBytes / 1e6 / median(ts);
    rowSpeed.push([name, v]);
    let ratio = '';
    if (name.startsWith('sluice')) {
      const perRound = lol.map((t, r) => t / ts[r]);
      ratio = `   ${(median(lol) / median(ts)).toFixed(2)}x lol-html (per round: median ${median(perRound).toFixed(2)}, ${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})`;
    }
    console.log(`${name.padEnd(40)} ${v.toFixed(1).padStart(7)} MB/s${ratio}`);
  }
  // Issue 19's goals for the path users run.
  const response = median(t16.get('sluice transform(Response)'));
  console.log('');
  console.log(goalRow('rewrite, Response body in 16 KiB chunks', median(lol) / response, 'lol-html wasm', 2));
  console.log(goalRow('rewrite, Response body in 16 KiB chunks', median(t16.get('parse5-html-rewriting-stream')) / response, 'parse5-html-rewriting-stream', 10));
  console.log('');
  console.log(formatLimit(machineLimit(pages, ROUNDS), rowSpeed, 'byte'));
}

if (hrefChars === 0) throw new Error('no href was read');
