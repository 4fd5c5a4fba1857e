/**
 * The rewriter drives the tree builder through members that are not public API (`processTextToken`,
 * `processStartTagToken`, `processEndTagToken`) and reads the tokenizer's internal token fields (`end`,
 * `source`, `offset`). Their declarations are stripped from the published types; this import brings
 * them into this package's build (see `@sluice/tree-builder/internal` and docs/architecture.md, "Public
 * and internal"). Nothing imports this file: it is part of the build because it is in `src/`.
 */
import type {} from '@sluice/tree-builder/internal';
import type {} from '@sluice/tokenizer/internal';

export {};
