/** The rewriter's soup generators live beside its unit tests; the cross-package suites use them too. */
export * from '../../../packages/rewriter/test/helpers/soup.js';
