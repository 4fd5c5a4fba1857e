#!/usr/bin/env node
// Worst-case inputs (issue 20 item 4): each known super-linear shape is generated at n and at 4n, parsed
// (`parse` of @sluice/dom) and rewritten (HTMLRewriter, an `a` handler that sets an attribute — or the
// selector a shape names — through createTransformer), and the time ratio 4n / n is printed beside the goal (≤ 4.4: linear, with slack).
// Each size is measured in a process of its own, warmed up on the same shape, in CPU time; n grows per
// row until a run takes --min-ms; processes at n and 4n alternate and the best of each is kept
// (bench/lib/growth.mjs says why). Also printed: the absolute time of 200,000 × `<a><b>` (goal: under a
// second).
//
//   npx pnpm bench:worst-case              print the table
//   node bench/worst-case.mjs --check      exit 1 if any ratio is over 6 (generous: for CI)
//   node bench/worst-case.mjs --n 20000 --rounds 3 --only adoption --parse-only
import { parse } from '../packages/dom/dist/index.js';
import { HTMLRewriter } from '../packages/rewriter/dist/index.js';
import { GOAL, childMeasure, growth, growthOptions } from './lib/growth.mjs';

// No forced GC before a timed run (there was one until 2026-11-28): a memory-reducing collection lets V8
// drop the hidden classes no live object uses, and the optimized code that embeds them, so each timed run
// began cold (docs/parsing.md, "A forced GC makes the next run cold").

const args = process.argv.slice(2);
const { n, rounds, only, check, minMs, maxScale } = growthOptions(args, { n: 20_000, rounds: 3, minMs: 50, maxScale: 16 });
const parseOnly = args.includes('--parse-only');
const CHECK_LIMIT = 6;

/** [name, build(k) → input] */
const shapes = [
  ['adoption agency: <a><b> × n', (k) => '<a><b>'.repeat(k)],
  ['adoption agency: <b><p>x</b> misnesting × n', (k) => '<b><p>x</b>'.repeat(k)],
  ['adoption agency: <a><div> × n', (k) => '<a><div>'.repeat(k)],
  ['adoption agency: <b> then <div> × n then </b> × n', (k) => '<b>' + '<div>'.repeat(k) + '</b>'.repeat(k)],
  // (A move at every </b> while the tree deepens, with a descendant combinator in the rewrite's selector:
  // its memos, all voided at each move, took 5.3 s at n = 12,000 until 2026-11-28 — records.ts
  // `voidAncestorMemosUnder`.)
  ['adoption agency churn: <b><div>x</b> × n (td b)', (k) => '<b><div>x</b>'.repeat(k), 'a, td b'],
  ['adoption agency: formatting entries far back', (k) =>
    Array.from({ length: k }, (_, i) => `<b class=b${i}>`).join('') + '<p>' +
    Array.from({ length: k }, (_, i) => `<i class=i${i}>`).join('') + '</p><div>' + '</b>'.repeat(k)],
  ['deep nesting: <div> × n', (k) => '<div>'.repeat(k)],
  ['deep nesting, then closed', (k) => '<div>'.repeat(k) + 'x' + '</div>'.repeat(k)],
  ['foster parenting: <table> then <p>x × n', (k) => '<table>' + '<p>x'.repeat(k)],
  ['foster parenting under deep <div>s', (k) => '<div>'.repeat(k) + '<table>' + '<tr>x'.repeat(k)],
  ['many attributes on one tag (5n)', (k) => '<p ' + Array.from({ length: 5 * k }, (_, i) => `a${i}=v`).join(' ') + '>'],
  ['many duplicate attributes on one tag (10n)', (k) => '<p ' + 'a=v '.repeat(10 * k) + '>'],
  ['long run of &amp; (10n)', (k) => '<p>' + '&amp;'.repeat(10 * k)],
  ['long run of &amp in an attribute (10n)', (k) => '<p title="' + '&amp'.repeat(10 * k) + '">'],
  ['unclosed formatting elements: <b> × n then text', (k) => '<b>'.repeat(k) + 'x'],
  ['unclosed <b>s, distinct attributes, then text', (k) => Array.from({ length: k }, (_, i) => `<b c=${i}>`).join('') + 'x'],
  // (The rewrite's handler sets an attribute on the link: from then on every push is checked for Noah's Ark.)
  ["Noah's Ark: a link, then unclosed <font color=cN> × n", (k) => '<a href=x>y</a>' + Array.from({ length: k }, (_, i) => `<font color=c${i}>t`).join('')],
  ['<table> in <table> × n', (k) => '<table>'.repeat(k)],
  ['<table></table> × n under deep <div>s', (k) => '<div>'.repeat(k) + '<table></table>'.repeat(k)],
  ['<p> tokens over deep non-boundary elements', (k) => '<span>'.repeat(k) + '<p>'.repeat(k)],
  ['</p> tokens over deep <div>s', (k) => '<div>'.repeat(k) + '</p>'.repeat(k)],
  ['</form> removals then end tags', (k) => '<form><span></form>'.repeat(k) + '</span>'.repeat(k)],
  ['<li> over deep <div>s', (k) => '<div>'.repeat(k) + '<li>x'.repeat(k)],
  ['</x-y> over deep custom elements', (k) => '<x-a>'.repeat(k) + '</x-b>'.repeat(k)],
  ['<select></select> under deep <div>s', (k) => '<div>'.repeat(k) + '<select></select>'.repeat(k)],
];

function runParse(input) {
  parse(input);
}

let size = 0;
/** The rewrite's selector: `a`, or the shape's own (its third entry). */
let selector = 'a';
function runRewrite(input) {
  const rewriter = new HTMLRewriter().on(selector, {
    element(e) {
      e.setAttribute('x', '1');
    },
  });
  const t = rewriter.createTransformer((s) => {
    size += s.length;
  });
  t.write(input);
  t.end();
}

function timeParse(input) {
  const start = process.hrtime.bigint();
  runParse(input);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const runs = [runParse, runRewrite];
if (args[0] === '--child') {
  const [, run, shape, k, warmK] = args.map(Number);
  selector = shapes[shape][2] ?? 'a';
  childMeasure(runs[run], shapes[shape][1], k, warmK);
  process.exit(0);
}
const script = new URL(import.meta.url).pathname;

let failed = 0;
const fmt = (ms) => ms.toFixed(1).padStart(9);
console.log(`worst-case shapes: n from ${n} doubled (up to ×${maxScale}) until a run takes ${minMs} ms of CPU, vs 4n;`);
console.log(`each size measured in a process of its own (best of 2 runs), ${rounds} processes per size (more, up to 8, for a ratio over the goal: bench/lib/growth.mjs); goal: ratio ≤ ${GOAL}` +
  (check ? `, --check fails over ${CHECK_LIMIT}` : ''));
console.log(`${'shape'.padEnd(52)} ${'n'.padStart(7)} ${'parse n'.padStart(9)} ${'4n'.padStart(9)}  ratio   ${parseOnly ? '' : `${'n'.padStart(7)} ${'rewrite n'.padStart(9)} ${'4n'.padStart(9)}  ratio`}`);
const all = [];
for (const [i, [name]] of shapes.entries()) {
  if (only !== null && !name.includes(only)) continue;
  const p = growth({ script, childArgs: [0, i], n, rounds, minMs, maxScale });
  let line = `${name.padEnd(52)} ${String(p.n).padStart(7)} ${fmt(p.a)} ${fmt(p.b)}  ×${p.ratio.toFixed(2).padEnd(5)}${p.ratio > GOAL ? '!' : ' '}`;
  all.push(p.ratio);
  let worst = p.ratio;
  if (!parseOnly) {
    const w = growth({ script, childArgs: [1, i], n, rounds, minMs, maxScale });
    line += ` ${String(w.n).padStart(7)} ${fmt(w.a)} ${fmt(w.b)}  ×${w.ratio.toFixed(2).padEnd(5)}${w.ratio > GOAL ? '!' : ' '}`;
    all.push(w.ratio);
    worst = Math.max(worst, w.ratio);
  }
  if (worst > CHECK_LIMIT) failed++;
  console.log(line);
}
if (all.length > 0) {
  const sorted = [...all].sort((x, y) => x - y);
  console.log(`\n${all.length} ratios: ${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)}, median ${sorted[sorted.length >> 1].toFixed(2)}; ${all.filter((x) => x > GOAL).length} over the goal ${GOAL}`);
}

if (only === null || '200,000'.includes(only)) {
  const input = '<a><b>'.repeat(200_000);
  timeParse(input);
  let best = Infinity;
  for (let r = 0; r < rounds; r++) best = Math.min(best, timeParse(input));
  console.log(`\n200,000 × <a><b>: parse ${best.toFixed(0)} ms (goal: under 1000 ms)`);
}

if (failed > 0) {
  console.log(`\n${failed} shape(s) over ×${CHECK_LIMIT}`);
  if (check) process.exit(1);
} else {
  console.log(`\nno ratio over ×${CHECK_LIMIT}`);
}
