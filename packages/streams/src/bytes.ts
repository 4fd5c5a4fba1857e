/**
 * What the byte streams that parse (`TreeBuilderByteStream`, `TokenizerByteStream`) share: the sniffing
 * options, their early check, and the sniffing's outcome as a promise and getters.
 */
import type { Token } from '@sluice/tokenizer';
import {
  changeTheEncoding,
  encodingOfMeta,
  requireEncoding,
  type Confidence,
  type EncodingChange,
  type EncodingName,
  type SniffResult,
} from '@sluice/encoding';
import type { Engine } from './implementation.js';

/** The encoding options of a byte stream that parses (HTML §13.2.3, as `Parser` takes them). */
export interface ByteInputOptions {
  /**
   * A `Content-Type` header value (`'text/html; charset=shift_jis'`): its charset, when it names an
   * encoding, is the transport layer's (confidence certain). Pass the response's header when you have it.
   */
  contentType?: string;
  /** An encoding label that overrides everything but a byte order mark (confidence certain). */
  encoding?: string;
  /**
   * The label used when no BOM, option, charset or `<meta>` in the first 1024 bytes says (step 8).
   * Default **UTF-8**, where `parse(bytes)` and `Parser` default to windows-1252 as browsers do: these
   * streams have always taken UTF-8, a server pipes bytes it mostly made itself, and the standard
   * suggests UTF-8 for environments where the encoding of documents can be prescribed (§13.2.3.2 step 8).
   * Pass `'windows-1252'` to decode a page from the web as a browser would.
   */
  defaultEncoding?: string;
  /**
   * A `<meta>` met while the confidence is tentative asked for another encoding, or confirmed this one
   * (HTML §13.2.3.4 "change the encoding"), once per stream, before the `<meta>`'s own output. With
   * `action: 'reparse'` the document should be parsed again from its first byte with `encoding:
   * change.to` — a browser restarts — but a stream cannot take back what it has emitted: it goes on in
   * the old encoding, and restarting (from a copy of the bytes) is the caller's choice.
   */
  onEncodingChange?: (change: EncodingChange) => void;
}

/** The options a byte stream hands its decoder: checked now, so a bad label fails at construction. */
export function checkByteOptions(options: ByteInputOptions, what: string): { contentType?: string; encoding?: string; defaultEncoding: string } {
  if (options.encoding !== undefined) requireEncoding(options.encoding, `${what}: options.encoding`);
  const defaultEncoding = options.defaultEncoding ?? 'UTF-8';
  requireEncoding(defaultEncoding, `${what}: options.defaultEncoding`);
  if (options.contentType !== undefined && typeof options.contentType !== 'string') {
    throw new TypeError(`${what}: options.contentType must be a string (a Content-Type header value)`);
  }
  if (options.onEncodingChange !== undefined && typeof options.onEncodingChange !== 'function') {
    throw new TypeError(`${what}: options.onEncodingChange must be a function`);
  }
  return {
    ...(options.contentType !== undefined ? { contentType: options.contentType } : {}),
    ...(options.encoding !== undefined ? { encoding: options.encoding } : {}),
    defaultEncoding,
  };
}

/** Where a byte stream reads the decoder's state from: a `Parser` or an `HtmlDecoder`. */
export interface DecoderState {
  readonly sniffResult: SniffResult | null;
  readonly confidence: Confidence | null;
}

/**
 * The sniffing's outcome for a stream's users. `sniffed` settles once: resolved the moment the sniffing
 * decides (before any output of the decoded text is enqueued), rejected if the stream errors or is
 * cancelled before that.
 */
export class SniffState {
  readonly sniffed: Promise<SniffResult>;
  source: DecoderState | null = null;
  change: EncodingChange | null = null;
  private settled = false;
  private resolve!: (result: SniffResult) => void;
  private reject!: (reason: unknown) => void;

  constructor() {
    this.sniffed = new Promise<SniffResult>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Nobody need wait for it: a stream that fails before sniffing must not report an unhandled rejection.
    this.sniffed.catch(() => {});
  }

  /** Called before each output chunk and after each input chunk: resolves once the sniffing has decided. */
  check(): void {
    if (this.settled) return;
    const result = this.source?.sniffResult ?? null;
    if (result === null) return;
    this.settled = true;
    this.resolve(result);
  }

  stop(reason: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(reason);
  }

  get encoding(): EncodingName | null {
    return this.source?.sniffResult?.encoding ?? null;
  }

  get confidence(): Confidence | null {
    return this.source?.sniffResult == null ? null : this.source.confidence;
  }
}

/**
 * The encoding a `<meta>` start tag names (§13.2.6.4.4 "in head": `charset`, else `http-equiv=content-type`
 * with a `content` that names one), or null. For the tokenizer without a tree builder, which has no
 * insertion mode to ask: every `<meta>` counts there (the tree builder ignores one in a frameset).
 */
export function metaEncoding(token: Token): EncodingName | null {
  return token.type === 'startTag' && token.name === 'meta' ? encodingOfMeta(token.attributes) : null;
}

export { changeTheEncoding };

/**
 * What the parsing byte streams share: the sniffing's result, as a promise and as getters (their
 * `state` is fed by the decoder they wrap).
 */
export abstract class SniffingStream {
  /** The sniffing's result, once decided. */
  readonly sniffed: Promise<SniffResult>;
  /** @internal */
  protected readonly state = new SniffState();

  constructor() {
    this.sniffed = this.state.sniffed;
  }

  /** The encoding in use (the Encoding Standard's name), once sniffed; null before. */
  get encoding(): EncodingName | null {
    return this.state.encoding;
  }

  /** 'tentative' or 'certain' once sniffed (certain after a `<meta>` was met); null before. */
  get confidence(): Confidence | null {
    return this.state.confidence;
  }

  /** The "change the encoding" a `<meta>` caused, if one did (see `options.onEncodingChange`). */
  get encodingChange(): EncodingChange | null {
    return this.state.change;
  }
}

/** The engine around a byte parser: each chunk and the end, then whether the sniffing has decided. */
export function sniffingEngine(parser: { write(chunk: Uint8Array): unknown; end(): unknown }, state: SniffState): Engine<Uint8Array> {
  return {
    write: (chunk) => {
      parser.write(chunk);
      state.check();
    },
    end: () => {
      parser.end();
      state.check();
    },
  };
}
