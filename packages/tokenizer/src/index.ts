/**
 * @sluice/tokenizer — a chunk-resumable WHATWG HTML tokenizer (§13.2.5) whose raw tokens round-trip
 * byte for byte.
 */
export * from './tokens.js';
export { Tokenizer, snapshotsEqual, type TokenizerOptions, type TokenizerSnapshot } from './tokenizer.js';
export { ErrorCode } from './errors.js';
export { debugState, type TokenizerDebugState, type PendingToken } from './debug-state.js';
export { DecodedAttribute, attributesOfRawTag, attributeSpansOfRawTag, attributeValueOfRawTag, type AttributeSpan } from './decode/tag.js';
/**
 * The classes of the text, start tag and end tag tokens this tokenizer emits, for consumers that tell
 * tokens apart by `instanceof` (one shape per branch) instead of reading `type` (many shapes at one read).
 * Tokens from elsewhere are plain `Token`s; check `type` for those.
 */
export { Text as TextTokenClass, StartTag as StartTagClass, EndTag as EndTagClass } from './token-classes.js';
export { toByteForm, fromByteForm, byteFormOf, bytesOfByteForm, isAscii } from './decode/byte-form.js';
export { State, stateName } from './states/state.js';
