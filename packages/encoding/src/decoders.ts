/**
 * Streaming decoders for every WHATWG encoding (Encoding Standard §8–§14). The platform's `TextDecoder`
 * decodes all but three: Node's full-ICU build has no `ISO-8859-16`, `x-user-defined` or `replacement`,
 * so those three are implemented here from the standard (they are small). Every decoder follows the
 * standard's error mode "replacement": a malformed sequence becomes U+FFFD, never an exception.
 *
 * windows-1252 is decoded here too, because of a platform bug (see `createDecoder`). The three single-byte
 * ones (windows-1252, ISO-8859-16, x-user-defined) share one fast decoder: single-byte.ts.
 *
 * A decoder never sniffs a byte order mark itself: the HTML encoding sniffing algorithm already did
 * (HTML §13.2.3.2 step 1 and the Encoding Standard's "decode", which consume a BOM once, at the start),
 * so a U+FEFF that a decoder meets later is text. `TextDecoder` is therefore created with `ignoreBOM`.
 */
import type { EncodingName } from './labels.js';
import { SingleByteDecoder, singleByteTable, type SingleByteTable } from './single-byte.js';

/** A streaming decoder: `decode(chunk, { stream: true })` for each chunk, then `decode()` once at the end. */
export interface Decoder {
  /** The encoding it decodes (the standard's name). */
  readonly encoding: EncodingName;
  /**
   * Decode `bytes`. With `stream: true` an incomplete multi-byte sequence at the end is kept for the
   * next call; without it (the end of the input) it becomes U+FFFD and the decoder is reset.
   */
  decode(bytes?: Uint8Array, options?: { stream?: boolean }): string;
}

/**
 * The ISO-8859-16 index (Encoding Standard, index-iso-8859-16.txt): the code points of bytes 0x80–0xFF.
 * 0x80–0x9F are the C1 controls, as in every ISO-8859 index; 0xA0–0xFF are ISO/IEC 8859-16:2001's
 * Latin-10 repertoire (Romanian ș ț with comma below, € at 0xA4). Checked against iconv-lite in the
 * tests.
 */
const ISO_8859_16_HIGH: readonly number[] = [
  // 0xA0–0xAF
  0x00a0, 0x0104, 0x0105, 0x0141, 0x20ac, 0x201e, 0x0160, 0x00a7, 0x0161, 0x00a9, 0x0218, 0x00ab, 0x0179, 0x00ad, 0x017a, 0x017b,
  // 0xB0–0xBF
  0x00b0, 0x00b1, 0x010c, 0x0142, 0x017d, 0x201d, 0x00b6, 0x00b7, 0x017e, 0x010d, 0x0219, 0x00bb, 0x0152, 0x0153, 0x0178, 0x017c,
  // 0xC0–0xCF
  0x00c0, 0x00c1, 0x00c2, 0x0102, 0x00c4, 0x0106, 0x00c6, 0x00c7, 0x00c8, 0x00c9, 0x00ca, 0x00cb, 0x00cc, 0x00cd, 0x00ce, 0x00cf,
  // 0xD0–0xDF
  0x0110, 0x0143, 0x00d2, 0x00d3, 0x00d4, 0x0150, 0x00d6, 0x015a, 0x0170, 0x00d9, 0x00da, 0x00db, 0x00dc, 0x0118, 0x021a, 0x00df,
  // 0xE0–0xEF
  0x00e0, 0x00e1, 0x00e2, 0x0103, 0x00e4, 0x0107, 0x00e6, 0x00e7, 0x00e8, 0x00e9, 0x00ea, 0x00eb, 0x00ec, 0x00ed, 0x00ee, 0x00ef,
  // 0xF0–0xFF
  0x0111, 0x0144, 0x00f2, 0x00f3, 0x00f4, 0x0151, 0x00f6, 0x015b, 0x0171, 0x00f9, 0x00fa, 0x00fb, 0x00fc, 0x0119, 0x021b, 0x00ff,
];

/** The whole ISO-8859-16 index as a 128-character string, index pointer i at position i. */
const ISO_8859_16_INDEX: string = (() => {
  let s = '';
  for (let b = 0x80; b < 0xa0; b++) s += String.fromCharCode(b);
  for (const cp of ISO_8859_16_HIGH) s += String.fromCharCode(cp);
  return s;
})();

/** The ISO-8859-16 index as code points, pointer 0–127 (for tests and encoders). */
export function iso885916Index(): number[] {
  return Array.from(ISO_8859_16_INDEX, (c) => c.charCodeAt(0));
}

/**
 * The windows-1252 index's pointers 0–31 (bytes 0x80–0x9F; Encoding Standard index-windows-1252.txt);
 * pointers 32–127 (bytes 0xA0–0xFF) are U+00A0–U+00FF. Five bytes keep their C1 control (0x81, 0x8D,
 * 0x8F, 0x90, 0x9D).
 */
const WINDOWS_1252_C1: readonly number[] = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
  0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
];

const WINDOWS_1252_INDEX: string = (() => {
  let s = String.fromCharCode(...WINDOWS_1252_C1);
  for (let b = 0xa0; b <= 0xff; b++) s += String.fromCharCode(b);
  return s;
})();

/** The three single-byte tables decoded here, made on first use (exported for the tests, not by the package). */
const tables = new Map<EncodingName, SingleByteTable>();
export function tableOf(encoding: 'windows-1252' | 'ISO-8859-16' | 'x-user-defined'): SingleByteTable {
  let table = tables.get(encoding);
  if (table === undefined) {
    const high =
      encoding === 'windows-1252'
        ? Array.from(WINDOWS_1252_INDEX, (c) => c.charCodeAt(0))
        : encoding === 'ISO-8859-16'
          ? iso885916Index()
          : // Encoding Standard §14.4 "x-user-defined decoder": a byte 0x80–0xFF is U+F780 + (byte − 0x80),
            // U+F780–U+F7FF in the Private Use Area.
            Array.from({ length: 128 }, (_, i) => 0xf780 + i);
    tables.set(encoding, (table = singleByteTable(encoding, high)));
  }
  return table;
}

/**
 * Encoding Standard §14.1 "replacement decoder": it exists so that labels of encodings that are unsafe on
 * the web (ISO-2022-KR, HZ-GB-2312, ISO-2022-CN…) decode to nothing usable. Its state is "replacement
 * error returned" (initially false): the first non-empty input gives one U+FFFD (an error) and sets it;
 * from then on every byte, and the end of the stream, gives nothing.
 */
class ReplacementDecoder implements Decoder {
  readonly encoding = 'replacement' as const;
  private errorReturned = false;
  decode(bytes?: Uint8Array, options?: { stream?: boolean }): string {
    let out = '';
    if (bytes !== undefined && bytes.length > 0 && !this.errorReturned) {
      this.errorReturned = true;
      out = '\ufffd';
    }
    // A whole-stream decode (no `stream`) starts the next stream afresh, as TextDecoder does.
    if (options?.stream !== true) this.errorReturned = false;
    return out;
  }
}

/**
 * How many bytes at the end of `b` are the start of a UTF-8 sequence that more bytes could complete
 * (Encoding Standard §8.1.1 "UTF-8 decoder": the bytes its state would carry to the next chunk). A
 * sequence already known to be malformed is not held: it decodes to U+FFFD now, as a streaming decoder's.
 */
export function utf8IncompleteTail(b: Uint8Array): number {
  const n = b.length;
  for (let i = n - 1; i >= 0 && i >= n - 3; i--) {
    const c = b[i]!;
    if (c < 0x80) return 0;
    if (c < 0xc0) continue; // a continuation byte: its lead is further back
    if (c < 0xc2 || c > 0xf4) return 0; // never a lead byte
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    if (n - i >= need) return 0;
    if (n - i >= 2) {
      // The UTF-8 decoder's "lower/upper boundary" for the second byte: no overlongs, surrogates or > U+10FFFF.
      const c1 = b[i + 1]!;
      const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
      const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
      if (c1 < lo || c1 > hi) return 0;
    }
    return n - i;
  }
  return 0;
}

/**
 * UTF-8 through `TextDecoder`, streaming by hand: each call decodes its complete sequences in one
 * non-streaming `decode` and keeps an incomplete last sequence for the next. Node's non-streaming UTF-8
 * decode is its fast path (simdutf); `{ stream: true }` goes through ICU and costs about 10% of a whole
 * parse. The output is the same: what the standard's UTF-8 decoder gives for the same chunks.
 */
class Utf8Decoder implements Decoder {
  readonly encoding = 'UTF-8' as const;
  private readonly decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  private pending: Uint8Array | null = null;
  decode(bytes?: Uint8Array, options?: { stream?: boolean }): string {
    let all = bytes ?? new Uint8Array(0);
    if (this.pending !== null) {
      const joined = new Uint8Array(this.pending.length + all.length);
      joined.set(this.pending);
      joined.set(all, this.pending.length);
      all = joined;
      this.pending = null;
    }
    const keep = options?.stream === true ? utf8IncompleteTail(all) : 0;
    if (keep > 0) this.pending = all.slice(all.length - keep);
    return keep === all.length ? '' : this.decoder.decode(keep === 0 ? all : all.subarray(0, all.length - keep));
  }
}

/** `TextDecoder`, which knows every other encoding, kept to the `Decoder` shape. */
class PlatformDecoder implements Decoder {
  private readonly decoder: TextDecoder;
  constructor(readonly encoding: EncodingName) {
    // `fatal: false` is the standard's error mode "replacement"; `ignoreBOM` because the sniffing
    // consumed the one BOM the standard consumes (see the module comment).
    this.decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: true });
  }
  decode(bytes?: Uint8Array, options?: { stream?: boolean }): string {
    return this.decoder.decode(bytes, options?.stream === true ? { stream: true } : undefined);
  }
}

/** Whether the platform's `TextDecoder` knows `encoding` (Node lacks the three implemented here). */
export function platformDecodes(encoding: EncodingName): boolean {
  try {
    new TextDecoder(encoding);
    return true;
  } catch {
    return false;
  }
}

/** A new streaming decoder for `encoding` (the standard's "get a decoder"). */
export function createDecoder(encoding: EncodingName): Decoder {
  switch (encoding) {
    case 'ISO-8859-16':
      return new SingleByteDecoder(tableOf('ISO-8859-16'));
    case 'UTF-8':
      return new Utf8Decoder();
    case 'windows-1252':
      // Not TextDecoder: Node ≥ 20.18.3 / 22.13 decodes windows-1252 through a Latin-1 fast path when not
      // streaming, so bytes 0x80–0x9F came out as C1 controls (nodejs/node#60888, #56542): the default
      // encoding of the web, wrong. The index is small; it is here (single-byte.ts: Latin-1, then the
      // bytes 0x80–0x9F fixed up; or the platform's TextDecoder where a self-test shows it right).
      return new SingleByteDecoder(tableOf('windows-1252'));
    case 'x-user-defined':
      return new SingleByteDecoder(tableOf('x-user-defined'));
    case 'replacement':
      return new ReplacementDecoder();
    default:
      return new PlatformDecoder(encoding);
  }
}

/** Decode a whole byte sequence with `encoding` (no BOM sniffing: see the module comment). */
export function decodeBytes(bytes: Uint8Array, encoding: EncodingName): string {
  return createDecoder(encoding).decode(bytes);
}
