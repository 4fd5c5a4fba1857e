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
import { bytesOfByteForm } from '@sluice/tokenizer';

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

  /** Write text a handler decided or the rewriter made (inserted content, a rewritten tag). */
  abstract text(s: string): void;

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

  text(s: string): void {
    if (this.runEnd > this.runStart) {
      this.closeRun();
      this.runEnd = -1;
    }
    if (s.length === 0) return;
    const parts = this.parts;
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
    if (raw.length > 0) this.parts.push(bytesOfByteForm(raw));
  }

  protected closeRun(): void {
    const base = this.chunkStart;
    this.parts.push(this.bytes!.subarray(this.runStart - base, this.runEnd - base));
    this.runStart = this.runEnd;
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
