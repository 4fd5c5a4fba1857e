/**
 * UTF-16LE/BE input for the byte rewriter (issue 15 item 4: "UTF-16 documents are rewritten in UTF-16
 * with their BOM"). The bytes are decoded here, step by step as the Encoding Standard's UTF-16 decoder
 * does (§14.2.1 "shared UTF-16 decoder"), so that each character's source bytes are known exactly:
 *
 * - a code unit is 2 bytes, a surrogate pair 4;
 * - a lone trail surrogate, or a lead surrogate not followed by a trail one, is an error (U+FFFD) of
 *   2 bytes (the code unit after a lead surrogate is read again: it is given back);
 * - at the end of the input, an unfinished lead byte and/or lead surrogate is one error: U+FFFD of 1,
 *   2 or 3 bytes.
 *
 * That is what the platform's `TextDecoder('utf-16le'|'utf-16be')` gives, streaming or not, which
 * `parse(bytes)` uses (tested against it). The byte order mark is not consumed: it stays U+FEFF, the
 * first character, so that bytes out equal bytes in; the tokenizer, told `discardByteOrderMark`, keeps
 * it out of the tree, as the decoder would have consumed it (HTML §13.2.3.1). (A BOM can only be the
 * first code unit: FE FF or FF FE at the start is how the sniffing found the encoding.)
 *
 * Every character's source offset is known (`srcOf`), so untouched input anywhere — malformed code
 * units included — is copied as its own bytes.
 */

/** Decoded text, the source offset of each of its UTF-16 code units (-1: a pair's trail), and the bytes. */
export interface DecodedPiece {
  readonly text: string;
  readonly srcOf: Int32Array;
  readonly source: Uint8Array;
}

/** Characters built per `String.fromCharCode` call (its arguments go on the stack). */
const BLOCK = 4096;

/**
 * The code units made into a string. They hold no lone surrogate (each became U+FFFD), so a UTF-16LE
 * `TextDecoder` over their memory gives them exactly, where the platform stores them little-endian; else
 * `String.fromCharCode`. (With it and typed-array offsets, the corpus as UTF-16LE took 0.63 s of CPU on
 * the byte path instead of 1.77 s, against 0.33 s for the same pages as UTF-8.)
 */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const UNITS_DECODER = new TextDecoder('utf-16le', { ignoreBOM: true });
function stringOf(units: Uint16Array, count: number): string {
  if (LITTLE_ENDIAN) return UNITS_DECODER.decode(units.subarray(0, count));
  let text = '';
  for (let k = 0; k < count; k += BLOCK) text += String.fromCharCode(...units.subarray(k, Math.min(count, k + BLOCK)));
  return text;
}

export class Utf16Input {
  /** Source bytes not yet decoded: at most an unfinished code unit after a lead surrogate (3 bytes). */
  private pending = new Uint8Array(0);

  constructor(private readonly bigEndian: boolean) {}

  /**
   * Take `bytes`; return everything decoded from them (and the bytes held before them), or null when
   * nothing could be decoded yet. `atEnd`: the input ended after `bytes`.
   */
  write(bytes: Uint8Array, atEnd: boolean): DecodedPiece | null {
    let src = bytes;
    if (this.pending.length > 0) {
      src = new Uint8Array(this.pending.length + bytes.length);
      src.set(this.pending);
      src.set(bytes, this.pending.length);
    }
    const n = src.length;
    const hi = this.bigEndian ? 0 : 1;
    const lo = 1 - hi;
    const units = new Uint16Array((n >> 1) + 1); // (+1: the error an odd final byte makes)
    const srcOf = new Int32Array((n >> 1) + 1);
    let count = 0;
    let i = 0;
    while (i + 1 < n) {
      const unit = (src[i + hi]! << 8) | src[i + lo]!;
      if (unit >= 0xd800 && unit <= 0xdbff) {
        if (i + 3 >= n) break; // the trail surrogate (or the code unit instead of it) is not here yet
        const next = (src[i + 2 + hi]! << 8) | src[i + 2 + lo]!;
        if (next >= 0xdc00 && next <= 0xdfff) {
          srcOf[count] = i;
          units[count++] = unit;
          srcOf[count] = -1;
          units[count++] = next;
          i += 4;
          continue;
        }
        srcOf[count] = i;
        units[count++] = 0xfffd; // a lead surrogate alone: its 2 bytes; `next` is read again
        i += 2;
        continue;
      }
      srcOf[count] = i;
      units[count++] = unit >= 0xdc00 && unit <= 0xdfff ? 0xfffd : unit;
      i += 2;
    }
    let end = i;
    if (atEnd && i < n) {
      // An odd final byte, a lead surrogate, or both: one error.
      srcOf[count] = i;
      units[count++] = 0xfffd;
      end = n;
    }
    this.pending = end < n ? src.slice(end) : new Uint8Array(0);
    if (end === 0) return null;
    const text = stringOf(units, count);
    return { text, srcOf: srcOf.subarray(0, count), source: src.subarray(0, end) }; // (valid until the caller's write returns: the chunk copies it)
  }
}

/**
 * `s` as UTF-16 in the given byte order, as the Encoding Standard's UTF-16 encoders write it (§14.3,
 * on the string's scalar values): a lone surrogate — which only a handler's text can hold; decoded
 * input has none — becomes U+FFFD, as it does in UTF-8 output (a TextEncoder), and as a browser would
 * read the lone code unit anyway.
 */
export function encodeUtf16(s: string, bigEndian: boolean): Uint8Array {
  const out = new Uint8Array(s.length * 2);
  const hi = bigEndian ? 0 : 1;
  const lo = 1 - hi;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out[2 * i + hi] = c >> 8;
        out[2 * i + lo] = c & 0xff;
        i++;
        c = next;
      } else c = 0xfffd;
    }
    out[2 * i + hi] = c >> 8;
    out[2 * i + lo] = c & 0xff;
  }
  return out;
}
