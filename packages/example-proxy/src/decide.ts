/** Which upstream responses the proxy rewrites, and how it undoes their content coding. */
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { parseContentType } from './headers.js';

/** What to do with an upstream response. */
export type Decision =
  | { readonly rewrite: false; readonly reason: string }
  | { readonly rewrite: true; readonly decoder: (() => Transform) | null };

const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => inflateEither(),
  br: () => createBrotliDecompress(),
};

/**
 * Whether `b` starts with a zlib header (RFC 1950 §2.2): compression method 8 (deflate), a window of at
 * most 32 KiB, and the two bytes, read as a big-endian number, a multiple of 31.
 */
export function isZlibHeader(b: Uint8Array): boolean {
  return b.length >= 2 && (b[0]! & 0x0f) === 8 && b[0]! >> 4 <= 7 && ((b[0]! << 8) | b[1]!) % 31 === 0;
}

/**
 * A decoder for `Content-Encoding: deflate`. The coding is zlib (RFC 9110 §8.4.1.2), but servers have
 * long sent raw deflate under that name, and browsers accept both: they fall back to raw deflate when
 * the zlib header is not there. So does this: it waits for the first two bytes, then pipes everything
 * through `inflate` if they are a zlib header, else through `inflateRaw` (exactly the streams on which
 * `inflate` would fail at its first bytes). Errors of the inner decoder are this stream's errors.
 */
export function inflateEither(): Transform {
  return new InflateEither();
}

class InflateEither extends Transform {
  private inner: Transform | null = null;
  /** The first byte, while it is alone. */
  private head: Buffer | null = null;

  private start(bytes: Buffer): Transform {
    const z = isZlibHeader(bytes) ? createInflate() : createInflateRaw();
    z.on('data', (c: Buffer) => {
      // Backpressure: hold the inner decoder while this stream's reader is full (see `_read`), so a
      // small body that inflates to gigabytes is not inflated faster than it is read.
      if (!this.push(c)) z.pause();
    });
    z.on('error', (err) => this.destroy(err));
    this.inner = z;
    return z;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    if (this.inner === null) {
      if (this.head !== null) {
        chunk = Buffer.concat([this.head, chunk]);
        this.head = null;
      }
      if (chunk.length < 2) {
        this.head = chunk;
        return done();
      }
      this.start(chunk);
    }
    // Done when the inner decoder took the chunk: its backpressure reaches the upstream.
    if (this.inner!.write(chunk)) done();
    else this.inner!.once('drain', () => done());
  }

  override _flush(done: (err?: Error | null) => void): void {
    if (this.inner === null && this.head === null) return done(); // an empty body
    // A one-byte body goes to the decoder, which rejects it as truncated.
    const z = this.inner ?? this.start(this.head!);
    if (this.head !== null) z.write(this.head);
    z.once('end', () => done());
    z.end();
  }

  override _read(size: number): void {
    this.inner?.resume();
    super._read(size);
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.inner?.destroy();
    cb(err);
  }
}

/**
 * Rewrite HTML (`text/html`) in any ASCII-compatible encoding or UTF-16 (sniffed by the rewrite; with no
 * label anywhere, taken as UTF-8), whose content coding
 * the proxy can undo (none, gzip, deflate, br). Anything else — other types, other charsets, codings it
 * cannot decode (zstd, stacked codings), bodiless responses — passes through untouched.
 */
export function decide(method: string, res: IncomingMessage): Decision {
  const status = res.statusCode ?? 0;
  if (method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200)) return { rewrite: false, reason: 'no body' };
  const { type, charset } = parseContentType(res.headers['content-type']);
  if (type !== 'text/html') return { rewrite: false, reason: `content type ${type || '(none)'}` };
  // Any charset: the rewrite sniffs the encoding (rewrite-transform.ts), UTF-16 included. ISO-2022-JP,
  // which the rewriter refuses (not ASCII-compatible), is known now: it passes through.
  if (charset !== null && /^(iso-2022-jp|csiso2022jp)$/.test(charset)) {
    return { rewrite: false, reason: `charset ${charset}` };
  }
  const coding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return { rewrite: true, decoder: null };
  const decoder = DECODERS[coding];
  if (decoder === undefined) return { rewrite: false, reason: `content coding ${coding}` };
  return { rewrite: true, decoder };
}
