/** UTF-8 decoding and encoding streams of a given streams implementation. */
import type { StreamsImplementation, TransformPair } from './implementation.js';

/**
 * Bytes to strings: the implementation's TextDecoderStream, or a TextDecoder in its TransformStream.
 * Malformed UTF-8 becomes U+FFFD (WHATWG Encoding), so byte-exact passthrough needs valid UTF-8.
 */
export function utf8Decoder(impl: StreamsImplementation): TransformPair<Uint8Array, string> {
  // ignoreBOM: a byte order mark stays in the text (passthrough gives back the same bytes).
  if (impl.TextDecoderStream !== undefined) return new impl.TextDecoderStream('utf-8', { ignoreBOM: true }) as TransformPair<Uint8Array, string>;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return new impl.TransformStream<Uint8Array, string>({
    transform(chunk, controller) {
      const s = decoder.decode(chunk, { stream: true });
      if (s.length > 0) controller.enqueue(s);
    },
    flush(controller) {
      const s = decoder.decode();
      if (s.length > 0) controller.enqueue(s);
    },
  });
}

/** Strings to bytes: the implementation's TextEncoderStream, or a TextEncoder in its TransformStream. */
export function utf8Encoder(impl: StreamsImplementation): TransformPair<string, Uint8Array> {
  if (impl.TextEncoderStream !== undefined) return new impl.TextEncoderStream() as TransformPair<string, Uint8Array>;
  const encoder = new TextEncoder();
  // A chunk may end in the first half of a surrogate pair; keep it for the next chunk.
  let pending = '';
  return new impl.TransformStream<string, Uint8Array>({
    transform(chunk, controller) {
      let s = pending + chunk;
      pending = '';
      const last = s.charCodeAt(s.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        pending = s.slice(-1);
        s = s.slice(0, -1);
      }
      if (s.length > 0) controller.enqueue(encoder.encode(s));
    },
    flush(controller) {
      if (pending.length > 0) controller.enqueue(encoder.encode(pending));
    },
  });
}

/**
 * Put UTF-8 decoding in front of a string-input stream (and, optionally, encoding behind it). The
 * pieces are joined with the implementation's own `pipeTo`/`pipeThrough`, which carry backpressure,
 * errors and cancellation across.
 */
export function withUtf8<O>(impl: StreamsImplementation, inner: TransformPair<string, O>): TransformPair<Uint8Array, O> {
  const decoder = utf8Decoder(impl);
  // The pipe's own promise only repeats what the two ends report; keep it from being "unhandled".
  decoder.readable.pipeTo(inner.writable).catch(() => {});
  return { writable: decoder.writable, readable: inner.readable };
}
