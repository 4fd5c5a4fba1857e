import { readFileSync } from 'node:fs';
import {
  changeTheEncoding,
  encodingOfMeta,
  getEncoding,
  type EncodingName,
  type SniffResult,
} from '@sluice/encoding';
import type { Token } from '@sluice/tokenizer';
import { UsageError } from './args.js';

/**
 * Reads the input file (or standard input for `-`) as bytes: what they decode to is for the encoding
 * sniffing to say (HTML §13.2.3), as a browser would, not for the command to assume.
 */
export function readInput(path: string | undefined): Uint8Array {
  if (path === undefined) throw new UsageError('no input file given (use - for standard input)');
  try {
    const buffer = readFileSync(path === '-' ? 0 : path);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Splits `bytes` into chunks of `size` bytes, as a network would deliver them (characters cut included). */
export function* chunks(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(i + size, bytes.length));
}

/** `--encoding LABEL`: the label as given (the parser resolves it), or a usage error for one that is no label. */
export function encodingFlag(flags: Map<string, string>): string | undefined {
  const label = flags.get('encoding');
  if (label === undefined) return undefined;
  if (getEncoding(label) === null) {
    throw new UsageError(`--encoding: ${JSON.stringify(label)} is not an encoding label (the Encoding Standard's labels: utf-8, windows-1252, shift_jis, euc-kr, gbk, big5, utf-16le…)`);
  }
  return label;
}

/** How the command decodes its input: the sniffing's options. */
export interface DecodeOptions {
  /** `--encoding`: used unless the bytes start with a byte order mark. */
  encoding?: string;
  /** Step 8's default, chosen by {@link defaultEncodingFor}. */
  defaultEncoding: string;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The default for input that names no encoding (no BOM, no `--encoding`, no `<meta>` in the first 1024
 * bytes): UTF-8 when the whole input is valid UTF-8, else windows-1252. The standard lets a user agent
 * detect the encoding there (§13.2.3.2 step 7) and says UTF-8 is especially detectable "when a user agent
 * can examine the whole file" — the command always can. Without it, a UTF-8 file with no `<meta>` (most
 * files written today) would come out as windows-1252 mojibake.
 */
export function defaultEncodingFor(bytes: Uint8Array): string {
  try {
    strictUtf8.decode(bytes);
    return 'UTF-8';
  } catch {
    return 'windows-1252';
  }
}

/** The decoding options for these bytes and flags. */
export function decodeOptions(bytes: Uint8Array, encoding: string | undefined): DecodeOptions {
  return { ...(encoding !== undefined ? { encoding } : {}), defaultEncoding: defaultEncodingFor(bytes) };
}

/** One line saying how the input was decoded: `encoding: Shift_JIS (certain: a <meta> in the first 1024 bytes)`. */
export function describeEncoding(sniff: SniffResult, confidence: string | null, reparsed: boolean): string {
  const why = {
    bom: 'a byte order mark',
    override: '--encoding',
    transport: 'a Content-Type charset',
    prescan: 'a <meta> in the first 1024 bytes',
    default: 'nothing said; the default for this input',
  }[sniff.source];
  return `encoding: ${sniff.encoding} (${confidence ?? sniff.confidence}: ${reparsed ? 'a later <meta>, input decoded again' : why})`;
}

/**
 * For the tokenizer alone: the encoding a `<meta>` start tag names (HTML §13.2.6.4.4 "in head": `charset`,
 * else `http-equiv=content-type` with a `content` naming one), or null. (The parser does this itself.)
 */
export function metaEncoding(token: Token): EncodingName | null {
  return token.type === 'startTag' && token.name === 'meta' ? encodingOfMeta(token.attributes) : null;
}

export { changeTheEncoding };
