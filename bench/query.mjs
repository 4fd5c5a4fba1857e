#!/usr/bin/env node
// Querying benchmark: the same selectors over the 258 pages of htmlparser-benchmark, answered by
// sluice's `querySelectorAll` on sluice's DOM, by css-select's `selectAll` over a domhandler tree
// (htmlparser2's `parseDocument`), and by cheerio (`cheerio.load(html)` then `$(selector)`), in the same
// process. Only the querying is timed: every engine parses all pages first. Rounds are interleaved; the
// median round is reported, with per-selector-group ratios (sluice ÷ peer speedup: how many times faster
// sluice is). Each engine's answer counts are compared before timing; where the engines' semantics
// differ (css-select is not a browser), the selector is reported and left out of the timing.
//
// Run after building: node scripts/setup.mjs && node bench/query.mjs [--rounds N]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parse } from '../packages/dom/dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, 'package.json'));
const { selectAll } = await import(require.resolve('css-select'));
const { parseDocument } = await import(require.resolve('htmlparser2'));
const cheerio = await import(require.resolve('cheerio'));

const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 7;

const filesDir = join(dirname(require.resolve('htmlparser-benchmark/package.json')), 'files');
const pages = readdirSync(filesDir)
  .filter((f) => f.endsWith('.html'))
  .sort()
  .map((f) => readFileSync(join(filesDir, f), 'utf8'));

/** Selectors every engine supports, grouped by what they exercise. */
const GROUPS = {
  'type, class, id': ['div', 'a', 'li', '.clearfix', '.nav', '#main', '#content', 'div.content', 'span.date'],
  attributes: ['[href]', 'a[href^="http"]', 'a[href$=".html"]', '[class~=nav]', 'img[alt]', 'meta[name][content]', 'input[type=text]', '[id*=foot]'],
  combinators: ['div p', 'div > p', 'ul li a', 'body > div > div', 'li + li', 'h2 ~ p', 'div p span', 'table tr td', 'ul > li > a'],
  'structural pseudo-classes': ['li:nth-child(2n+1)', 'tr:nth-child(even)', 'li:first-child', 'li:last-child', 'p:only-child', 'td:nth-of-type(2)', 'div:first-of-type', ':empty'],
  'logical, :has': [':is(h1, h2, h3)', 'p:not(.x)', 'div:has(> a)', 'li:has(a)', ':not(div, span, a)', 'a:is([href^="http"], [href^="/"])', 'div:has(+ div)'],
};
const all = Object.values(GROUPS).flat();

// Parse every page once per engine; not timed.
const sluiceDocs = pages.map((p) => parse(p));
const domhandlerDocs = pages.map((p) => parseDocument(p));
const cheerioDocs = pages.map((p) => cheerio.load(p));

const engines = {
  sluice: (sel) => {
    let n = 0;
    for (const doc of sluiceDocs) n += doc.querySelectorAll(sel).length;
    return n;
  },
  'css-select (domhandler)': (sel) => {
    let n = 0;
    for (const doc of domhandlerDocs) n += selectAll(sel, doc).length;
    return n;
  },
  cheerio: (sel) => {
    let n = 0;
    for (const $ of cheerioDocs) n += $(sel).length;
    return n;
  },
};

// Same answers first (counts over the corpus). sluice and cheerio (parse5) build the browser's tree, so
// they must agree; a selector they disagree on is reported and not timed. htmlparser2's tree is not the
// browser's (no implied elements, template contents as children, …), so css-select's counts differ a
// little on most selectors: shown, not held against it.
const disagree = [];
const differences = [];
for (const sel of all) {
  const counts = Object.fromEntries(Object.entries(engines).map(([name, run]) => [name, run(sel)]));
  if (counts.sluice !== counts.cheerio) disagree.push(`${sel} ${JSON.stringify(counts)}`);
  else if (counts['css-select (domhandler)'] !== counts.sluice) differences.push(`${sel}: ${counts.sluice} vs ${counts['css-select (domhandler)']}`);
}
const disagreeing = new Set(disagree.map((d) => d.slice(0, d.lastIndexOf(' {'))));

const names = Object.keys(engines);
const times = Object.fromEntries(Object.keys(GROUPS).map((g) => [g, Object.fromEntries(names.map((n) => [n, []]))]));
for (let r = 0; r < rounds; r++) {
  for (const [group, selectors] of Object.entries(GROUPS)) {
    for (const name of names) {
      const run = engines[name];
      const start = process.hrtime.bigint();
      for (const sel of selectors) if (!disagreeing.has(sel)) run(sel);
      times[group][name].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

console.log(`${pages.length} pages, ${all.length - disagreeing.size} selectors timed (of ${all.length}), querying only, median of ${rounds} rounds\n`);
const total = Object.fromEntries(names.map((n) => [n, 0]));
for (const group of Object.keys(GROUPS)) {
  const m = Object.fromEntries(names.map((n) => [n, median(times[group][n])]));
  for (const n of names) total[n] += m[n];
  const peers = names.slice(1).map((n) => `${n} ${m[n].toFixed(0)} ms (${(m[n] / m.sluice).toFixed(2)}x)`).join('   ');
  console.log(`${group.padEnd(27)} sluice ${m.sluice.toFixed(0).padStart(5)} ms   ${peers}`);
}
console.log(
  `${'all'.padEnd(27)} sluice ${total.sluice.toFixed(0).padStart(5)} ms   ` +
    names.slice(1).map((n) => `${n} ${total[n].toFixed(0)} ms (sluice is ${(total[n] / total.sluice).toFixed(2)}x)`).join('   '),
);
// The first queries on fresh documents: sluice decodes an element's attributes when a query first reads
// them (parsing leaves them undecoded), so the warm rounds above do not pay for that; this row does.
const freshRounds = Math.min(rounds, 3);
const fresh = Object.fromEntries(names.map((n) => [n, []]));
const timed = all.filter((sel) => !disagreeing.has(sel));
for (let r = 0; r < freshRounds; r++) {
  sluiceDocs.splice(0, sluiceDocs.length, ...pages.map((p) => parse(p)));
  domhandlerDocs.splice(0, domhandlerDocs.length, ...pages.map((p) => parseDocument(p)));
  cheerioDocs.splice(0, cheerioDocs.length, ...pages.map((p) => cheerio.load(p)));
  for (const name of names) {
    const start = process.hrtime.bigint();
    for (const sel of timed) engines[name](sel);
    fresh[name].push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}
const f = Object.fromEntries(names.map((n) => [n, median(fresh[n])]));
console.log(
  `${'all, on fresh documents'.padEnd(27)} sluice ${f.sluice.toFixed(0).padStart(5)} ms   ` +
    names.slice(1).map((n) => `${n} ${f[n].toFixed(0)} ms (sluice is ${(f[n] / f.sluice).toFixed(2)}x)`).join('   ') +
    `   (median of ${freshRounds}; attribute decoding included)`,
);
if (disagree.length > 0) console.log(`\nNot timed (sluice's and cheerio's answers differ):\n  ${disagree.join('\n  ')}`);
console.log(`\nElements found by sluice (= cheerio) vs css-select over htmlparser2's tree, where they differ: ${differences.length} of ${all.length} selectors, e.g. ${differences.slice(0, 3).join('; ')}`);
