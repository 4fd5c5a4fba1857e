/** `TreeBuilderStream`: string chunks in, DOM mutation events out. */
import { Parser } from '@sluice/tree-builder';
import { RecordingSink, type RecordedEvent } from '@sluice/dom';
import { type StreamOptions, type TransformPair, engineTransform, implementationOf } from './implementation.js';
import { withUtf8 } from './utf8.js';

/** Options of {@link TreeBuilderStream}. */
export interface TreeBuilderStreamOptions extends StreamOptions {
  /** The scripting flag. Default true. */
  scripting?: boolean;
}

/**
 * A TransformStream (a readable/writable pair) that parses string chunks and emits the tree builder's
 * mutation events, in `@sluice/dom`'s recording format (`RecordedEvent`: numeric node ids, the document
 * is 0). `replayRecording(events, sink)` from `@sluice/dom` plays them into any tree sink.
 *
 * A byte order mark that is the first character of the stream is not text: `Parser` (a document parse)
 * skips it, whatever the chunking, as the decoder does for a page (HTML §13.2.3.1). Locations count it.
 */
export class TreeBuilderStream implements TransformPair<string, RecordedEvent> {
  readonly readable: ReadableStream<RecordedEvent>;
  readonly writable: WritableStream<string>;

  constructor(options: TreeBuilderStreamOptions = {}) {
    const impl = implementationOf(options);
    const t = engineTransform<RecordedEvent>(impl, 'TreeBuilderStream', (enqueue) => {
      const sink = new RecordingSink({ keepLines: false, onLine: (line) => enqueue(JSON.parse(line) as RecordedEvent) });
      const parser = new Parser<number>(sink, { scripting: options.scripting ?? true });
      return { write: (c) => void parser.write(c), end: () => parser.end() };
    });
    this.readable = t.readable;
    this.writable = t.writable;
  }
}

/**
 * {@link TreeBuilderStream} with UTF-8 bytes in. The decoder keeps a leading BOM (`ignoreBOM`: it is the
 * decoder every byte stream here shares, and passthrough needs the BOM) and the parser skips it; EF BB BF
 * split across chunks reaches the parser as one U+FEFF (a streaming decoder completes the sequence first).
 */
export class TreeBuilderByteStream implements TransformPair<Uint8Array, RecordedEvent> {
  readonly readable: ReadableStream<RecordedEvent>;
  readonly writable: WritableStream<Uint8Array>;

  constructor(options: TreeBuilderStreamOptions = {}) {
    const pair = withUtf8(implementationOf(options), new TreeBuilderStream(options));
    this.readable = pair.readable;
    this.writable = pair.writable;
  }
}
