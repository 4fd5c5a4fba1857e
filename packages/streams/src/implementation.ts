/**
 * Which WHATWG streams implementation to build on: the runtime's own (default) or another with the same
 * API, such as web-streams-polyfill's. Streams of one implementation pipe only into streams of the same
 * one, so every stream this package makes comes from the implementation it is given.
 */

/** A streams implementation: its TransformStream, and optionally its UTF-8 coder streams. */
export interface StreamsImplementation {
  readonly TransformStream: typeof globalThis.TransformStream;
  /** When absent, UTF-8 decoding is done by a TextDecoder inside this implementation's TransformStream. */
  readonly TextDecoderStream?: typeof globalThis.TextDecoderStream;
  /** When absent, UTF-8 encoding is done by a TextEncoder inside this implementation's TransformStream. */
  readonly TextEncoderStream?: typeof globalThis.TextEncoderStream;
}

/** Options every stream of this package takes. */
export interface StreamOptions {
  /** The streams implementation to use. Default: the runtime's (`globalThis.TransformStream`, …). */
  streams?: StreamsImplementation;
}

/** The runtime's own streams. */
export function runtimeStreams(): StreamsImplementation {
  if (typeof globalThis.TransformStream !== 'function') {
    throw new Error('@sluice/streams: this runtime has no TransformStream; pass options.streams (e.g. web-streams-polyfill)');
  }
  return {
    TransformStream: globalThis.TransformStream,
    ...(typeof globalThis.TextDecoderStream === 'function' ? { TextDecoderStream: globalThis.TextDecoderStream } : {}),
    ...(typeof globalThis.TextEncoderStream === 'function' ? { TextEncoderStream: globalThis.TextEncoderStream } : {}),
  };
}

/** `options.streams`, or the runtime's. */
export function implementationOf(options: StreamOptions | undefined): StreamsImplementation {
  const impl = options?.streams ?? runtimeStreams();
  if (impl === null || typeof impl !== 'object' || typeof impl.TransformStream !== 'function') {
    throw new TypeError('@sluice/streams: options.streams must provide a TransformStream constructor');
  }
  return impl;
}

/** The readable/writable pair every stream here is: what `pipeThrough` takes. */
export interface TransformPair<I, O> {
  readonly writable: WritableStream<I>;
  readonly readable: ReadableStream<O>;
}

/** A push engine: write chunks, then end; each may return a promise to wait for. */
export interface Engine<I = string> {
  write(chunk: I): void | Promise<void>;
  end(): void | Promise<void>;
}

/** What a stream's input chunks must be, for its error message. */
export interface ChunkCheck<I> {
  readonly is: (chunk: unknown) => chunk is I;
  readonly expected: string;
}

/** String chunks (the default). */
export const STRING_CHUNKS: ChunkCheck<string> = {
  is: (chunk): chunk is string => typeof chunk === 'string',
  expected: 'string chunks (use the byte stream for Uint8Array input)',
};

/** Uint8Array chunks (bytes in any encoding; what decodes them is the stream's business). */
export const BYTE_CHUNKS: ChunkCheck<Uint8Array> = {
  is: (chunk): chunk is Uint8Array => chunk instanceof Uint8Array,
  expected: 'Uint8Array chunks',
};

/**
 * A TransformStream of the given implementation around a push engine. `transform` returns the engine's
 * promise, so a slow engine (an async handler) holds the writer back; the TransformStream itself holds
 * the writer back while its readable side is not read. Together: backpressure end to end.
 *
 * No stall: unlike a pull source, a TransformStream calls `transform` for every written chunk whether or
 * not the previous one gave output, so a chunk that gives none (a lone `<`) cannot stop the flow. Errors:
 * an engine that throws or rejects in `transform` or `flush` errors both sides with that very error (the
 * standard's TransformStream does that), and `pipeThrough` cancels the source with it.
 *
 * Once the readable side is cancelled (or the writable aborted), the engine is stopped: output it still
 * produces (an async handler that was running) is dropped rather than enqueued into a closed stream, which
 * would throw inside the engine. Implementations that call `cancel` (the current standard) say so at once;
 * for older ones, `desiredSize === null` (the readable side errored) says the same.
 */
export function engineTransform<O, I = string>(
  impl: StreamsImplementation,
  what: string,
  create: (enqueue: (chunk: O) => void) => Engine<I>,
  check: ChunkCheck<I> = STRING_CHUNKS as unknown as ChunkCheck<I>,
  onStop?: (reason: unknown) => void,
): TransformStream<I, O> {
  let engine: Engine<I>;
  let stopped = false;
  // Tells the stream's owner (a byte stream's pending `sniffed` promise) that no more input will come.
  const failed = (error: unknown): never => {
    onStop?.(error);
    throw error;
  };
  const guard = (run: () => void | Promise<void>): void | Promise<void> => {
    if (onStop === undefined) return run();
    let result: void | Promise<void>;
    try {
      result = run();
    } catch (error) {
      return failed(error);
    }
    return result instanceof Promise ? result.catch(failed) : result;
  };
  const transformer: Transformer<I, O> & { cancel?: (reason: unknown) => void } = {
    start(controller) {
      engine = create((chunk) => {
        if (stopped || controller.desiredSize === null) {
          stopped = true;
          return;
        }
        controller.enqueue(chunk);
      });
    },
    transform(chunk) {
      if (!check.is(chunk)) failed(new TypeError(`${what}: expected ${check.expected}, got ${chunk === null ? 'null' : typeof chunk}`));
      return guard(() => engine.write(chunk));
    },
    flush() {
      return guard(() => engine.end());
    },
    cancel(reason) {
      stopped = true;
      onStop?.(reason);
    },
  };
  return new impl.TransformStream<I, O>(transformer);
}
