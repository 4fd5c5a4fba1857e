// Every rewrite under test checks Noah's Ark both ways — through the rewriter's index of the list of
// active formatting elements, and by walking the list — and fails on any disagreement
// (packages/rewriter/src/transform/noahs-ark.ts, `verifyNoahsArk`). The walk is O(list) per push:
// suites that count steps or measure cost turn it off (linear-steps.test.ts).
import { verifyNoahsArk } from '../../packages/rewriter/src/transform/noahs-ark.js';

verifyNoahsArk(true);
