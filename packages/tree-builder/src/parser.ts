/**
 * `Parser`: the tokenizer and the tree builder wired together — the streaming HTML parser that builds
 * into any `TreeSink` (WHATWG HTML §13.2).
 */
import { Tokenizer, type ParseError, type TextMode, type Token } from '@sluice/tokenizer';
import { NS } from './sink.js';
import type { TreeSink } from './sink.js';
import { TreeBuilder, type FragmentContext, type TreeBuilderOptions } from './tree-builder.js';

/** Options of a {@link Parser}: the tree builder's, plus the tokenizer's parse errors. */
export interface ParserOptions<N> extends TreeBuilderOptions<N> {
  /** Tokenization parse errors (§13.2.5). Never thrown. */
  onTokenizerError?: (e: ParseError) => void;
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
}

/**
 * Tokenizer + tree builder: a streaming parser that takes any sink. `write` chunks as they arrive (any
 * split, any size), then `end` once; the sink receives its mutation events synchronously as each chunk is
 * parsed, holding back only what the standard requires.
 */
export class Parser<N> {
  /** The tree builder (its stack of open elements and insertion mode are readable while parsing). */
  readonly treeBuilder: TreeBuilder<N>;
  private readonly tokenizer: Tokenizer;
  private readonly emit: (token: Token) => void;
  private readonly link: BuilderLink<N>;
  private ended = false;

  constructor(sink: TreeSink<N>, options: ParserOptions<N> = {}) {
    const context = options.fragmentContext;
    const initialState = context === undefined ? undefined : fragmentTextMode(context, options.scripting ?? true);
    const link = new BuilderLink<N>();
    this.link = link;
    const stripBom = options.stripByteOrderMark ?? context === undefined;
    if (typeof stripBom !== 'boolean') throw new TypeError('Parser: options.stripByteOrderMark must be a boolean');
    this.tokenizer = new Tokenizer({
      autoTextMode: false,
      discardByteOrderMark: stripBom,
      cdataAllowed: () => link.builder !== null && link.builder.cdataAllowed(),
      ...(initialState !== undefined && initialState !== 'data' ? { initialState } : {}),
      ...(options.onTokenizerError !== undefined ? { onError: options.onTokenizerError } : {}),
    });
    const builder = new TreeBuilder(sink, this.tokenizer, options);
    link.builder = builder;
    this.treeBuilder = builder;
    const onToken = options.onToken;
    if (onToken !== undefined && typeof onToken !== 'function') throw new TypeError('Parser: options.onToken must be a function');
    link.onToken = onToken ?? null;
    this.emit =
      onToken === undefined
        ? (token: Token) => link.builder!.processToken(token)
        : (token: Token) => {
            link.builder!.processToken(token);
            link.onToken!(token);
          };
  }

  /** Parse the next chunk of input. Throws an Error after `end()`. */
  write(chunk: string): this {
    if (this.ended) throw new Error('Parser.write(): the parser has ended; write() cannot be called after end()');
    if (typeof chunk !== 'string') throw new Error(`Parser.write(): expected a string chunk, got ${typeof chunk}`);
    this.tokenizer.write(chunk, this.emit);
    return this;
  }

  /** End of input: flush the tokenizer, run the end-of-file rules, pop every open element. */
  end(): void {
    if (this.ended) throw new Error('Parser.end(): the parser has already ended');
    this.ended = true;
    this.tokenizer.end(this.emit);
    this.treeBuilder.processEnd();
    this.link.builder = null;
    this.link.onToken = null;
  }
}
