#!/usr/bin/env node
// Linearity (issue 19 item 2): parse and rewrite cost as the input grows. Each input is built at n and at
// 4n and run through the streaming paths fed ONE CHARACTER PER write() — the tokenizer alone, the parser
// (tokenizer → tree builder → @sluice/dom's DomTreeSink) and the rewriter (an `a` handler that sets an
// attribute, through createTransformer) — and, for the tree shapes, `parse()` of the whole string. The
// time ratio 4n / n is printed beside the goal (≤ 4.4: linear, with slack).
//
// Not a timed unit test: a bench script. Each size is measured in a process of its own, warmed up on
// the same shape, in CPU time (best of 2 runs there); n grows per row until a run takes --min-ms; processes at n and
// 4n alternate and the best of each is kept, with more rounds (up to 8) for a row that reads over the goal
// (bench/lib/growth.mjs says why). `--check` exits 1 only
// when a ratio passes a generous bound (default 6), so CI can run it without flaking.
//
//   npm run bench:linearity                     print the table
//   node bench/linearity.mjs --check            exit 1 if any ratio is over --limit (6)
//   node bench/linearity.mjs --n 5000 --rounds 5 --only table --limit 5 --min-ms 50
//
// The inputs are those of bench/tokenizer.mjs (its linear-time section: text, comment, reference and
// script-nesting runs), bench/adversarial-tree.mjs and bench/worst-case.mjs (the tree builder's
// potentially quadratic corners), a representative subset; n counts repetitions of each shape's unit.
import { Tokenizer } from '../packages/tokenizer/dist/index.js';
import { Parser } from '../packages/tree-builder/dist/index.js';
import { DomTreeSink, parse } from '../packages/dom/dist/index.js';
import { HTMLRewriter } from '../packages/rewriter/dist/index.js';
import { GOAL, childMeasure, growth, growthOptions } from './lib/growth.mjs';

const args = process.argv.slice(2);
const options = growthOptions(args, { n: 10_000, rounds: 3, minMs: 50, maxScale: 16 });

const repeatTo = (unit, length) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** Text-level shapes (bench/tokenizer.mjs): k × 25 characters, so they are as long as the tree shapes. */
const textShapes = [
  ['attribute value', (k) => `<a b="${'x'.repeat(25 * k)}">`],
  ['comment', (k) => `<!--${repeatTo('x-', 25 * k)}-->`],
  ['&amp without semicolons', (k) => repeatTo('&amp', 25 * k)],
  ['&amp; in an attribute value', (k) => `<p title="${'&amp;'.repeat(5 * k)}">`],
  ['script with <!--<script> nesting', (k) => `<script>${repeatTo('<!--<script>x</script>-->y', 25 * k)}</script>`],
  ['many attributes on one tag', (k) => '<p ' + Array.from({ length: 5 * k }, (_, i) => `a${i}=v`).join(' ') + '>'],
];

/** Tree shapes (bench/adversarial-tree.mjs, bench/worst-case.mjs). */
const treeShapes = [
  ['deep nesting: <div> × n, then closed', (k) => '<div>'.repeat(k) + 'x' + '</div>'.repeat(k)],
  ['adoption agency: <a><b> × n', (k) => '<a><b>'.repeat(k)],
  ['adoption agency: <b><p>x</b> × n', (k) => '<b><p>x</b>'.repeat(k)],
  ['adoption agency, deep inner loop', (k) => '<a><b><i><u><s><div>x</a>'.repeat(k)],
  ['unclosed <b>s with distinct attributes', (k) => Array.from({ length: k }, (_, i) => `<b class=c${i}>`).join('') + 'x'],
  ['table with foster-parented text runs', (k) => '<table>' + '<tr>x'.repeat(k)],
  ['table text runs split by comments', (k) => '<table>' + 'x<!---->'.repeat(k)],
  ['unmatched end tags over deep inline elements', (k) => '<span>'.repeat(k) + '</em>'.repeat(k)],
  ['<li> over deep <div>s', (k) => '<div>'.repeat(k) + '<li>x'.repeat(k)],
  ['implied end tags: <option> in <select>', (k) => '<select>' + '<option>x'.repeat(k)],
  ['deep SVG', (k) => '<svg>' + '<g>'.repeat(k) + '</svg>'],
  ['templates', (k) => '<template>'.repeat(k)],
];

// ---- The paths ------------------------------------------------------------------------------------

let checksum = 0;

function tokenizeByCharacter(input) {
  const emit = (token) => {
    checksum += token.raw.length;
  };
  const tokenizer = new Tokenizer();
  for (let i = 0; i < input.length; i++) tokenizer.write(input[i], emit);
  tokenizer.end(emit);
}

function parseByCharacter(input) {
  const sink = new DomTreeSink();
  const parser = new Parser(sink);
  for (let i = 0; i < input.length; i++) parser.write(input[i]);
  parser.end();
  checksum += sink.document.childNodes.length;
}

function parseWhole(input) {
  checksum += parse(input).childNodes.length;
}

function rewriteByCharacter(input) {
  const rewriter = new HTMLRewriter().on('a', {
    element(e) {
      e.setAttribute('x', '1');
    },
  });
  const t = rewriter.createTransformer((s) => {
    checksum += s.length;
  });
  for (let i = 0; i < input.length; i++) t.write(input[i]);
  t.end();
}

// ---- The table ------------------------------------------------------------------------------------

// The tokenizer alone is fast: its inputs are 4 times longer, so that its times are not a few ms.
const scaled = (shapes, by) => shapes.map(([name, build]) => [name, (k) => build(by * k)]);
const paths = [
  ['tokenize, 1-char chunks (inputs ×4)', tokenizeByCharacter, scaled(textShapes, 4)],
  ['parse, 1-char chunks', parseByCharacter, [...textShapes, ...treeShapes]],
  ['parse(), whole string', parseWhole, treeShapes],
  ['rewrite, 1-char chunks', rewriteByCharacter, [...textShapes, ...treeShapes]],
];

if (args[0] === '--child') {
  const [, path, shape, k, warmK] = args.map(Number);
  const [, run, shapes] = paths[path];
  childMeasure(run, shapes[shape][1], k, warmK);
  if (checksum === 0) throw new Error('nothing ran');
  process.exit(0);
}

const { n, rounds, only, check, limit: LIMIT, minMs, maxScale } = options;
const script = new URL(import.meta.url).pathname;
console.log(`linearity: n vs 4n repetitions of each shape's unit, n from ${n} doubled (up to ×${maxScale}) until a run takes ${minMs} ms of CPU;`);
console.log(`each size measured in a process of its own (best of 2 runs), ${rounds} processes per size, n and 4n alternating;`);
console.log(`a row over the goal gets more rounds, up to 8 (bench/lib/growth.mjs says why), and prints how many it took`);
console.log(`goal: ratio ≤ ${GOAL}${check ? `; --check fails over ${LIMIT}` : ''}\n`);
const fmt = (ms) => ms.toFixed(1).padStart(9);
const all = [];
let over = 0;
for (const [p, [path, , shapes]] of paths.entries()) {
  console.log(`${path.padEnd(56)} ${'n'.padStart(7)} ${'n (ms)'.padStart(9)} ${'4n (ms)'.padStart(9)}  ratio`);
  for (const [i, [name]] of shapes.entries()) {
    if (only !== null && !name.includes(only) && !path.includes(only)) continue;
    const r = growth({ script, childArgs: [p, i], n, rounds, minMs, maxScale });
    all.push(r.ratio);
    if (r.ratio > LIMIT) over++;
    const mark = r.ratio > LIMIT ? `   OVER ${LIMIT}` : r.ratio > GOAL ? '   over the goal' : '';
    const extra = r.rounds > rounds ? `   (${r.rounds} rounds)` : '';
    console.log(`  ${name.padEnd(54)} ${String(r.n).padStart(7)} ${fmt(r.a)} ${fmt(r.b)}  ×${r.ratio.toFixed(2)}${mark}${extra}`);
  }
  console.log('');
}

if (all.length > 0) {
  const sorted = [...all].sort((x, y) => x - y);
  console.log(`${all.length} ratios: ${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)}, median ${sorted[sorted.length >> 1].toFixed(2)}; ` +
    `${all.filter((x) => x > GOAL).length} over the goal ${GOAL}, ${over} over the bound ${LIMIT}`);
}
if (over > 0 && check) process.exit(1);
