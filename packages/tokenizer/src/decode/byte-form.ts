/**
 * The byte form of text: a string holding UTF-8 bytes, one character per byte (U+0000–U+00FF), what
 * `Buffer#latin1Slice` makes of a byte array. A tokenizer with `byteInput` reads its input in this form
 * and gives every decoded field in it too (see `TokenizerOptions.byteInput`).
 *
 * Why this works: every character the tokenizer and the tree builder decide on is ASCII, and in UTF-8 no
 * byte of a multi-byte sequence is. Comparing two strings in byte form gives the same answer as
 * comparing their characters, and so do prefix, suffix, substring and whitespace-separated tests with
 * an ASCII-case-insensitive fold.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** A character that is not ASCII. */
const NON_ASCII = /[^\0-\x7f]/;

/**
 * Whether every character of `s` is ASCII. Short strings (names) are checked in a loop; from 12
 * characters on (attribute values: URLs) one regular expression test is faster, and it stays flat where
 * the loop costs about 3 ns a character (measured: 16 characters 52 ns by loop, 33 by test; 32, 104 and 43).
 */
export function isAscii(s: string): boolean {
  const n = s.length;
  if (n >= 12) return !NON_ASCII.test(s);
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** `s` (any string of Unicode scalar values) in byte form: its UTF-8 encoding, one character per byte. */
export function toByteForm(s: string): string {
  if (isAscii(s)) return s;
  return byteFormOf(encoder.encode(s));
}

/** `bytes` in byte form: one character per byte (any bytes; no decoding). */
export function byteFormOf(bytes: Uint8Array): string {
  let out = '';
  // In pieces: `fromCharCode.apply` takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 4096) out += String.fromCharCode.apply(null, bytes.subarray(i, i + 4096) as unknown as number[]);
  return out;
}

/** The bytes a string in byte form holds (a character past U+00FF throws). */
export function bytesOfByteForm(s: string): Uint8Array {
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) throw new RangeError(`sluice: U+${c.toString(16).toUpperCase().padStart(4, '0')} at ${i} of a string in byte form is not a byte`);
    bytes[i] = c;
  }
  return bytes;
}

/**
 * The text whose byte form `s` is (a character past U+00FF, which no byte form has, throws). Bytes that
 * are not UTF-8 decode to U+FFFD, as a TextDecoder would.
 */
export function fromByteForm(s: string): string {
  return isAscii(s) ? s : decoder.decode(bytesOfByteForm(s));
}

/** U+FFFD REPLACEMENT CHARACTER in byte form. */
export const REPLACEMENT_BYTES = '\xEF\xBF\xBD';
