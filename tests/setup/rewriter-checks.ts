// Every rewrite under test checks its memoized answers against the definitions, and fails on any
// disagreement:
// - Noah's Ark both ways — through the rewriter's index of the list of active formatting elements, and
//   by walking the list (packages/rewriter/src/transform/noahs-ark.ts, `verifyNoahsArk`);
// - whether an element is inside removed content — the memo against a walk up its ancestors
//   (packages/rewriter/src/transform/alignment.ts, `verifyPresence`);
// - whether an ancestor matches a descendant combinator's left side — the memo against a walk up
//   (packages/rewriter/src/selectors/match.ts, `verifyAncestorMatches`).
// The walks are O(list) or O(depth) per check: suites that count steps or measure cost turn them off
// (linear-steps.test.ts).
import { verifyNoahsArk } from '../../packages/rewriter/src/transform/noahs-ark.js';
import { verifyPresence } from '../../packages/rewriter/src/transform/alignment.js';
import { verifyAncestorMatches } from '../../packages/rewriter/src/selectors/match.js';

verifyNoahsArk(true);
verifyPresence(true);
verifyAncestorMatches(true);
