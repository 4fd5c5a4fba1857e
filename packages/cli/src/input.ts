/**
 * Input: a file or standard input, read as a stream of bytes in chunks as they come (never held whole),
 * and what the command needs to decode them as a browser would (HTML §13.2.3).
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { encodingOfMeta, getEncoding, type EncodingName, type SniffResult } from '@sluice/encoding';
import type { Token } from '@sluice/tokenizer';
import { InputError } from './args.js';
import type { Progress } from './output/progress.js';

/** An opened input. */
export interface Input {
  /** The name to print: the path as given, or `<stdin>`. */
  readonly name: string;
  /** Its size in bytes when known (a regular file), else null. */
  readonly size: number | null;
  /** Whether it can be read again from its first byte (a regular file). */
  readonly rereadable: boolean;
  /** The bytes, in chunks of at most `chunkSize` bytes, as they arrive. Stops reading when the loop breaks. */
  chunks(chunkSize: number, progress?: Progress): AsyncGenerator<Uint8Array>;
  /** Let go of the file or of standard input (stop reading). */
  close(): Promise<void>;
}

/**
 * Opens `path` (`undefined` or `-`: standard input). A file that cannot be opened is an
 * {@link InputError} naming it — before anything is written.
 */
export async function openInput(path: string | undefined, stdin: Readable): Promise<Input> {
  if (path === undefined || path === '-') return stdinInput(stdin);
  let handle: FileHandle;
  let size: number | null = null;
  try {
    handle = await open(path, 'r');
    const stat = await handle.stat();
    if (stat.isDirectory()) {
      await handle.close();
      throw new InputError(`${path}: is a directory`);
    }
    if (stat.isFile()) size = stat.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${path}: ${describeFsError(error as NodeJS.ErrnoException)}`);
  }
  const file = handle;
  return {
    name: path,
    size,
    rereadable: size !== null,
    async *chunks(chunkSize, progress) {
      // Each pass reads from the first byte (positioned reads), so a file can be read again after a <meta>.
      const stream = file.createReadStream({ start: 0, autoClose: false, highWaterMark: Math.max(chunkSize, 64 * 1024) });
      try {
        yield* rechunk(stream, chunkSize, progress);
      } catch (error) {
        throw new InputError(`${path}: ${describeFsError(error as NodeJS.ErrnoException)}`);
      } finally {
        stream.destroy();
      }
    },
    close: () => file.close().catch(() => {}),
  };
}

function stdinInput(stdin: Readable): Input {
  let used = false;
  return {
    name: '<stdin>',
    size: null,
    rereadable: false,
    async *chunks(chunkSize, progress) {
      if (used) throw new Error('standard input can be read only once');
      used = true;
      try {
        yield* rechunk(stdin, chunkSize, progress);
      } catch (error) {
        throw new InputError(`<stdin>: ${describeFsError(error as NodeJS.ErrnoException)}`);
      }
    },
    close: async () => {
      stdin.destroy();
    },
  };
}

/** Cuts a stream's chunks into pieces of at most `size` bytes (as a network would deliver them). */
async function* rechunk(stream: AsyncIterable<Buffer | string>, size: number, progress?: Progress): AsyncGenerator<Uint8Array> {
  for await (const buf of stream) {
    const b = typeof buf === 'string' ? Buffer.from(buf) : buf;
    progress?.add(b.length);
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(i + size, bytes.length));
  }
}

function describeFsError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    default:
      return error.code !== undefined ? `cannot read (${error.code})` : error.message;
  }
}

/**
 * Bytes wanted before deciding the default encoding: the prescan looks at 1024 bytes anyway; what the
 * first reads give beyond that (64 KiB from a file) is looked at too.
 */
export const SNIFF_BYTES = 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The default for input that names no encoding (no BOM, no `--encoding`, no `<meta>` in the first 1024
 * bytes), from the first bytes read: UTF-8 when they are valid UTF-8 (a sequence cut at their end
 * allowed), else windows-1252. The standard lets a user agent detect the encoding there (§13.2.3.2 step
 * 7) and says UTF-8 is especially detectable; a stream cannot look at all of its input first, so the
 * command looks at what it has read before the sniffing decides.
 */
export function defaultEncodingFor(first: Uint8Array): string {
  // A multi-byte sequence cut at the end is not evidence against UTF-8: drop up to 3 trailing bytes of it.
  let end = first.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const b = first[end - back]!;
    if (b < 0x80) break;
    if (b >= 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      if (back < need) end -= back;
      break;
    }
  }
  try {
    strictUtf8.decode(first.subarray(0, end));
    return 'UTF-8';
  } catch {
    return 'windows-1252';
  }
}

/**
 * The chunks of `source`, with the default encoding decided from the first {@link SNIFF_BYTES} (or more,
 * as the first chunks give) before the first chunk is handed on.
 */
export async function* withDefaultEncoding(
  source: AsyncGenerator<Uint8Array>,
  decided: (defaultEncoding: string, first: Uint8Array) => void,
): AsyncGenerator<Uint8Array> {
  const held: Uint8Array[] = [];
  let n = 0;
  let done = false;
  for (;;) {
    if (n >= SNIFF_BYTES) break;
    const r = await source.next();
    if (r.done === true) {
      done = true;
      break;
    }
    held.push(r.value);
    n += r.value.length;
  }
  const first = new Uint8Array(n);
  let at = 0;
  for (const h of held) {
    first.set(h, at);
    at += h.length;
  }
  decided(defaultEncodingFor(first), first);
  for (const h of held) yield h;
  if (!done) yield* source;
}

/**
 * Whether `select` hands the rewriter bytes: not when the input starts with a UTF-16 byte order mark or
 * `--encoding` names UTF-16 or ISO-2022-JP. The rewriter refuses ISO-2022-JP as bytes; UTF-16 it
 * rewrites now (docs/encoding.md), but a command that only reads does as well decoding such input itself
 * and handing the rewriter text, as it did before.
 */
export function byteRewritable(first: Uint8Array, encoding: string | undefined): boolean {
  if (first.length >= 2 && ((first[0] === 0xff && first[1] === 0xfe) || (first[0] === 0xfe && first[1] === 0xff))) return false;
  if (first.length >= 3 && first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf) return true;
  const named = encoding === undefined ? null : getEncoding(encoding);
  return named !== 'UTF-16LE' && named !== 'UTF-16BE' && named !== 'ISO-2022-JP';
}

/** How the command decodes its input: the sniffing's options. */
export interface DecodeOptions {
  /** `--encoding`: used unless the bytes start with a byte order mark. */
  encoding?: string;
  /** Step 8's default, chosen by {@link defaultEncodingFor}. */
  defaultEncoding: string;
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
