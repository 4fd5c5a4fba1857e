/**
 * `Parser`: the tokenizer and the tree builder wired together — the streaming HTML parser that builds
 * into any `TreeSink` (WHATWG HTML §13.2).
 */
import {
  HtmlDecoder,
  changeTheEncoding,
  encodingOfMeta,
  requireEncoding,
  type Confidence,
  type EncodingChange,
  type EncodingName,
  type SniffResult,
} from '@sluice/encoding';
import { Tokenizer, type ParseError, type StartTagToken, type TextMode, type Token } from '@sluice/tokenizer';
import { ByteOffsets } from './byte-offsets.js';
import { NS } from './sink.js';
import type { TreeSink } from './sink.js';
import { TreeBuilder, type FragmentContext, type TreeBuilderOptions } from './tree-builder.js';

/** Options of a {@link Parser}: the tree builder's, the tokenizer's and the decoder's. */
export interface ParserOptions<N> extends TreeBuilderOptions<N> {
  /**
   * Every parse error (§13.2.2), the tokenizer's (the standard's codes, `ErrorCode`) and the tree
   * builder's (`TreeConstructionErrorCode`), through this one function, each once, in the order the
   * standard raises them — the tokenizer's errors for a token, then the tree builder's for it; offsets
   * grow from token to token. `{ code, offset, line, col }`, and `byteOffset` for bytes in (see
   * `ParseError`). Never thrown. Absent: no error bookkeeping at all.
   */
  onParseError?: (error: ParseError) => void;
  /**
   * Bytes in: keep what {@link Parser.byteOffset} needs to turn an offset in the decoded text into one in
   * the bytes, for the whole input (with UTF-8, the decoded text). Default false. With `onParseError`
   * alone, only what the errors still to come may point into is kept: memory stays bounded on a stream.
   */
  byteOffsets?: boolean;
  /**
   * Each token the tokenizer emits, right after the tree builder has processed it (so a tag that switched
   * the tokenizer's text mode has done so). For consumers that want the raw tokens of a parse that the
   * tree builder drives (what `TokenizerStream` emits). An exception it throws leaves `write`/`end`.
   */
  onToken?: (token: Token) => void;
  /**
   * Whether a byte order mark (U+FEFF) that is the first character of the whole input is skipped: not
   * text, not a token for the tree builder, whatever the chunking. Default: true when parsing a document,
   * false for a fragment (`fragmentContext`).
   *
   * A page's bytes reach the tokenizer through the decoder, which consumes a leading BOM (HTML §13.2.3.1
   * "BOM sniffing", Encoding Standard "decode"): the text a document parser is given here stands for
   * that page, typically decoded with the BOM kept (Node's `toString('utf8')`, `TextDecoder`'s
   * `ignoreBOM`). The fragment parsing algorithm (§13.2.8, `innerHTML`) is handed a string, with no
   * decoding step: there a leading U+FEFF is text, as in browsers (so is it in `DOMParser`'s string).
   * Pass false to parse a document string that way.
   *
   * The BOM still counts in offsets (source locations, parse errors): they stay offsets into the input as
   * given. With `onToken`, it arrives as a token of type `'discarded'` (so tokens' `raw` still
   * concatenate to the input).
   */
  stripByteOrderMark?: boolean;
  /**
   * For `Uint8Array` chunks: a `Content-Type` header value whose charset is the transport layer's
   * encoding (HTML §13.2.3.2 step 4, confidence certain). Ignored for string chunks.
   */
  contentType?: string;
  /**
   * For `Uint8Array` chunks: an encoding label the user chose (HTML §13.2.3.2 step 2: used unless the
   * bytes start with a BOM; confidence certain). A RangeError for a string that is no label.
   */
  encoding?: string;
  /** For `Uint8Array` chunks: the encoding label used when nothing else says (step 8). Default windows-1252. */
  defaultEncoding?: string;
  /**
   * For `Uint8Array` chunks: a `<meta charset>` or `<meta http-equiv=content-type>` that the tree builder
   * processed while the confidence was tentative (HTML §13.2.6.4.4 "in head", §13.2.3.4 "change the
   * encoding"). Called once, at the first such `<meta>`; the confidence is certain after it. With
   * `action: 'reparse'` the page should be parsed again from its first byte with `encoding: change.to`
   * — what browsers do; a streaming parser cannot take back what its sink already received, so it goes
   * on in the old encoding and leaves the restart to its caller (`parse` in `@sluice/dom` restarts).
   */
  onEncodingChange?: (change: EncodingChange) => void;
}

/**
 * §13.2.8 step 4: the tokenizer state the HTML fragment parsing algorithm starts in, from the context
 * element (only HTML context elements switch it).
 */
export function fragmentTextMode(context: FragmentContext, scripting: boolean): TextMode {
  if (context.namespace !== NS.HTML) return 'data';
  switch (context.localName) {
    case 'title': case 'textarea':
      return 'rcdata';
    case 'style': case 'xmp': case 'iframe': case 'noembed': case 'noframes':
      return 'rawtext';
    case 'script':
      return 'scriptData';
    case 'noscript':
      return scripting ? 'rawtext' : 'data';
    case 'plaintext':
      return 'plaintext';
    default:
      return 'data';
  }
}

/**
 * What the callbacks the parser hands its tokenizer reach the tree builder (and `options.onToken`)
 * through, cut at `end()`.
 *
 * Measured, not guessed: while those callbacks still reached the tree builder after the parse, V8's
 * young-generation GCs kept each finished tree alive until the next full GC and copied it twice (some
 * old-generation object keeps the closures reachable; which one is V8's business). Parsing page after
 * page, that copying cost more than parse5's whole GC time. `bench/parse.mjs` shows the difference.
 */
class BuilderLink<N> {
  builder: TreeBuilder<N> | null = null;
  onToken: ((token: Token) => void) | null = null;
  /** With `onParseError`: report the errors held for the token just processed. */
  flush: (() => void) | null = null;
}

/**
 * The tokenizer feedback the tree builder is given: forwards to the parser's current tokenizer (bytes in
 * replace it before the first chunk, see `Parser.write`), and is cut at `end()`, like `BuilderLink`.
 *
 * Measured, not guessed: while the forwarder still reached the parser after the parse, each finished
 * document stayed reachable from some dead old-generation object (the forwarder is held by the tree
 * builder and by the `onScript` control's closure; which old object holds it is V8's business), so every
 * young-generation GC until the next full one copied it and promoted it. `node --trace-gc-nvp`, 300 parses
 * of the corpus's first page (103 KB): 62 MB promoted before the cut, 2.1 MB after (an object literal
 * with two arrow functions did the same since commit 56dee41, which brought in bytes input).
 */
class TokenizerForwarder {
  parser: { readonly currentTokenizer: Tokenizer } | null;
  constructor(parser: { readonly currentTokenizer: Tokenizer }) {
    this.parser = parser;
  }
  setTextMode(mode: TextMode): void {
    this.tokenizer().setTextMode(mode);
  }
  insert(text: string): void {
    this.tokenizer().insert(text);
  }
  private tokenizer(): Tokenizer {
    // Only an `onScript` hook that kept its control past the parse can get here after `end()`.
    if (this.parser === null) throw new Error('Parser: the parser has ended; document.write (onScript control.write) cannot insert markup after end()');
    return this.parser.currentTokenizer;
  }
}

/**
 * Bytes in: a `<meta>` start tag seen while the encoding is tentative goes to the parser's "change the
 * encoding" check (§13.2.3.4). Holds the decoder and that check until `end()` cuts both, so the callback
 * the tokenizer keeps reaches nothing of a finished parse (see `TokenizerForwarder`).
 */
class MetaWatch {
  constructor(
    private decoder: HtmlDecoder | null,
    private onMeta: ((token: StartTagToken) => void) | null,
  ) {}
  startTag(token: StartTagToken): void {
    if (this.decoder !== null && this.decoder.confidence === 'tentative') this.onMeta!(token);
  }
  cut(): void {
    this.decoder = null;
    this.onMeta = null;
  }
}

/** The bytes path's token callback: a `<meta>` start tag to `watch`, then every token to `emit`. */
function emitThroughMetaWatch(watch: MetaWatch, emit: (token: Token) => void): (token: Token) => void {
  return (token) => {
    if (token.type === 'startTag' && token.name === 'meta') watch.startTag(token);
    emit(token);
  };
}

/** Stable insertion sort by offset (a token's few errors). */
function sortByOffset(errors: ParseError[]): void {
  for (let i = 1; i < errors.length; i++) {
    const e = errors[i];
    let j = i - 1;
    while (j >= 0 && errors[j].offset > e.offset) {
      errors[j + 1] = errors[j];
      j--;
    }
    errors[j + 1] = e;
  }
}

/**
 * Tokenizer + tree builder: a streaming parser that takes any sink. `write` chunks as they arrive (any
 * split, any size), then `end` once; the sink receives its mutation events synchronously as each chunk is
 * parsed, holding back only what the standard requires.
 */
export class Parser<N> {
  /** The tree builder (its stack of open elements and insertion mode are readable while parsing). */
  readonly treeBuilder: TreeBuilder<N>;
  private tokenizer: Tokenizer;
  private readonly emit: (token: Token) => void;
  private readonly link: BuilderLink<N>;
  /** What the tree builder's feedback goes through; cut at `end()` (see `TokenizerForwarder`). */
  private readonly feedback: TokenizerForwarder;
  private ended = false;
  private readonly options: ParserOptions<N>;
  /** What the chunks are: fixed by the first `write` (or `end` with none: a string document). */
  private input: 'none' | 'string' | 'bytes' = 'none';
  /** Bytes in: the decoder stage (sniffing, then decoding). */
  private decoder: HtmlDecoder | null = null;
  private emitBytes: ((token: Token) => void) | null = null;
  private change: EncodingChange | null = null;
  /** Bytes in, with `onParseError` or `byteOffsets`: the offsets' mapping, made once the encoding is known. */
  private byteMap: ByteOffsets | null = null;
  /** How much text the tokenizer was given: where the input ends, for `processEnd`. */
  private fed = 0;
  /** The sink's `sourceText`, when it has one. */
  private readonly sourceText: ((text: string) => void) | null;
  /** The user's `onParseError`, and what the tokenizer and the tree builder call (adds `byteOffset`). */
  private readonly onParseError: ((error: ParseError) => void) | undefined;

  constructor(sink: TreeSink<N>, options: ParserOptions<N> = {}) {
    const context = options.fragmentContext;
    const initialState = context === undefined ? undefined : fragmentTextMode(context, options.scripting ?? true);
    const link = new BuilderLink<N>();
    this.link = link;
    this.options = options;
    if ((options as { onTokenizerError?: unknown }).onTokenizerError !== undefined) {
      throw new TypeError('Parser: options.onTokenizerError is now options.onParseError (one channel for the tokenizer\'s and the tree builder\'s errors)');
    }
    this.sourceText = typeof sink.sourceText === 'function' ? (text: string) => sink.sourceText!(text) : null;
    const userOnParseError = options.onParseError;
    if (userOnParseError !== undefined && typeof userOnParseError !== 'function') {
      throw new TypeError('Parser: options.onParseError must be a function');
    }
    // A token's errors — the tokenizer's, released as it is emitted, and the tree builder's, as it is
    // processed — are held until the token is processed and then reported by offset (a stable sort: at one
    // offset the tokenizer's come first). So a run of text cut into several tokens by the chunking gives
    // the errors in the same order as one token would.
    const batch: ParseError[] = [];
    if (userOnParseError !== undefined) {
      this.onParseError = (e: ParseError) => void batch.push(e);
      link.flush = () => {
        if (batch.length === 0) return;
        if (batch.length > 1) sortByOffset(batch);
        const map = this.byteMap;
        for (let i = 0; i < batch.length; i++) {
          const e = batch[i];
          if (map === null || !map.exists) userOnParseError(e);
          else userOnParseError({ code: e.code, offset: e.offset, line: e.line, col: e.col, byteOffset: map.byteOffset(e.offset) });
        }
        batch.length = 0;
      };
    } else this.onParseError = undefined;
    const stripBom = options.stripByteOrderMark ?? context === undefined;
    if (typeof stripBom !== 'boolean') throw new TypeError('Parser: options.stripByteOrderMark must be a boolean');
    // The byte options are checked now, whatever the chunks turn out to be, so a bad label fails early.
    if (options.encoding !== undefined) requireEncoding(options.encoding, 'Parser: options.encoding');
    if (options.defaultEncoding !== undefined) requireEncoding(options.defaultEncoding, 'Parser: options.defaultEncoding');
    if (options.contentType !== undefined && typeof options.contentType !== 'string') {
      throw new TypeError('Parser: options.contentType must be a string (a Content-Type header value)');
    }
    if (options.onEncodingChange !== undefined && typeof options.onEncodingChange !== 'function') {
      throw new TypeError('Parser: options.onEncodingChange must be a function');
    }
    this.tokenizer = this.makeTokenizer(stripBom, initialState);
    // The tree builder reaches the tokenizer through this forwarder, because bytes in replace the
    // tokenizer before the first chunk (see `write`). Only text-mode switches and document.write pass here.
    const feedback = new TokenizerForwarder(this);
    this.feedback = feedback;
    const builder = new TreeBuilder(sink, feedback, this.onParseError === undefined ? options : { ...options, onParseError: this.onParseError });
    link.builder = builder;
    this.treeBuilder = builder;
    const onToken = options.onToken;
    if (onToken !== undefined && typeof onToken !== 'function') throw new TypeError('Parser: options.onToken must be a function');
    link.onToken = onToken ?? null;
    this.emit =
      userOnParseError !== undefined
        ? (token: Token) => {
            link.builder!.processToken(token);
            if (link.onToken !== null) link.onToken(token);
            link.flush!();
          }
        : onToken === undefined
          ? (token: Token) => link.builder!.processToken(token)
          : (token: Token) => {
              link.builder!.processToken(token);
              link.onToken!(token);
            };
  }

  /** @internal The tokenizer in use (the tree builder's feedback goes to it). */
  get currentTokenizer(): Tokenizer {
    return this.tokenizer;
  }

  private makeTokenizer(discardByteOrderMark: boolean, initialState: TextMode | undefined): Tokenizer {
    const link = this.link;
    const options = this.options;
    return new Tokenizer({
      autoTextMode: false,
      discardByteOrderMark,
      cdataAllowed: () => link.builder !== null && link.builder.cdataAllowed(),
      ...(initialState !== undefined && initialState !== 'data' ? { initialState } : {}),
      ...(this.onParseError !== undefined ? { onParseError: this.onParseError } : {}),
    });
  }

  /**
   * Parse the next chunk of input: a string, or bytes (`Uint8Array`). All chunks of one parse are of one
   * kind. Bytes go through the decoder stage first (HTML §13.2.3): the sniffing holds up to the first
   * 1024 bytes (less when a BOM, `options.encoding`, a charset in `options.contentType` or a complete
   * `<meta>` decides sooner), then they are decoded and parsed, and later chunks stream through the
   * decoder (a character split across chunks is decoded whole). Source offsets are then offsets into the
   * decoded text, after the byte order mark. Throws an Error after `end()`.
   */
  write(chunk: string | Uint8Array): this {
    if (this.ended) throw new Error('Parser.write(): the parser has ended; write() cannot be called after end()');
    if (typeof chunk === 'string') {
      if (this.input === 'bytes') throw new Error('Parser.write(): got a string chunk after Uint8Array chunks; one parse takes one kind');
      this.input = 'string';
      this.fed += chunk.length;
      if (this.sourceText !== null) this.sourceText(chunk);
      this.tokenizer.write(chunk, this.emit);
      return this;
    }
    if (!(chunk instanceof Uint8Array)) throw new Error(`Parser.write(): expected a string or Uint8Array chunk, got ${typeof chunk}`);
    if (this.input === 'string') throw new Error('Parser.write(): got a Uint8Array chunk after string chunks; one parse takes one kind');
    if (this.input === 'none') this.startBytes();
    const text = this.decoder!.write(chunk);
    if (text !== '') this.decoded(text);
    return this;
  }

  /** Bytes in: decoded text to the tokenizer (and to the offsets' mapping, when kept). */
  private decoded(text: string): void {
    if (this.onParseError !== undefined || this.options.byteOffsets === true) {
      const decoder = this.decoder!;
      (this.byteMap ??= new ByteOffsets(decoder.encoding!, decoder.sniffResult?.bomLength ?? 0)).text(text);
    }
    this.fed += text.length;
    if (this.sourceText !== null) this.sourceText(text);
    this.tokenizer.write(text, this.emitBytes!);
    // Errors only (no `byteOffsets` asked for): the text before where the next error can be is not needed.
    if (this.byteMap !== null && this.options.byteOffsets !== true) this.byteMap.forget(this.treeBuilder.errorsFrom);
  }

  /**
   * Bytes in, with `options.byteOffsets` or `onParseError`: the offset in the bytes (the byte order mark
   * included) of `offset`, an offset in the decoded text (as tokens, source locations and errors count).
   * Undefined for string input, before any text was decoded, and for the multi-byte legacy encodings
   * (see `ParseError.byteOffset` for how exact it is).
   */
  byteOffset(offset: number): number | undefined {
    return this.byteMap === null ? undefined : this.byteMap.byteOffset(offset);
  }

  /** Bytes in, with `options.byteOffsets` or `onParseError`: the mapping {@link Parser.byteOffset} reads (null before). */
  get byteOffsets(): ByteOffsets | null {
    return this.byteMap;
  }

  /**
   * The first chunk is bytes. A fragment has no bytes (the fragment parsing algorithm is handed a string).
   * The decoder consumes the byte order mark (§13.2.3.1), so a U+FEFF in the decoded text is text: the
   * tokenizer is made again, before it read anything, without the string path's BOM skipping.
   */
  private startBytes(): void {
    if (this.treeBuilder.isFragment) throw new Error('Parser.write(): a fragment parser takes strings, not bytes');
    this.input = 'bytes';
    const o = this.options;
    this.decoder = new HtmlDecoder({ contentType: o.contentType, encoding: o.encoding, defaultEncoding: o.defaultEncoding });
    this.tokenizer = this.makeTokenizer(false, undefined);
    const emit = this.emit;
    // The tokenizer keeps this callback, so it must not reach the parser except through a link `end()`
    // cuts (see TokenizerForwarder): a tokenizer promoted during a long parse would otherwise keep the
    // whole finished document reachable from the old generation — 714 MB promoted per 10 rounds of the
    // corpus as UTF-8 bytes with the parser captured here, against 47 MB for strings.
    // (Made in a function of its own: closures made in one scope share its context, `this` included.)
    this.metaWatch = new MetaWatch(this.decoder, (token) => this.metaMet(token));
    this.emitBytes = emitThroughMetaWatch(this.metaWatch, emit);
  }

  /** Bytes in: what `emitBytes` reaches the decoder and `metaMet` through (null after `end()`). */
  private metaWatch: MetaWatch | null = null;

  /**
   * §13.2.6.4.4 "in head", a `<meta>` start tag (which every insertion mode but the frameset ones ends up
   * processing with the "in head" rules: in body, in table via foster parenting, after head, in template,
   * foreign content — `meta` breaks out of it): with the confidence tentative, a `charset` attribute that
   * names an encoding, else `http-equiv=content-type` with a `content` that names one, changes the
   * encoding (§13.2.3.4).
   */
  private metaMet(token: StartTagToken): void {
    const mode = this.treeBuilder.insertionMode;
    if (mode === 'in frameset' || mode === 'after frameset' || mode === 'after after frameset' || this.treeBuilder.isStopped) return;
    const requested = encodingOfMeta(token.attributes);
    if (requested === null) return;
    const decoder = this.decoder!;
    const change = changeTheEncoding(decoder.encoding!, 'tentative', requested);
    if (change === null) return;
    decoder.confirm();
    this.change = change;
    this.options.onEncodingChange?.(change);
  }

  /** Bytes in: the encoding in use (the standard's name), once sniffed; null for string input or before. */
  get encoding(): EncodingName | null {
    return this.decoder?.encoding ?? null;
  }

  /** The confidence (§13.2.3.1): 'irrelevant' for string input; null while bytes are still being sniffed. */
  get confidence(): Confidence | null {
    if (this.input !== 'bytes') return 'irrelevant';
    return this.decoder!.confidence;
  }

  /** Bytes in: what the sniffing found (encoding, confidence, BOM length, which step decided), once known. */
  get sniffResult(): SniffResult | null {
    return this.decoder?.sniffResult ?? null;
  }

  /** Bytes in: the "change the encoding" a `<meta>` caused, if one did (see `options.onEncodingChange`). */
  get encodingChange(): EncodingChange | null {
    return this.change;
  }

  /** End of input: flush the tokenizer, run the end-of-file rules, pop every open element. */
  end(): void {
    if (this.ended) throw new Error('Parser.end(): the parser has already ended');
    this.ended = true;
    if (this.input === 'bytes') {
      const text = this.decoder!.end();
      if (text !== '') this.decoded(text);
      this.tokenizer.end(this.emitBytes!);
    } else {
      this.tokenizer.end(this.emit);
    }
    this.treeBuilder.processEnd(this.fed);
    this.link.flush?.();
    this.link.flush = null;
    this.emitBytes = null;
    this.metaWatch?.cut();
    this.link.builder = null;
    this.link.onToken = null;
    this.feedback.parser = null;
  }
}
