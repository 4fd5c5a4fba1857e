/** `TreeBuilderStream`: string chunks in, DOM mutation events out; `TreeBuilderByteStream`: bytes in. */
import { Parser } from '@sluice/tree-builder';
import { RecordingSink, type RecordedEvent } from '@sluice/dom';
import type { EncodingChange } from '@sluice/encoding';
import type { ParseError } from '@sluice/tokenizer';
import { errorOption } from './tokenizer-stream.js';
import { BYTE_CHUNKS, type StreamOptions, type TransformPair, engineTransform, implementationOf } from './implementation.js';
import { type ByteInputOptions, SniffingStream, sniffingEngine, checkByteOptions } from './bytes.js';

/** Options of {@link TreeBuilderStream}. */
export interface TreeBuilderStreamOptions extends StreamOptions {
  /** The scripting flag. Default true. */
  scripting?: boolean;
  /**
   * Every parse error, the tokenizer's and the tree builder's, as `Parser`'s `onParseError` reports them
   * (`ParseError`: code, offset, line, col, and `byteOffset` for bytes in), each once, in order,
   * synchronously while the chunk that holds them is transformed.
   */
  onParseError?: (error: ParseError) => void;
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
    const errors = errorOption(options, 'TreeBuilderStream');
    const t = engineTransform<RecordedEvent>(impl, 'TreeBuilderStream', (enqueue) => {
      const sink = new RecordingSink({ keepLines: false, onLine: (line) => enqueue(JSON.parse(line) as RecordedEvent) });
      const parser = new Parser<number>(sink, { scripting: options.scripting ?? true, ...errors });
      return { write: (c) => void parser.write(c), end: () => parser.end() };
    });
    this.readable = t.readable;
    this.writable = t.writable;
  }
}

/** Options of {@link TreeBuilderByteStream}: the tree stage's, and how the bytes are decoded. */
export interface TreeBuilderByteStreamOptions extends TreeBuilderStreamOptions, ByteInputOptions {}

/**
 * {@link TreeBuilderStream} with bytes in, decoded as a browser decodes a page (HTML §13.2.3): a byte
 * order mark, then `options.encoding`, then the charset of `options.contentType`, then a `<meta>` in the
 * first 1024 bytes, then `options.defaultEncoding` (UTF-8 unless given; see {@link ByteInputOptions}).
 * The bytes go to a `Parser` as they are (its decoder stage): the sniffing holds back at most the first
 * 1024 bytes, a character split across chunks is decoded whole, and the events do not depend on where
 * the chunks split. The BOM is consumed by the decoder, never text.
 *
 * `sniffed` resolves with the sniffing's result ({ encoding, confidence, bomLength, source }) as soon as
 * it is decided, before the first event of the decoded text is enqueued; it rejects if the stream fails
 * or is cancelled first (an abort of the writable side counts only on implementations that tell the
 * transformer, as the current standard's do). `encoding` and `confidence` read the same state (null
 * before); `confidence` becomes 'certain' when a `<meta>` is met (`options.onEncodingChange`).
 */
export class TreeBuilderByteStream extends SniffingStream implements TransformPair<Uint8Array, RecordedEvent> {
  readonly readable: ReadableStream<RecordedEvent>;
  readonly writable: WritableStream<Uint8Array>;

  constructor(options: TreeBuilderByteStreamOptions = {}) {
    super();
    const impl = implementationOf(options);
    const decoding = checkByteOptions(options, 'TreeBuilderByteStream');
    const errors = errorOption(options, 'TreeBuilderByteStream');
    const state = this.state;
    const onEncodingChange = options.onEncodingChange;
    const t = engineTransform<RecordedEvent, Uint8Array>(
      impl,
      'TreeBuilderByteStream',
      (enqueue) => {
        const sink = new RecordingSink({
          keepLines: false,
          onLine: (line) => {
            state.check();
            enqueue(JSON.parse(line) as RecordedEvent);
          },
        });
        const parser = new Parser<number>(sink, {
          scripting: options.scripting ?? true,
          ...decoding,
          ...errors,
          onEncodingChange: (change) => {
            state.change = change;
            onEncodingChange?.(change);
          },
        });
        state.source = parser;
        return sniffingEngine(parser, state);
      },
      BYTE_CHUNKS,
      (reason) => state.stop(reason),
    );
    this.readable = t.readable;
    this.writable = t.writable;
  }
}
