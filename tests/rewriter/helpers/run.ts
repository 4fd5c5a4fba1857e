/** The rewriter's push-API runner lives beside its unit tests; the cross-package suites use it too. */
export * from '../../../packages/rewriter/test/helpers/run.js';
