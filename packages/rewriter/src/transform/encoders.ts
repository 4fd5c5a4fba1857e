/**
 * Encoders for the rewriter's output in the document's encoding (bytes in, issue 15 item 4). Each is the
 * inverse of `@sluice/encoding`'s decoder, built by decoding:
 *
 * - single-byte encodings (and x-user-defined): bytes 0x80–0xFF decoded one by one; a byte that decodes
 *   to U+FFFD (undefined in the index) is no character's encoding.
 * - Shift_JIS, EUC-JP, EUC-KR, Big5, GBK, gb18030: every single byte 0x80–0xFF and every pair
 *   (lead 0x81–0xFE, trail 0x40–0xFE) decoded alone, once, on first use (about 24,000 decodes, cached);
 *   a pair counts when it decodes to exactly one character that no single byte or earlier pair gave.
 *   gb18030's four-byte sequences are not built: a character only they encode is unencodable here
 *   (the caller writes a character reference or refuses).
 *
 * Any byte sequence chosen decodes to the same character, which is what matters for output; it is not
 * always the Encoding Standard encoder's choice (Shift_JIS and Big5 have duplicates).
 *
 * UTF-16LE/BE are written by `encodeUtf16` (utf16-input.ts): every character has its code units.
 */
import { createDecoder, type EncodingName } from '@sluice/encoding';
import { encodeUtf16 } from './utf16-input.js';

/** Code point → bytes (ASCII is not in the map: it is itself). */
type Table = Map<number, Uint8Array>;

const MULTI_BYTE = new Set<EncodingName>(['Shift_JIS', 'EUC-JP', 'EUC-KR', 'Big5', 'GBK', 'gb18030']);

const tables = new Map<EncodingName, Table>();

function oneChar(s: string): number | null {
  if (s.length === 0 || s.length > 2) return null;
  const cp = s.codePointAt(0)!;
  if (cp === 0xfffd || (cp > 0xffff ? s.length !== 2 : s.length !== 1)) return null;
  return cp;
}

function tableOf(encoding: EncodingName): Table {
  let table = tables.get(encoding);
  if (table !== undefined) return table;
  table = new Map();
  const decoder = createDecoder(encoding);
  for (let b = 0x80; b <= 0xff; b++) {
    const cp = oneChar(decoder.decode(Uint8Array.of(b)));
    if (cp !== null && cp >= 0x80 && !table.has(cp)) table.set(cp, Uint8Array.of(b));
  }
  if (MULTI_BYTE.has(encoding)) {
    const pair = new Uint8Array(2);
    for (let lead = 0x81; lead <= 0xfe; lead++) {
      for (let trail = 0x40; trail <= 0xfe; trail++) {
        pair[0] = lead;
        pair[1] = trail;
        const cp = oneChar(decoder.decode(pair));
        if (cp !== null && cp >= 0x80 && !table.has(cp)) table.set(cp, pair.slice());
      }
    }
  }
  tables.set(encoding, table);
  return table;
}

/**
 * The encodings the byte path rewrites through `MappedInput` (byte-transformer.ts): every
 * ASCII-compatible one. (UTF-16LE/BE are rewritten too, through `Utf16Input`.)
 */
export function isAsciiCompatible(encoding: EncodingName): boolean {
  return encoding !== 'UTF-16LE' && encoding !== 'UTF-16BE' && encoding !== 'replacement' && encoding !== 'ISO-2022-JP';
}

/** An encoder for one document's output. */
export class DocumentEncoder {
  private table: Table | null = null;
  /** Whether the encoding is UTF-16LE or UTF-16BE. */
  readonly utf16: boolean;
  /**
   * Bytes that decode to one U+FFFD whatever follows them and whatever came before a complete character
   * (the decoder ends them in its first state; nothing is given back) — written instead of a source error
   * that content would otherwise continue (output.ts `held`). Null for the single-byte encodings, whose
   * errors are one byte each and continue nothing. Checked with the Encoding Standard's decoders and
   * Node's: Shift_JIS, EUC-JP, EUC-KR: FF (no lead, no character); Big5: 81 80 (a lead, then a byte that is
   * no trail and not ASCII, so consumed with it; a lone FF or 80 Node's Big5 drops); GBK, gb18030: 81 FF
   * (likewise; Node's GBK drops a lone FF). UTF-16: U+FFFD's code unit.
   */
  readonly errorBytes: Uint8Array | null;
  constructor(readonly encoding: EncodingName) {
    this.utf16 = encoding === 'UTF-16LE' || encoding === 'UTF-16BE';
    this.errorBytes = this.utf16
      ? encodeUtf16('\ufffd', encoding === 'UTF-16BE')
      : encoding === 'Big5'
        ? Uint8Array.of(0x81, 0x80)
        : encoding === 'GBK' || encoding === 'gb18030'
          ? Uint8Array.of(0x81, 0xff)
          : MULTI_BYTE.has(encoding)
            ? Uint8Array.of(0xff)
            : null;
  }

  /**
   * `s` in the encoding. A character the encoding lacks goes to `unencodable`, which returns what to
   * write instead (ASCII, e.g. a character reference) or throws.
   */
  encode(s: string, unencodable: (codePoint: number) => string): Uint8Array {
    // UTF-16 has every character: nothing is unencodable (a lone surrogate is written as U+FFFD).
    if (this.utf16) return encodeUtf16(s, this.encoding === 'UTF-16BE');
    const out: number[] = [];
    const table = (this.table ??= tableOf(this.encoding));
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        out.push(c);
        continue;
      }
      const cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      const bytes = table.get(cp);
      if (bytes !== undefined) for (const b of bytes) out.push(b);
      else for (const ch of unencodable(cp)) out.push(ch.charCodeAt(0) & 0x7f);
    }
    return Uint8Array.from(out);
  }
}

/** A numeric character reference for `codePoint` (the same character in text and attribute values). */
export function characterReference(codePoint: number): string {
  return `&#${codePoint};`;
}
