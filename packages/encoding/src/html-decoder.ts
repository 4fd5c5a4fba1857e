/**
 * The decoder stage of the pipeline (DESIGN.md: "bytes ─▶ decoder (sniffing) ─▶ string chunks"): HTML
 * §13.2.3 for a stream of byte chunks. It holds the first bytes until the encoding sniffing algorithm can
 * answer — at most {@link PRESCAN_LIMIT} bytes, or fewer when a BOM, an override, a transport charset or
 * a complete `<meta>` answers sooner, or the end of the input — then decodes what it held and streams the
 * rest. The answer never depends on where the chunks split: sniffing only ever looks at the same prefix.
 */
import { createDecoder, type Decoder } from './decoders.js';
import type { EncodingName } from './labels.js';
import { PRESCAN_LIMIT, requireEncoding, sniffEncoding, type Confidence, type SniffOptions, type SniffResult } from './sniff.js';

/** The outcome of HTML §13.2.3.4 "change the encoding" for a `<meta>` the tree builder met. */
export interface EncodingChange {
  /** The encoding in use when the `<meta>` was met. */
  from: EncodingName;
  /** The encoding the `<meta>` asks for, after the rule's UTF-16 → UTF-8 and x-user-defined → windows-1252. */
  to: EncodingName;
  /**
   * What the rule does: `'none'` — the confidence just becomes certain (the page is UTF-16, or it names the
   * encoding in use); `'reparse'` — the document must be parsed again from the start in `to`, with
   * confidence certain (step 6: browsers restart the navigation; step 5's "change the converter on the
   * fly" is not taken, see docs/encoding.md).
   */
  action: 'none' | 'reparse';
}

/**
 * HTML §13.2.3.4 "change the encoding", as a decision: what a `<meta>` naming `requested` does to a
 * document decoded as `current` with confidence `confidence`. Null when the rule does not apply (the
 * confidence is not tentative, so §13.2.6.4.4 never calls it).
 */
export function changeTheEncoding(current: EncodingName, confidence: Confidence, requested: EncodingName): EncodingChange | null {
  if (confidence !== 'tentative') return null;
  // 1. A UTF-16 document: the <meta> was read as ASCII, so it cannot be right; the confidence becomes certain.
  if (current === 'UTF-16BE' || current === 'UTF-16LE') return { from: current, to: current, action: 'none' };
  let to = requested;
  // 2–3. As in the prescan.
  if (to === 'UTF-16BE' || to === 'UTF-16LE') to = 'UTF-8';
  if (to === 'x-user-defined') to = 'windows-1252';
  // 4. The same encoding: certain.
  if (to === current) return { from: current, to, action: 'none' };
  // 6. Otherwise restart with the new encoding, confidence certain.
  return { from: current, to, action: 'reparse' };
}

/** Options of an {@link HtmlDecoder}: the sniffing algorithm's inputs. */
export type HtmlDecoderOptions = SniffOptions;

/**
 * Sniff-then-decode for a byte stream: `write(chunk)` returns the text decodable so far ('' while the
 * sniffing waits), `end()` the rest. `encoding` and `confidence` are known once the first text is
 * returned (or after `end()`).
 */
export class HtmlDecoder {
  private held: Uint8Array[] = [];
  private heldLength = 0;
  private decoder: Decoder | null = null;
  private sniffed: SniffResult | null = null;
  private ended = false;
  /** The confidence; becomes 'certain' when a `<meta>` confirms a tentative encoding ({@link confirm}). */
  confidence: Confidence | null = null;

  constructor(private readonly options: HtmlDecoderOptions = {}) {
    // Validate the labels now, not at the first chunk.
    if (options.encoding !== undefined) requireEncoding(options.encoding, 'encoding');
    if (options.defaultEncoding !== undefined) requireEncoding(options.defaultEncoding, 'defaultEncoding');
    if (options.contentType !== undefined && typeof options.contentType !== 'string') {
      throw new TypeError('contentType must be a string (a Content-Type header value)');
    }
  }

  /** The encoding, once sniffed; null before. */
  get encoding(): EncodingName | null {
    return this.sniffed?.encoding ?? null;
  }

  /** The whole sniffing result (encoding, confidence, BOM length, which step decided), once known. */
  get sniffResult(): SniffResult | null {
    return this.sniffed;
  }

  /** Decode the next chunk: the text it completes (possibly ''). */
  write(chunk: Uint8Array): string {
    if (this.ended) throw new Error('HtmlDecoder.write(): called after end()');
    if (!(chunk instanceof Uint8Array)) throw new TypeError(`HtmlDecoder.write(): expected a Uint8Array chunk, got ${typeof chunk}`);
    if (this.decoder !== null) return this.decoder.decode(chunk, { stream: true });
    if (chunk.length === 0) return '';
    this.held.push(chunk);
    this.heldLength += chunk.length;
    return this.trySniff(false);
  }

  /** The end of the input: sniff now if still waiting, and flush the decoder (an incomplete sequence is U+FFFD). */
  end(): string {
    if (this.ended) throw new Error('HtmlDecoder.end(): called twice');
    this.ended = true;
    let out = '';
    if (this.decoder === null) out = this.trySniff(true);
    return out + this.decoder!.decode();
  }

  /** The tree builder met a `<meta>` that confirms the encoding, or asks for a reparse: no more changes. */
  confirm(): void {
    this.confidence = 'certain';
  }

  private trySniff(atEnd: boolean): string {
    const bytes = this.heldBytes();
    // The prescan looks at no more than PRESCAN_LIMIT bytes; a longer first chunk is sniffed on its prefix.
    const result = sniffEncoding(bytes.length > PRESCAN_LIMIT ? bytes.subarray(0, PRESCAN_LIMIT) : bytes, this.options, atEnd);
    if (result === null) return '';
    this.sniffed = result;
    this.confidence = result.confidence;
    this.decoder = createDecoder(result.encoding);
    this.held = [];
    this.heldLength = 0;
    return this.decoder.decode(bytes.subarray(result.bomLength), { stream: true });
  }

  private heldBytes(): Uint8Array {
    if (this.held.length === 1) return this.held[0]!;
    const all = new Uint8Array(this.heldLength);
    let at = 0;
    for (const part of this.held) {
      all.set(part, at);
      at += part.length;
    }
    this.held = [all];
    return all;
  }
}

/**
 * Sniff and decode a whole byte sequence (HTML §13.2.3): the text, the encoding, the confidence.
 */
export function decodeHtmlBytes(bytes: Uint8Array, options: HtmlDecoderOptions = {}): { text: string; sniff: SniffResult } {
  const decoder = new HtmlDecoder(options);
  const text = decoder.write(bytes) + decoder.end();
  return { text, sniff: decoder.sniffResult! };
}
