/**
 * Attribute selectors (Selectors 4 §6.1–6.3) with the HTML Standard's case rules
 * (HTML §"Case-sensitivity of selectors").
 */
import type { ElementAttribute } from '@sluice/tree-builder';
import type { AttributeTest } from './ast.js';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * HTML §"Case-sensitivity of selectors": on HTML elements, the values of these attributes compare
 * ASCII case-insensitively unless the selector says `s`.
 */
const CASE_INSENSITIVE_VALUES: ReadonlySet<string> = new Set([
  'accept', 'accept-charset', 'align', 'alink', 'axis', 'bgcolor', 'charset', 'checked', 'clear',
  'codetype', 'color', 'compact', 'declare', 'defer', 'dir', 'direction', 'disabled', 'enctype', 'face',
  'frame', 'hreflang', 'http-equiv', 'lang', 'language', 'link', 'media', 'method', 'multiple', 'nohref',
  'noresize', 'noshade', 'nowrap', 'readonly', 'rel', 'rev', 'rules', 'scope', 'scrolling', 'selected',
  'shape', 'target', 'text', 'type', 'valign', 'valuetype', 'vlink',
]);

/** ASCII lowercase (Infra): only A–Z change, unlike `toLowerCase`. */
export function asciiLowercase(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  }
  return s;
}

function isAsciiWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/** `~=`: whether the whitespace-separated list `list` contains `word`. */
function includesWord(list: string, word: string): boolean {
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
function valueMatches(test: AttributeTest, actual: string, insensitive: boolean): boolean {
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
 * Whether an element with these attributes satisfies the attribute test.
 * `namespace` is the element's namespace; `quirks` whether the document is in quirks mode.
 */
export function attributeMatches(
  test: AttributeTest,
  namespace: string,
  attributes: readonly ElementAttribute[],
  quirks: boolean,
): boolean {
  const html = namespace === HTML_NS;
  // Attribute names compare ASCII case-insensitively on every element (see compound.ts: Chromium's rule).
  const name = test.nameLower;
  for (let i = 0; i < attributes.length; i++) {
    const attr = attributes[i]!;
    if (test.anyNamespace ? asciiLowercase(attr.localName) !== name : attr.namespace !== null || (html ? attr.name : asciiLowercase(attr.name)) !== name) continue;
    if (valueMatches(test, attr.value, insensitiveFor(test, html && attr.namespace === null, attr.localName, quirks))) return true;
  }
  return false;
}

/**
 * `attributeMatches` for an HTML element whose attribute named `test.nameLower` has the value `value`
 * (null: it has none). An HTML element's attributes all have the null namespace and lowercase names, and
 * no two share a name, so that one value decides the test.
 */
export function htmlAttributeMatches(test: AttributeTest, value: string | null, quirks: boolean): boolean {
  if (value === null) return false;
  return test.operator === 'exists' || valueMatches(test, value, insensitiveFor(test, true, test.nameLower, quirks));
}

/** Whether the test compares this attribute's value ASCII case-insensitively (`htmlNull`: a null-namespace attribute of an HTML element). */
function insensitiveFor(test: AttributeTest, htmlNull: boolean, localName: string, quirks: boolean): boolean {
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
