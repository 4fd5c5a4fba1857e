/**
 * `ByteTransformer`: a `Transformer` with UTF-8 bytes in and out.
 *
 * The bytes are not decoded: each chunk is tokenized in *byte form*, a string of its bytes, one
 * character per byte (see `TokenizerOptions.byteInput`), which Node makes with a copy and no decoding.
 * Every character the tokenizer and the tree builder decide on is ASCII, and no byte of a multi-byte
 * sequence is, so they decide the same; handlers get text (byte-form-units.ts); untouched input is
 * copied from the input's bytes (`ByteOutput`); offsets count bytes. Malformed input is first replaced
 * by what TextDecoder → TextEncoder gives (U+FFFD for each bad sequence), so the output is exactly what
 * TextDecoder → rewriter → TextEncoder would write.
 */
import { byteFormOf } from '@sluice/tokenizer';
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

/** The most bytes tokenized as one string (see `ByteTransformer.writeSlices`). */
const SLICE_BYTES = 16 * 1024;

// ignoreBOM: a byte order mark stays in the text, so that bytes out equal bytes in (the tokenizer, told
// discardByteOrderMark, keeps it out of the tree; HTML §13.2.3.1). Its bytes EF BB BF reach the tokenizer
// together however the chunks cut them: `pending` holds an unfinished sequence. Each call decodes
// complete sequences only (the rest waits in `pending`): no streaming state, so one decoder serves all.
const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });
const FATAL_DECODER = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });
const ENCODER = new TextEncoder();

/** What this uses of Node's `node:buffer`, when the runtime has it. */
interface NodeBufferModule {
  Buffer: { from(buffer: ArrayBufferLike, byteOffset: number, length: number): { latin1Slice(start: number, end: number): string } };
  isUtf8?(input: Uint8Array): boolean;
}
const nodeBuffer = ((globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:buffer') ?? null) as NodeBufferModule | null;

/** Whether `b` is well-formed UTF-8 (Node's validator, else a fatal decoder). */
function isUtf8(b: Uint8Array): boolean {
  if (nodeBuffer?.isUtf8 !== undefined) return nodeBuffer.isUtf8(b);
  try {
    FATAL_DECODER.decode(b);
    return true;
  } catch {
    return false;
  }
}

/** `b` in byte form (Node's latin1 slice: a copy, nothing decoded). */
function byteForm(b: Uint8Array): string {
  return nodeBuffer !== null ? nodeBuffer.Buffer.from(b.buffer, b.byteOffset, b.length).latin1Slice(0, b.length) : byteFormOf(b);
}

/** `b` with each malformed sequence replaced by U+FFFD's bytes, as decoding and encoding again does. */
function wellFormed(b: Uint8Array): Uint8Array {
  return isUtf8(b) ? b : ENCODER.encode(DECODER.decode(b));
}

/** One rewrite of one document, UTF-8 in and out. Create it with `HTMLRewriter.createByteTransformer`. */
export class ByteTransformer {
  private readonly output: ByteOutput;
  private readonly transformer: Transformer;
  /** The first bytes of a sequence the last chunk ended with. */
  private pending: Uint8Array | null = null;

  /**
   * @internal Made by `HTMLRewriter.createByteTransformer`.
   * @param config the handlers, selectors in byte form (`HTMLRewriter.compileForBytes`)
   * @param onOutput receives each piece of output (a new array each time), in order, as soon as it is decided
   */
  constructor(config: CompiledHandlers, options: RewriterOptions, onOutput: (chunk: Uint8Array) => void) {
    this.output = new ByteOutput(onOutput);
    this.transformer = new Transformer(config, options, NO_OUTPUT, this.output, true);
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
    return this.writeSlices(wellFormed(bytes), 0);
  }

  /**
   * Rewrite `bytes[from…]` (well-formed UTF-8) in slices of at most `SLICE_BYTES`, each ending between
   * characters (what `writeBytes` requires). A large chunk tokenized whole keeps its byte form (a string
   * the size of the chunk) and the tokens sliced from it alive across young-generation collections,
   * which presumably copy them each time; measured on `bench:rewrite` (one chunk per page), 16 KiB slices were about
   * 3% faster than whole pages (4 KiB slower). Output is released at the end of each slice.
   */
  private writeSlices(bytes: Uint8Array, from: number): void | Promise<void> {
    const n = bytes.length;
    while (n - from > SLICE_BYTES) {
      let to = from + SLICE_BYTES;
      // Back to the start of the character the cut falls in (at most three continuation bytes).
      while ((bytes[to]! & 0xc0) === 0x80) to--;
      const p = this.writeBytes(bytes, from, to);
      if (p !== undefined) {
        // The caller may reuse `bytes` once write() has returned: keep a copy of the rest.
        const rest = bytes.slice(to);
        return p.then(() => this.writeSlices(rest, 0));
      }
      from = to;
    }
    return this.writeBytes(bytes, from, n);
  }

  /**
   * Rewrite `bytes[from, to)`, well-formed UTF-8 ending between characters. The output copies untouched
   * input from all of `bytes` (valid until write() returns): a token that began in an earlier slice is
   * copied from there too.
   */
  private writeBytes(bytes: Uint8Array, from: number, to: number): void | Promise<void> {
    const text = byteForm(from === 0 && to === bytes.length ? bytes : bytes.subarray(from, to));
    this.output.setChunkBytes(text, bytes, from);
    return this.transformer.write(text);
  }

  /** End of input (an unfinished UTF-8 sequence at the end becomes U+FFFD). See `Transformer.end`. */
  end(): void | Promise<void> {
    const pending = this.pending;
    if (pending === null) return this.transformer.end();
    this.pending = null;
    const tail = ENCODER.encode(DECODER.decode(pending));
    const p = this.writeBytes(tail, 0, tail.length);
    return p === undefined ? this.transformer.end() : p.then(() => this.transformer.end());
  }
}
