/**
 * `@sluice/streams`: WHATWG TransformStreams for every sluice stage — tokens, mutation events, rewritten
 * HTML — over strings or bytes (decoded with the HTML Standard's encoding sniffing; the rewriter's bytes are
 * UTF-8 unless its encoding options are given), on the runtime's streams or any implementation with the same API.
 */
export { TokenizerStream, TokenizerByteStream, type TokenizerStreamOptions, type TokenizerByteStreamOptions } from './tokenizer-stream.js';
export { TreeBuilderStream, TreeBuilderByteStream, type TreeBuilderStreamOptions, type TreeBuilderByteStreamOptions } from './tree-builder-stream.js';
export type { ByteInputOptions } from './bytes.js';
export { HTMLRewriterStream, HTMLRewriterByteStream, type HTMLRewriterByteStreamOptions } from './rewriter-stream.js';
export { utf8Decoder, utf8Encoder, withUtf8 } from './utf8.js';
export { runtimeStreams, type StreamsImplementation, type StreamOptions, type TransformPair } from './implementation.js';
