/** `TokenizerStream`: string chunks in, raw tokens out; `TokenizerByteStream`: bytes in. */
import { Tokenizer, type ParseError, type Token } from '@sluice/tokenizer';
import { ByteOffsets, Parser } from '@sluice/tree-builder';
import { RecordingSink } from '@sluice/dom';
import { HtmlDecoder, type EncodingChange, type HtmlDecoderOptions } from '@sluice/encoding';
import { BYTE_CHUNKS, type Engine, type StreamOptions, type TransformPair, engineTransform, implementationOf } from './implementation.js';
import { type ByteInputOptions, SniffState, SniffingStream, sniffingEngine, changeTheEncoding, checkByteOptions, metaEncoding } from './bytes.js';

/** Options of {@link TokenizerStream}. */
export interface TokenizerStreamOptions extends StreamOptions {
  /**
   * Let a tree builder drive the tokenizer's text modes (script data after `<script>`, RCDATA in `<title>`
   * but not in SVG's `<title>`, CDATA only in foreign content): the tokens are exactly the parser's.
   * With false, the tokenizer switches modes by tag name alone, which is cheaper. Default true.
   */
  treeBuilder?: boolean;
  /** The scripting flag (`<noscript>` is raw text when on). Default true. */
  scripting?: boolean;
  /**
   * Parse errors, as `Parser`'s `onParseError` reports them (`ParseError`: code, offset, line, col, and
   * `byteOffset` for bytes in), each once, in order, synchronously while the chunk that holds them is
   * transformed (before its tokens are read from the readable side). With the tree builder (the default)
   * the tokenizer's and the tree builder's errors; with `treeBuilder: false` the tokenizer's only.
   */
  onParseError?: (error: ParseError) => void;
}

/** `options.onParseError`, checked. */
export function errorOption(options: { onParseError?: (error: ParseError) => void }, what: string): { onParseError?: (error: ParseError) => void } {
  const report = options.onParseError;
  if (report === undefined) return {};
  if (typeof report !== 'function') throw new TypeError(`${what}: options.onParseError must be a function`);
  return { onParseError: report };
}

/**
 * A TransformStream (a readable/writable pair) that tokenizes string chunks into raw tokens
 * (`@sluice/tokenizer`'s `Token`). Concatenating the tokens' `raw` gives back the input exactly.
 */
export class TokenizerStream implements TransformPair<string, Token> {
  readonly readable: ReadableStream<Token>;
  readonly writable: WritableStream<string>;

  constructor(options: TokenizerStreamOptions = {}) {
    const impl = implementationOf(options);
    const errors = errorOption(options, 'TokenizerStream');
    const t = engineTransform<Token>(impl, 'TokenizerStream', (enqueue) => {
      if (options.treeBuilder === false) {
        const tokenizer = new Tokenizer({ autoTextMode: true, ...errors });
        return { write: (c) => void tokenizer.write(c, enqueue), end: () => void tokenizer.end(enqueue) };
      }
      const parser = new Parser<number>(new RecordingSink({ keepLines: false }), {
        scripting: options.scripting ?? true,
        onToken: enqueue,
        ...errors,
      });
      return { write: (c) => void parser.write(c), end: () => parser.end() };
    });
    this.readable = t.readable;
    this.writable = t.writable;
  }
}

/** Options of {@link TokenizerByteStream}: the tokenizer stage's, and how the bytes are decoded. */
export interface TokenizerByteStreamOptions extends TokenizerStreamOptions, ByteInputOptions {}

/**
 * {@link TokenizerStream} with bytes in, decoded as a browser decodes a page (HTML §13.2.3; the same
 * order and options as `TreeBuilderByteStream`, UTF-8 by default). The tokens' `raw` concatenate to the
 * decoded text, which does not include a byte order mark (the decoder consumes it); they do not depend on
 * where the chunks split.
 *
 * With the tree builder (the default) the bytes go to a `Parser`, which follows a `<meta>` as the standard
 * does (`options.onEncodingChange`). With `treeBuilder: false` the stream decodes with an `HtmlDecoder`
 * and, having no insertion mode to ask, takes every `<meta>` start tag met while the confidence is
 * tentative as the tree builder takes one in the head (it would ignore one in a frameset).
 *
 * `sniffed`, `encoding`, `confidence` and `encodingChange`: as on `TreeBuilderByteStream`.
 */
export class TokenizerByteStream extends SniffingStream implements TransformPair<Uint8Array, Token> {
  readonly readable: ReadableStream<Token>;
  readonly writable: WritableStream<Uint8Array>;

  constructor(options: TokenizerByteStreamOptions = {}) {
    super();
    const impl = implementationOf(options);
    const decoding = checkByteOptions(options, 'TokenizerByteStream');
    const errors = errorOption(options, 'TokenizerByteStream');
    const state = this.state;
    const changed = (change: EncodingChange): void => {
      state.change = change;
      options.onEncodingChange?.(change);
    };
    const t = engineTransform<Token, Uint8Array>(
      impl,
      'TokenizerByteStream',
      (enqueue) => {
        const emit = (token: Token): void => {
          state.check();
          enqueue(token);
        };
        if (options.treeBuilder === false) return tokenizerOnly(decoding, state, emit, changed, errors.onParseError);
        const parser = new Parser<number>(new RecordingSink({ keepLines: false }), {
          scripting: options.scripting ?? true,
          ...decoding,
          onToken: emit,
          onEncodingChange: changed,
          ...errors,
        });
        state.source = parser;
        return sniffingEngine(parser, state);
      },
      BYTE_CHUNKS,
      (reason) => state.stop(reason),
    );
    this.readable = t.readable;
    this.writable = t.writable;
  }
}

/** The decoder and the tokenizer alone (`treeBuilder: false`). */
function tokenizerOnly(
  decoding: HtmlDecoderOptions,
  state: SniffState,
  emit: (token: Token) => void,
  changed: (change: EncodingChange) => void,
  onParseError: ((error: ParseError) => void) | undefined,
): Engine<Uint8Array> {
  const decoder = new HtmlDecoder(decoding);
  state.source = decoder;
  // Errors get their byte offsets as `Parser` gives them (the mapping made once the encoding is known).
  let byteMap: ByteOffsets | null = null;
  const errors =
    onParseError === undefined
      ? {}
      : {
          onParseError: (e: ParseError) =>
            onParseError(byteMap === null || !byteMap.exists ? e : { ...e, byteOffset: byteMap.byteOffset(e.offset) }),
        };
  // The end of the last token emitted: no later error is before it (the text before is forgotten).
  let emittedTo = 0;
  const decoded = (text: string): void => {
    if (onParseError !== undefined) (byteMap ??= new ByteOffsets(decoder.encoding!, decoder.sniffResult?.bomLength ?? 0)).text(text);
    tokenizer.write(text, onToken);
    if (byteMap !== null) byteMap.forget(emittedTo);
  };
  // The decoder consumes a BOM, so a U+FEFF in its text is text: no skipping here.
  const tokenizer = new Tokenizer({ autoTextMode: true, discardByteOrderMark: false, ...errors });
  const onToken = (token: Token): void => {
    if (token.type === 'startTag' && decoder.confidence === 'tentative') {
      const requested = metaEncoding(token);
      const change = requested === null ? null : changeTheEncoding(decoder.encoding!, 'tentative', requested);
      if (change !== null) {
        decoder.confirm();
        changed(change);
      }
    }
    if (onParseError !== undefined) emittedTo = token.start + token.raw.length;
    emit(token);
  };
  return {
    write: (c) => {
      const text = decoder.write(c);
      state.check();
      if (text !== '') decoded(text);
    },
    end: () => {
      const text = decoder.end();
      state.check();
      if (text !== '') decoded(text);
      tokenizer.end(onToken);
    },
  };
}
