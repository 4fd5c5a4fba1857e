/**
 * `sluice`: a streaming HTML transducer. This umbrella package re-exports the public API of every stage:
 *
 * - `@sluice/tokenizer`: `Tokenizer`, raw tokens, parse errors (WHATWG HTML §13.2.5);
 * - `@sluice/tree-builder`: `TreeBuilder`, `Parser`, the `TreeSink` interface (§13.2.6);
 * - `@sluice/dom`: the DOM, `parse`, `parseFragment`, `serialize`, `toTestFormat`, `RecordingSink`, and the
 *   adapters `toDomhandler` (cheerio), `toHast` (rehype) and `toParse5`;
 * - `@sluice/selectors`: `parseSelectorList` and `InvalidSelectorError` (the engine behind the DOM's
 *   `querySelector*`/`matches`/`closest` and the rewriter's selectors);
 * - `@sluice/rewriter`: `HTMLRewriter` (Cloudflare Workers' API) and its rewritable units;
 * - `@sluice/streams`: WHATWG `TransformStream`s for every stage.
 */
export * from '@sluice/tokenizer';
export * from '@sluice/tree-builder';
export * from '@sluice/dom';
// The rewriter's units are re-exported under their `…Unit` names only: its Workers-style aliases
// `Element` and `Comment` would collide with the DOM's classes. Import them from `@sluice/rewriter`.
export {
  HTMLRewriter,
  Transformer,
  DEFAULT_MAX_BUFFERED_BYTES,
  ElementUnit,
  EndTagUnit,
  TextChunkUnit,
  CommentUnit,
  DoctypeUnit,
  DocumentEndUnit,
  parseSelector,
  type RewriterOptions,
  type ElementHandlers,
  type DocumentHandlers,
  type HandlerResult,
  type EndTagHandler,
  type ContentOptions,
  type ContentContext,
} from '@sluice/rewriter';
export * from '@sluice/streams';
// Querying (issue #16 item 1): the selector engine's parser and its error, for checking a selector up front.
export { parseSelectorList, InvalidSelectorError, type ParseOptions as SelectorParseOptions } from '@sluice/selectors';
