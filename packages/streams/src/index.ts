/**
 * `@sluice/streams`: WHATWG TransformStreams for every sluice stage — tokens, mutation events, rewritten
 * HTML — over strings or UTF-8 bytes, on the runtime's streams or any implementation with the same API.
 */
export { TokenizerStream, TokenizerByteStream, type TokenizerStreamOptions } from './tokenizer-stream.js';
export { TreeBuilderStream, TreeBuilderByteStream, type TreeBuilderStreamOptions } from './tree-builder-stream.js';
export { HTMLRewriterStream, HTMLRewriterByteStream } from './rewriter-stream.js';
export { utf8Decoder, utf8Encoder, withUtf8 } from './utf8.js';
export { runtimeStreams, type StreamsImplementation, type StreamOptions, type TransformPair } from './implementation.js';
