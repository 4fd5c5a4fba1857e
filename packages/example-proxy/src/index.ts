/**
 * `@sluice/example-proxy`: a reverse proxy on `node:http` that streams upstream HTML through sluice's
 * HTMLRewriter — `http:` links become `https:`, a banner goes in at the end of the body — and leaves other
 * content types and bodies it cannot decode untouched.
 */
export { createProxy, DEFAULT_TIMEOUTS, type ProxyOptions, type ProxyTimeouts, type ProxyLogEntry } from './proxy.js';
export { rewriteTransform, type RewriteTransformOptions, type DegradedInfo } from './rewrite-transform.js';
export { inflateEither, isZlibHeader } from './decide.js';
export { exampleRewriter, DEFAULT_BANNER } from './rewriter.js';
export { decide, type Decision } from './decide.js';
export { forwardHeaders, parseContentType } from './headers.js';
export { runLoadTest, type LoadTestOptions, type LoadTestResult } from './load-test.js';
