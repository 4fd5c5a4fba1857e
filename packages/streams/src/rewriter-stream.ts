/** `HTMLRewriterStream`: string chunks in, rewritten string chunks out. */
import type { HTMLRewriter } from '@sluice/rewriter';
import { BYTE_CHUNKS, type StreamOptions, type TransformPair, engineTransform, implementationOf } from './implementation.js';

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
 * {@link HTMLRewriterStream} with UTF-8 bytes in and out. One TransformStream around the rewriter's
 * byte interface: each chunk is decoded whole, and untouched valid UTF-8 is copied from the input
 * rather than encoded again (no decoder and encoder streams around a string stream).
 */
export class HTMLRewriterByteStream implements TransformPair<Uint8Array, Uint8Array> {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;

  constructor(rewriter: HTMLRewriter, options: StreamOptions = {}) {
    if (rewriter === null || typeof rewriter !== 'object' || typeof rewriter.createByteTransformer !== 'function') {
      throw new TypeError('HTMLRewriterByteStream: the first argument must be an HTMLRewriter');
    }
    const t = engineTransform<Uint8Array, Uint8Array>(
      implementationOf(options),
      'HTMLRewriterByteStream',
      (enqueue) => rewriter.createByteTransformer(enqueue),
      BYTE_CHUNKS,
    );
    this.readable = t.readable;
    this.writable = t.writable;
  }
}
