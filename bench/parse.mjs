#!/usr/bin/env node
// Full-parse benchmark: HTML text to a DOM, sluice against parse5 and htmlparser2, same process, same
// strings.
//
//   npx tsc -b && node bench/parse.mjs [--rounds N] [--profile-only sluice]
//
// Over the 258 pages of htmlparser-benchmark, after a warm-up, interleaved rounds (the best counts):
//   - sluice: `parse` from @sluice/dom (tokenizer → tree builder → DomTreeSink), the full WHATWG algorithm;
//   - sluice, tree builder + DomTreeSink only: the same pages' tokens recorded once, then replayed into a
//     new TreeBuilder (what the tree builder and the DOM cost, without the tokenizer);
//   - parse5.parse (the full WHATWG algorithm into parse5's default tree);
//   - htmlparser2 + domhandler (not a WHATWG tree builder: no implied elements, no adoption agency,
//     no foster parenting — the speed a non-conforming parser gets).
// Prints MB/s (millions of UTF-16 code units per second) and the ratios; the goal is sluice ≥ 2× parse5.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { DomTreeSink, parse } from '../packages/dom/dist/index.js';
import { TreeBuilder } from '../packages/tree-builder/dist/index.js';
import { Tokenizer } from '../packages/tokenizer/dist/index.js';
import { timeBest, mbPerSecond, formatRow } from './lib/timing.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, 'package.json'));
const parse5 = await import(require.resolve('parse5'));
const { Parser: Htmlparser2Parser } = await import(require.resolve('htmlparser2'));
const { DomHandler } = await import(require.resolve('domhandler'));

const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 5;
const only = args.includes('--profile-only') ? args[args.indexOf('--profile-only') + 1] : null;

const filesDir = join(dirname(require.resolve('htmlparser-benchmark/package.json')), 'files');
const pages = readdirSync(filesDir)
  .filter((f) => f.endsWith('.html'))
  .sort()
  .map((f) => readFileSync(join(filesDir, f), 'utf8'));
const totalChars = pages.reduce((n, p) => n + p.length, 0);

let checksum = 0; // keeps the work observable

function sluiceParse() {
  for (const page of pages) checksum += parse(page).childNodes.length;
}

// Phase 2 (after the others, so its memory does not weigh on their garbage collection): record each
// page's tokens once, with the tree builder giving the tokenizer its feedback, decode them (names,
// attributes, values), then replay them into new tree builders: what the tree builder and the DOM cost
// without the tokenizer.
function recordTokens() {
  return pages.map((page) => {
    const tokens = [];
    const sink = new DomTreeSink();
    let builder = null;
    const tokenizer = new Tokenizer({ autoTextMode: false, cdataAllowed: () => builder.cdataAllowed() });
    builder = new TreeBuilder(sink, tokenizer);
    const emit = (token) => {
      if (token.type === 'startTag' || token.type === 'endTag') void token.attributes, void token.name;
      else if (token.type === 'text') void token.value;
      tokens.push(token);
      builder.processToken(token);
    };
    tokenizer.write(page, emit);
    tokenizer.end(emit);
    builder.processEnd();
    return tokens;
  });
}
const noFeedback = { setTextMode() {}, insert() {} };

function replay(recorded) {
  for (const tokens of recorded) {
    const sink = new DomTreeSink();
    const builder = new TreeBuilder(sink, noFeedback);
    for (let i = 0; i < tokens.length; i++) builder.processToken(tokens[i]);
    builder.processEnd();
    checksum += sink.document.childNodes.length;
  }
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

const REPLAY = 'sluice tree builder + DOM only (replay)';
const contenders = [
  ['sluice parse (@sluice/dom)', sluiceParse],
  ['parse5.parse', parse5Parse],
  ['htmlparser2 + domhandler (not WHATWG)', htmlparser2Parse],
].filter(([name]) => only === null || name.startsWith(only));

console.log(`${pages.length} pages, ${(totalChars / 1e6).toFixed(1)} M UTF-16 code units; best of ${rounds} rounds after a warm-up\n`);
timeBest(contenders, 2); // warm-up
const best = timeBest(contenders, rounds);
if (only === null || REPLAY.startsWith(only)) {
  const recorded = recordTokens();
  const replayContender = [[REPLAY, () => replay(recorded)]];
  timeBest(replayContender, 2);
  best[REPLAY] = timeBest(replayContender, rounds)[REPLAY];
}
for (const name of Object.keys(best)) console.log(formatRow(name, mbPerSecond(totalChars, best[name]), best[name]));
if (only === null) {
  const sluice = best['sluice parse (@sluice/dom)'];
  console.log('');
  console.log(`sluice / parse5 speed:          ${(best['parse5.parse'] / sluice).toFixed(2)}×   (goal: ≥ 2×)`);
  console.log(`sluice / htmlparser2 speed:     ${(best['htmlparser2 + domhandler (not WHATWG)'] / sluice).toFixed(2)}×`);
  console.log(`tree builder + DOM share:       ${((100 * best[REPLAY]) / sluice).toFixed(0)}% of sluice's parse time`);
}
if (checksum === 0) console.log('(checksum 0)');
