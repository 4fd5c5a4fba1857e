/**
 * The single-byte decoders sluice implements itself (Encoding Standard §9.1 "single-byte decoder", and
 * §14.4 "x-user-defined decoder", which has the same shape): windows-1252, ISO-8859-16, x-user-defined.
 *
 * Why fast matters: windows-1252 is the web's default encoding (HTML §13.2.3.2 step 8), so a page with
 * no charset is decoded here, and `parse(bytes)` must cost no more than `TextDecoder` + `parse(string)`
 * (issue 15 item 8). A per-byte loop building code-unit arrays cost 1.3× that on the benchmark corpus.
 *
 * How: every one of these encodings maps a byte below 0x80 to itself, and most bytes at or above 0x80 of
 * real pages are few. So the bytes are first read as Latin-1 (byte b → U+00b, which the platform does at
 * memory speed: Node's `Buffer` `latin1`), then only the bytes whose code point differs from Latin-1 are
 * fixed up (windows-1252: 27 of 0x80–0x9F, € ‚ ƒ „ … ™; ISO-8859-16: 40 of 0xA0–0xFF; x-user-defined:
 * all 128), found by a regular expression over the Latin-1 string — in Node only in the 4 KiB blocks
 * that its `buffer.isAscii` says are not all ASCII. A page with many of them (Romanian in ISO-8859-16, any x-user-defined) switches to a table
 * lookup into UTF-16 code units, which costs the same per byte however many differ.
 *
 * Without `Buffer` (browsers, Deno) each of the three goes to the platform's `TextDecoder` when it has the
 * encoding and a one-time self-test shows it decodes every byte as the index says (Chromium has all three,
 * right; Node's non-streaming windows-1252 decode is Latin-1, so 0x80 is U+0080, not €,
 * nodejs/node#60888, and it has no ISO-8859-16 or x-user-defined); otherwise the Latin-1 pass is
 * `String.fromCharCode` over ≤ 8 KiB runs. Every path gives the standard's answer for every
 * byte. The decoders are stateless — one byte is one character — so chunk boundaries never matter.
 */
import type { EncodingName } from './labels.js';
import type { Decoder } from './decoders.js';

/** How bytes become a Latin-1 string, and code units a string: the platform's fastest correct way. */
export type SingleBytePlatform = 'buffer' | 'portable';

/** Node's `Buffer`, when there is one (typed loosely: this package does not depend on Node's types). */
interface BufferLike {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: string): string };
}

function nodeBuffer(): BufferLike | null {
  const B: unknown = (globalThis as { Buffer?: unknown }).Buffer;
  return typeof B === 'function' && typeof (B as Partial<BufferLike>).from === 'function' ? (B as unknown as BufferLike) : null;
}

/** Longest run handed to `String.fromCharCode.apply` (an argument list; engines cap its length). */
const APPLY_RUN = 8192;

/** Whether this machine stores a `Uint16Array` little-endian (every one sluice runs on, but check). */
const littleEndian = (): boolean => new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** The platform's primitives, chosen once per kind. */
interface Primitives {
  /** Bytes as Latin-1: code unit i is byte i. */
  latin1(bytes: Uint8Array): string;
  /** UTF-16 code units as a string. */
  codeUnits(units: Uint16Array): string;
  /** Whether every byte is below 0x80, at memory speed (Node's `buffer.isAscii`); null where there is none. */
  isAscii: ((bytes: Uint8Array) => boolean) | null;
}

/** Node's `buffer.isAscii` (Node ≥ 18.15), reached without importing `node:buffer` (browsers have none). */
function nodeIsAscii(): ((bytes: Uint8Array) => boolean) | null {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const mod = typeof process?.getBuiltinModule === 'function' ? (process.getBuiltinModule('node:buffer') as { isAscii?: unknown } | undefined) : undefined;
  return typeof mod?.isAscii === 'function' ? (mod.isAscii as (bytes: Uint8Array) => boolean) : null;
}

function makePrimitives(platform: SingleBytePlatform): Primitives {
  const B = platform === 'buffer' ? nodeBuffer() : null;
  if (B !== null && littleEndian()) {
    return {
      latin1: (bytes) => B.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'),
      codeUnits: (units) => B.from(units.buffer, units.byteOffset, units.byteLength).toString('utf16le'),
      isAscii: nodeIsAscii(),
    };
  }
  const fromRuns = (units: ArrayLike<number> & { subarray(start: number, end: number): ArrayLike<number> }, length: number): string => {
    if (length <= APPLY_RUN) return String.fromCharCode.apply(null, units as unknown as number[]);
    let out = '';
    for (let i = 0; i < length; i += APPLY_RUN) out += String.fromCharCode.apply(null, units.subarray(i, i + APPLY_RUN) as unknown as number[]);
    return out;
  };
  return { latin1: (bytes) => fromRuns(bytes, bytes.length), codeUnits: (units) => fromRuns(units, units.length), isAscii: null };
}

const primitivesOf = new Map<SingleBytePlatform, Primitives>();
function primitives(platform: SingleBytePlatform): Primitives {
  let p = primitivesOf.get(platform);
  if (p === undefined) primitivesOf.set(platform, (p = makePrimitives(platform)));
  return p;
}

/**
 * An encoding's table for this decoder: its code point for every byte (0x00–0x7F are themselves), the
 * bytes that differ from Latin-1 as a regular expression character class, and their characters.
 */
export interface SingleByteTable {
  readonly encoding: EncodingName;
  /** Code point of byte b at position b (all BMP, none a surrogate). */
  readonly codePoints: Uint16Array;
  /** Matches a Latin-1 character whose byte decodes to something else (global: used with lastIndex). */
  readonly differs: RegExp;
  /** The character byte b decodes to, at position b. */
  readonly characters: readonly string[];
}

/** The table of an encoding whose bytes 0x80–0xFF decode to `high[b − 0x80]` (the Encoding Standard's index). */
export function singleByteTable(encoding: EncodingName, high: ArrayLike<number>): SingleByteTable {
  if (high.length !== 128) throw new Error(`singleByteTable(${encoding}): expected 128 code points, got ${high.length}`);
  const codePoints = new Uint16Array(256);
  let cls = '';
  for (let b = 0; b < 256; b++) {
    const cp = b < 0x80 ? b : high[b - 0x80]!;
    codePoints[b] = cp;
    if (cp !== b) cls += `\\x${b.toString(16)}`;
  }
  const characters = Array.from(codePoints, (cp) => String.fromCharCode(cp));
  // A table equal to Latin-1 has nothing to fix: a class that matches nothing.
  return { encoding, codePoints, differs: new RegExp(cls === '' ? '[^\\s\\S]' : `[${cls}]`, 'g'), characters };
}

/**
 * Every {@link DENSE_WINDOW} fix-ups, if they spanned fewer than {@link DENSE_WINDOW} × {@link DENSE_SPACING}
 * bytes, the rest is finished by table lookup: a fix-up costs a string concatenation, some 30 times a
 * byte's lookup. Measured over the last fix-ups, not the whole page, so dense text after a long ASCII
 * `<head>` still switches.
 */
const DENSE_WINDOW = 32;
const DENSE_SPACING = 32;

/**
 * With `isAscii`, the bytes are looked at in blocks of this many: an all-ASCII block (most of a page) is
 * passed over at memory speed, and only the others are searched for bytes to fix up.
 */
export const SCAN_BLOCK = 4096;

/**
 * Decode `bytes` with `table` over the Latin-1 reading `latin1` (code unit i is byte i): the Latin-1
 * string with the differing characters replaced. `codeUnits` finishes a dense remainder; `isAscii`, when
 * the platform has it, lets all-ASCII blocks of `block` bytes go unsearched.
 */
export function fixUpLatin1(
  bytes: Uint8Array,
  latin1: string,
  table: SingleByteTable,
  codeUnits: (units: Uint16Array) => string,
  isAscii: ((bytes: Uint8Array) => boolean) | null = null,
  block: number = SCAN_BLOCK,
): string {
  const n = bytes.length;
  const differs = table.differs;
  const characters = table.characters;
  // The pieces are joined once at the end: `join` makes one flat string, where `+=` would make a rope that
  // the tokenizer flattens on its first read and then reads through an indirection (measured: the parse
  // of a rope cost more than the copy).
  const parts: string[] = [];
  let last = 0;
  let fixed = 0;
  let windowStart = 0;
  // Without isAscii, one search over the whole string.
  const step = isAscii === null ? n : block;
  for (let from = 0; from < n; from += step) {
    if (isAscii !== null && isAscii(bytes.subarray(from, from + step))) continue;
    const searched = step >= n ? latin1 : latin1.slice(from, from + step);
    differs.lastIndex = 0;
    for (let m = differs.exec(searched); m !== null; m = differs.exec(searched)) {
      const i = from + m.index;
      if (++fixed % DENSE_WINDOW === 0 && i - windowStart < DENSE_WINDOW * DENSE_SPACING) {
        // Dense: look the rest up byte by byte.
        const rest = n - last;
        const units = new Uint16Array(rest);
        const codePoints = table.codePoints;
        for (let j = 0; j < rest; j++) units[j] = codePoints[bytes[last + j]!]!;
        differs.lastIndex = 0;
        parts.push(codeUnits(units));
        return parts.join('');
      }
      if (fixed % DENSE_WINDOW === 0) windowStart = i;
      parts.push(latin1.slice(last, i), characters[latin1.charCodeAt(i)]!);
      last = i + 1;
    }
  }
  differs.lastIndex = 0;
  if (last === 0) return latin1;
  parts.push(latin1.slice(last));
  return parts.join('');
}

/**
 * Whether the platform's `TextDecoder` decodes `table.encoding`, not streaming, exactly as the table says
 * for every byte (Node's windows-1252 does not; browsers' do). Checked once per encoding.
 */
const platformRight = new Map<EncodingName, TextDecoder | null>();
function selfTestedPlatformDecoder(table: SingleByteTable): TextDecoder | null {
  if (platformRight.has(table.encoding)) return platformRight.get(table.encoding)!;
  let decoder: TextDecoder | null = null;
  try {
    const candidate = new TextDecoder(table.encoding, { fatal: false, ignoreBOM: true });
    const all = Uint8Array.from({ length: 256 }, (_, b) => b);
    if (candidate.decode(all) === table.characters.join('')) decoder = candidate;
  } catch {
    decoder = null; // the platform has no such encoding (ISO-8859-16, x-user-defined in Node)
  }
  platformRight.set(table.encoding, decoder);
  return decoder;
}

/**
 * The decoder over `table`. The options are for tests: `platform` `'buffer'` (the default) uses Node's
 * `Buffer` when there is one, else the portable path; `'portable'` never does (as in a browser);
 * `platformTextDecoder` forces the self-tested TextDecoder on or off; `scanBlock` is {@link SCAN_BLOCK}.
 */
export class SingleByteDecoder implements Decoder {
  readonly encoding: EncodingName;
  private readonly primitives: Primitives;
  private readonly platformDecoder: TextDecoder | null;

  private readonly scanBlock: number;

  constructor(
    private readonly table: SingleByteTable,
    options: { platform?: SingleBytePlatform; platformTextDecoder?: boolean; scanBlock?: number } = {},
  ) {
    this.encoding = table.encoding;
    const platform = options.platform ?? 'buffer';
    this.primitives = primitives(platform);
    // With Buffer, Latin-1 plus fix-ups is as fast as any TextDecoder; without, a right TextDecoder is faster.
    const useTextDecoder = options.platformTextDecoder ?? (platform === 'portable' || nodeBuffer() === null);
    this.platformDecoder = useTextDecoder ? selfTestedPlatformDecoder(table) : null;
    this.scanBlock = options.scanBlock ?? SCAN_BLOCK;
  }

  /** Which way this decoder decodes (for tests): the self-tested platform `TextDecoder`, or Latin-1 and fix-ups. */
  get path(): 'TextDecoder' | 'Latin-1 + fix-ups' {
    return this.platformDecoder !== null ? 'TextDecoder' : 'Latin-1 + fix-ups';
  }

  decode(bytes?: Uint8Array): string {
    if (bytes === undefined || bytes.length === 0) return '';
    if (this.platformDecoder !== null) return this.platformDecoder.decode(bytes);
    const p = this.primitives;
    return fixUpLatin1(bytes, p.latin1(bytes), this.table, p.codeUnits, p.isAscii, this.scanBlock);
  }
}
