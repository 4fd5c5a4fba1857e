#!/usr/bin/env node
// Where `bench:rewrite`'s time goes: the same 258 pages and the same `a[href]` handler, timed in one
// process as steps that each add one layer, so the differences between rows are the layers' costs.
//
//   npx tsc -b packages/rewriter && node bench/rewrite-breakdown.mjs [--rounds N]
//
// Rows (ms per corpus round, best of N after a warm-up):
//   utf-8 decode            TextDecoder over every page
//   parse, empty sink       tokenizer + tree builder into a sink that keeps nothing (strings in)
//   rewrite, no handlers    HTMLRewriter with nothing registered (strings in, strings out)
//   rewrite, strings        the benchmark's handler, strings in and out
//   rewrite, bytes          the benchmark's handler through createByteTransformer (what bench:rewrite times:
//                           the bytes tokenized in byte form, not decoded)
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Buffer } from 'node:buffer';
import { HTMLRewriter } from '../packages/rewriter/dist/index.js';
import { Parser } from '../packages/tree-builder/dist/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const require = createRequire(join(here, 'package.json'));
const args = process.argv.slice(2);
const ROUNDS = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 5;

const dir = join(require.resolve('htmlparser-benchmark/package.json'), '..', 'files');
const files = readdirSync(dir).filter((f) => f.endsWith('.html')).sort();
const bytes = files.map((f) => new Uint8Array(readFileSync(join(dir, f))));
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const pages = bytes.map((b) => decoder.decode(b));

/** A sink that keeps nothing: what the tokenizer and tree builder cost alone. */
class Node {
  parent = null;
  content = null;
}
class EmptySink {
  document = new Node();
  createElement() { return new Node(); }
  createElementWithRawAttributes() { return new Node(); }
  createComment() { return new Node(); }
  createDocumentType() { return new Node(); }
  insertText() {}
  insertTextToken() {}
  insertBefore(parent, node) { node.parent = parent; }
  remove(node) { node.parent = null; }
  moveChildren() {}
  parentNode(node) { return node.parent; }
  addMissingAttributes() {}
  setDocumentMode() {}
  templateContents(template) { return (template.content ??= new Node()); }
}

let sink = 0; // keeps the work observable
const handler = { element(el) { sink += el.getAttribute('href').length; } };
const same = (a, b) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

function check(name, ok) {
  if (!ok) {
    console.error(`${name}: output differs from input`);
    process.exit(1);
  }
}

const steps = {
  'utf-8 decode': () => {
    for (const b of bytes) sink += decoder.decode(b).length;
  },
  'parse, empty sink': () => {
    for (const p of pages) new Parser(new EmptySink()).write(p).end();
  },
  'rewrite, no handlers': () => {
    for (const p of pages) {
      let out = '';
      const t = new HTMLRewriter().createTransformer((s) => (out += s));
      t.write(p);
      t.end();
      sink += out.length;
    }
  },
  'rewrite, strings': (verify) => {
    for (const p of pages) {
      let out = '';
      const t = new HTMLRewriter().on('a[href]', handler).createTransformer((s) => (out += s));
      t.write(p);
      t.end();
      if (verify) check('rewrite, strings', out === p);
    }
  },
  'rewrite, bytes': (verify) => {
    for (const b of bytes) {
      const parts = [];
      const t = new HTMLRewriter().on('a[href]', handler).createByteTransformer((c) => parts.push(c));
      t.write(b);
      t.end();
      if (verify) check('rewrite, bytes', same(Buffer.concat(parts), b));
    }
  },
};

const best = new Map();
for (const [, step] of Object.entries(steps)) step(true); // warm-up, with the output checks
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, step] of Object.entries(steps)) {
    const t0 = performance.now();
    step(false);
    const ms = performance.now() - t0;
    best.set(name, Math.min(best.get(name) ?? Infinity, ms));
  }
}
console.log(`${files.length} pages, best of ${ROUNDS} rounds, ms per corpus round`);
for (const [name, ms] of best) console.log(`${name.padEnd(24)} ${ms.toFixed(0).padStart(5)} ms`);
if (sink < 0) console.log(sink);
