/**
 * Output assembly. Untouched tokens are consecutive slices of the input, so instead of concatenating
 * their `raw` text one token at a time (a rope of thousands of small pieces, which the consumer — or
 * the UTF-8 encoder — then has to flatten), the output keeps a *run*: a span `[runStart, runEnd)` of
 * the chunk being written, extended while each copied token starts where the run ends. The run becomes
 * one slice of the chunk when something else is written (content a handler inserted, a changed tag)
 * or when the output is flushed.
 *
 * Offsets are absolute (from the start of the input, in its units: UTF-16 code units, or bytes for
 * bytes in), like the tokens' `start`. Text from an earlier chunk (a token the tokenizer held across a
 * chunk boundary, or output queued behind an async handler) cannot be a slice of the current chunk: it
 * is written as source text.
 */
import { bytesOfByteForm, fromByteForm } from '@sluice/tokenizer';
import { DocumentEncoder, characterReference } from './encoders.js';

/** Source text that knows where it ends: the tokenizer's text and tag tokens. */
export interface SourceSpan {
  readonly raw: string;
  /** Offset of `raw` in the whole input. */
  readonly start: number;
  /** `start` plus the length of `raw`. */
  readonly end: number;
}

/** Where the executor writes output; see the file comment. */
export abstract class Output {
  /** The chunk being written and where it lies in the input. */
  protected chunk = '';
  protected chunkStart = 0;
  protected chunkEnd = 0;
  /** The run of the chunk not yet written out; empty when `runEnd <= runStart`. */
  protected runStart = 0;
  protected runEnd = -1;

  /** A new chunk of input, at `start` in the whole input. Closes the run over the previous chunk. */
  setChunk(chunk: string, start: number): void {
    if (this.runEnd > this.runStart) this.closeRun();
    this.runEnd = -1;
    this.chunk = chunk;
    this.chunkStart = start;
    this.chunkEnd = start + chunk.length;
  }

  /** Copy source text: `raw` is the input at `start`. */
  source(raw: string, start: number): void {
    if (raw.length === 0) return; // (a text node's empty last chunk) nothing to copy, and no reason to end the run
    const end = start + raw.length;
    if (start === this.runEnd && end <= this.chunkEnd) {
      this.runEnd = end;
      return;
    }
    if (this.runEnd > this.runStart) this.closeRun();
    if (start >= this.chunkStart && end <= this.chunkEnd) {
      this.runStart = start;
      this.runEnd = end;
    } else {
      this.runEnd = -1;
      this.sourceText(raw);
    }
  }

  /**
   * Copy a token's source text (`span.raw`, the input at `span.start`), reading its text only when it
   * cannot extend the run (most tokens do: then their text is never sliced out of the input).
   */
  sourceSpan(span: SourceSpan): void {
    const start = span.start;
    const end = span.end;
    if (start === this.runEnd && end <= this.chunkEnd) {
      this.runEnd = end;
      return;
    }
    this.source(span.raw, start);
  }

  /**
   * Write text a handler decided or the rewriter made (inserted content, a rewritten tag).
   * `references`: a character reference means the same as the character where it lands (ordinary
   * content, RCDATA, a tag's attribute values) — what a byte output in an encoding that lacks a
   * character may write instead of it.
   */
  abstract text(s: string, references?: boolean): void;

  /**
   * Write source text that is not a slice of the current chunk (a token from an earlier chunk, output
   * that waited behind an async handler). It is in the input's form (byte form for bytes in).
   */
  abstract sourceText(raw: string): void;

  /** Write the run out (as a slice or its bytes) and empty it. */
  protected abstract closeRun(): void;

  /** Pass everything written so far to the consumer. */
  abstract flush(): void;
}

/** Output as strings: one string per flush. */
export class StringOutput extends Output {
  private parts: string[] = [];

  constructor(private readonly onOutput: (chunk: string) => void) {
    super();
  }

  text(s: string): void {
    if (this.runEnd > this.runStart) {
      this.closeRun();
      this.runEnd = -1;
    }
    this.parts.push(s);
  }

  sourceText(raw: string): void {
    this.text(raw);
  }

  protected closeRun(): void {
    const base = this.chunkStart;
    this.parts.push(this.chunk.slice(this.runStart - base, this.runEnd - base));
    // Continue after the run if more contiguous text comes: a new run starts at the next source().
    this.runStart = this.runEnd;
  }

  flush(): void {
    if (this.runEnd > this.runStart) this.closeRun();
    const parts = this.parts;
    if (parts.length === 0) return;
    const s = parts.length === 1 ? parts[0]! : parts.join('');
    parts.length = 0;
    if (s.length > 0) this.onOutput(s);
  }
}

const ENCODER = new TextEncoder();

/**
 * Output as UTF-8 bytes, for input in byte form (see `TokenizerOptions.byteInput`): the chunk's text is
 * its bytes, one character per byte, so a run of it is copied from those bytes at the same offsets.
 * Source text outside the chunk is turned back into its bytes; text a handler or the rewriter wrote is
 * encoded, as a TextEncoder would.
 */
export class ByteOutput extends Output {
  /** Strings (text to encode) and byte arrays, in order. Adjacent strings are encoded together. */
  private parts: (string | Uint8Array)[] = [];
  /** The bytes the current chunk's text was made from, from `chunkStart` (maybe more than the chunk: see `setChunkBytes`). */
  private bytes: Uint8Array | null = null;
  /** The next chunk's text and bytes (see `setChunkBytes`). */
  private nextText: string | null = null;
  private nextBytes: Uint8Array | null = null;
  private nextOffset = 0;

  constructor(private readonly onOutput: (chunk: Uint8Array) => void) {
    super();
  }

  /**
   * Other ASCII-compatible encodings (see `MappedChunk`): the encoder of the document's encoding, the
   * recent chunks (the current one last) and the one `setMappedChunk` gave for the next `setChunk`.
   */
  private encoder: DocumentEncoder | null = null;
  private mapped: MappedChunk[] = [];
  private nextMapped: MappedChunk | null = null;
  private mappedBytes = 0;

  /** From now on, the input is in `encoding` (not UTF-8): chunks come with `setMappedChunk`. */
  setEncoding(encoder: DocumentEncoder): void {
    this.encoder = encoder;
  }

  /** For when `chunk.text` comes to `setChunk` (see `MappedChunk`). */
  setMappedChunk(chunk: MappedChunk): void {
    this.nextMapped = chunk;
    this.nextText = chunk.text;
    this.nextBytes = chunk.utf8;
    this.nextOffset = 0;
  }

  /**
   * For when `text` comes to `setChunk`: it is the byte form of `bytes` from `offset` on (of some of
   * them: the bytes before and after it are the input just before and after it). The caller must not
   * change them until the write that passes the text has returned. Runs may cover all of `bytes`: a
   * token that began before `text` (in an earlier slice of the same bytes) is copied from them too.
   */
  setChunkBytes(text: string, bytes: Uint8Array, offset: number): void {
    this.nextText = text;
    this.nextBytes = bytes;
    this.nextOffset = offset;
  }

  override setChunk(chunk: string, start: number): void {
    super.setChunk(chunk, start);
    const bytes = this.nextText === chunk ? this.nextBytes : null;
    if (this.encoder !== null) {
      const m = bytes !== null ? this.nextMapped : null;
      this.nextMapped = null;
      if (m !== null) {
        m.start = start;
        this.mapped.push(m);
        this.mappedBytes += m.source.length;
        // Keep about 1 MiB of earlier chunks, for tokens held across chunks (see `source`).
        while (this.mapped.length > 1 && this.mappedBytes - this.mapped[0]!.source.length > 1 << 20) {
          this.mappedBytes -= this.mapped.shift()!.source.length;
        }
      }
    }
    this.nextText = null;
    this.nextBytes = null;
    this.bytes = bytes;
    if (bytes === null) {
      // Without its bytes (the empty chunk of `end()`) there is nothing to copy: every run is source text.
      this.chunkEnd = -1;
    } else {
      this.chunkStart = start - this.nextOffset;
      this.chunkEnd = this.chunkStart + bytes.length;
    }
  }

  text(s: string, references = false): void {
    if (this.runEnd > this.runStart) {
      this.closeRun();
      this.runEnd = -1;
    }
    if (s.length === 0) return;
    const parts = this.parts;
    if (this.encoder !== null) {
      this.pushBytes(this.encodeText(s, references), -1, -1);
      return;
    }
    const n = parts.length;
    // Encode adjacent strings as one: a surrogate pair split between two of them stays a pair.
    if (n > 0 && typeof parts[n - 1] === 'string') parts[n - 1] = (parts[n - 1] as string) + s;
    else parts.push(s);
  }

  sourceText(raw: string): void {
    if (this.runEnd > this.runStart) {
      this.closeRun();
      this.runEnd = -1;
    }
    if (raw.length === 0) return;
    if (this.encoder === null) {
      this.parts.push(bytesOfByteForm(raw));
      return;
    }
    // Without its offset: source is written in order, so it most likely starts where the last ended,
    // else at its next occurrence after that; its bytes are copied only if its text is found there.
    let at = this.sourceEnd;
    if (this.textAt(at, at + raw.length) !== raw) at = this.find(raw, at);
    const bytes = at < 0 ? null : this.sourceBytes(at, at + raw.length);
    if (bytes !== null) this.sourceEnd = at + raw.length;
    if (bytes !== null) this.pushBytes(bytes, at, at + raw.length);
    else this.pushBytes(this.reencode(raw), -1, -1);
  }

  /** Mapped input: where the last source copied ended (UTF-8 offset). */
  private sourceEnd = 0;

  /** The recent input's text (byte form of UTF-8) at `[start, end)`, or null if not all retained. */
  private textAt(start: number, end: number): string | null {
    let out = '';
    for (const c of this.mapped) {
      const cEnd = c.start + c.utf8.length;
      if (cEnd <= start || c.start >= end) continue;
      if (out.length === 0 && c.start > start) return null;
      out += c.text.slice(Math.max(start, c.start) - c.start, Math.min(end, cEnd) - c.start);
    }
    return out.length === end - start ? out : null;
  }

  /** The first offset from `from` on where the recent input's text is `raw`, or -1. */
  private find(raw: string, from: number): number {
    const chunks = this.mapped;
    if (chunks.length === 0) return -1;
    const base = chunks[0]!.start;
    const all = chunks.map((c) => c.text).join('');
    const i = all.indexOf(raw, Math.max(0, from - base));
    return i < 0 ? -1 : base + i;
  }

  /**
   * Mapped input: source text outside the current chunk (a token held across chunks) is copied from
   * the recent chunks' source bytes when they still hold it.
   */
  override source(raw: string, start: number): void {
    if (this.encoder !== null && raw.length > 0) {
      const end = start + raw.length;
      if (!(start === this.runEnd && end <= this.chunkEnd) && !(start >= this.chunkStart && end <= this.chunkEnd)) {
        if (this.runEnd > this.runStart) this.closeRun();
        this.runEnd = -1;
        this.pushBytes(this.sourceBytes(start, end) ?? this.reencode(raw), start, end);
        this.sourceEnd = end;
        return;
      }
    }
    super.source(raw, start);
  }

  protected closeRun(): void {
    const base = this.chunkStart;
    if (this.encoder !== null) {
      const bytes = this.sourceBytes(this.runStart, this.runEnd);
      this.pushBytes(bytes ?? this.reencode(this.chunk.slice(this.runStart - base, this.runEnd - base)), this.runStart, this.runEnd);
      this.runStart = this.runEnd;
      this.sourceEnd = this.runEnd;
      return;
    }
    this.parts.push(this.bytes!.subarray(this.runStart - base, this.runEnd - base));
    this.runStart = this.runEnd;
  }

  /**
   * UTF-16 and the multi-byte legacy encodings: source bytes that end in an error a following piece could
   * change are held back until the next piece. In UTF-16: an odd final byte (1 byte, or 3 with a lead
   * surrogate before it), or a lead surrogate no trail followed (2 bytes). In Shift_JIS, EUC-JP, EUC-KR,
   * Big5, GBK and gb18030: any U+FFFD error — a lead byte whose next byte was no trail (given back: an
   * ASCII byte after it in the output might be one, `82` + `` ` `` is Ａ in Shift_JIS), or the unfinished
   * sequence at the end. Source that continues them (the input that followed them) lets them out as they
   * were; anything else (inserted content, source from elsewhere after a removal) gets the encoding's
   * `errorBytes` instead, which decode to one U+FFFD alone, whatever follows; at the end (`finish`) they go
   * out as they were. `heldEnd`: the UTF-8 offset they end at.
   */
  private held: Uint8Array | null = null;
  private heldEnd = -1;

  /**
   * (Encoded output.) Push `bytes`, the input's `[start, end)` when they are source (else -1, -1), after
   * what was held back.
   */
  private pushBytes(bytes: Uint8Array, start: number, end: number): void {
    const held = this.held;
    if (held !== null) {
      this.held = null;
      this.parts.push(start >= 0 && start === this.heldEnd ? held : this.encoder!.errorBytes!);
    }
    const tail = end >= 0 && this.encoder!.errorBytes !== null ? this.unsafeTail(end) : 0;
    if (tail > 0 && tail <= bytes.length) {
      this.held = bytes.subarray(bytes.length - tail);
      this.heldEnd = end;
      bytes = bytes.subarray(0, bytes.length - tail);
    }
    if (bytes.length > 0) this.parts.push(bytes);
  }

  /** The length of the error ending at UTF-8 offset `end` that must be held back (see `held`), or 0. */
  private unsafeTail(end: number): number {
    for (const c of this.mapped) {
      const at = end - c.start;
      if (at < 3 || at > c.utf8.length) continue;
      // U+FFFD is EF BF BD in the text (byte form of UTF-8).
      if (c.text.charCodeAt(at - 1) !== 0xbd || c.text.charCodeAt(at - 2) !== 0xbf || c.text.charCodeAt(at - 3) !== 0xef) return 0;
      const a = c.map[at - 3]!;
      const b = c.map[at]!;
      if (a < 0 || b < 0) return 0;
      const n = b - a;
      if (!this.encoder!.utf16) return n;
      if (n === 1 || n === 3) return n;
      const lead = c.source[this.encoder!.encoding === 'UTF-16BE' ? a : a + 1]!;
      return n === 2 && lead >= 0xd8 && lead <= 0xdb ? 2 : 0;
    }
    return 0;
  }

  /**
   * What is held back (see `held`), taken: for a caller that stops rewriting here and sends the rest of
   * the input as it came (the example proxy's degraded mode), which continues it. Null if nothing is.
   */
  takeHeld(): Uint8Array | null {
    const held = this.held;
    this.held = null;
    return held === null ? null : held.slice();
  }

  /** The end of the input: what was held back goes out as it was (see `held`). */
  finish(): void {
    const held = this.held;
    if (held === null) return;
    this.held = null;
    this.onOutput(held.slice());
  }

  /** The source bytes of the input's UTF-8 offsets `[start, end)`, if the recent chunks map both ends. */
  private sourceBytes(start: number, end: number): Uint8Array | null {
    const chunks = this.mapped;
    let first = -1;
    let last = -1;
    for (let i = 0; i < chunks.length; i++) {
      const c = chunks[i]!;
      const cEnd = c.start + c.utf8.length;
      if (first < 0 && start >= c.start && start < cEnd) first = i;
      if (end > c.start && end <= cEnd) last = i;
    }
    if (first < 0 || last < first) return null;
    const a = chunks[first]!.map[start - chunks[first]!.start]!;
    const b = chunks[last]!.map[end - chunks[last]!.start]!;
    if (a < 0 || b < 0) return null;
    if (first === last) return chunks[first]!.source.subarray(a, b);
    const pieces = [chunks[first]!.source.subarray(a)];
    for (let i = first + 1; i < last; i++) pieces.push(chunks[i]!.source);
    pieces.push(chunks[last]!.source.subarray(0, b));
    return concat(pieces);
  }

  /** Source text (byte form of UTF-8) whose bytes are gone, encoded again (see docs/encoding.md). */
  private reencode(raw: string): Uint8Array {
    return this.encoder!.encode(fromByteForm(raw), characterReference);
  }

  /**
   * Text a handler or the rewriter wrote, in the document's encoding. A character it lacks becomes a
   * numeric character reference where one means the same (`references`: ordinary content, RCDATA; a
   * tag's attribute values); in raw text, a script, a style or a CDATA section none does, and it is
   * refused.
   */
  private encodeText(s: string, references: boolean): Uint8Array {
    const inTag = references || /^<[A-Za-z]/.test(s);
    return this.encoder!.encode(s, (cp) => {
      if (inTag) return characterReference(cp);
      throw new Error(
        `HTMLRewriter: U+${cp.toString(16).toUpperCase().padStart(4, '0')} cannot be written in ${this.encoder!.encoding} (the document's encoding); ` +
          'write it as a character reference with { html: true } where one means the same',
      );
    });
  }

  flush(): void {
    if (this.runEnd > this.runStart) this.closeRun();
    const parts = this.parts;
    if (parts.length === 0) return;
    let out: Uint8Array;
    if (parts.length === 1) {
      const p = parts[0]!;
      // A copy: the consumer may keep it, the input's owner may reuse its buffer.
      out = typeof p === 'string' ? ENCODER.encode(p) : p.slice();
    } else {
      let size = 0;
      for (let i = 0; i < parts.length; i++) {
        const p = parts[i]!;
        if (typeof p === 'string') parts[i] = ENCODER.encode(p);
        size += (parts[i] as Uint8Array).length;
      }
      out = new Uint8Array(size);
      let at = 0;
      for (const p of parts as Uint8Array[]) {
        out.set(p, at);
        at += p.length;
      }
    }
    parts.length = 0;
    if (out.length > 0) this.onOutput(out);
  }
}

/**
 * A chunk of input in an ASCII-compatible encoding other than UTF-8, as the byte transformer gives it:
 * the decoded text as UTF-8 (`utf8`, whose byte form `text` is what is tokenized), the source bytes it was
 * decoded from, and `map`: for each UTF-8 offset 0…utf8.length, the offset in `source` of the same
 * place, or -1 where none is known (inside a multi-byte character's run). Known: the start and end, each
 * ASCII character and the place after it — every place a token can begin or end.
 */
export interface MappedChunk {
  readonly text: string;
  readonly utf8: Uint8Array;
  readonly source: Uint8Array;
  readonly map: Int32Array;
  /** Set by `ByteOutput`: the offset of `utf8` in the whole (UTF-8) input. */
  start: number;
}

function concat(pieces: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of pieces) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
