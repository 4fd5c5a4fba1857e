/**
 * `sluice`: a streaming HTML transducer. This umbrella package re-exports the public API of every stage:
 *
 * - `@sluice/tokenizer`: `Tokenizer`, raw tokens, parse errors (WHATWG HTML §13.2.5);
 * - `@sluice/tree-builder`: `TreeBuilder`, `Parser`, the `TreeSink` interface (§13.2.6);
 * - `@sluice/dom`: the DOM, `parse`, `parseFragment`, `serialize`, `toTestFormat`, `RecordingSink`.
 */
export * from '@sluice/tokenizer';
export * from '@sluice/tree-builder';
export * from '@sluice/dom';
