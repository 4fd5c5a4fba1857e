/**
 * The parsing byte streams (TreeBuilderByteStream, TokenizerByteStream with and without the tree builder)
 * decode with the HTML Standard's sniffing: for every way of cutting a small Shift_JIS, windows-1252 and
 * UTF-16 page in two (and at two close points, in three), on the runtime's streams and web-streams-polyfill's, the events
 * rebuild parse(bytes)'s tree, the tokens' raw is the decoded text, and the sniffing's result is the same.
 */
import { describe, expect, it } from 'vitest';
import type { Token } from '@sluice/tokenizer';
import { decodeHtmlBytes, type EncodingChange, type SniffResult } from '@sluice/encoding';
import { DomTreeSink, parse, replayRecording, serialize, type RecordedEvent } from '@sluice/dom';
import { TokenizerByteStream, TreeBuilderByteStream, type ByteInputOptions } from '@sluice/streams';
import { IMPLEMENTATIONS, collect, source } from './helpers.js';


const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));
const bytes = (...parts: (string | number[])[]): Uint8Array => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? ascii(p) : p)));
function utf16(s: string, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(2 + s.length * 2);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0xfeff, littleEndian);
  for (let i = 0; i < s.length; i++) view.setUint16(2 + i * 2, s.charCodeAt(i), littleEndian);
  return out;
}

interface Page {
  name: string;
  bytes: Uint8Array;
  options: ByteInputOptions;
  encoding: string;
  source: SniffResult['source'];
  text: string;
}

// 日本語 in Shift_JIS is 93 FA 96 7B 8C EA; é and € in windows-1252 are E9 and 80.
const PAGES: Page[] = [
  { name: 'Shift_JIS, <meta charset>', bytes: bytes('<meta charset=shift_jis><p>', [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea], '</p>'), options: {}, encoding: 'Shift_JIS', source: 'prescan', text: '日本語' },
  { name: 'windows-1252, HTTP charset', bytes: bytes('<p>caf', [0xe9], ' ', [0x80], '5</p>'), options: { contentType: 'text/html; charset=iso-8859-1' }, encoding: 'windows-1252', source: 'transport', text: 'café €5' },
  { name: 'windows-1252, the default asked for', bytes: bytes('<p>caf', [0xe9], ' ', [0x80], '5</p>'), options: { defaultEncoding: 'windows-1252' }, encoding: 'windows-1252', source: 'default', text: 'café €5' },
  { name: 'windows-1252, <meta http-equiv>', bytes: bytes('<meta http-equiv=Content-Type content="text/html;charset=latin1"><p>', [0xe9], '</p>'), options: {}, encoding: 'windows-1252', source: 'prescan', text: 'é' },
  { name: 'UTF-16LE with a BOM', bytes: utf16('<p>é日😀</p>', true), options: {}, encoding: 'UTF-16LE', source: 'bom', text: 'é日😀' },
  { name: 'UTF-16BE with a BOM', bytes: utf16('<p>é日😀</p>', false), options: { contentType: 'text/html;charset=shift_jis' }, encoding: 'UTF-16BE', source: 'bom', text: 'é日😀' },
  { name: 'UTF-8, nothing said (the streams\' default)', bytes: new TextEncoder().encode('<p>é😀</p>'), options: {}, encoding: 'UTF-8', source: 'default', text: 'é😀' },
  { name: 'windows-1252 forced over a <meta>', bytes: bytes('<meta charset=utf-8><p>', [0xc3, 0xa9], '</p>'), options: { encoding: 'cp1252' }, encoding: 'windows-1252', source: 'override', text: 'Ã©' },
];

/**
 * Every way of cutting `b` at one point, and at two points up to 3 bytes apart (a character of up to 4
 * bytes cut into three; an empty middle chunk included). All pairs would be 5× slower and find nothing
 * more: the sniffing sees the bytes held so far, whatever chunks brought them.
 */
function* splits(b: Uint8Array): Generator<Uint8Array[]> {
  for (let i = 0; i <= b.length; i++) {
    yield [b.slice(0, i), b.slice(i)];
    for (let j = i; j <= Math.min(i + 3, b.length); j++) yield [b.slice(0, i), b.slice(i, j), b.slice(j)];
  }
}
const splitCount = (n: number): number => (n + 1) + (n + 1) * 4 - (1 + 2 + 3);

/** parse(bytes)'s options for a page: the same, with the streams' default spelled out. */
const parseOptions = (o: ByteInputOptions): ByteInputOptions => ({ defaultEncoding: 'UTF-8', ...o });

for (const impl of IMPLEMENTATIONS) {
  describe(`byte streams decode as the standard says (${impl.name})`, () => {
    for (const page of PAGES) {
      it(`${page.name}: the same events, tokens and sniffing for every split`, async () => {
        const expected = serialize(parse(page.bytes, parseOptions(page.options)));
        const decoded = decodeHtmlBytes(page.bytes, parseOptions(page.options)).text;
        expect(decoded).toContain(page.text);
        let n = 0;
        for (const chunks of splits(page.bytes)) {
          const what = JSON.stringify(chunks.map((c) => c.length));
          const tree = new TreeBuilderByteStream({ ...page.options, streams: impl.streams });
          const events = await collect(source(impl, chunks).pipeThrough(tree));
          const sink = new DomTreeSink();
          replayRecording(events as RecordedEvent[], sink);
          expect(serialize(sink.document), what).toBe(expected);
          expect(await tree.sniffed, what).toMatchObject({ encoding: page.encoding, source: page.source });
          expect(tree.encoding).toBe(page.encoding);
          for (const treeBuilder of [true, false]) {
            const tokenizer = new TokenizerByteStream({ ...page.options, treeBuilder, streams: impl.streams });
            const tokens = await collect(source(impl, chunks).pipeThrough(tokenizer));
            expect(tokens.map((t: Token) => t.raw).join(''), `${what} treeBuilder ${treeBuilder}`).toBe(decoded);
            expect(tokenizer.encoding).toBe(page.encoding);
          }
          n++;
        }
        expect(n).toBe(splitCount(page.bytes.length));
      });
    }

    it('a <meta> past the first 1024 bytes: onEncodingChange once, before its own output; the stream goes on in the old encoding', async () => {
      const page = bytes('<p>', 'x'.repeat(1100), '</p><meta charset=shift_jis><p>', [0xe9], '</p>');
      for (const at of [0, 1, 500, 1024, 1025, 1120, 1130, page.length]) {
        const chunks = [page.slice(0, at), page.slice(at)];
        for (const make of [
          (o: ByteInputOptions) => new TreeBuilderByteStream({ ...o, defaultEncoding: 'windows-1252', streams: impl.streams }),
          (o: ByteInputOptions) => new TokenizerByteStream({ ...o, defaultEncoding: 'windows-1252', streams: impl.streams }),
          (o: ByteInputOptions) => new TokenizerByteStream({ ...o, defaultEncoding: 'windows-1252', treeBuilder: false, streams: impl.streams }),
        ]) {
          const changes: EncodingChange[] = [];
          const order: string[] = [];
          const stream = make({ onEncodingChange: (c) => (changes.push(c), order.push('change')) });
          const out = await collect(
            source(impl, chunks)
              .pipeThrough(stream as TransformStream<Uint8Array, unknown>)
              .pipeThrough(new impl.streams.TransformStream({ transform: (c, ctl) => (order.push(JSON.stringify(c).includes('meta') ? 'meta' : '-'), ctl.enqueue(c)) })),
          );
          expect(changes).toEqual([{ from: 'windows-1252', to: 'Shift_JIS', action: 'reparse' }]);
          expect(stream.encodingChange).toEqual(changes[0]);
          expect(stream.confidence).toBe('certain');
          expect(stream.encoding).toBe('windows-1252');
          expect(order.indexOf('change')).toBeLessThan(order.indexOf('meta'));
          expect(JSON.stringify(out)).toContain('é');
        }
      }
    });

    it('sniffed resolves before the first output is read, and rejects when the input fails first', async () => {
      const stream = new TreeBuilderByteStream({ streams: impl.streams });
      const order: string[] = [];
      void stream.sniffed.then((r) => order.push(`sniffed ${r.encoding}`));
      const reader = source(impl, [bytes('<p>a</p>')]).pipeThrough(stream).getReader();
      await reader.read();
      order.push('read');
      expect(order).toEqual(['sniffed UTF-8', 'read']);
      expect(stream.confidence).toBe('tentative');
      await reader.cancel();

      const boom = new Error('upstream');
      const failing = new impl.ReadableStream<Uint8Array>({ pull: (c) => c.error(boom) });
      const tokens = new TokenizerByteStream({ streams: impl.streams });
      await expect(collect(failing.pipeThrough(tokens))).rejects.toBe(boom);
      await expect(tokens.sniffed).rejects.toBe(boom);
    });

    it('a bad label is a RangeError at construction, naming the stream and the label', () => {
      expect(() => new TreeBuilderByteStream({ encoding: 'utf-7', streams: impl.streams })).toThrow(/TreeBuilderByteStream: options.encoding: "utf-7" is not an encoding label/);
      expect(() => new TokenizerByteStream({ defaultEncoding: 'nope', streams: impl.streams })).toThrow(RangeError);
      expect(() => new TokenizerByteStream({ contentType: 42 as unknown as string, streams: impl.streams })).toThrow(TypeError);
    });
  });
}
