/**
 * The parts of a compound selector that look at the element alone: type, namespace and attributes.
 * Shared by the streaming matcher and by any tree walker that wants the same answers.
 */
import type { ElementAttribute } from '@sluice/tree-builder';
import type { CompoundSelector } from './ast.js';
import { asciiLowercase, attributeMatches } from './attribute.js';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * Whether the element's own name and attributes satisfy the compound's type selector and attribute
 * selectors (pseudo-classes are the caller's business: they need the element's place in the tree).
 *
 * Names compare ASCII case-insensitively for every element of an HTML document, SVG and MathML ones
 * included (`foreignobject` matches SVG's `foreignObject`, `[viewbox]` its `viewBox`). That is what
 * Chromium's `querySelectorAll` does, which is the reference here (tests/browser); the HTML Standard's
 * text would compare names of foreign elements case-sensitively.
 */
export function compoundSelfMatches(
  compound: CompoundSelector,
  localName: string,
  namespace: string,
  attributes: readonly ElementAttribute[],
  quirks: boolean,
): boolean {
  if (compound.namespace === 'none') return false;
  if (compound.tagLower !== null) {
    if (namespace === HTML_NS ? compound.tagLower !== localName : compound.tagLower !== asciiLowercase(localName)) return false;
  }
  const tests = compound.attributes;
  for (let i = 0; i < tests.length; i++) {
    if (!attributeMatches(tests[i]!, namespace, attributes, quirks)) return false;
  }
  return true;
}
