/**
 * Bytes in: from offsets in the decoded text (UTF-16 code units, what tokens, source locations and parse
 * errors count) back to offsets in the bytes (HTML §13.2.3: the decoder turns the bytes into the input
 * stream). Kept only when someone asks for byte offsets (errors, source locations).
 *
 * - UTF-8: the byte order mark's length, plus the UTF-8 length of the decoded text before the offset —
 *   exact for well-formed UTF-8. A malformed sequence decodes to U+FFFD (Encoding Standard, UTF-8
 *   decoder), which is counted as the 3 bytes of a real U+FFFD: past one, offsets may be off by 1–2 each.
 * - UTF-16LE/BE: the BOM, plus 2 bytes per code unit (an odd last byte aside).
 * - The single-byte encodings (and x-user-defined): one byte per code unit.
 * - The multi-byte legacy encodings (GBK, gb18030, Big5, EUC-JP, ISO-2022-JP, Shift_JIS, EUC-KR) and
 *   `replacement`: none (`undefined`): their mapping is the decoder's alone.
 */
import type { EncodingName } from '@sluice/encoding';

const NO_MAPPING: ReadonlySet<string> = new Set(['GBK', 'gb18030', 'Big5', 'EUC-JP', 'ISO-2022-JP', 'Shift_JIS', 'EUC-KR', 'replacement']);

/** UTF-8 length of `text[from, to)`. */
function utf8Length(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** Maps offsets in the decoded text to offsets in the bytes, for one parse's input. */
export class ByteOffsets {
  /** 0: UTF-8 (walk the text), 1: one byte per unit, 2: two bytes per unit, -1: no mapping. */
  private readonly kind: number;
  private readonly bom: number;
  /** UTF-8: the decoded text's chunks (null once forgotten), where each starts in code units, and in bytes. */
  private readonly chunks: (string | null)[] = [];
  /** UTF-8: the first chunk not forgotten. */
  private first = 0;
  private readonly charStarts: number[] = [];
  private readonly byteStarts: number[] = [];
  private chars = 0;
  private bytes = 0;
  /** UTF-8: the last answer (chunk, offset, byte offset), where the next search starts. */
  private cursorChunk = 0;
  private cursorChar = 0;
  private cursorByte = 0;

  constructor(encoding: EncodingName, bomLength: number) {
    this.bom = bomLength;
    this.kind = encoding === 'UTF-8' ? 0 : encoding === 'UTF-16LE' || encoding === 'UTF-16BE' ? 2 : NO_MAPPING.has(encoding) ? -1 : 1;
    this.cursorByte = bomLength;
  }

  /** Whether this encoding has a mapping at all. */
  get exists(): boolean {
    return this.kind >= 0;
  }

  /** The next piece of decoded text (in order, as the tokenizer gets it). */
  text(text: string): void {
    if (this.kind !== 0 || text.length === 0) return;
    this.chunks.push(text);
    this.charStarts.push(this.chars);
    this.byteStarts.push(this.bom + this.bytes);
    this.chars += text.length;
    this.bytes += utf8Length(text, 0, text.length);
  }

  /**
   * UTF-8: no offset before `offset` will be asked for again; the chunks wholly before it are dropped (a
   * parser reporting errors on a stream of any length keeps only what its next errors may point into).
   */
  forget(offset: number): void {
    const starts = this.charStarts;
    while (this.first + 1 < starts.length && starts[this.first + 1] <= offset) {
      this.chunks[this.first] = null;
      this.first++;
    }
    if (this.cursorChunk < this.first) {
      this.cursorChunk = this.first;
      this.cursorChar = starts[this.first];
      this.cursorByte = this.byteStarts[this.first];
    }
  }

  /** How many chunks of text are kept (UTF-8), for tests. */
  get keptChunks(): number {
    return this.chunks.length - this.first;
  }

  /** The byte offset of `offset` (code units into the decoded text), or undefined without a mapping. */
  byteOffset(offset: number): number | undefined {
    switch (this.kind) {
      case 1: return this.bom + offset;
      case 2: return this.bom + 2 * offset;
      case 0: break;
      default: return undefined;
    }
    if (offset >= this.chars) return this.bom + this.bytes + 3 * (offset - this.chars);
    let c = this.cursorChunk;
    const starts = this.charStarts;
    if (c >= starts.length || offset < this.cursorChar) {
      // Backwards (rare: answers come nearly in order): find the chunk again (a forgotten one counts as
      // the first kept: offsets before it are not asked for).
      let lo = this.first;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
      c = lo;
      this.cursorChar = starts[c];
      this.cursorByte = this.byteStarts[c];
    }
    while (c + 1 < starts.length && starts[c + 1] <= offset) {
      c++;
      this.cursorChar = starts[c];
      this.cursorByte = this.byteStarts[c];
    }
    const chunk = this.chunks[c] ?? '';
    const base = starts[c];
    this.cursorByte += utf8Length(chunk, this.cursorChar - base, offset - base);
    this.cursorChar = offset;
    this.cursorChunk = c;
    return this.cursorByte;
  }
}
