/**
 * `@sluice/tree-builder`: streaming WHATWG HTML tree construction (§13.2.6) that emits DOM mutation
 * events to a sink, and `Parser`, the tokenizer and tree builder wired together.
 */
export * from './sink.js';
export {
  TreeBuilder,
  type FragmentContext,
  type TreeBuilderOptions,
  type TokenizerFeedback,
} from './tree-builder.js';
export { Parser, fragmentTextMode, type ParserOptions } from './parser.js';
export { TreeConstructionErrorCode, type TreeConstructionErrorCodeString } from './parse-errors.js';
export { ByteOffsets } from './byte-offsets.js';
/** The one shape of every parse error (the tokenizer's type, re-exported here). */
export type { ParseError } from '@sluice/tokenizer';
export { INSERTION_MODE_NAMES, type InsertionModeName } from './insertion-mode.js';
export type { OpenElement } from './stack-of-open-elements.js';
