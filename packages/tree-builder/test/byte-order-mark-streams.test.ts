/**
 * The tree stage streams (`TreeBuilderStream`, `TreeBuilderByteStream` of @sluice/streams, which run this
 * package's `Parser`) and a leading byte order mark: the events build the tree of the input without it
 * (HTML §13.2.3.1: the decoder consumes it), for strings and bytes, whatever the chunking — the BOM in a
 * chunk of its own, after empty chunks, its bytes EF BB BF split across chunks — on the runtime's streams
 * and web-streams-polyfill's. (Here because @sluice/streams' own folder is being reorganised; it can move
 * to packages/streams/test.)
 */
import { describe, expect, it } from 'vitest';
import * as polyfill from 'web-streams-polyfill';
import { DomTreeSink, replayRecording, toTestFormat, type RecordedEvent } from '@sluice/dom';
import { TreeBuilderByteStream, TreeBuilderStream, runtimeStreams, type StreamsImplementation } from '@sluice/streams';

const BOM = '\uFEFF';

interface Impl {
  name: string;
  streams: StreamsImplementation;
  ReadableStream: typeof ReadableStream;
}

const IMPLEMENTATIONS: Impl[] = [
  { name: 'runtime streams', streams: runtimeStreams(), ReadableStream: globalThis.ReadableStream },
  {
    name: 'web-streams-polyfill',
    streams: { TransformStream: polyfill.TransformStream as unknown as typeof TransformStream },
    ReadableStream: polyfill.ReadableStream as unknown as typeof ReadableStream,
  },
];

function source<T>(impl: Impl, chunks: readonly T[]): ReadableStream<T> {
  let i = 0;
  return new impl.ReadableStream<T>({
    pull(c) {
      if (i < chunks.length) c.enqueue(chunks[i++]!);
      else c.close();
    },
  });
}

/** The tree the recorded events build. */
async function treeOf(events: ReadableStream<RecordedEvent>): Promise<string> {
  const all: RecordedEvent[] = [];
  const reader = events.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    all.push(value);
  }
  const sink = new DomTreeSink();
  replayRecording(all, sink);
  return toTestFormat(sink.document);
}

/** Every list of cut positions for `n` items (2^(n-1) of them). */
function* cutLists(n: number): Generator<number[]> {
  for (let mask = 0; mask < 1 << (n - 1); mask++) {
    const cuts: number[] = [];
    for (let i = 1; i < n; i++) if (mask & (1 << (i - 1))) cuts.push(i);
    yield cuts;
  }
}

function cut<T extends { slice(a: number, b?: number): T }>(s: T, cuts: readonly number[], length: number): T[] {
  const out: T[] = [];
  let from = 0;
  for (const c of [...cuts, length]) {
    out.push(s.slice(from, c));
    from = c;
  }
  return out;
}

const input = `${BOM}<title>x`;
const EXPECTED = '| <html>\n|   <head>\n|     <title>\n|       "x"\n|   <body>';

for (const impl of IMPLEMENTATIONS) {
  describe(`tree stage streams and a leading BOM (${impl.name})`, () => {
    it('TreeBuilderStream: the tree without the BOM, for every chunking (empty chunks included)', async () => {
      for (const cuts of cutLists(input.length)) {
        const chunks = cut(input, cuts, input.length);
        for (const withEmpty of [chunks, ['', ...chunks.flatMap((c) => [c, ''])]]) {
          const tree = await treeOf(source(impl, withEmpty).pipeThrough(new TreeBuilderStream({ streams: impl.streams })));
          expect(tree, JSON.stringify(withEmpty)).toBe(EXPECTED);
        }
      }
    });

    it('TreeBuilderByteStream: the tree without EF BB BF, for every chunking of the bytes (EF | BB BF, …)', async () => {
      const bytes = new TextEncoder().encode(input);
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      for (const cuts of cutLists(bytes.length)) {
        const chunks = cut(bytes, cuts, bytes.length);
        for (const withEmpty of [chunks, [new Uint8Array(0), ...chunks]]) {
          const tree = await treeOf(source(impl, withEmpty).pipeThrough(new TreeBuilderByteStream({ streams: impl.streams })));
          expect(tree, JSON.stringify(withEmpty.map((c) => [...c]))).toBe(EXPECTED);
        }
      }
    });

    it('a second or later U+FEFF is text', async () => {
      const tree = await treeOf(source(impl, [BOM, `${BOM}<title>x`]).pipeThrough(new TreeBuilderStream({ streams: impl.streams })));
      expect(tree).toBe(`| <html>\n|   <head>\n|   <body>\n|     "${BOM}"\n|     <title>\n|       "x"`);
    });
  });
}
