/**
 * The rewriter as a Node Transform, with a degraded mode: when a single token outgrows the rewriter's
 * buffer bound (`maxBufferedBytes`), the rest of the document passes through unrewritten instead of the
 * page being cut.
 */
import { Transform } from 'node:stream';
import { type EncodingName, decodeBytes, sniffEncoding } from '@sluice/encoding';
import { DEFAULT_MAX_BUFFERED_BYTES, type HTMLRewriter } from '@sluice/rewriter';

/** What {@link RewriteTransformOptions.onDegraded} is told. */
export interface DegradedInfo {
  /** Characters (UTF-16 code units) of input the rewriter held and that were passed through as they came. */
  held: number;
  /** The rewriter's error message. */
  message: string;
}

/** Options of {@link rewriteTransform}. */
export interface RewriteTransformOptions {
  /**
   * The `maxBufferedBytes` the rewriter was made with (default: the rewriter's default, 16 MiB). The
   * transform keeps about that much of the most recent input to resume from; a rewriter with a larger
   * bound cannot be resumed after an overflow, and its output then ends in an error.
   */
  maxBufferedBytes?: number;
  /**
   * Called once, when the rewrite gives up on a token longer than the bound and passes the rest of the
   * input through. Without it, an overflow errors the stream, as the rewriter alone would.
   */
  onDegraded?: (info: DegradedInfo) => void;
  /**
   * The upstream `Content-Type` (after the content coding is undone). Given, the body's encoding is
   * sniffed as HTML §13.2.3 says (its charset, a BOM, a `<meta>` — prescanned in the first chunk that
   * comes, up to 1024 bytes, not waiting for more; else UTF-8, what the proxy always assumed): UTF-8 is
   * rewritten as without it; another ASCII-compatible encoding, and UTF-16LE/BE, go through the
   * rewriter's byte path in that encoding (untouched bytes copied as they came; its own degraded mode
   * below); ISO-2022-JP and the replacement encoding pass through untouched (the rewriter refuses them).
   */
  contentType?: string;
  /** Told the encoding once it is decided (with `contentType`). */
  onEncoding?: (encoding: EncodingName) => void;
}

const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** Whether `b` is a proper prefix of a byte order mark (EF BB BF, FE FF, FF FE): the next bytes decide. */
function mayBeBom(b: Uint8Array): boolean {
  if (b.length === 0 || b.length >= 3) return false;
  if (b[0] === 0xef) return b.length === 1 || b[1] === 0xbb;
  return b.length === 1 && (b[0] === 0xfe || b[0] === 0xff);
}

/** The rewriter's overflow error: `maxBufferedBytes (X) exceeded: the tokenizer holds N characters …`. */
const TOKEN_OVERFLOW = /^HTMLRewriter: maxBufferedBytes \((\d+)\) exceeded: the tokenizer holds (\d+) characters/;

/**
 * A Node Transform that runs a sluice rewrite: UTF-8 bytes in, UTF-8 bytes out. The transform callback
 * waits while an async handler is pending, so backpressure reaches the upstream socket.
 *
 * Degraded mode (with `onDegraded`). The rewriter exposes no "input consumed so far" offset; what it
 * does expose is the overflow error, which says how many characters N the tokenizer holds — the input
 * from the end of the last token it emitted to the end of the input written so far. Output is released
 * at the end of each successful `write()` and dropped on a failed one, so what has been sent is the
 * rewrite of the input up to the end of the last token emitted before the failing write. The two ends
 * are the same when no token ended during the failing write; the transform makes sure of that by
 * writing pieces of at most `maxBufferedBytes` characters: a write that overflows then holds more than
 * it brought, so the held token began before it, and no token can end between its start and the end
 * of the input. The last N characters of the input are therefore exactly what has not been sent: the
 * transform sends them as they came, then copies the rest of the input. It keeps the most recent
 * `maxBufferedBytes` + one piece of input (references to the decoded chunks) to be able to do that.
 *
 * This holds for an overflow of the tokenizer's part of the bound. The bound also counts table text
 * held for `text` handlers and output queued behind an async handler; an overflow there (its message
 * says so), or a held count larger than what was kept, is not resumable: the stream errors.
 *
 * Passthrough after the switch decodes and encodes again, as the rewriter does for untouched input
 * (malformed UTF-8 becomes U+FFFD's bytes in both).
 */
export function rewriteTransform(rewriter: HTMLRewriter, options: RewriteTransformOptions = {}): Transform {
  const bound = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  const onDegraded = options.onDegraded;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let push: (s: string) => void = () => {};
  const t = rewriter.createTransformer((s) => push(s));
  let passthrough = false;
  // The most recent input written to the rewriter, oldest first, from `keptHead` on.
  const kept: string[] = [];
  let keptHead = 0;
  let keptLength = 0;
  const keep = (piece: string): void => {
    kept.push(piece);
    keptLength += piece.length;
    // What an overflow on this piece can ask for: at most `bound` held before it, plus the piece.
    while (keptHead < kept.length - 1 && keptLength - kept[keptHead]!.length >= bound + piece.length) {
      keptLength -= kept[keptHead]!.length;
      kept[keptHead++] = '';
    }
    if (keptHead > 1024 && keptHead * 2 > kept.length) {
      kept.splice(0, keptHead);
      keptHead = 0;
    }
  };
  /** The last `n` characters written (n ≤ keptLength). */
  const lastWritten = (n: number): string => {
    const parts: string[] = [];
    for (let i = kept.length - 1; n > 0; i--) {
      const s = kept[i]!;
      parts.push(n >= s.length ? s : s.slice(s.length - n));
      n -= s.length;
    }
    return parts.reverse().join('');
  };

  /**
   * Switch to passthrough if `err` is a resumable overflow on the write of `piece`; true if it did.
   */
  const degrade = (err: unknown, piece: string): boolean => {
    if (onDegraded === undefined || !(err instanceof Error)) return false;
    const m = TOKEN_OVERFLOW.exec(err.message);
    if (m === null) return false;
    const held = Number(m[2]);
    // Both checks hold by construction with the bound given; they catch a rewriter made with another.
    if (held <= piece.length || held > keptLength) return false;
    const unsent = lastWritten(held);
    passthrough = true;
    kept.length = 0;
    keptLength = 0;
    push(unsent);
    onDegraded({ held, message: err.message });
    return true;
  };

  /** Write `text` to the rewriter in pieces of at most `bound`; `done` once all went (or failed). */
  const feed = (text: string, from: number, done: (err?: Error | null) => void): void => {
    while (from < text.length && !passthrough) {
      let to = Math.min(from + bound, text.length);
      // Not between the two halves of a surrogate pair: each piece is pushed as UTF-8 on its own.
      if (to < text.length && to - from > 1 && isLowSurrogate(text.charCodeAt(to))) to--;
      const piece = from === 0 && to === text.length ? text : text.slice(from, to);
      from += piece.length;
      keep(piece);
      let p: void | Promise<void>;
      try {
        p = t.write(piece);
      } catch (err) {
        if (!degrade(err, piece)) return done(err as Error);
        break;
      }
      if (p !== undefined) {
        p.then(
          () => feed(text, from, done),
          (err: unknown) => {
            if (degrade(err, piece)) feed(text, from, done);
            else done(err as Error);
          },
        );
        return;
      }
    }
    if (passthrough && from < text.length) push(text.slice(from));
    done();
  };

  // With `contentType`: the first bytes, until the encoding is decided; then the byte path, if not UTF-8.
  let sniffing: Buffer | null = options.contentType === undefined ? null : Buffer.alloc(0);
  let bytePath: { write(b: Uint8Array): void | Promise<void>; end(): void | Promise<void>; takeHeldOutput(): Uint8Array | null } | null = null;
  let rawPassthrough = false;
  const settle = (p: void | Promise<void>, done: (err?: Error | null) => void): void => {
    if (p === undefined) done();
    else p.then(() => done(), (e: Error) => done(e));
  };
  // The byte path's degraded mode, as the text path's above: bytes written in pieces of at most
  // `bound`, the most recent kept. The rewriter's byte path tokenizes the decoded text as UTF-8, so the
  // `held` count of an overflow is the UTF-8 length of the unsent input's text: that input is found by
  // decoding the kept bytes from each `<` (a token starts with one, and no ASCII-compatible encoding
  // has a `<` inside a character; in UTF-16, each `<` code unit at an even offset), less up to 3 bytes
  // at the end that the decoder has not had yet. It goes out as it came, and so does the rest of the page.
  let byteEncoding: EncodingName | null = null;
  let bytesPassthrough = false;
  const keptBytes: Buffer[] = [];
  let keptByteLength = 0;
  /** The offset of `keptBytes[0]` in the body (UTF-16: code units start at even offsets). */
  let keptStart = 0;
  const keepBytes = (piece: Buffer): void => {
    keptBytes.push(piece);
    keptByteLength += piece.length;
    // What an overflow on this piece can ask for: at most `bound` held before it, plus the piece (held
    // counts UTF-8, at least one unit a byte, so this many bytes are enough).
    while (keptBytes.length > 1 && keptByteLength - keptBytes[0]!.length >= bound + 3 * piece.length) {
      const old = keptBytes.shift()!;
      keptByteLength -= old.length;
      keptStart += old.length;
    }
  };
  /** UTF-16: where the last `<` code unit at or before `at` starts, or -1. */
  const lastUtf16Lt = (kept: Buffer, at: number): number => {
    const le = byteEncoding === 'UTF-16LE';
    for (at -= (keptStart + at) & 1; at >= 0; at -= 2) {
      if (at + 1 < kept.length && (le ? kept[at] === 0x3c && kept[at + 1] === 0 : kept[at] === 0 && kept[at + 1] === 0x3c)) return at;
    }
    return -1;
  };
  const unsentBytes = (held: number): Buffer | null => {
    const kept = Buffer.concat(keptBytes);
    if (byteEncoding === 'UTF-16LE' || byteEncoding === 'UTF-16BE') {
      for (let at = lastUtf16Lt(kept, kept.length - 2); at >= 0; at = lastUtf16Lt(kept, at - 2)) {
        for (let cut = 0; cut <= 3 && cut <= kept.length - at; cut++) {
          const text = decodeBytes(kept.subarray(at, kept.length - cut), byteEncoding);
          if (Buffer.byteLength(text, 'utf8') === held) return kept.subarray(at);
        }
      }
      return null;
    }
    for (let at = kept.lastIndexOf(0x3c); at >= 0; at = at === 0 ? -1 : kept.lastIndexOf(0x3c, at - 1)) {
      for (let cut = 0; cut <= 3 && cut <= kept.length - at; cut++) {
        const text = decodeBytes(kept.subarray(at, kept.length - cut), byteEncoding!);
        if (Buffer.byteLength(text, 'utf8') === held) return kept.subarray(at);
      }
    }
    return null;
  };
  const degradeBytes = (err: unknown): boolean => {
    if (onDegraded === undefined || !(err instanceof Error) || byteEncoding === null) return false;
    const m = TOKEN_OVERFLOW.exec(err.message);
    if (m === null) return false;
    const held = Number(m[2]);
    const unsent = unsentBytes(held);
    if (unsent === null) return false;
    bytesPassthrough = true;
    keptBytes.length = 0;
    keptByteLength = 0;
    // What the byte path held back at the end of its output (an error just before the long token — a
    // lone lead surrogate, a lone lead byte — in case a trail were written after it) has not gone out
    // either: it comes right before the unsent input, which continues it.
    const heldOutput = bytePath!.takeHeldOutput();
    if (heldOutput !== null) stream.push(Buffer.from(heldOutput));
    stream.push(Buffer.from(unsent));
    onDegraded({ held, message: err.message });
    return true;
  };
  /**
   * Write `chunk` to the byte path in pieces of at most a third of `bound` bytes — at most `bound` of
   * UTF-8 (a byte of these encodings is at most 3 UTF-8 bytes; in UTF-16, 1.5), so a write that overflows holds more
   * than it brought: the long token began before it, no token ended in it, and no output is lost with
   * it. `done` once all went (or failed).
   */
  const pieceBytes = Math.max(1, Math.floor(bound / 3));
  const feedBytes = (chunk: Buffer, from: number, done: (err?: Error | null) => void): void => {
    while (from < chunk.length && !bytesPassthrough) {
      const piece = chunk.subarray(from, Math.min(from + pieceBytes, chunk.length));
      from += piece.length;
      keepBytes(piece);
      let p: void | Promise<void>;
      try {
        p = bytePath!.write(piece);
      } catch (err) {
        if (!degradeBytes(err)) return done(err as Error);
        break;
      }
      if (p !== undefined) {
        p.then(
          () => feedBytes(chunk, from, done),
          (err: unknown) => {
            if (degradeBytes(err)) feedBytes(chunk, from, done);
            else done(err as Error);
          },
        );
        return;
      }
    }
    if (bytesPassthrough && from < chunk.length) stream.push(chunk.subarray(from));
    done();
  };

  /** Decide the encoding from `bytes` (all so far); false while more are needed. */
  const decideEncoding = (bytes: Buffer, atEnd: boolean): boolean => {
    const result = sniffEncoding(bytes, { contentType: options.contentType, defaultEncoding: 'UTF-8' }, atEnd);
    if (result === null) return false;
    options.onEncoding?.(result.encoding);
    const e = result.encoding;
    if (e === 'UTF-8') return true;
    if (e === 'ISO-2022-JP' || e === 'replacement') rawPassthrough = true;
    else {
      byteEncoding = e;
      bytePath = rewriter.createByteTransformer((b) => void stream.push(Buffer.from(b.buffer, b.byteOffset, b.length)), { encoding: e });
    }
    return true;
  };
  /** Write bytes once the encoding is decided. */
  const writeBytes = (chunk: Buffer, done: (err?: Error | null) => void): void => {
    if (rawPassthrough) {
      if (chunk.length > 0) stream.push(chunk);
      return done();
    }
    if (bytePath !== null) return feedBytes(chunk, 0, done);
    const text = decoder.decode(chunk, { stream: true });
    if (passthrough) {
      push(text);
      return done();
    }
    feed(text, 0, done);
  };

  const stream: Transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (sniffing !== null) {
        const all = sniffing.length === 0 ? chunk : Buffer.concat([sniffing, chunk]);
        // Bytes that may be the start of a byte order mark wait for the next chunk (at most 2 bytes).
        if (mayBeBom(all)) {
          sniffing = all;
          return done();
        }
        let decided: boolean;
        try {
          // The first chunk decides (prescanned as if it were all): a response cut short must still
          // send what came, which holding bytes for the prescan's 1024 would not. (Only a possible
          // BOM's first bytes wait, above: a UTF-16 page's first chunk may be one byte.)
          decided = decideEncoding(all, true);
        } catch (e) {
          return done(e as Error);
        }
        sniffing = null;
        return writeBytes(all, done);
      }
      if (bytePath !== null || rawPassthrough) return writeBytes(chunk, done);
      const text = decoder.decode(chunk, { stream: true });
      if (passthrough) {
        push(text);
        return done();
      }
      feed(text, 0, done);
    },
    flush(done) {
      if (sniffing !== null) {
        const all = sniffing;
        sniffing = null;
        try {
          decideEncoding(all, true);
        } catch (e) {
          return done(e as Error);
        }
        if (all.length > 0) {
          return writeBytes(all, (err) => {
            if (err) return done(err);
            (stream as unknown as { _flush(cb: (err?: Error | null) => void): void })._flush(done);
          });
        }
      }
      if (rawPassthrough || bytesPassthrough) return done();
      if (bytePath !== null) {
        let p: void | Promise<void>;
        try {
          p = bytePath.end();
        } catch (e) {
          return done(e as Error);
        }
        return settle(p, done);
      }
      const tail = decoder.decode();
      if (passthrough) {
        push(tail);
        return done();
      }
      feed(tail, 0, (err) => {
        if (err) return done(err);
        if (passthrough) return done();
        let p: void | Promise<void>;
        try {
          p = t.end();
        } catch (e) {
          return done(e as Error);
        }
        if (p === undefined) done();
        else p.then(() => done(), (e: Error) => done(e));
      });
    },
  });
  push = (s) => {
    if (s.length > 0) stream.push(Buffer.from(s, 'utf8'));
  };
  return stream;
}
