/**
 * @sluice/tokenizer — a chunk-resumable WHATWG HTML tokenizer (§13.2.5) whose raw tokens round-trip
 * byte for byte.
 */
export * from './tokens.js';
export { Tokenizer, snapshotsEqual, type TokenizerOptions, type TokenizerSnapshot } from './tokenizer.js';
export { ErrorCode } from './errors.js';
export { DecodedAttribute } from './decode/tag.js';
export { State, stateName } from './states/state.js';
