/**
 * `ByteTransformer`: a `Transformer` with bytes in and out — UTF-8 by default; with encoding options,
 * the sniffed encoding (every ASCII-compatible one through `MappedInput` below, UTF-16LE/BE through
 * `Utf16Input`, utf16-input.ts), written back in that encoding. The UTF-8 path:
 *
 * The bytes are not decoded: each chunk is tokenized in *byte form*, a string of its bytes, one
 * character per byte (see `TokenizerOptions.byteInput`), which Node makes with a copy and no decoding.
 * Every character the tokenizer and the tree builder decide on is ASCII, and no byte of a multi-byte
 * sequence is, so they decide the same; handlers get text (byte-form-units.ts); untouched input is
 * copied from the input's bytes (`ByteOutput`); offsets count bytes. Malformed input is first replaced
 * by what TextDecoder → TextEncoder gives (U+FFFD for each bad sequence), so the output is exactly what
 * TextDecoder → rewriter → TextEncoder would write.
 */
import { type Decoder, type EncodingName, createDecoder, decodeBytes, requireEncoding, sniffEncoding } from '@sluice/encoding';
import { byteFormOf } from '@sluice/tokenizer';
import { DocumentEncoder, isAsciiCompatible } from './encoders.js';
import type { CompiledHandlers } from './handlers.js';
import { ByteOutput, type MappedChunk } from './output.js';
import { Utf16Input } from './utf16-input.js';
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

/** One rewrite of one document, bytes in and out (see the file comment). Create it with `HTMLRewriter.createByteTransformer`. */
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
  constructor(config: CompiledHandlers, options: RewriterOptions, onOutput: (chunk: Uint8Array) => void, encodingOptions?: ByteEncodingOptions) {
    this.output = new ByteOutput(onOutput);
    this.transformer = new Transformer(config, options, NO_OUTPUT, this.output, true);
    if (encodingOptions !== undefined) {
      const { contentType, encoding, defaultEncoding } = encodingOptions;
      this.sniffOptions = { contentType, encoding, defaultEncoding };
      // A bad label throws now, not at the first chunk.
      if (encoding !== undefined) requireEncoding(encoding, 'HTMLRewriter: encoding');
      if (defaultEncoding !== undefined) requireEncoding(defaultEncoding, 'HTMLRewriter: defaultEncoding');
      this.sniffed = new Uint8Array(0);
    }
  }

  /** While the encoding is not decided (options given): the bytes so far; null once decided. */
  private sniffed: Uint8Array | null = null;
  private sniffOptions: ByteEncodingOptions = {};
  /** The input's encoding, once decided. */
  private encodingName: EncodingName = 'UTF-8';
  /** For an encoding other than UTF-8: the decoding and mapping (see `MappedInput`, `Utf16Input`). */
  private mappedInput: { write(bytes: Uint8Array, atEnd: boolean): MappedChunk | null } | null = null;

  /**
   * For a caller that abandons this rewrite after an error and sends the rest of the input as it came
   * (the example proxy's degraded mode): the output held back so far, taken — an error at the end of the
   * output (UTF-16, or a lone lead byte in a multi-byte legacy encoding), held in case content followed
   * it (docs/encoding.md) — or null. The rest of the input continues it: send it first.
   */
  takeHeldOutput(): Uint8Array | null {
    return this.output.takeHeld();
  }

  /** The encoding the input is read in (UTF-8 until decided). */
  get encoding(): EncodingName {
    return this.encodingName;
  }

  /** Decide the encoding from `bytes` (all the input so far); false while more bytes are needed. */
  private decide(bytes: Uint8Array, atEnd: boolean): boolean {
    const result = sniffEncoding(bytes, this.sniffOptions, atEnd);
    if (result === null) return false;
    const encoding = result.encoding;
    this.encodingName = encoding;
    if (encoding === 'UTF-8') return true;
    if (encoding === 'UTF-16LE' || encoding === 'UTF-16BE') {
      // Decoded here with every character's bytes known (utf16-input.ts); written in UTF-16, same byte order.
      this.output.setEncoding(new DocumentEncoder(encoding));
      const input = new Utf16Input(encoding === 'UTF-16BE');
      this.mappedInput = {
        write(bytes, atEnd) {
          const piece = input.write(bytes, atEnd);
          return piece === null ? null : chunkOf(piece.text, piece.srcOf, piece.source, piece.text.length);
        },
      };
      return true;
    }
    if (!isAsciiCompatible(encoding)) {
      throw new Error(`HTMLRewriter: ${encoding} input is not rewritten (not ASCII-compatible; decided by ${result.source}); see docs/encoding.md`);
    }
    const encoder = new DocumentEncoder(encoding);
    this.output.setEncoding(encoder);
    this.mappedInput = new MappedInput(encoding);
    return true;
  }

  /**
   * Rewrite the next chunk of bytes (UTF-8, or the sniffed encoding). Returns nothing when every handler ran synchronously, or a promise
   * that settles when the async handlers it waits for have (see `Transformer.write`). The chunk must
   * not be changed until the call has returned.
   */
  write(chunk: Uint8Array): void | Promise<void> {
    if (!(chunk instanceof Uint8Array)) {
      throw new TypeError(`HTMLRewriter: expected a Uint8Array chunk, got ${chunk === null ? 'null' : typeof chunk}`);
    }
    let bytes = chunk;
    if (this.sniffed !== null) {
      let all = chunk;
      if (this.sniffed.length > 0) {
        all = new Uint8Array(this.sniffed.length + chunk.length);
        all.set(this.sniffed);
        all.set(chunk, this.sniffed.length);
      }
      if (!this.decide(all, false)) {
        this.sniffed = all === chunk ? chunk.slice() : all;
        return;
      }
      this.sniffed = null;
      bytes = all;
    }
    if (this.mappedInput !== null) return this.writeMapped(this.mappedInput.write(bytes, false));
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

  /** Rewrite a chunk of mapped input (nothing when `chunk` is null). */
  private writeMapped(chunk: MappedChunk | null): void | Promise<void> {
    if (chunk === null) return;
    this.output.setMappedChunk(chunk);
    return this.transformer.write(chunk.text);
  }

  /** End of input (an unfinished sequence at the end becomes U+FFFD; in UTF-16 its bytes are kept). See `Transformer.end`. */
  end(): void | Promise<void> {
    if (this.sniffed !== null) {
      const all = this.sniffed;
      this.decide(all, true);
      this.sniffed = null;
      if (all.length > 0) {
        const p = this.write(all);
        if (p !== undefined) return p.then(() => this.end());
      }
    }
    if (this.mappedInput !== null) {
      const p = this.writeMapped(this.mappedInput.write(new Uint8Array(0), true));
      const ended = p === undefined ? this.transformer.end() : p.then(() => this.transformer.end());
      // UTF-16: an error at the end that was held back in case content followed goes out (output.ts `held`).
      if (ended === undefined) this.output.finish();
      else return ended.then(() => this.output.finish());
      return;
    }
    const pending = this.pending;
    if (pending === null) return this.transformer.end();
    this.pending = null;
    const tail = ENCODER.encode(DECODER.decode(pending));
    const p = this.writeBytes(tail, 0, tail.length);
    return p === undefined ? this.transformer.end() : p.then(() => this.transformer.end());
  }
}

/** How `createByteTransformer` learns the input's encoding (HTML §13.2.3.2, with @sluice/encoding). */
export interface ByteEncodingOptions {
  /** The `Content-Type` header value: its charset, if a supported label, decides. */
  contentType?: string | undefined;
  /** A label that decides unless a byte order mark says otherwise. */
  encoding?: string | undefined;
  /** The encoding when nothing else says (a label; default windows-1252). */
  defaultEncoding?: string | undefined;
}

const UTF8_ENCODER = new TextEncoder();


/**
 * Input in an ASCII-compatible encoding other than UTF-8. Each chunk is decoded with the encoding's
 * decoder (the one `parse(bytes)` uses), and the text, as UTF-8 in byte form, is what is tokenized: so
 * handlers read the decoded text through the same code as for UTF-8, and a trail byte in 0x40–0x7E
 * (Shift_JIS, Big5, GBK/gb18030, EUC-KR's 0x41–0x7A: letters, `[`, `]`, `\\`…) is never taken for
 * markup — not even `]` of `]]>` in CDATA, which tokenizing the bytes in byte form would. (EUC-JP and
 * the single-byte encodings have no ASCII trail bytes, but take the same way.)
 *
 * Untouched input is copied as the source bytes (`MappedChunk.map`). Tokens begin and end next to
 * ASCII characters, and each ASCII character of the text was one ASCII byte of the source that the
 * decoder took as itself (no multi-byte sequence decodes to ASCII in these encodings). Which ASCII bytes
 * those are, `stepLength` finds: the decoder's steps, as the Encoding Standard defines them, with the
 * index consulted (through the decoder) only for a pair whose trail byte is ASCII. Each run of other
 * steps is decoded as one piece. (Not a streaming `TextDecoder` fed a byte at a time: Node's throws for
 * some splits of EUC-JP and gb18030.)
 *
 * Each chunk given to the tokenizer ends just before the last such ASCII byte (single-byte encodings:
 * at the end): the rest waits for more input, so both ends of every chunk are mapped.
 */
class MappedInput {
  private readonly decoder: Decoder;
  private readonly singleByte: boolean;
  /** The end of the input was reached (`write(…, true)`). */
  private atEnd = false;
  /** Source bytes not yet given to the tokenizer, starting where `text` starts. */
  private source = new Uint8Array(0);
  /** How many of `source`'s bytes were fed to the decoder. */
  private fed = 0;
  /** The decoded text not yet given to the tokenizer, and the source offset of each of its characters (-1: unknown). */
  private text = '';
  private srcOf: number[] = [];

  constructor(encoding: EncodingName) {
    this.decoder = createDecoder(encoding);
    // Every byte one character, no state (the Encoding Standard's single-byte encodings and x-user-defined).
    this.singleByte = !['Shift_JIS', 'EUC-JP', 'EUC-KR', 'Big5', 'GBK', 'gb18030'].includes(encoding);
  }

  /** Take `bytes`; return the chunk now ready for the tokenizer (or null). */
  write(bytes: Uint8Array, atEnd: boolean): MappedChunk | null {
    if (bytes.length > 0) {
      const all = new Uint8Array(this.source.length + bytes.length);
      all.set(this.source);
      all.set(bytes, this.source.length);
      this.source = all;
    }
    if (this.singleByte) {
      const text = this.decoder.decode(this.source);
      if (text.length !== this.source.length) throw new Error(`HTMLRewriter: internal error: ${this.decoder.encoding} decoded ${this.source.length} bytes to ${text.length} characters`);
      const source = this.source;
      this.source = new Uint8Array(0);
      if (source.length === 0) return null;
      const srcOf: number[] = new Array<number>(text.length);
      for (let i = 0; i < text.length; i++) srcOf[i] = i;
      return chunkOf(text, srcOf, source, text.length);
    }
    this.atEnd = atEnd;
    this.feed();
    if (atEnd) {
      const text = this.text;
      const srcOf = this.srcOf;
      const source = this.source;
      this.text = '';
      this.srcOf = [];
      this.source = new Uint8Array(0);
      this.fed = 0;
      return text.length === 0 ? null : chunkOf(text, srcOf, source, text.length);
    }
    // All the text decoded so far: it is `source[0, fed)` exactly (what waits is at most a character's
    // first bytes), so it ends where `fed` does. (Cutting only before an ASCII character held a run of
    // other characters until the next ASCII byte — outside what `maxBufferedBytes` counts.)
    const cut = this.text.length;
    if (cut === 0) return null;
    const at = this.fed;
    const chunk = chunkOf(this.text.slice(0, cut), this.srcOf.slice(0, cut), this.source.subarray(0, at), cut);
    this.text = this.text.slice(cut);
    this.srcOf = this.srcOf.slice(cut).map((o) => (o < 0 ? o : o - at));
    this.source = this.source.slice(at);
    this.fed -= at;
    return chunk;
  }

  /**
   * Step through the bytes not yet stepped (`stepLength`): each ASCII byte the decoder takes as itself
   * is one character with a known source offset; each run of other steps is decoded as one piece.
   */
  private feed(): void {
    const src = this.source;
    const n = src.length;
    const encoding = this.decoder.encoding;
    let i = this.fed;
    while (i < n) {
      let j = i;
      let last = i;
      for (;;) {
        if (j >= n) break;
        const b = src[j]!;
        if (b < 0x80) break;
        const step = stepLength(encoding, src, j, n, this.atEnd);
        if (step === 0) break; // bytes not yet here decide
        last = j;
        j += step;
      }
      if (j > i) {
        const out = decodeBytes(src.subarray(i, j), encoding);
        for (let k = 0; k < out.length; k++) this.srcOf.push(-1);
        // An error as the last step: its start is known too, so that output can hold it back where
        // something else follows it (output.ts `held`) — only when the decoder agrees that its bytes
        // alone are that U+FFFD and the bytes before it the rest.
        if (out.endsWith('\ufffd') && decodeBytes(src.subarray(last, j), encoding) === '\ufffd' && decodeBytes(src.subarray(i, last), encoding) === out.slice(0, -1)) {
          this.srcOf[this.srcOf.length - 1] = last;
        }
        this.text += out;
        i = j;
      }
      if (i >= n || src[i]! >= 0x80) break; // waiting for more bytes
      let k = i + 1;
      while (k < n && src[k]! < 0x80) k++;
      // ASCII bytes are themselves in these encodings (Node's Shift_JIS swaps three controls: decoded too).
      const ascii = decodeBytes(src.subarray(i, k), encoding);
      if (ascii.length !== k - i) throw new Error(`HTMLRewriter: internal error: ${encoding} decoded ${k - i} ASCII bytes to ${ascii.length} characters`);
      for (let m = i; m < k; m++) this.srcOf.push(m);
      this.text += ascii;
      i = k;
    }
    this.fed = i;
  }
}

/** Per encoding, per lead × trail pair: 0 not known yet, 1 a character, 2 none (an error). */
const pairKinds = new Map<EncodingName, Uint8Array>();

/** Whether `lead trail` decodes to a character in `encoding` (decoded once, then remembered). */
function pairIsCharacter(encoding: EncodingName, lead: number, trail: number): boolean {
  let kinds = pairKinds.get(encoding);
  if (kinds === undefined) pairKinds.set(encoding, (kinds = new Uint8Array(65536)));
  const key = (lead << 8) | trail;
  if (kinds[key] === 0) {
    const out = decodeBytes(Uint8Array.of(lead, trail), encoding);
    kinds[key] = out.length > 0 && out.length <= 2 && !out.includes('\ufffd') && out.charCodeAt(out.length - 1) !== trail ? 1 : 2;
  }
  return kinds[key] === 1;
}

/**
 * The length of the Encoding Standard decoder's step at `src[i]` (a byte ≥ 0x80): the bytes it consumes
 * for one character or one error, without the bytes an error gives back (an ASCII byte after a lead is
 * given back when the pair is no character: it is markup, if it is `<`). 0: bytes after `n` decide.
 * At the end of the input an unfinished sequence is one error (nothing given back).
 *
 * Trail bytes in 0x40–0x7E (Shift_JIS, Big5, GBK/gb18030; EUC-KR from 0x41) include letters, `[`, `\\`,
 * `]`, `^`, `_`, `` ` ``, `{`, `|`, `}`, `~` (never `<`, `>`, `&`, quotes, `=`, `/` or whitespace); gb18030's
 * digits 0x30–0x39. Tokenizing the bytes would take `]` for CDATA's `]]>`: stepping keeps them in their
 * character. EUC-JP has no ASCII trail byte.
 */
function stepLength(encoding: EncodingName, src: Uint8Array, i: number, n: number, atEnd: boolean): number {
  const lead = src[i]!;
  const more = (k: number): boolean => i + k < n;
  const unfinished = (): number => (atEnd ? n - i : 0);
  switch (encoding) {
    case 'GBK':
    case 'gb18030':
      return gbStep(src, i, n, atEnd);
    case 'Shift_JIS': {
      if (!((lead >= 0x81 && lead <= 0x9f) || (lead >= 0xe0 && lead <= 0xfc))) return 1;
      if (!more(1)) return unfinished();
      const t = src[i + 1]!;
      if (t >= 0x80) return 2;
      return t >= 0x40 && t <= 0x7e && pairIsCharacter(encoding, lead, t) ? 2 : 1;
    }
    case 'Big5':
    case 'EUC-KR': {
      if (lead < 0x81 || lead > 0xfe) return 1;
      if (!more(1)) return unfinished();
      const t = src[i + 1]!;
      if (t >= 0x80) return 2;
      const lo = encoding === 'Big5' ? 0x40 : 0x41;
      return t >= lo && t <= 0x7e && pairIsCharacter(encoding, lead, t) ? 2 : 1;
    }
    case 'EUC-JP': {
      if (lead !== 0x8e && lead !== 0x8f && (lead < 0xa1 || lead > 0xfe)) return 1;
      if (!more(1)) return unfinished();
      const t = src[i + 1]!;
      if (t < 0x80) return 1;
      if (lead === 0x8f && t >= 0xa1 && t <= 0xfe) {
        if (!more(2)) return unfinished();
        return src[i + 2]! < 0x80 ? 2 : 3;
      }
      return 2;
    }
    default:
      return 1;
  }
}

/**
 * GBK and gb18030 (one decoder in the Encoding Standard, §11.2.1). (Not a streaming `TextDecoder` fed a
 * byte at a time: Node's throws "The encoded data was not valid" for some splits, as for EUC-JP's.)
 */
function gbStep(src: Uint8Array, i: number, n: number, atEnd: boolean): number {
  const lead = src[i]!;
  if (lead < 0x81 || lead > 0xfe) return 1;
  if (i + 1 >= n) return atEnd ? 1 : 0;
  const b2 = src[i + 1]!;
  if (b2 >= 0x30 && b2 <= 0x39) {
    if (i + 2 >= n) return atEnd ? n - i : 0;
    const b3 = src[i + 2]!;
    if (b3 < 0x81 || b3 > 0xfe) return 1;
    if (i + 3 >= n) return atEnd ? n - i : 0;
    const b4 = src[i + 3]!;
    return b4 >= 0x30 && b4 <= 0x39 ? 4 : 1;
  }
  if (b2 >= 0x80) return 2;
  return b2 >= 0x40 && b2 <= 0x7e && pairIsCharacter('gb18030', lead, b2) ? 2 : 1;
}

/** The chunk for `text` (its first `length` characters), decoded from `source`, with `srcOf` per character. */
function chunkOf(text: string, srcOf: ArrayLike<number>, source: Uint8Array, length: number): MappedChunk {
  const utf8 = UTF8_ENCODER.encode(text);
  const map = new Int32Array(utf8.length + 1).fill(-1);
  let u = 0;
  for (let k = 0; k < length; k++) {
    const c = text.charCodeAt(k);
    const o = srcOf[k]!;
    if (c < 0x80) {
      if (o >= 0) {
        map[u] = o;
        map[u + 1] = o + 1;
      }
      u += 1;
    } else if (c < 0x800) u += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      u += 4;
      k++;
    } else u += 3;
    if (o >= 0 && c >= 0x80) map[u - (c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 4 : 3)] = o;
  }
  map[0] = 0;
  map[utf8.length] = source.length;
  return { text: byteForm(utf8), utf8, source: source.slice(), map, start: 0 };
}

