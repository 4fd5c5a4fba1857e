/**
 * `ByteTransformer`: a `Transformer` with UTF-8 bytes in and out.
 *
 * Decoding and encoding are done per chunk, not per token, and the second is mostly avoided: when a
 * chunk is valid UTF-8 (the decoder replaced nothing), the bytes of the text the rewriter copies
 * untouched are copied from the input instead of being encoded again (see `ByteOutput`). Malformed
 * input is decoded to U+FFFD and that is what is written, exactly as TextDecoder → rewriter →
 * TextEncoder would.
 */
import type { CompiledHandlers } from './handlers.js';
import { ByteOutput } from './output.js';
import { type RewriterOptions, Transformer } from './transformer.js';

/**
 * How much of `b` the UTF-8 decoder can decode now: all of it, unless it ends in the first bytes of a
 * sequence that more bytes could complete (Encoding Standard, UTF-8 decoder: the state a streaming
 * decoder would carry over). A sequence already known to be malformed is decoded now (to U+FFFD),
 * as a streaming decoder would.
 */
export function decodableLength(b: Uint8Array): number {
  const n = b.length;
  for (let i = n - 1; i >= 0 && i >= n - 3; i--) {
    const c = b[i]!;
    if (c < 0x80) return n;
    if (c < 0xc0) continue; // a continuation byte: the lead is further back
    if (c < 0xc2 || c > 0xf4) return n; // never a lead byte
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    if (n - i >= need) return n;
    if (n - i >= 2) {
      // The second byte's range depends on the lead (no overlongs, no surrogates, nothing past U+10FFFF).
      const c1 = b[i + 1]!;
      const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
      const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
      if (c1 < lo || c1 > hi) return n;
    }
    return i;
  }
  return n;
}

const NO_OUTPUT = (): void => {};

// ignoreBOM: a byte order mark stays in the text, so that bytes out equal bytes in. Each call decodes
// complete sequences only (the rest waits in `pending`): no streaming state, so one decoder serves all.
const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

/** One rewrite of one document, UTF-8 in and out. Create it with `HTMLRewriter.createByteTransformer`. */
export class ByteTransformer {
  private readonly output: ByteOutput;
  private readonly transformer: Transformer;
  /** The first bytes of a sequence the last chunk ended with. */
  private pending: Uint8Array | null = null;

  /**
   * @internal Made by `HTMLRewriter.createByteTransformer`.
   * @param onOutput receives each piece of output (a new array each time), in order, as soon as it is decided
   */
  constructor(config: CompiledHandlers, options: RewriterOptions, onOutput: (chunk: Uint8Array) => void) {
    this.output = new ByteOutput(onOutput);
    this.transformer = new Transformer(config, options, NO_OUTPUT, this.output);
  }

  /**
   * Rewrite the next chunk of UTF-8. Returns nothing when every handler ran synchronously, or a promise
   * that settles when the async handlers it waits for have (see `Transformer.write`). The chunk must
   * not be changed until the call has returned.
   */
  write(chunk: Uint8Array): void | Promise<void> {
    if (!(chunk instanceof Uint8Array)) {
      throw new TypeError(`HTMLRewriter: expected a Uint8Array chunk, got ${chunk === null ? 'null' : typeof chunk}`);
    }
    let bytes = chunk;
    const pending = this.pending;
    if (pending !== null) {
      this.pending = null;
      bytes = new Uint8Array(pending.length + chunk.length);
      bytes.set(pending);
      bytes.set(chunk, pending.length);
    }
    const cut = decodableLength(bytes);
    if (cut < bytes.length) {
      this.pending = bytes.slice(cut);
      bytes = bytes.subarray(0, cut);
    }
    const text = DECODER.decode(bytes);
    // No U+FFFD in the text: nothing was replaced, the bytes are its exact encoding.
    this.output.setChunkBytes(text, text.indexOf('\uFFFD') < 0 ? bytes : null);
    return this.transformer.write(text);
  }

  /** End of input (an unfinished UTF-8 sequence at the end becomes U+FFFD). See `Transformer.end`. */
  end(): void | Promise<void> {
    const pending = this.pending;
    if (pending === null) return this.transformer.end();
    this.pending = null;
    const p = this.transformer.write(DECODER.decode(pending));
    return p === undefined ? this.transformer.end() : p.then(() => this.transformer.end());
  }
}
