/**
 * The parts of a compound selector that look at the element alone: type, namespace and attributes.
 * Shared by the streaming matcher and by any tree walker that wants the same answers.
 */
import type { ElementAttribute } from '@sluice/tree-builder';
import type { CompoundSelector } from './ast.js';
import { attributeMatches } from './attribute.js';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * Whether the element's own name and attributes satisfy the compound's type selector and attribute
 * selectors (pseudo-classes are the caller's business: they need the element's place in the tree).
 * HTML §"Case-sensitivity of selectors": type selectors compare lowercased to HTML elements and as
 * written to SVG/MathML ones.
 */
export function compoundSelfMatches(
  compound: CompoundSelector,
  localName: string,
  namespace: string,
  attributes: readonly ElementAttribute[],
  quirks: boolean,
): boolean {
  if (compound.namespace === 'none') return false;
  if (compound.tag !== null) {
    const want = namespace === HTML_NS ? compound.tagLower : compound.tag;
    if (want !== localName) return false;
  }
  const tests = compound.attributes;
  for (let i = 0; i < tests.length; i++) {
    if (!attributeMatches(tests[i]!, namespace, attributes, quirks)) return false;
  }
  return true;
}
