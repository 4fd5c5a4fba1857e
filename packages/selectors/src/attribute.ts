/**
 * Attribute selectors (Selectors 4 §6.1–6.3) with the HTML Standard's case rules
 * (HTML §4.16.2 "Case-sensitivity of selectors").
 */
import { asciiLowercase, isAsciiWhitespace } from './ascii.js';
import type { AttributeTest } from './ast.js';

export const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** What the matcher reads of an attribute (`@sluice/tree-builder`'s `ElementAttribute` has this shape). */
export interface AttributeRecord {
  readonly name: string;
  readonly value: string;
  readonly namespace: string | null;
  readonly localName: string;
}

/**
 * HTML §4.16.2 "Case-sensitivity of selectors": on HTML elements, the values of these attributes compare
 * ASCII case-insensitively unless the selector says `s`.
 */
export const CASE_INSENSITIVE_VALUES: ReadonlySet<string> = new Set([
  'accept', 'accept-charset', 'align', 'alink', 'axis', 'bgcolor', 'charset', 'checked', 'clear',
  'codetype', 'color', 'compact', 'declare', 'defer', 'dir', 'direction', 'disabled', 'enctype', 'face',
  'frame', 'hreflang', 'http-equiv', 'lang', 'language', 'link', 'media', 'method', 'multiple', 'nohref',
  'noresize', 'noshade', 'nowrap', 'readonly', 'rel', 'rev', 'rules', 'scope', 'scrolling', 'selected',
  'shape', 'target', 'text', 'type', 'valign', 'valuetype', 'vlink',
]);

/** `~=`: whether the whitespace-separated list `list` contains `word`. */
export function includesWord(list: string, word: string): boolean {
  if (word === '') return false;
  for (let i = 0; i < word.length; i++) if (isAsciiWhitespace(word.charCodeAt(i))) return false;
  let from = 0;
  for (;;) {
    const at = list.indexOf(word, from);
    if (at < 0) return false;
    const end = at + word.length;
    if ((at === 0 || isAsciiWhitespace(list.charCodeAt(at - 1))) && (end === list.length || isAsciiWhitespace(list.charCodeAt(end)))) {
      return true;
    }
    from = at + 1;
  }
}

/** Compare one attribute value against the test. `insensitive`: ASCII case-insensitive comparison. */
export function valueMatches(test: AttributeTest, actual: string, insensitive: boolean): boolean {
  const v = insensitive ? asciiLowercase(actual) : actual;
  const want = insensitive ? test.valueLower : test.value;
  switch (test.operator) {
    case 'exists':
      return true;
    case 'equals':
      return v === want;
    case 'includes':
      return includesWord(v, want);
    case 'dash':
      return v === want || (v.startsWith(want) && v.charCodeAt(want.length) === 0x2d);
    case 'prefix':
      return want !== '' && v.startsWith(want);
    case 'suffix':
      return want !== '' && v.endsWith(want);
    case 'substring':
      return want !== '' && v.includes(want);
  }
}

/**
 * Whether an element with these attributes satisfies the attribute test. `namespace` is the element's
 * namespace; `quirks` whether the document is in quirks mode.
 *
 * HTML §4.16.2 "Case-sensitivity of selectors": the selector's name is ASCII-lowercased when compared
 * to the names of (namespace-less) attributes of HTML elements, and compared in its original case to
 * every other attribute; both comparisons are then exact. So `[viewBox]` matches SVG's `viewBox` and
 * `[viewbox]` does not, while `[CLASS]` matches an HTML element's `class`. The `*|name` form follows
 * the same rule per attribute (lowercased only for a null-namespace attribute of an HTML element).
 * Chromium deviates (it compares foreign attributes' names ASCII case-insensitively: `[viewbox]`
 * matches `<svg viewBox>`); Firefox follows the standard. docs/selectors.md records it.
 */
export function attributeMatches(
  test: AttributeTest,
  namespace: string | null,
  attributes: readonly AttributeRecord[],
  quirks: boolean,
): boolean {
  const html = namespace === HTML_NS;
  for (let i = 0; i < attributes.length; i++) {
    const attr = attributes[i]!;
    const htmlNull = html && attr.namespace === null;
    if (test.anyNamespace) {
      if (attr.localName !== (htmlNull ? test.nameLower : test.name)) continue;
    } else if (attr.namespace !== null || attr.name !== (html ? test.nameLower : test.name)) continue;
    if (valueMatches(test, attr.value, insensitiveFor(test, htmlNull, attr.localName, quirks))) return true;
  }
  return false;
}

/**
 * `attributeMatches` for an HTML element whose attribute named `test.nameLower` has the value `value`
 * (null: it has none). A parsed HTML element's attributes all have the null namespace and lowercase
 * names, and no two share a name, so that one value decides the test.
 */
export function htmlAttributeMatches(test: AttributeTest, value: string | null, quirks: boolean): boolean {
  if (value === null) return false;
  return test.operator === 'exists' || valueMatches(test, value, insensitiveFor(test, true, test.nameLower, quirks));
}

/** Whether the test compares this attribute's value ASCII case-insensitively (`htmlNull`: a null-namespace attribute of an HTML element). */
export function insensitiveFor(test: AttributeTest, htmlNull: boolean, localName: string, quirks: boolean): boolean {
  switch (test.caseMode) {
    case 'i':
      return true;
    case 's':
      return false;
    case 'quirks':
      return quirks;
    default:
      return htmlNull && CASE_INSENSITIVE_VALUES.has(localName);
  }
}

/**
 * The compound's type selector (and namespace) against an element's name. HTML §4.16.2
 * "Case-sensitivity of selectors": the type selector is ASCII-lowercased (`tagLower`) when compared to
 * the names of HTML elements, and compared in its original case (`tag`) to other elements; both
 * comparisons are then exact. So `clipPath` matches SVG's `clipPath` and `clippath` does not, while
 * `DIV` matches `div`. Chromium deviates (it compares foreign elements' names ASCII
 * case-insensitively: `clippath` matches `<svg><clipPath>`); Firefox follows the standard.
 * docs/selectors.md records it.
 */
export function typeMatches(
  tag: string | null,
  tagLower: string | null,
  namespaceTest: 'any' | 'none',
  localName: string,
  namespace: string | null,
): boolean {
  if (namespaceTest === 'none' && namespace !== null) return false;
  return tag === null || (namespace === HTML_NS ? tagLower === localName : tag === localName);
}
