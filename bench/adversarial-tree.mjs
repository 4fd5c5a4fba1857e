#!/usr/bin/env node
// Linear-time check of tree construction on adversarial inputs: each input is built at size n and at 4n
// and parsed into @sluice/dom (tokenizer → tree builder → DomTreeSink); the time ratio (4n / n) must
// stay under 4.4 (linear, with some slack for the machine), else the script exits with status 1.
//
//   npx tsc -b && node bench/adversarial-tree.mjs [--n 25000] [--only <substring>] [--rounds 2] [--min-ms 50]
//
// Each size is measured in a process of its own, warmed up on the same shape, in CPU time; n grows per
// input until a parse takes --min-ms; processes at n and 4n alternate and the best of each is kept
// (bench/lib/growth.mjs says why).
//
// The inputs aim at the tree builder's potentially quadratic corners: the stack of open elements
// ("has an element in scope", "any other end tag", clearing back to a table context), the list of
// active formatting elements (Noah's Ark, reconstruction, the adoption agency), foster parenting and
// "in table text", implied end tags.
import { parse } from '../packages/dom/dist/index.js';
import { GOAL, childMeasure, growth, growthOptions } from './lib/growth.mjs';

// No forced garbage collection before a timed parse (there was one until 2026-11-28): `gc()` is a
// memory-reducing collection that lets V8 drop the hidden classes no live object uses, and the optimized
// code that embeds them, so every timed parse began cold and the re-optimization swamped the n run
// (docs/parsing.md, "A forced GC makes the next run cold").

const args = process.argv.slice(2);
const { n, rounds, only, minMs, maxScale } = growthOptions(args, { n: 25_000, rounds: 2, minMs: 50, maxScale: 16 });
const LIMIT = GOAL;

/** [name, build(n) → input] */
const cases = [
  ['deeply nested <div>s', (k) => '<div>'.repeat(k)],
  ['deeply nested <div>s, then closed', (k) => '<div>'.repeat(k) + 'x' + '</div>'.repeat(k)],
  ['misnested <b><i></b></i>', (k) => '<b><i></b></i>'.repeat(k)],
  ['misnested <b><i>x</b>y</i> (reconstruction)', (k) => '<b><i>x</b>y</i>'.repeat(k)],
  ['adoption agency with a furthest block <b><p>x</b>', (k) => '<b><p>x</b>'.repeat(k)],
  ['adoption agency, deep inner loop <a><b><i><u><div></a>', (k) => '<a><b><i><u><s><div>x</a>'.repeat(k)],
  ['<a> in <a>, 100,000 unclosed', (k) => '<a>x'.repeat(k)],
  ['<a> in <a>, no text', (k) => '<a>'.repeat(k)],
  ['unclosed <b>s (Noah\'s Ark)', (k) => '<b>'.repeat(k) + 'x'],
  ['unclosed <b>s with distinct attributes', (k) => Array.from({ length: k }, (_, i) => `<b class=c${i}>`).join('') + 'x'],
  ['formatting elements reconstructed in every <p>', (k) => '<b><i><u>' + '<p>x</p>'.repeat(k)],
  ['table with foster-parented text runs', (k) => '<table>' + '<tr>x'.repeat(k)],
  ['table text runs split by comments', (k) => '<table>' + 'x<!---->'.repeat(k)],
  ['foster-parented elements', (k) => '<table>' + '<span>x</span>'.repeat(k)],
  ['nested tables', (k) => '<table><tr><td>'.repeat(k)],
  ['table cells', (k) => '<table>' + '<td>x'.repeat(k)],
  ['unmatched end tags over deep inline elements', (k) => '<span>'.repeat(k) + '</em>'.repeat(k)],
  ['unmatched custom end tags over deep custom elements', (k) => '<x-a>'.repeat(k) + '</x-b>'.repeat(k)],
  ['<p> scope checks past a boundary', (k) => '<p><object>' + '<span>'.repeat(k) + '<div>'.repeat(k)],
  ['<li> in deep <div>s', (k) => '<div>'.repeat(k) + '<li>x'.repeat(k)],
  ['implied end tags: <dd>/<dt>', (k) => '<dl>' + '<dd>x<dt>y'.repeat(k)],
  ['implied end tags: <option> in <select>', (k) => '<select>' + '<option>x'.repeat(k)],
  ['deep SVG', (k) => '<svg>' + '<g>'.repeat(k) + '</svg>'],
  ['breakout from deep SVG', (k) => ('<svg>' + '<g>'.repeat(100) + '<p>').repeat(Math.max(1, k / 100))],
  ['templates', (k) => '<template>'.repeat(k)],
  ['select in select', (k) => '<select><option>x<select>'.repeat(k)],
  ['whitespace and comments after </html>', (k) => '<p>x</p></body></html>' + ' <!---->'.repeat(k)],
  ['frameset', (k) => '<frameset>' + '<frame> x'.repeat(k)],
];

function runParse(input) {
  parse(input);
}

if (args[0] === '--child') {
  const [, , shape, k, warmK] = args.map(Number);
  childMeasure(runParse, cases[shape][1], k, warmK);
  process.exit(0);
}
const script = new URL(import.meta.url).pathname;

let failed = 0;
console.log(`adversarial tree construction: n from ${n} doubled (up to ×${maxScale}) until a parse takes ${minMs} ms of CPU, vs 4n;`);
console.log(`each size measured in a process of its own (best of 2 runs), ${rounds} processes per size`);
console.log(`(more, up to 8, for a ratio over ${GOAL}: bench/lib/growth.mjs); the time ratio must stay under ${LIMIT}\n`);
for (const [i, [name]] of cases.entries()) {
  if (only !== null && !name.includes(only)) continue;
  const { n: k, a, b, ratio, rounds: taken } = growth({ script, childArgs: [0, i], n, rounds, minMs, maxScale });
  const ok = ratio < LIMIT;
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(58)} ${String(k).padStart(7)} ${a.toFixed(1).padStart(8)} ms ${b.toFixed(1).padStart(9)} ms   ×${ratio.toFixed(2)}${taken > rounds ? `   (${taken} rounds)` : ''}`);
}
if (failed > 0) {
  console.log(`\n${failed} input(s) grew faster than linearly`);
  process.exit(1);
}
console.log('\nall linear');
