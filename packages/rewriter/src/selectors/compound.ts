/**
 * The parts of a compound selector that look at the element alone: type, namespace and attributes
 * (the shared engine's tests, `@sluice/selectors`). Shared by the streaming matcher and by any tree
 * walker that wants the same answers.
 */
import { type AttributeRecord, HTML_NS, attributeMatches, htmlAttributeMatches, typeMatches } from '@sluice/selectors';
import type { CompoundSelector } from './ast.js';
import type { MatchableElement } from './match.js';

/**
 * Whether the element's own name and attributes satisfy the compound's type selector and attribute
 * selectors (pseudo-classes are the caller's business: they need the element's place in the tree).
 * Names compare by HTML §4.16.2 (see `typeMatches` and `attributeMatches`): lowercased for HTML
 * elements and their attributes, as written for foreign ones.
 */
export function compoundSelfMatches(
  compound: Pick<CompoundSelector, 'tag' | 'tagLower' | 'namespace' | 'attributes'>,
  localName: string,
  namespace: string,
  attributes: readonly AttributeRecord[],
  quirks: boolean,
): boolean {
  if (!typeMatches(compound.tag, compound.tagLower, compound.namespace, localName, namespace)) return false;
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
  if (!typeMatches(compound.tag, compound.tagLower, compound.namespace, el.localName, namespace)) return false;
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
