/**
 * The parts of a compound selector that look at the element alone: type, namespace and attributes.
 * Shared by the streaming matcher and by any tree walker that wants the same answers.
 */
import type { ElementAttribute } from '@sluice/tree-builder';
import type { CompoundSelector } from './ast.js';
import { asciiLowercase, attributeMatches, htmlAttributeMatches } from './attribute.js';
import type { MatchableElement } from './match.js';

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
  if (!typeMatches(compound, localName, namespace)) return false;
  const tests = compound.attributes;
  for (let i = 0; i < tests.length; i++) {
    if (!attributeMatches(tests[i]!, namespace, attributes, quirks)) return false;
  }
  return true;
}

/**
 * `compoundSelfMatches` for a matcher's element. Its attributes are read only if the compound tests
 * some, and an HTML element's one at a time through `attributeValue` when it has that: most elements
 * a selector looks at by name keep their attributes undecoded (see the rewriter's view records).
 */
export function compoundElementMatches(compound: CompoundSelector, el: MatchableElement, quirks: boolean): boolean {
  const namespace = el.namespace;
  if (!typeMatches(compound, el.localName, namespace)) return false;
  const tests = compound.attributes;
  if (tests.length === 0) return true;
  if (namespace === HTML_NS && el.attributeValue !== undefined) {
    for (let i = 0; i < tests.length; i++) {
      const test = tests[i]!;
      if (!htmlAttributeMatches(test, el.attributeValue(test.nameLower), quirks)) return false;
    }
    return true;
  }
  const attributes = el.attributes;
  for (let i = 0; i < tests.length; i++) {
    if (!attributeMatches(tests[i]!, namespace, attributes, quirks)) return false;
  }
  return true;
}

/** The compound's type selector (and namespace) against the element's name. */
function typeMatches(compound: CompoundSelector, localName: string, namespace: string): boolean {
  if (compound.namespace === 'none') return false;
  const tag = compound.tagLower;
  return tag === null || (namespace === HTML_NS ? tag === localName : tag === asciiLowercase(localName));
}
