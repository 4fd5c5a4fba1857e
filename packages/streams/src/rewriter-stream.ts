/** `HTMLRewriterStream`: string chunks in, rewritten string chunks out; `HTMLRewriterByteStream`: bytes. */
import type { HTMLRewriter } from '@sluice/rewriter';
import { checkByteOptions } from './bytes.js';
import { BYTE_CHUNKS, type StreamOptions, type TransformPair, engineTransform, implementationOf } from './implementation.js';

/**
 * The options of {@link HTMLRewriterByteStream}: the streams implementation, and how the input's
 * encoding is found — the options `HTMLRewriter.createByteTransformer` and `transform(stream, options)`
 * take (HTML §13.2.3.2; see docs/encoding.md).
 */
export interface HTMLRewriterByteStreamOptions extends StreamOptions {
  /**
   * A `Content-Type` header value (`'text/html; charset=shift_jis'`): its charset, when it names an
   * encoding, decides (after a byte order mark). Pass the response's header when you have it.
   */
  contentType?: string;
  /** An encoding label that decides unless a byte order mark says otherwise. */
  encoding?: string;
  /**
   * The label used when no BOM, option, charset or `<meta>` in the first 1024 bytes says. Default
   * **UTF-8**, as for the other byte streams of this package (`ByteInputOptions.defaultEncoding`); pass
   * `'windows-1252'` to read a page from the web as a browser would.
   */
  defaultEncoding?: string;
}

/**
 * A TransformStream (a readable/writable pair) that runs an `HTMLRewriter` over string chunks. Each
 * chunk's output is enqueued as soon as it is decided; while an async handler is pending the writer is
 * held back.
 */
export class HTMLRewriterStream implements TransformPair<string, string> {
  readonly readable: ReadableStream<string>;
  readonly writable: WritableStream<string>;

  constructor(rewriter: HTMLRewriter, options: StreamOptions = {}) {
    if (rewriter === null || typeof rewriter !== 'object' || typeof rewriter.createTransformer !== 'function') {
      throw new TypeError('HTMLRewriterStream: the first argument must be an HTMLRewriter');
    }
    const t = engineTransform<string>(implementationOf(options), 'HTMLRewriterStream', (enqueue) => rewriter.createTransformer(enqueue));
    this.readable = t.readable;
    this.writable = t.writable;
  }
}

/**
 * {@link HTMLRewriterStream} with bytes in and out. One TransformStream around the rewriter's byte
 * interface (`createByteTransformer`): untouched input is copied from the input's bytes rather than
 * decoded and encoded again.
 *
 * Without `contentType`, `encoding` or `defaultEncoding` the input is UTF-8, as it always was: not
 * sniffed, nothing held back. With any of them, the encoding is sniffed as `HTMLRewriter.transform(stream,
 * options)` sniffs it — BOM, `encoding`, the `contentType` charset, a `<meta>` in the first 1024 bytes
 * (output waits until it is decided), then `defaultEncoding` (UTF-8 unless given) — and every
 * ASCII-compatible encoding and UTF-16 is rewritten byte-exactly in its own encoding (ISO-2022-JP and
 * `replacement` are refused: the stream errors). See docs/encoding.md.
 */
export class HTMLRewriterByteStream implements TransformPair<Uint8Array, Uint8Array> {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;

  constructor(rewriter: HTMLRewriter, options: HTMLRewriterByteStreamOptions = {}) {
    if (rewriter === null || typeof rewriter !== 'object' || typeof rewriter.createByteTransformer !== 'function') {
      throw new TypeError('HTMLRewriterByteStream: the first argument must be an HTMLRewriter');
    }
    if (options === null || typeof options !== 'object') throw new TypeError('HTMLRewriterByteStream: options must be an object');
    const sniff = options.contentType !== undefined || options.encoding !== undefined || options.defaultEncoding !== undefined;
    // A bad label or a contentType that is no string throws now, naming the option.
    const encoding = sniff ? checkByteOptions(options, 'HTMLRewriterByteStream') : undefined;
    const t = engineTransform<Uint8Array, Uint8Array>(
      implementationOf(options),
      'HTMLRewriterByteStream',
      (enqueue) => rewriter.createByteTransformer(enqueue, encoding),
      BYTE_CHUNKS,
    );
    this.readable = t.readable;
    this.writable = t.writable;
  }
}
