/** `TokenizerStream`: string chunks in, raw tokens out. */
import { Tokenizer, type Token } from '@sluice/tokenizer';
import { Parser } from '@sluice/tree-builder';
import { RecordingSink } from '@sluice/dom';
import { type StreamOptions, type TransformPair, engineTransform, implementationOf } from './implementation.js';
import { withUtf8 } from './utf8.js';

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
    const t = engineTransform<Token>(impl, 'TokenizerStream', (enqueue) => {
      if (options.treeBuilder === false) {
        const tokenizer = new Tokenizer({ autoTextMode: true });
        return { write: (c) => void tokenizer.write(c, enqueue), end: () => void tokenizer.end(enqueue) };
      }
      const parser = new Parser<number>(new RecordingSink({ keepLines: false }), {
        scripting: options.scripting ?? true,
        onToken: enqueue,
      });
      return { write: (c) => void parser.write(c), end: () => parser.end() };
    });
    this.readable = t.readable;
    this.writable = t.writable;
  }
}

/** {@link TokenizerStream} with UTF-8 bytes in. */
export class TokenizerByteStream implements TransformPair<Uint8Array, Token> {
  readonly readable: ReadableStream<Token>;
  readonly writable: WritableStream<Uint8Array>;

  constructor(options: TokenizerStreamOptions = {}) {
    const pair = withUtf8(implementationOf(options), new TokenizerStream(options));
    this.readable = pair.readable;
    this.writable = pair.writable;
  }
}
