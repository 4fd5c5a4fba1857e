/**
 * The stall suite: every stream path either completes or errors, for every input and chunking; with no
 * handlers its output is the input, byte for byte; every error reaches the other side once.
 *
 * A stalled stream is a promise that never settles, so each case races a deadline (`DEADLINE_MS`, 3 s, or
 * `$STALL_DEADLINE_MS`), and a failure names the input (file and index, or path, plus a JSON preview) and the
 * chunking. Each group stops at its first stall or after `MAX_FAILURES` other failures, so a broken build
 * fails within a minute or two rather than waiting out every deadline.
 *
 * Inputs and how they are sampled (the corpus is 24.6 M characters: all of it in 1-byte chunks through
 * every variant would take many minutes):
 *
 * - html5lib: every tokenizer test input (`tokenizer/*.test`, `doubleEscaped` undone) and every
 *   tree-construction `#data` (`tree-construction/*.dat` and `scripted/*.dat`), skipping none. Each goes
 *   through `transform(Response)` on the runtime's streams and `transform(ReadableStream)` on
 *   web-streams-polyfill's, in 1-byte chunks, seeded-random chunks (1..64 bytes, mulberry32 seeded with
 *   `SEED` + the input's index) and 16 KiB chunks, with no handlers (output must equal the input bytes)
 *   and with the sync handler set `touchAll`; the async handler set `touchAllAsync` runs on 1-byte chunks
 *   (the chunking with the most waits) on both implementations.
 * - The 258 corpus pages (bench/node_modules/htmlparser-benchmark/files/*.html):
 *   - each page's first 4 KiB in 1-byte chunks, no handlers and `touchAll`, on the runtime's streams;
 *     each page's first 1 KiB in 1-byte chunks, `touchAllAsync`, and no handlers on the polyfill;
 *   - each whole page in 16 KiB chunks: no handlers and `touchAll` on both implementations,
 *     `touchAllAsync` on the runtime's;
 *   - every 8th page (by sorted name: 0, 8, 16, …) whole in seeded-random 1..64-byte chunks, no handlers
 *     and `touchAll`, on the runtime's streams;
 *   - the three smallest pages whole in 1-byte chunks, no handlers, on both implementations.
 * - The TransformStream classes (HTMLRewriterStream, HTMLRewriterByteStream, TokenizerStream with and
 *   without the tree builder, TokenizerByteStream, TreeBuilderStream, TreeBuilderByteStream), through
 *   `pipeThrough`, on both implementations: every 10th tree-construction input and every 10th tokenizer
 *   input in 1-unit and seeded-random chunks, plus the first 4 KiB of every 16th corpus page in
 *   seeded-random chunks.
 * - Error cases, on both implementations: a handler that throws in a late chunk, an async handler that
 *   rejects, `maxBufferedBytes` exceeded on a chunked body, the upstream erroring mid-stream, the reader
 *   cancelling mid-stream.
 *
 * With handlers, the end handler's `append` may be refused where the input is cut off inside a doctype,
 * a bare `</`, … (docs/rewriter.md, "Inserted content"): the stream then errors with that documented
 * error, which settles it; such cases pass and are counted.
 *
 * The html5lib tests live in `$HTML5LIB_TESTS` or ../shared/html5lib-tests; under CI their absence fails.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as polyfill from 'web-streams-polyfill';
import { HTMLRewriter } from '@sluice/rewriter';
import type { Token } from '@sluice/tokenizer';
import {
  HTMLRewriterByteStream,
  HTMLRewriterStream,
  TokenizerByteStream,
  TokenizerStream,
  TreeBuilderByteStream,
  TreeBuilderStream,
  runtimeStreams,
  type StreamsImplementation,
} from '@sluice/streams';
import { haveHtml5lib, loadTokenizerTests, tokenizerTestFiles } from '../../../tests/chunk-split/html5lib.js';
import { readDatFiles, treeConstructionDir } from '../../tree-builder/test/support/html5lib-tree-tests.js';
import { collect, source } from './helpers.js';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// Generous for a loaded CI machine: the slowest case (a whole page with async handlers) takes ~50 ms here.
const DEADLINE_MS = Number(process.env.STALL_DEADLINE_MS ?? 3000);
const MAX_FAILURES = 5;
const SEED = 0x5eed;
const KIB16 = 16 * 1024;

// ─── inputs ──────────────────────────────────────────────────────────────────────────────────────────

interface Input {
  /** Where it comes from: `tests1.dat #12`, `corpus/abc.html`, … */
  readonly name: string;
  readonly text: string;
  readonly bytes: Uint8Array;
}

const encoder = new TextEncoder();
const input = (name: string, text: string): Input => ({ name, text, bytes: encoder.encode(text) });
const inputOfBytes = (name: string, bytes: Uint8Array): Input => ({ name, text: new TextDecoder().decode(bytes), bytes });

const treeDir = treeConstructionDir();
const scriptedDir = treeConstructionDir('scripted');
if (process.env.CI && (!haveHtml5lib || treeDir === null)) {
  throw new Error('stall suite: the html5lib tests are missing (set $HTML5LIB_TESTS or check out ../shared/html5lib-tests); under CI this fails');
}

const tokenizerInputs: Input[] = haveHtml5lib
  ? tokenizerTestFiles().flatMap((file) => loadTokenizerTests(file).map((t, i) => input(`tokenizer/${file} #${i} (${t.description})`, t.input)))
  : [];
const treeInputs: Input[] = [];
for (const [dir, prefix] of [[treeDir, ''], [scriptedDir, 'scripted/']] as const) {
  if (dir === null) continue;
  for (const [file, tests] of readDatFiles(dir)) for (const t of tests) treeInputs.push(input(`tree-construction/${prefix}${file} #${t.index} (line ${t.line})`, t.data));
}
const html5libInputs = [...tokenizerInputs, ...treeInputs];

const corpusDir = join(repositoryRoot, 'bench', 'node_modules', 'htmlparser-benchmark', 'files');
const corpus: Input[] = existsSync(corpusDir)
  ? readdirSync(corpusDir)
      .filter((f) => f.endsWith('.html'))
      .sort()
      .map((f) => inputOfBytes(`corpus/${f}`, new Uint8Array(readFileSync(join(corpusDir, f)))))
  : [];
if (process.env.CI && corpus.length === 0) throw new Error(`stall suite: the corpus pages are missing (${corpusDir}); under CI this fails`);

/** The first `n` bytes of a page, cut back to a character boundary (so that the text is the bytes). */
function head(page: Input, n: number): Input {
  let end = Math.min(n, page.bytes.length);
  while (end < page.bytes.length && end > 0 && (page.bytes[end]! & 0xc0) === 0x80) end--;
  return inputOfBytes(`${page.name} (first ${end} bytes)`, page.bytes.subarray(0, end));
}

// ─── chunkings ───────────────────────────────────────────────────────────────────────────────────────

/** mulberry32: a small seeded PRNG, so every random chunking can be replayed from its seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Chunking {
  readonly name: string;
  /** Cut points over a length: the sizes of the chunks, in order. */
  sizes(length: number): number[];
}

const oneUnit: Chunking = { name: '1-byte chunks', sizes: (n) => Array.from({ length: n }, () => 1) };
const fixed = (size: number, name: string): Chunking => ({
  name,
  sizes: (n) => {
    const out: number[] = [];
    for (let at = 0; at < n; at += size) out.push(Math.min(size, n - at));
    return out;
  },
});
const kib16 = fixed(KIB16, '16 KiB chunks');
const random = (seed: number): Chunking => ({
  name: `seeded-random 1..64-byte chunks (mulberry32 seed ${seed})`,
  sizes: (n) => {
    const next = mulberry32(seed);
    const out: number[] = [];
    for (let at = 0; at < n; ) {
      const size = Math.min(1 + Math.floor(next() * 64), n - at);
      out.push(size);
      at += size;
    }
    return out;
  },
});

function cut<T extends string | Uint8Array>(whole: T, sizes: number[]): T[] {
  const out: T[] = [];
  let at = 0;
  for (const size of sizes) {
    out.push(whole.slice(at, at + size) as T);
    at += size;
  }
  return out;
}

// ─── stream implementations ──────────────────────────────────────────────────────────────────────────

interface Impl {
  readonly name: string;
  readonly streams: StreamsImplementation;
  readonly ReadableStream: typeof ReadableStream;
}
const runtime: Impl = { name: "runtime's streams", streams: runtimeStreams(), ReadableStream: globalThis.ReadableStream };
const poly: Impl = {
  name: 'web-streams-polyfill',
  streams: { TransformStream: polyfill.TransformStream as unknown as typeof TransformStream },
  ReadableStream: polyfill.ReadableStream as unknown as typeof ReadableStream,
};

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// ─── handler sets ────────────────────────────────────────────────────────────────────────────────────

interface Handlers {
  readonly name: string;
  make(): HTMLRewriter;
  /** What the output must be, given the input's bytes. */
  check(input: Uint8Array, output: Uint8Array): string | null;
}

const END = '<!--end-->';
const endsWithEnd = (_: Uint8Array, output: Uint8Array): string | null => {
  const tail = new TextDecoder().decode(output.subarray(Math.max(0, output.length - END.length)));
  return tail === END ? null : `the output does not end with ${END} (ends with ${JSON.stringify(tail)})`;
};

const noHandlers: Handlers = {
  name: 'no handlers',
  make: () => new HTMLRewriter(),
  check: (input, output) => (sameBytes(input, output) ? null : `the output (${output.length} bytes) is not the input (${input.length} bytes)`),
};
const touchAll: Handlers = {
  name: 'handlers on elements, text, comments, doctype, end',
  make: () =>
    new HTMLRewriter()
      .on('*', {
        element(e) {
          e.setAttribute('data-x', '1');
        },
        text() {},
        comments() {},
      })
      .onDocument({
        doctype() {},
        end(e) {
          e.append(END, { html: true });
        },
      }),
  check: endsWithEnd,
};
const touchAllAsync: Handlers = {
  name: 'async handlers',
  make: () =>
    new HTMLRewriter()
      .on('*', {
        async element(e) {
          await null;
          e.setAttribute('data-x', '1');
        },
        async text() {
          await null;
        },
        comments() {},
      })
      .onDocument({
        async end(e) {
          await null;
          e.append(END, { html: true });
        },
      }),
  check: endsWithEnd,
};

// ─── running cases ───────────────────────────────────────────────────────────────────────────────────

let cases = 0;
let stalled = 0;
let failed = 0;
let refused = 0;

/**
 * The end handler's `append` is refused, with an error that reaches the reader, where the input is cut
 * off inside something the content would join (a doctype, a bare `</`, …: docs/rewriter.md, "Inserted
 * content"). That is a stream settling as documented, not a stall: count it, and let it pass.
 */
function endRefusal(err: unknown): boolean {
  // (Also the refusal of a change a browser would build another tree from: an implied <body> written
  // with its new attribute, where a <frameset> later takes its place — docs/rewriter.md, "Exact on the
  // final tree".)
  if (!(err instanceof Error) || !/cannot write content at the end of the document|cannot be written so that a browser builds the same tree/.test(err.message)) return false;
  refused++;
  return true;
}

const STALL = Symbol('stall');

/** `run()` raced against the deadline: null when it settled well, else what went wrong. */
async function withDeadline(run: () => Promise<string | null>): Promise<string | null> {
  cases++;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<typeof STALL>((r) => (timer = setTimeout(() => r(STALL), DEADLINE_MS)));
  try {
    const result = await Promise.race([run(), deadline]);
    if (result === STALL) {
      stalled++;
      return `STALLED (no settlement within ${DEADLINE_MS} ms)`;
    }
    if (result !== null) failed++;
    return result;
  } catch (err) {
    failed++;
    return `errored: ${err instanceof Error ? err.stack ?? err.message : String(err)}`;
  } finally {
    clearTimeout(timer);
  }
}

const preview = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

/** Run `run` over every case, collect the failures (at most `MAX_FAILURES`), and fail naming them. */
async function expectNoFailures<C>(list: readonly C[], describeCase: (c: C) => string, run: (c: C) => Promise<string | null>): Promise<void> {
  const failures: string[] = [];
  for (const c of list) {
    const problem = await withDeadline(() => run(c));
    if (problem !== null) {
      failures.push(`${describeCase(c)}: ${problem}`);
      if (problem.startsWith('STALLED') || failures.length >= MAX_FAILURES) {
        failures.push('(the rest of this group not run)');
        break;
      }
    }
  }
  expect(failures, failures.join('\n')).toEqual([]);
}

/** One transform() case: the input cut by `chunking`, through `handlers`, on `impl`. */
async function transformCase(impl: Impl, handlers: Handlers, chunking: Chunking, item: Input): Promise<string | null> {
  const chunks = cut(item.bytes, chunking.sizes(item.bytes.length));
  const rewriter = handlers.make();
  let output: Uint8Array;
  try {
    if (impl === runtime) {
      // The path users run: a Response whose body arrives in chunks.
      const response = rewriter.transform(new Response(source(impl, chunks)));
      output = handlers === noHandlers ? new Uint8Array(await response.arrayBuffer()) : encoder.encode(await response.text());
    } else {
      const out = rewriter.transform(source(impl, chunks) as ReadableStream<Uint8Array>);
      if (!(out instanceof impl.ReadableStream)) return 'the output is not a stream of the input\'s implementation';
      output = concat(await collect(out));
    }
  } catch (err) {
    if (handlers !== noHandlers && endRefusal(err)) return null;
    throw err;
  }
  return handlers.check(item.bytes, output);
}

function transformSuite(impl: Impl, handlers: Handlers, chunking: (index: number) => Chunking, label: string, items: readonly Input[]): void {
  it(`${label}: ${items.length} inputs, ${chunking(0).name.replace(/ \(.*\)/, '')}, ${handlers.name}, ${impl.name}`, async () => {
    const indexed = items.map((item, index) => ({ item, chunking: chunking(index) }));
    await expectNoFailures(
      indexed,
      ({ item, chunking: c }) => `${item.name} ${preview(item.text)} in ${c.name} through transform() with ${handlers.name} on ${impl.name}`,
      ({ item, chunking: c }) => transformCase(impl, handlers, c, item),
    );
  });
}

// ─── the suites ──────────────────────────────────────────────────────────────────────────────────────

describe.skipIf(!haveHtml5lib || treeDir === null)('stall: html5lib inputs through transform()', () => {
  it('found the inputs', () => {
    expect(tokenizerInputs.length).toBeGreaterThan(1000);
    expect(treeInputs.length).toBeGreaterThan(1000);
  });
  for (const impl of [runtime, poly]) {
    for (const handlers of [noHandlers, touchAll]) {
      transformSuite(impl, handlers, () => oneUnit, 'html5lib', html5libInputs);
      transformSuite(impl, handlers, (i) => random(SEED + i), 'html5lib', html5libInputs);
      transformSuite(impl, handlers, () => kib16, 'html5lib', html5libInputs);
    }
    transformSuite(impl, touchAllAsync, () => oneUnit, 'html5lib', html5libInputs);
  }
});

describe.skipIf(corpus.length === 0)('stall: corpus pages through transform()', () => {
  it('found the 258 pages', () => expect(corpus.length).toBe(258));
  const heads4k = corpus.map((p) => head(p, 4096));
  const heads1k = corpus.map((p) => head(p, 1024));
  const every8th = corpus.filter((_, i) => i % 8 === 0);
  const smallest = [...corpus].sort((a, b) => a.bytes.length - b.bytes.length).slice(0, 3);
  for (const handlers of [noHandlers, touchAll]) transformSuite(runtime, handlers, () => oneUnit, 'corpus first 4 KiB', heads4k);
  for (const handlers of [noHandlers, touchAllAsync]) transformSuite(poly, handlers, () => oneUnit, 'corpus first 1 KiB', heads1k);
  transformSuite(runtime, touchAllAsync, () => oneUnit, 'corpus first 1 KiB', heads1k);
  for (const impl of [runtime, poly]) for (const handlers of [noHandlers, touchAll]) transformSuite(impl, handlers, () => kib16, 'corpus whole pages', corpus);
  transformSuite(runtime, touchAllAsync, () => kib16, 'corpus whole pages', corpus);
  for (const handlers of [noHandlers, touchAll]) transformSuite(runtime, handlers, (i) => random(SEED + i), 'corpus every 8th page', every8th);
  for (const impl of [runtime, poly]) transformSuite(impl, noHandlers, () => oneUnit, 'corpus 3 smallest pages', smallest);
});

// ─── the TransformStream classes ─────────────────────────────────────────────────────────────────────

interface StreamClass {
  readonly name: string;
  readonly bytes: boolean;
  make(streams: StreamsImplementation): { readable: ReadableStream<unknown>; writable: WritableStream<never> };
  /** What the output must be, given the input's text. */
  check(text: string, output: unknown[]): string | null;
}

const rawOf = (tokens: unknown[]) => (tokens as Token[]).map((t) => t.raw).join('');
const passthrough = (text: string, out: string) => (out === text ? null : `the output ${preview(out)} is not the input`);
const streamClasses: StreamClass[] = [
  {
    name: 'HTMLRewriterStream',
    bytes: false,
    make: (streams) => new HTMLRewriterStream(touchAll.make(), { streams }) as never,
    check: (_, out) => ((out as string[]).join('').endsWith(END) ? null : `the output does not end with ${END}`),
  },
  {
    name: 'HTMLRewriterStream (no handlers)',
    bytes: false,
    make: (streams) => new HTMLRewriterStream(new HTMLRewriter(), { streams }) as never,
    check: (text, out) => passthrough(text, (out as string[]).join('')),
  },
  {
    name: 'HTMLRewriterByteStream (no handlers)',
    bytes: true,
    make: (streams) => new HTMLRewriterByteStream(new HTMLRewriter(), { streams }) as never,
    check: (text, out) => (sameBytes(concat(out as Uint8Array[]), encoder.encode(text)) ? null : 'the output bytes are not the input bytes'),
  },
  {
    name: 'HTMLRewriterByteStream',
    bytes: true,
    make: (streams) => new HTMLRewriterByteStream(touchAllAsync.make(), { streams }) as never,
    check: (_, out) => endsWithEnd(new Uint8Array(), concat(out as Uint8Array[])),
  },
  { name: 'TokenizerStream', bytes: false, make: (streams) => new TokenizerStream({ streams }) as never, check: (text, out) => passthrough(text, rawOf(out)) },
  {
    name: 'TokenizerStream (treeBuilder: false)',
    bytes: false,
    make: (streams) => new TokenizerStream({ streams, treeBuilder: false }) as never,
    check: (text, out) => passthrough(text, rawOf(out)),
  },
  {
    name: 'TokenizerByteStream',
    bytes: true,
    make: (streams) => new TokenizerByteStream({ streams }) as never,
    // Decoding turns malformed UTF-8 (a lone surrogate encoded) into U+FFFD: compare with the decoded input.
    check: (text, out) => passthrough(new TextDecoder().decode(encoder.encode(text)), rawOf(out)),
  },
  {
    name: 'TreeBuilderStream',
    bytes: false,
    make: (streams) => new TreeBuilderStream({ streams }) as never,
    check: (_, out) => (out.length > 0 ? null : 'no mutation events'),
  },
  {
    name: 'TreeBuilderByteStream',
    bytes: true,
    make: (streams) => new TreeBuilderByteStream({ streams }) as never,
    check: (_, out) => (out.length > 0 ? null : 'no mutation events'),
  },
];

describe('stall: the TransformStream classes through pipeThrough', () => {
  const sample = [
    ...html5libInputs.filter((_, i) => i % 10 === 0),
    ...corpus.filter((_, i) => i % 16 === 0).map((p) => head(p, 4096)),
  ];
  for (const impl of [runtime, poly]) {
    for (const cls of streamClasses) {
      for (const chunking of [(): Chunking => oneUnit, (i: number) => random(SEED + i)]) {
        it(`${cls.name}, ${sample.length} inputs, ${chunking(0).name.replace(/ \(.*\)/, '')}, ${impl.name}`, async () => {
          await expectNoFailures(
            sample.map((item, index) => ({ item, c: chunking(index) })),
            ({ item, c }) => `${item.name} ${preview(item.text)} in ${c.name.replace('-byte', cls.bytes ? '-byte' : '-code-unit')} through ${cls.name} on ${impl.name}`,
            async ({ item, c }) => {
              const whole = cls.bytes ? item.bytes : item.text;
              const chunks = cut(whole as Uint8Array, c.sizes(whole.length));
              let out: unknown[];
              try {
                out = await collect(source(impl, chunks).pipeThrough(cls.make(impl.streams) as never));
              } catch (err) {
                if (endRefusal(err)) return null;
                throw err;
              }
              return cls.check(item.text, out);
            },
          );
        });
      }
    }
  }
});

// ─── errors ──────────────────────────────────────────────────────────────────────────────────────────

/** Read to the end; the error it ends with (or null) and how many chunks came before. */
async function drain(stream: ReadableStream<unknown>): Promise<{ error: unknown; chunks: number; settledTwice: boolean }> {
  const reader = stream.getReader();
  let chunks = 0;
  try {
    for (;;) {
      const { done } = await reader.read();
      if (done) return { error: null, chunks, settledTwice: false };
      chunks++;
    }
  } catch (error) {
    // Once errored, the stream stays errored with the same error: a later read gives it again, no new one.
    const again = await reader.read().then(
      () => true,
      (e: unknown) => e !== error,
    );
    return { error, chunks, settledTwice: again };
  }
}

const page = Array.from({ length: 200 }, (_, i) => `<p class=c${i}>paragraph ${i} <b>bold</b></p>\n`).join('');
const pageChunks = (): Uint8Array[] => cut(encoder.encode(page), fixed(100, '').sizes(page.length));

describe('stall: errors reach the other side once', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  for (const impl of [runtime, poly]) {
    /** transform() of the page (a Response on the runtime's streams, a polyfill stream on the polyfill). */
    const transformed = (rewriter: HTMLRewriter, body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> =>
      impl === runtime ? rewriter.transform(new Response(body)).body! : rewriter.transform(body);

    const errorCase = (name: string, run: () => Promise<void>) =>
      it(`${name}, ${impl.name}`, async () => {
        const problem = await withDeadline(async () => {
          await run();
          return null;
        });
        expect(problem, `${name} on ${impl.name}`).toBeNull();
        // Let any stray rejection surface before looking.
        await new Promise((r) => setTimeout(r, 20));
        expect(unhandled, 'unhandled rejections').toEqual([]);
      });

    errorCase('a handler throwing in a late chunk errors transform() with that error and cancels the input once', async () => {
      const boom = new Error('boom');
      const cancels: unknown[] = [];
      const rewriter = new HTMLRewriter().on('p.c190', {
        element() {
          throw boom;
        },
      });
      const r = await drain(transformed(rewriter, source(impl, pageChunks(), { onCancel: (e) => cancels.push(e) })));
      expect(r.error).toBe(boom);
      expect(r.chunks).toBeGreaterThan(0);
      expect(r.settledTwice).toBe(false);
      expect(cancels).toEqual([boom]);
    });

    errorCase('an async handler rejecting errors transform() with that error', async () => {
      const boom = new Error('async boom');
      const cancels: unknown[] = [];
      const rewriter = new HTMLRewriter().on('p.c150 b', {
        async element() {
          await new Promise((r) => setTimeout(r, 1));
          throw boom;
        },
      });
      const r = await drain(transformed(rewriter, source(impl, pageChunks(), { onCancel: (e) => cancels.push(e) })));
      expect(r.error).toBe(boom);
      expect(cancels).toEqual([boom]);
    });

    errorCase('maxBufferedBytes exceeded on a chunked body errors transform()', async () => {
      const chunks = ['<p>x</p><!--', ...Array.from({ length: 40 }, () => 'comment text '), '-->'].map((s) => encoder.encode(s));
      const cancels: unknown[] = [];
      const rewriter = new HTMLRewriter({ maxBufferedBytes: 100 }).onDocument({ comments() {} });
      const r = await drain(transformed(rewriter, source(impl, chunks, { onCancel: (e) => cancels.push(e) })));
      expect(String(r.error)).toMatch(/maxBufferedBytes \(100\) exceeded/);
      expect(cancels).toEqual([r.error]);
    });

    errorCase('the upstream erroring mid-stream errors transform() with that error', async () => {
      const broken = new Error('connection reset');
      let i = 0;
      const chunks = pageChunks();
      const body = new impl.ReadableStream<Uint8Array>(
        {
          pull(c) {
            if (i === 20) c.error(broken);
            else c.enqueue(chunks[i++]!);
          },
        },
        { highWaterMark: 0 },
      );
      const r = await drain(transformed(new HTMLRewriter().on('p', { element() {} }), body));
      expect(r.error).toBe(broken);
      expect(r.settledTwice).toBe(false);
    });

    errorCase('the reader cancelling mid-stream cancels the input once and stops the transformer', async () => {
      const reason = new Error('reader gone');
      const cancels: unknown[] = [];
      let pulls = 0;
      let elements = 0;
      let ends = 0;
      const rewriter = new HTMLRewriter()
        .on('p', {
          async element() {
            elements++;
            await new Promise((r) => setTimeout(r, 1));
          },
        })
        .onDocument({
          end() {
            ends++;
          },
        });
      const reader = transformed(rewriter, source(impl, pageChunks(), { onPull: () => pulls++, onCancel: (e) => cancels.push(e) })).getReader();
      for (let k = 0; k < 5; k++) await reader.read();
      await reader.cancel(reason);
      const pullsAtCancel = pulls;
      const elementsAtCancel = elements;
      await new Promise((r) => setTimeout(r, 30));
      expect(cancels).toEqual([reason]);
      expect(pulls).toBe(pullsAtCancel);
      // The one handler in flight at the cancel may finish; no new one starts, and the end never runs.
      expect(elements).toBeLessThanOrEqual(elementsAtCancel + 1);
      expect(ends).toBe(0);
      // Backpressure: 5 reads took only a few input chunks, not the whole body.
      expect(pullsAtCancel).toBeLessThan(12);
    });

    for (const cls of ['HTMLRewriterStream', 'HTMLRewriterByteStream'] as const) {
      errorCase(`${cls}: a handler throwing in a late chunk errors both sides with that error`, async () => {
        const boom = new Error('stream boom');
        const cancels: unknown[] = [];
        const rewriter = new HTMLRewriter().on('p.c190', {
          element() {
            throw boom;
          },
        });
        const bytes = cls === 'HTMLRewriterByteStream';
        const chunks = bytes ? pageChunks() : cut(page, fixed(100, '').sizes(page.length));
        const stream = bytes ? new HTMLRewriterByteStream(rewriter, { streams: impl.streams }) : new HTMLRewriterStream(rewriter, { streams: impl.streams });
        const r = await drain(source<unknown>(impl, chunks, { onCancel: (e) => cancels.push(e) }).pipeThrough(stream as never));
        expect(r.error).toBe(boom);
        expect(cancels).toEqual([boom]);
      });
    }

    errorCase('TreeBuilderByteStream: the upstream erroring reaches the reader', async () => {
      const broken = new Error('upstream broke');
      let i = 0;
      const chunks = pageChunks();
      const body = new impl.ReadableStream<Uint8Array>({
        pull(c) {
          if (i === 10) c.error(broken);
          else c.enqueue(chunks[i++]!);
        },
      });
      const r = await drain(body.pipeThrough(new TreeBuilderByteStream({ streams: impl.streams }) as never));
      expect(r.error).toBe(broken);
    });

    errorCase('HTMLRewriterStream: the reader cancelling reaches the source', async () => {
      const reason = new Error('gone');
      const cancels: unknown[] = [];
      const stream = new HTMLRewriterStream(touchAllAsync.make(), { streams: impl.streams });
      const reader = source(impl, cut(page, fixed(100, '').sizes(page.length)), { onCancel: (e) => cancels.push(e) }).pipeThrough(stream).getReader();
      await reader.read();
      await reader.cancel(reason);
      await new Promise((r) => setTimeout(r, 30));
      expect(cancels).toEqual([reason]);
    });
  }
});

afterAll(() => {
  console.log(`stall: ${cases} cases, ${stalled} stalled, ${failed} failed otherwise (${refused} settled by the documented refusal of the end handler's append)`);
});
