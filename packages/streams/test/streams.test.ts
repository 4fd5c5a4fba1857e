/**
 * @sluice/streams on the runtime's own streams and on web-streams-polyfill's: every stage, string and
 * byte variants, backpressure, errors.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Token } from '@sluice/tokenizer';
import { DomTreeSink, parse, replayRecording, serialize, type RecordedEvent } from '@sluice/dom';
import { HTMLRewriter } from '@sluice/rewriter';
import {
  HTMLRewriterByteStream,
  HTMLRewriterStream,
  TokenizerByteStream,
  TokenizerStream,
  TreeBuilderByteStream,
  TreeBuilderStream,
} from '@sluice/streams';
import { IMPLEMENTATIONS, collect, source } from './helpers.js';


const html = fc.string({ unit: fc.constantFrom('<', '>', '/', 'p', 'a', 'b', 'table', 'td', 'script', ' ', '=', '"', '&', 'amp;', '!--', 'é', '😀', '\n', 'x'), maxLength: 60 });
const cutList = fc.array(fc.nat({ max: 200 }), { maxLength: 6 });

function cut(s: string, at: number[]): string[] {
  const points = [...new Set(at.map((a) => a % (s.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(s.slice(prev, p));
    prev = p;
  }
  out.push(s.slice(prev));
  return out;
}

function cutBytes(b: Uint8Array, at: number[]): Uint8Array[] {
  const points = [...new Set(at.map((a) => a % (b.length + 1)))].sort((a, b2) => a - b2);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(b.slice(prev, p));
    prev = p;
  }
  out.push(b.slice(prev));
  return out;
}

for (const impl of IMPLEMENTATIONS) {
  const opts = { streams: impl.streams };

  describe(`@sluice/streams on ${impl.name}`, () => {
    it('TokenizerStream: raw tokens that round-trip, for any chunking', async () => {
      await fc.assert(
        fc.asyncProperty(html, cutList, async (input, at) => {
          const tokens = await collect(source(impl, cut(input, at)).pipeThrough(new TokenizerStream(opts)));
          expect(tokens.map((t: Token) => t.raw).join('')).toBe(input);
        }),
        { numRuns: 100 },
      );
    });

    it('TokenizerStream without a tree builder still round-trips', async () => {
      await fc.assert(
        fc.asyncProperty(html, cutList, async (input, at) => {
          const tokens = await collect(source(impl, cut(input, at)).pipeThrough(new TokenizerStream({ ...opts, treeBuilder: false })));
          expect(tokens.map((t: Token) => t.raw).join('')).toBe(input);
        }),
        { numRuns: 50 },
      );
    });

    it('TokenizerStream follows the tree builder (script data, SVG title)', async () => {
      const input = '<script>a<b>c</script><svg><title><i>t</i></title></svg>';
      const tokens = await collect(source(impl, [input]).pipeThrough(new TokenizerStream(opts)));
      expect(tokens.filter((t) => t.type === 'startTag').map((t) => (t as { name: string }).name)).toEqual(['script', 'svg', 'title', 'i']);
    });

    it('TreeBuilderStream: mutation events that rebuild the same DOM', async () => {
      await fc.assert(
        fc.asyncProperty(html, cutList, async (input, at) => {
          const events = await collect(source(impl, cut(input, at)).pipeThrough(new TreeBuilderStream(opts)));
          const sink = new DomTreeSink();
          replayRecording(events as RecordedEvent[], sink);
          expect(serialize(sink.document)).toBe(serialize(parse(input)));
        }),
        { numRuns: 60 },
      );
    });

    it('HTMLRewriterStream: passthrough and rewriting', async () => {
      await fc.assert(
        fc.asyncProperty(html, cutList, async (input, at) => {
          const passthrough = new HTMLRewriter().on('*', { element() {} });
          const out = await collect(source(impl, cut(input, at)).pipeThrough(new HTMLRewriterStream(passthrough, opts)));
          expect(out.join('')).toBe(input);
        }),
        { numRuns: 100 },
      );
      const r = new HTMLRewriter().on('a', { element(e) { e.setAttribute('href', 'https://x/'); } });
      const out = await collect(source(impl, ['<p><a href=', 'http://x/>l</a>']).pipeThrough(new HTMLRewriterStream(r, opts)));
      expect(out.join('')).toBe('<p><a href="https://x/">l</a>');
    });

    it('byte streams: UTF-8 in and out, code points split across chunks', async () => {
      const enc = new TextEncoder();
      await fc.assert(
        fc.asyncProperty(html, cutList, async (input, at) => {
          const bytes = enc.encode(input);
          const r = new HTMLRewriter().on('p', { text() {} });
          const out = await collect(source(impl, cutBytes(bytes, at)).pipeThrough(new HTMLRewriterByteStream(r, opts)));
          expect(Buffer.concat(out)).toEqual(Buffer.from(bytes));
          const tokens = await collect(source(impl, cutBytes(bytes, at)).pipeThrough(new TokenizerByteStream(opts)));
          expect(tokens.map((t) => t.raw).join('')).toBe(input);
        }),
        { numRuns: 60 },
      );
      // A byte order mark is text like any other: it comes back out.
      const withBom = enc.encode('\ufeff<p>x</p>');
      const bomOut = await collect(source(impl, cutBytes(withBom, [1, 2])).pipeThrough(new HTMLRewriterByteStream(new HTMLRewriter().on('p', { element() {} }), opts)));
      expect(Buffer.concat(bomOut)).toEqual(Buffer.from(withBom));
      const bomResponse = new HTMLRewriter().on('p', { element() {} }).transform(new Response(withBom));
      expect(Buffer.from(await bomResponse.arrayBuffer())).toEqual(Buffer.from(withBom));
      const events = await collect(source(impl, cutBytes(enc.encode('<p>é😀</p>'), [1, 4, 5, 6])).pipeThrough(new TreeBuilderByteStream(opts)));
      expect(events.filter((e) => e.op === 'insertText').map((e) => (e as { data: string }).data).join('')).toBe('é😀');
    });

    it('backpressure: the source is read only as fast as the output is', async () => {
      for (const make of [
        () => new HTMLRewriterStream(new HTMLRewriter().on('p', { element() {} }), opts),
        () => new TokenizerStream(opts),
        () => new TreeBuilderStream(opts),
      ]) {
        let pulled = 0;
        const chunks = Array.from({ length: 200 }, (_, i) => `<p>chunk ${i}</p>`);
        const reader = source(impl, chunks, { onPull: () => pulled++ }).pipeThrough(make()).getReader();
        let read = 0;
        for (let i = 0; i < 10; i++) {
          await reader.read();
          read++;
          await new Promise((r) => setTimeout(r, 2));
        }
        // A few chunks in flight between the stages at most, not the 200 a greedy reader would take.
        expect(pulled).toBeLessThanOrEqual(read + 4);
        await reader.cancel();
      }
    });

    it('backpressure: an async handler holds the writer back', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const rewriterStream = new HTMLRewriterStream(new HTMLRewriter().on('div', { element: () => gate }), opts);
      const output = collect(rewriterStream.readable);
      const writer = rewriterStream.writable.getWriter();
      let written = false;
      const w = writer.write('<div>x</div>').then(() => (written = true));
      await new Promise((r) => setTimeout(r, 10));
      expect(written).toBe(false);
      release();
      await w;
      await writer.close();
      expect((await output).join('')).toBe('<div>x</div>');
    });

    it('a handler error errors the output with the same error', async () => {
      const boom = new Error('boom');
      const r = new HTMLRewriter().on('b', { element() { throw boom; } });
      await expect(collect(source(impl, ['<a>x</a>', '<b>y</b>', '<i>']).pipeThrough(new HTMLRewriterStream(r, opts)))).rejects.toBe(boom);
      const bytes = new HTMLRewriterByteStream(new HTMLRewriter().on('b', { async element() { throw boom; } }), opts);
      await expect(collect(source(impl, [new TextEncoder().encode('<b>')]).pipeThrough(bytes))).rejects.toBe(boom);
    });

    it('HTMLRewriter.transform() answers in the input stream\'s own implementation', async () => {
      const r = new HTMLRewriter().on('p', { element(e) { e.setAttribute('x', '1'); } });
      const outStrings = r.transform(source(impl, ['<p>', 'a</p>']));
      expect(outStrings).toBeInstanceOf(impl.ReadableStream);
      expect((await collect(outStrings)).join('')).toBe('<p x="1">a</p>');
      const outBytes = r.transform(source(impl, [new TextEncoder().encode('<p>é')]));
      expect(new TextDecoder().decode(Buffer.concat(await collect(outBytes)))).toBe('<p x="1">é');
    });

    it('non-string chunks are a TypeError naming the stream', async () => {
      await expect(collect(source(impl, [42 as unknown as string]).pipeThrough(new HTMLRewriterStream(new HTMLRewriter(), opts)))).rejects.toThrow(/HTMLRewriterStream: expected string chunks/);
      const bytes = new HTMLRewriterByteStream(new HTMLRewriter(), opts);
      await expect(collect(source(impl, ['<p>' as unknown as Uint8Array]).pipeThrough(bytes))).rejects.toThrow(/HTMLRewriterByteStream: expected Uint8Array chunks, got string/);
    });

    it('the byte stream decodes malformed UTF-8 to U+FFFD, also when a sequence is cut between chunks', async () => {
      const input = [new Uint8Array([0x3c, 0x70, 0x3e, 0xe2]), new Uint8Array([0x82, 0xac, 0xe2, 0x82]), new Uint8Array([0x3c, 0x2f, 0x70, 0x3e, 0xc3])];
      const out = await collect(source(impl, input).pipeThrough(new HTMLRewriterByteStream(new HTMLRewriter().on('p', { element() {} }), opts)));
      expect(new TextDecoder().decode(Buffer.concat(out))).toBe('<p>€\ufffd</p>\ufffd');
    });
  });
}

describe('Response', () => {
  it('transform(Response) keeps status and headers, drops content-length', async () => {
    const res = new Response('<p>a</p>', { status: 203, headers: { 'content-type': 'text/html', 'content-length': '8', 'x-k': 'v' } });
    const out = new HTMLRewriter().on('p', { element(e) { e.append('!'); } }).transform(res);
    expect(out.status).toBe(203);
    expect(out.headers.get('x-k')).toBe('v');
    expect(out.headers.get('content-length')).toBeNull();
    expect(await out.text()).toBe('<p>a!</p>');
  });
});
