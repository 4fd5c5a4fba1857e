#!/usr/bin/env node
// Full-parse benchmark: HTML text to a DOM, sluice against parse5 and htmlparser2, same process, same
// strings.
//
//   npx tsc -b && node bench/parse.mjs [--rounds N] [--profile-only sluice] [--bytes-only]
//   (--bytes-only: only the four bytes-in rows and their goals, e.g. with more rounds on a busy machine)
//
// Over the 258 pages of htmlparser-benchmark, after a warm-up, interleaved rounds (the best counts):
//   - sluice: `parse` from @sluice/dom (tokenizer → tree builder → DomTreeSink), the full WHATWG algorithm.
//     The DOM decodes an element's attributes when something first reads them (the tree builder decodes
//     those its rules read: formatting elements, <input>, foreign elements …), so this row does not pay
//     for attributes nobody reads;
//   - the same parse, then every element's attributes decoded (a walk over the whole tree, template
//     contents included, calling `hasAttributes()`): what a parse costs when all attributes are wanted;
//   - sluice's tokenizer alone on the same pages, every tag name, attribute and text value decoded;
//   - parse5.parse (the full WHATWG algorithm into parse5's default tree);
//   - htmlparser2 + domhandler (not a WHATWG tree builder: no implied elements, no adoption agency,
//     no foster parenting — the speed a non-conforming parser gets);
//   - bytes in (issue 15 item 8): the pages as UTF-8 bytes, `parse(bytes, { contentType })` with the
//     charset a server would send, beside `TextDecoder` + `parse(string)` on the same bytes; and the same
//     two for the pages transcoded to windows-1252 (every character windows-1252 lacks replaced by `?`;
//     TextDecoder on its streaming path, the one that decodes windows-1252 right).
//     Parsing bytes should cost no more than decoding them first and parsing the string (goal ≤ 1×);
//   - source locations (issue 16 item 4): `parse(page, { sourceLocations: true })`, which keeps the text
//     and tags each node with it (lines and columns are worked out when read); the same with every node's
//     `sourceLocation` read (parse5's fields, attributes included); and parse5.parse with
//     `sourceCodeLocationInfo`, which computes them all as it parses. Off (the first row) must cost
//     nothing: compare the first row with and without this change (`npm run bench:parse`, medians).
// Prints MB/s (millions of UTF-16 code units per second) and the ratios; the goal is sluice ≥ 4× parse5
// (issue 19; it was 2×). Also (issue 19 item 1): this machine's limit on the same strings (a bare charCodeAt
// pass, an indexOf('<') scan: lib/limit.mjs) and the share of it the parse reaches; and the heap of the 258
// documents kept alive, sluice's against parse5's (after a full GC, the pages themselves not counted;
// goal ≤ 0.25×).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { parse, serialize } from '../packages/dom/dist/index.js';
import { Tokenizer } from '../packages/tokenizer/dist/index.js';
import { timeBest, mbPerSecond, formatRow } from './lib/timing.mjs';
import { formatLimit, goalRow, machineLimit } from './lib/limit.mjs';
import v8 from 'node:v8';
import vm from 'node:vm';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, 'package.json'));
const parse5 = await import(require.resolve('parse5'));
const { Parser: Htmlparser2Parser } = await import(require.resolve('htmlparser2'));
const { DomHandler } = await import(require.resolve('domhandler'));

const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 5;
const only = args.includes('--profile-only') ? args[args.indexOf('--profile-only') + 1] : null;
const bytesOnly = args.includes('--bytes-only');

const filesDir = join(dirname(require.resolve('htmlparser-benchmark/package.json')), 'files');
const pages = readdirSync(filesDir)
  .filter((f) => f.endsWith('.html'))
  .sort()
  .map((f) => readFileSync(join(filesDir, f), 'utf8'));
const totalChars = pages.reduce((n, p) => n + p.length, 0);

// Bytes in. UTF-8: what a server sends for these pages. windows-1252: the pages re-encoded by an encoder
// made by inverting a windows-1252 decoder (all 256 bytes decode; 0x81, 0x8D… to C1 controls), so the
// bytes decode back to exactly the page with `?` for what windows-1252 cannot hold. The decoder is
// TextDecoder's streaming path: its one-shot `decode` of windows-1252 takes a Latin-1 fast path in Node
// ≥ 20.18.3 / 22.13 and gives 0x80–0x9F as C1 controls, not € ‚ ƒ … (nodejs/node#60888; docs/encoding.md).
const decodeWindows1252 = (decoder, bytes) => decoder.decode(bytes, { stream: true }) + decoder.decode();
const utf8Pages = pages.map((p) => new TextEncoder().encode(p));
const windows1252Of = (() => {
  const table = new Map();
  const decoded = decodeWindows1252(new TextDecoder('windows-1252'), Uint8Array.from({ length: 256 }, (_, i) => i));
  if (decoded[0x80] !== '€') throw new Error('this TextDecoder decodes windows-1252 wrongly even when streaming');
  for (let i = 0; i < 256; i++) table.set(decoded.charCodeAt(i), i);
  return (page) => {
    const out = [];
    for (const ch of page) out.push(table.get(ch.codePointAt(0)) ?? 0x3f);
    return Uint8Array.from(out);
  };
})();
const windows1252Pages = pages.map(windows1252Of);
const windows1252Chars = windows1252Pages.reduce((n, b) => n + b.length, 0);
const UTF8_TYPE = { contentType: 'text/html; charset=utf-8' };
const WINDOWS_1252_TYPE = { contentType: 'text/html; charset=windows-1252' };
// The rows compared must do the same work: on every 10th page, parsing the bytes gives the document that
// decoding them and parsing the string gives.
for (let i = 0; i < pages.length; i += 10) {
  const w1252 = windows1252Pages[i];
  if (serialize(parse(w1252, WINDOWS_1252_TYPE)) !== serialize(parse(decodeWindows1252(new TextDecoder('windows-1252'), w1252)))) {
    throw new Error(`page ${i}: parse(windows-1252 bytes) differs from TextDecoder + parse(string)`);
  }
  if (serialize(parse(utf8Pages[i], UTF8_TYPE)) !== serialize(parse(new TextDecoder().decode(utf8Pages[i])))) {
    throw new Error(`page ${i}: parse(UTF-8 bytes) differs from TextDecoder + parse(string)`);
  }
}

let checksum = 0; // keeps the work observable

function sluiceParse() {
  for (const page of pages) checksum += parse(page).childNodes.length;
}

// Parse, then read every element's attributes (decoding them all), walking the tree without recursion.
function sluiceParseReadAttributes() {
  for (const page of pages) {
    const pending = [parse(page)];
    while (pending.length > 0) {
      for (let n = pending.pop().firstChild; n !== null; n = n.nextSibling) {
        if (n.nodeType !== 1) continue;
        // `hasAttributes()` decodes the element's whole attribute list (decoding is all or nothing) without
        // making Attr nodes (what `attributes` would do).
        if (n.hasAttributes()) checksum++;
        if (n.firstChild !== null) pending.push(n);
        if (n.content !== undefined) pending.push(n.content);
      }
    }
  }
}

// The tokenizer alone (fields decoded as the tree builder reads them), switching its text modes itself
// (autoTextMode): full parse minus this is what the tree builder and the DOM cost.
function sluiceTokenizeOnly() {
  const emit = (token) => {
    switch (token.type) {
      case 'startTag':
        checksum += token.name.length + token.attributes.length;
        break;
      case 'endTag':
        checksum += token.name.length;
        break;
      case 'text':
        checksum += token.value.length;
        break;
      case 'comment':
        checksum += token.data.length;
        break;
    }
  };
  for (const page of pages) {
    const tokenizer = new Tokenizer({ autoTextMode: true });
    tokenizer.write(page, emit);
    tokenizer.end(emit);
  }
}

function sluiceParseUtf8Bytes() {
  for (const bytes of utf8Pages) checksum += parse(bytes, UTF8_TYPE).childNodes.length;
}

function textDecoderThenParseUtf8() {
  const decoder = new TextDecoder('utf-8');
  for (const bytes of utf8Pages) checksum += parse(decoder.decode(bytes)).childNodes.length;
}

function sluiceParseWindows1252Bytes() {
  for (const bytes of windows1252Pages) checksum += parse(bytes, WINDOWS_1252_TYPE).childNodes.length;
}

// The platform's decoder, on its streaming path (the right one, see above).
function textDecoderThenParseWindows1252() {
  const decoder = new TextDecoder('windows-1252');
  for (const bytes of windows1252Pages) checksum += parse(decodeWindows1252(decoder, bytes)).childNodes.length;
}

function sluiceParseWithLocations() {
  for (const page of pages) checksum += parse(page, LOCATIONS).childNodes.length;
}

// Every node's location read (template contents included), walking the tree without recursion.
function sluiceParseReadLocations() {
  for (const page of pages) {
    const pending = [parse(page, LOCATIONS)];
    while (pending.length > 0) {
      for (let n = pending.pop().firstChild; n !== null; n = n.nextSibling) {
        const location = n.sourceLocation;
        if (location !== null) checksum += location.endLine;
        if (n.firstChild !== null) pending.push(n);
        if (n.content !== undefined) pending.push(n.content);
      }
    }
  }
}

function parse5ParseWithLocations() {
  for (const page of pages) checksum += parse5.parse(page, { sourceCodeLocationInfo: true }).childNodes.length;
}

function parse5Parse() {
  for (const page of pages) checksum += parse5.parse(page).childNodes.length;
}

function htmlparser2Parse() {
  for (const page of pages) {
    const handler = new DomHandler();
    const parser = new Htmlparser2Parser(handler);
    parser.end(page);
    checksum += handler.root.children.length;
  }
}

const TOKENIZER = 'sluice tokenizer only (all fields decoded)';
const UTF8_BYTES = 'sluice parse(Uint8Array), UTF-8';
const UTF8_DECODE = 'TextDecoder + parse(string), UTF-8';
const W1252_BYTES = 'sluice parse(Uint8Array), windows-1252';
const W1252_DECODE = 'TextDecoder + parse(string), windows-1252';
const READ_ALL = 'sluice parse + read every attribute';
const LOCATIONS = { sourceLocations: true };
const WITH_LOCATIONS = 'sluice parse with sourceLocations';
const READ_LOCATIONS = 'sluice parse with sourceLocations + read every location';
const PARSE5_LOCATIONS = 'parse5.parse with sourceCodeLocationInfo';
const contenders = [
  ['sluice parse (@sluice/dom)', sluiceParse],
  [READ_ALL, sluiceParseReadAttributes],
  [TOKENIZER, sluiceTokenizeOnly],
  ['parse5.parse', parse5Parse],
  ['htmlparser2 + domhandler (not WHATWG)', htmlparser2Parse],
  [UTF8_BYTES, sluiceParseUtf8Bytes],
  [UTF8_DECODE, textDecoderThenParseUtf8],
  [W1252_BYTES, sluiceParseWindows1252Bytes],
  [W1252_DECODE, textDecoderThenParseWindows1252],
  [WITH_LOCATIONS, sluiceParseWithLocations],
  [READ_LOCATIONS, sluiceParseReadLocations],
  [PARSE5_LOCATIONS, parse5ParseWithLocations],
].filter(([name]) => (bytesOnly ? [UTF8_BYTES, UTF8_DECODE, W1252_BYTES, W1252_DECODE].includes(name) : only === null || name.startsWith(only)));

console.log(`${pages.length} pages, ${(totalChars / 1e6).toFixed(1)} M UTF-16 code units; best of ${rounds} rounds after a warm-up\n`);
timeBest(contenders, 2); // warm-up
const best = timeBest(contenders, rounds);
// MB/s counts the characters parsed: the windows-1252 pages have a few fewer (an astral character is one `?`).
for (const name of Object.keys(best)) console.log(formatRow(name, mbPerSecond(name.endsWith('windows-1252') ? windows1252Chars : totalChars, best[name]), best[name]));
if (only === null) {
  // Issue 15 item 8: bytes in cost no more than the platform's decoder and a string parse.
  if (bytesOnly) console.log('');
  console.log(goalRow('parse(bytes), UTF-8', best[UTF8_BYTES] / best[UTF8_DECODE], 'TextDecoder + parse(string)', 1, { atMost: true }));
  console.log(goalRow('parse(bytes), windows-1252', best[W1252_BYTES] / best[W1252_DECODE], 'TextDecoder + parse(string)', 1, { atMost: true }));
}
if (only === null && !bytesOnly) {
  const sluice = best['sluice parse (@sluice/dom)'];
  const readAll = best[READ_ALL];
  const treeAndDom = readAll - best[TOKENIZER];
  console.log('');
  console.log(goalRow('parse into the DOM', best['parse5.parse'] / sluice, 'parse5', 4));
  console.log(`  … attributes all read:        ${(best['parse5.parse'] / readAll).toFixed(2)}×`);
  console.log(`sluice / htmlparser2 speed:     ${(best['htmlparser2 + domhandler (not WHATWG)'] / sluice).toFixed(2)}×`);
  console.log(`tree builder + DOM (parse with every attribute read − tokenizer): ${treeAndDom.toFixed(0)} ms, ${((100 * treeAndDom) / readAll).toFixed(0)}% of that parse`);
  console.log(`parse with sourceLocations costs ${(best[WITH_LOCATIONS] / sluice).toFixed(2)}× parse without; every location read ${(best[READ_LOCATIONS] / sluice).toFixed(2)}×`);
  console.log(`sluice / parse5 speed, both with locations (every sluice location read): ${(best[PARSE5_LOCATIONS] / best[READ_LOCATIONS]).toFixed(2)}×`);
}
if (checksum === 0) console.log('(checksum 0)');

// ---- Heap of the parsed documents kept alive (issue 19) -------------------------------------------

if (only === null && !bytesOnly) {
  console.log('');
  console.log(formatLimit(machineLimit(pages, rounds), [['sluice parse', mbPerSecond(totalChars, best['sluice parse (@sluice/dom)'])]]));
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  /**
   * Heap used by the 258 documents `parseAll` returns, kept alive, after full GCs. In a function of its
   * own: the documents must be unreachable once it returns (a loop variable in the caller's frame can
   * keep the last round's alive through the next round's measure).
   */
  const keptBy = (parseAll) => {
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const documents = parseAll();
    gc();
    gc();
    const kept = process.memoryUsage().heapUsed - before;
    checksum += documents.length;
    return kept;
  };
  /** Median of 3 measures. */
  const heapOf = (parseAll) => [keptBy(parseAll), keptBy(parseAll), keptBy(parseAll)].sort((a, b) => a - b)[1];
  const sluiceHeap = heapOf(() => pages.map((page) => parse(page)));
  const parse5Heap = heapOf(() => pages.map((page) => parse5.parse(page)));
  const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
  console.log(`heap of the ${pages.length} parsed documents kept alive: sluice ${mb(sluiceHeap)}, parse5 ${mb(parse5Heap)} (the pages: ${mb(2 * totalChars)} at most, not counted)`);
  console.log(goalRow('heap of the parsed documents', sluiceHeap / parse5Heap, "parse5's", 0.25, { atMost: true }));
}
