#!/usr/bin/env node
// What the young generation's collections cost each stage of a rewrite, and how much of each stage's
// garbage lives long enough to be copied. Each row runs in a child process under `--trace-gc-nvp`
// (V8's per-collection line): warm-up rounds over the 258 htmlparser-benchmark pages in 16 KiB chunks,
// then measured rounds, whose scavenges are summed. Printed per row: MB/s, scavenges a round, the bytes
// that survived each scavenge (copied within the young generation) and that it promoted to the old
// generation, and the scavenges' pause time as a share of the round.
//
// A stage whose live state is small (the tokenizer's few open tokens, the tree builder's stack) keeps
// little across a scavenge: what a row keeps beyond the rows before it is what its own stage holds on
// to, or what old objects point at after their page is gone (the scavenger treats every old object as
// live). Read beside a CPU profile's "(garbage collector)" share; times move with the machine, the
// survived and promoted bytes do not.
//
// Run after building: npx tsc -b packages/rewriter && node bench/rewrite-gc.mjs [--rounds N] [--warmup N] [--only ROW]
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const ROUNDS = Number(option('--rounds', 3));
const WARMUP = Number(option('--warmup', 5));
const CHUNK = 16 * 1024;

/** The rows: name, what it runs on one page's chunks (`run(chunks, strings)`), made in the child. */
const ROWS = [
  ['tokenizer (byte form)', 'tokenizer'],
  ['tree builder, a sink that keeps nothing', 'tree'],
  ['rewriter, strings sliced from the page, no handler', 'strings'],
  ['rewriter, bytes, no handler', 'bytes'],
  ['rewriter, bytes, a[href] handler', 'bytesHref'],
  ['transform(Response), a[href] handler', 'response'],
];

if (args[0] === '--child') {
  await child(args[1]);
} else {
  const only = option('--only', null);
  console.log(`Young-generation collections per stage: 258 pages in ${CHUNK / 1024} KiB chunks, ${WARMUP} warm-up rounds, then ${ROUNDS} measured`);
  console.log(`${'row'.padEnd(52)} ${'MB/s'.padStart(6)} ${'scav./round'.padStart(11)} ${'survived'.padStart(9)} ${'promoted'.padStart(9)} ${'pause'.padStart(6)}`);
  for (const [name, key] of ROWS) {
    if (only !== null && key !== only) continue;
    const r = spawnSync(process.execPath, ['--trace-gc-nvp', fileURLToPath(import.meta.url), '--child', key, '--rounds', String(ROUNDS), '--warmup', String(WARMUP)], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (r.status !== 0) throw new Error(`${name}: the child failed (${r.status}):\n${r.stderr}`);
    const s = summarize(r.stdout);
    console.log(
      `${name.padEnd(52)} ${s.mbps.toFixed(1).padStart(6)} ${s.perRound.toFixed(1).padStart(11)} ${`${s.survivedKB.toFixed(0)} KB`.padStart(9)} ${`${s.promotedKB.toFixed(0)} KB`.padStart(9)} ${`${s.pauseShare.toFixed(1)}%`.padStart(6)}`,
    );
  }
  console.log('survived, promoted: per scavenge; pause: the scavenges\' pause time as a share of the measured rounds\' time');
}

/** Sum the measured rounds' scavenge lines (`gc=s`) of a child's output. */
function summarize(out) {
  let measuring = false;
  let scavenges = 0;
  let survived = 0;
  let promoted = 0;
  let pause = 0;
  let ms = 0;
  let bytes = 0;
  let rounds = 0;
  for (const line of out.split('\n')) {
    if (line.startsWith('measure')) measuring = true;
    const round = /^round (\d+(?:\.\d+)?) ms (\d+) bytes/.exec(line);
    if (round !== null) {
      ms += Number(round[1]);
      bytes += Number(round[2]);
      rounds++;
      continue;
    }
    if (!measuring || !line.includes(' gc=s ')) continue;
    scavenges++;
    for (const field of line.split(' ')) {
      const [k, v] = field.split('=');
      if (k === 'new_space_survived') survived += Number(v);
      else if (k === 'promoted') promoted += Number(v);
      else if (k === 'pause') pause += Number(v);
    }
  }
  if (rounds === 0 || scavenges === 0) throw new Error(`no measured rounds or scavenges in the child's output:\n${out.slice(0, 2000)}`);
  return {
    mbps: bytes / 1e6 / (ms / 1000),
    perRound: scavenges / rounds,
    survivedKB: survived / scavenges / 1024,
    promotedKB: promoted / scavenges / 1024,
    pauseShare: (100 * pause) / ms,
  };
}

async function child(key) {
  const { Buffer } = await import('node:buffer');
  const { Tokenizer } = await import('../packages/tokenizer/dist/index.js');
  const { Parser } = await import('../packages/tree-builder/dist/index.js');
  const { HTMLRewriter } = await import('../packages/rewriter/dist/index.js');
  const dir = join(here, 'node_modules', 'htmlparser-benchmark', 'files');
  const files = readdirSync(dir).filter((f) => f.endsWith('.html')).sort();
  const pages = files.map((f) => new Uint8Array(readFileSync(join(dir, f))));
  const strings = files.map((f) => readFileSync(join(dir, f), 'utf8'));
  const total = pages.reduce((n, p) => n + p.length, 0);
  const chunked = pages.map((b) => {
    const out = [];
    for (let i = 0; i < b.length; i += CHUNK) out.push(b.subarray(i, i + CHUNK));
    return out;
  });
  // Byte form (one character per byte), as the byte rewriter makes it: a new string per chunk.
  const byteForm = (b) => Buffer.from(b.buffer, b.byteOffset, b.length).latin1Slice(0, b.length);
  let sum = 0;
  const emit = (t) => {
    sum += t.end - t.start;
  };
  const href = {
    element(el) {
      sum += el.getAttribute('href').length;
    },
  };
  /** A tree sink that keeps nothing but each node's parent (what `insertBefore` and `parentNode` need). */
  class Node {
    constructor() {
      this.parent = null;
      this.contents = null;
      sum++;
    }
  }
  const nullSink = () => ({
    document: new Node(),
    createElement: () => new Node(),
    createElementForStartTag: () => new Node(),
    createElementFromStartTag: () => new Node(),
    createComment: () => new Node(),
    createDocumentType: () => new Node(),
    insertText() {},
    insertBefore(parent, node) {
      node.parent = parent;
    },
    remove(node) {
      node.parent = null;
    },
    moveChildren() {},
    parentNode: (node) => node.parent,
    addMissingAttributes() {},
    setDocumentMode() {},
    templateContents: (t) => (t.contents ??= new Node()),
  });
  const runs = {
    tokenizer(i) {
      const t = new Tokenizer({ byteInput: true });
      for (const c of chunked[i]) t.write(byteForm(c), emit);
      t.end(emit);
    },
    tree(i) {
      const p = new Parser(nullSink(), { byteInput: true });
      for (const c of chunked[i]) p.write(byteForm(c));
      p.end();
    },
    strings(i) {
      const s = strings[i];
      const t = new HTMLRewriter().createTransformer((o) => (sum += o.length));
      for (let k = 0; k < s.length; k += CHUNK) t.write(s.slice(k, k + CHUNK));
      t.end();
    },
    bytes(i) {
      const t = new HTMLRewriter().createByteTransformer((o) => (sum += o.length));
      for (const c of chunked[i]) t.write(c);
      t.end();
    },
    bytesHref(i) {
      const t = new HTMLRewriter().on('a[href]', href).createByteTransformer((o) => (sum += o.length));
      for (const c of chunked[i]) t.write(c);
      t.end();
    },
    async response(i) {
      const chunks = chunked[i];
      let k = 0;
      const body = new ReadableStream(
        {
          pull(c) {
            if (k < chunks.length) c.enqueue(chunks[k++]);
            else c.close();
          },
        },
        { highWaterMark: 0 },
      );
      const reader = new HTMLRewriter().on('a[href]', href).transform(new Response(body)).body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        sum += value.length;
      }
    },
  };
  const run = runs[key];
  if (run === undefined) throw new Error(`unknown row ${key}`);
  for (let r = 0; r < WARMUP + ROUNDS; r++) {
    if (r === WARMUP) console.log('measure');
    const t0 = performance.now();
    for (let i = 0; i < pages.length; i++) {
      const p = run(i);
      if (p !== undefined) await p;
    }
    if (r >= WARMUP) console.log(`round ${(performance.now() - t0).toFixed(1)} ms ${total} bytes`);
  }
  if (sum === 0) throw new Error('nothing was read');
}
