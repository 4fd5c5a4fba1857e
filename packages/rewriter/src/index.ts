/**
 * `@sluice/rewriter`: a streaming HTML rewriter with Cloudflare Workers' `HTMLRewriter` API. Selectors
 * match on the tree builder's real tree; untouched input is copied byte for byte.
 */
export { HTMLRewriter } from './transform/html-rewriter.js';
export { Transformer, DEFAULT_MAX_BUFFERED_BYTES, type RewriterOptions } from './transform/transformer.js';
export { ByteTransformer } from './transform/byte-transformer.js';
export type { ElementHandlers, DocumentHandlers, HandlerResult } from './transform/handlers.js';
export { ElementUnit, ElementUnit as Element } from './rewritable-units/element.js';
export { EndTagUnit, EndTagUnit as EndTag, type EndTagHandler } from './rewritable-units/end-tag.js';
export { TextChunkUnit, TextChunkUnit as TextChunk } from './rewritable-units/text-chunk.js';
export { CommentUnit, CommentUnit as Comment } from './rewritable-units/comment.js';
export { DoctypeUnit, DoctypeUnit as Doctype } from './rewritable-units/doctype.js';
export { DocumentEndUnit, DocumentEndUnit as DocumentEnd } from './rewritable-units/document-end.js';
export type { ContentOptions, ContentContext } from './rewritable-units/content.js';
export { parseSelector } from './selectors/parse.js';
export { matchesList, rightmostTags, type MatchableElement } from './selectors/match.js';
export { compoundSelfMatches } from './selectors/compound.js';
export { nthMatches, parseNth } from '@sluice/selectors';
export { SelectorRegistry } from './selectors/registry.js';
export type * from './selectors/ast.js';
