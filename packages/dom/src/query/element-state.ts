/**
 * The HTML Standard's element-state pseudo-classes (HTML §4.16.3 "Pseudo-classes"), for a document as
 * the parser left it: nothing was typed, clicked or changed by a script, so each state follows from the
 * content attributes (checkedness from `checked`, selectedness from `selected`).
 */
import { NS } from '@sluice/tree-builder';
import type { Element } from '../element.js';
import { type Node, NodeType, nextInSubtree } from '../node.js';
import { nearestAncestorSelect, parsedSelectedness } from '../selectedcontent.js';
import { asciiLowercase } from '@sluice/selectors';
import { attributeValue, htmlAttributeValue, isHtmlElement, parentElementOf } from './element-data.js';

/**
 * `:any-link` / `:link`: `a` and `area` elements with an `href` attribute (HTML §4.16.3). Chromium also
 * counts SVG's `a` with `href` (or `xlink:href`) and, a legacy of WebKit, an `img` with a `usemap`
 * attribute; and it treats `:link` as `:any-link` (nothing is visited). Chromium is the reference here.
 */
export function isLink(el: Element): boolean {
  const ns = el.namespaceURI;
  if (ns === NS.HTML) {
    const name = el.localName;
    if (name === 'a' || name === 'area') return htmlAttributeValue(el, 'href') !== null;
    return name === 'img' && htmlAttributeValue(el, 'usemap') !== null;
  }
  if (ns === NS.SVG && el.localName === 'a') {
    for (const a of el._attrs) if (a.localName === 'href' && (a.namespace === null || a.namespace === NS.XLINK)) return true;
  }
  return false;
}

/** HTML §4.16.3 `:defined`: not an HTML element whose custom element state is "undefined". */
export function isDefined(el: Element): boolean {
  if (el.namespaceURI !== NS.HTML) return true;
  // HTML §4.13.3 "create an element": no custom element definitions exist here, so an element whose
  // name is a valid custom element name, or which has an `is` value, stays "undefined".
  return !isValidCustomElementName(el.localName) && htmlAttributeValue(el, 'is') === null;
}

const RESERVED_NAMES = new Set([
  'annotation-xml', 'color-profile', 'font-face', 'font-face-src', 'font-face-uri', 'font-face-format',
  'font-face-name', 'missing-glyph',
]);

/**
 * HTML §4.13.2 "valid custom element name", as the standard has it since 2025 (and Chromium ships it):
 * an ASCII lower alpha first, no ASCII upper alpha, a `-`, a valid element local name (no ASCII
 * whitespace, NULL, `/` or `>`), not a reserved name. So `fb:comments-count` is one (the older
 * PCENChar grammar rejected the colon).
 */
export function isValidCustomElementName(name: string): boolean {
  const c = name.charCodeAt(0);
  if (!(c >= 0x61 && c <= 0x7a) || !name.includes('-') || RESERVED_NAMES.has(name)) return false;
  return !/[A-Z\t\n\f\r \0/>]/.test(name);
}

/** The elements `:enabled`/`:disabled` apply to (HTML §4.16.3), in the HTML namespace. */
const FORM_CONTROLS = new Set(['button', 'input', 'select', 'textarea', 'optgroup', 'option', 'fieldset']);

/** Whether `:enabled` or `:disabled` can match the element at all. */
export function canBeDisabled(el: Element): boolean {
  return el.namespaceURI === NS.HTML && FORM_CONTROLS.has(el.localName);
}

/** HTML §4.16.3 `:disabled` ("actually disabled"), for an element `canBeDisabled` accepted. */
export function isDisabled(el: Element): boolean {
  switch (el.localName) {
    case 'optgroup':
      return htmlAttributeValue(el, 'disabled') !== null;
    case 'option': {
      // HTML §4.10.10: its `disabled` attribute, or a parent optgroup's.
      if (htmlAttributeValue(el, 'disabled') !== null) return true;
      const p = parentElementOf(el);
      return p !== null && isHtmlElement(p, 'optgroup') && htmlAttributeValue(p, 'disabled') !== null;
    }
    default:
      // HTML §4.10.18.5 "disabled" form controls and §4.10.15 fieldset: the own `disabled` attribute, or
      // a disabled fieldset ancestor, unless the element is inside that fieldset's first legend child.
      if (htmlAttributeValue(el, 'disabled') !== null) return true;
      return inDisabledFieldset(el);
  }
}

function inDisabledFieldset(el: Element): boolean {
  let child: Element = el;
  for (let a = parentElementOf(el); a !== null; child = a, a = parentElementOf(a)) {
    if (!isHtmlElement(a, 'fieldset') || htmlAttributeValue(a, 'disabled') === null) continue;
    if (isHtmlElement(child, 'legend') && firstLegendChild(a) === child) continue;
    return true;
  }
  return false;
}

function firstLegendChild(fieldset: Element): Element | null {
  for (let c = fieldset._first; c !== null; c = c._next) {
    if (c.nodeType === NodeType.ELEMENT_NODE && isHtmlElement(c as Element, 'legend')) return c as Element;
  }
  return null;
}

/**
 * HTML §4.16.3 `:checked`: checkbox and radio inputs whose checkedness is true, and options whose
 * selectedness is true. `radioWinners` gives, for a radio input, whether it is the one its group left
 * checked (see {@link checkedRadios}).
 */
export function isChecked(el: Element, radioWinners: (el: Element) => ReadonlySet<Element>): boolean {
  if (el.namespaceURI !== NS.HTML) return false;
  if (el.localName === 'option') {
    const select = nearestAncestorSelect(el);
    return select === null ? htmlAttributeValue(el, 'selected') !== null : parsedSelectedness(el, select);
  }
  if (el.localName !== 'input' || htmlAttributeValue(el, 'checked') === null) return false;
  const type = asciiLowercase(htmlAttributeValue(el, 'type') ?? '');
  if (type === 'checkbox') return true;
  if (type !== 'radio') return false;
  const name = htmlAttributeValue(el, 'name');
  if (name === null || name === '') return true; // alone in its group
  return radioWinners(el).has(el);
}

/**
 * The checked radio buttons of a tree after parsing: per radio button group (HTML §4.10.5.1.16: same
 * tree, same form owner, same non-empty name), the last one in tree order whose `checked` attribute is
 * set — inserting a checked radio unchecks the others of its group. The form owner is taken from the
 * tree (the `form` attribute, else the nearest form ancestor); the parser's form element pointer, which
 * can associate a control with a form that does not contain it, is not recorded in the DOM.
 */
export function checkedRadios(root: Node): Set<Element> {
  const last = new Map<string, Element>();
  const owners = new Map<Element | null, number>();
  for (let n: Node | null = root; n !== null; n = nextInSubtree(n, root)) {
    if (n.nodeType !== NodeType.ELEMENT_NODE) continue;
    const el = n as Element;
    if (!isHtmlElement(el, 'input') || htmlAttributeValue(el, 'checked') === null) continue;
    if (asciiLowercase(htmlAttributeValue(el, 'type') ?? '') !== 'radio') continue;
    const name = htmlAttributeValue(el, 'name');
    if (name === null || name === '') continue;
    const owner = formOwner(el, root);
    let id = owners.get(owner);
    if (id === undefined) owners.set(owner, (id = owners.size));
    last.set(`${id}\u0000${name}`, el);
  }
  return new Set(last.values());
}

function formOwner(el: Element, root: Node): Element | null {
  const ref = htmlAttributeValue(el, 'form');
  if (ref !== null) {
    for (let n: Node | null = root; n !== null; n = nextInSubtree(n, root)) {
      if (n.nodeType === NodeType.ELEMENT_NODE && attributeValue(n as Element, 'id') === ref) {
        return isHtmlElement(n as Element, 'form') ? (n as Element) : null;
      }
    }
    return null;
  }
  for (let a = parentElementOf(el); a !== null; a = parentElementOf(a)) if (isHtmlElement(a, 'form')) return a;
  return null;
}

/** HTML §4.10.5: an input's type state, from its `type` attribute (missing or unknown: text). */
function inputType(el: Element): string {
  const t = asciiLowercase(htmlAttributeValue(el, 'type') ?? '');
  return INPUT_TYPES.has(t) ? t : 'text';
}

const INPUT_TYPES = new Set([
  'hidden', 'text', 'search', 'tel', 'url', 'email', 'password', 'date', 'month', 'week', 'time', 'datetime-local',
  'number', 'range', 'color', 'checkbox', 'radio', 'file', 'submit', 'image', 'reset', 'button',
]);
/** The input types the `readonly` attribute applies to (HTML §4.10.5.3.3). */
const READONLY_APPLIES = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'date', 'month', 'week', 'time', 'datetime-local', 'number']);
/** The input types the `required` attribute applies to (HTML §4.10.5.3.4). */
const REQUIRED_APPLIES = new Set([...READONLY_APPLIES, 'checkbox', 'radio', 'file']);
/** The input types the `placeholder` attribute applies to (HTML §4.10.5.3.10). */
const PLACEHOLDER_APPLIES = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'number']);

/**
 * HTML §4.16.3 `:required` (`optional`: false) or `:optional` (true): an input the `required` attribute
 * applies to, a select or a textarea, with (without) `required`. Chromium's `:optional` is wider than
 * the standard's: every input (of any type, `required` or not where it does not apply) and every
 * button that is not `:required` — Chromium is the reference here.
 */
export function matchesRequired(el: Element, optional: boolean): boolean {
  if (el.namespaceURI !== NS.HTML) return false;
  const name = el.localName;
  let required: boolean;
  if (name === 'input') required = REQUIRED_APPLIES.has(inputType(el)) && htmlAttributeValue(el, 'required') !== null;
  else if (name === 'select' || name === 'textarea') required = htmlAttributeValue(el, 'required') !== null;
  else if (name === 'button') required = false;
  else return false;
  return required !== optional;
}

/**
 * HTML §4.16.3 `:read-write`: a mutable input the `readonly` attribute applies to, a mutable textarea,
 * or an editable element (an editing host — `contenteditable` true or plaintext-only — or inside one).
 * `:read-only` is every other HTML element.
 */
export function isReadWrite(el: Element): boolean {
  const name = el.localName;
  if (el.namespaceURI === NS.HTML && (name === 'input' || name === 'textarea')) {
    if (name === 'input' && !READONLY_APPLIES.has(inputType(el))) return false;
    return htmlAttributeValue(el, 'readonly') === null && !isDisabled(el);
  }
  // HTML §6.8.1 contenteditable: the nearest element with a state other than "inherit" decides.
  for (let a: Element | null = el; a !== null; a = parentElementOf(a)) {
    if (a.namespaceURI !== NS.HTML) continue;
    const v = htmlAttributeValue(a, 'contenteditable');
    if (v === null) continue;
    const state = asciiLowercase(v);
    if (state === '' || state === 'true' || state === 'plaintext-only') return true;
    if (state === 'false') return false;
  }
  return false;
}

/** HTML §4.16.3 `:placeholder-shown`: an input or textarea whose placeholder is shown (its value is empty). */
export function isPlaceholderShown(el: Element): boolean {
  if (el.namespaceURI !== NS.HTML) return false;
  if (htmlAttributeValue(el, 'placeholder') === null) return false; // (an empty one counts, as in Chromium)
  if (el.localName === 'input') return PLACEHOLDER_APPLIES.has(inputType(el)) && (htmlAttributeValue(el, 'value') ?? '') === '';
  if (el.localName !== 'textarea') return false;
  for (let c = el._first; c !== null; c = c._next) {
    if (c.nodeType === NodeType.TEXT_NODE && (c as unknown as { data: string }).data !== '') return false;
  }
  return true;
}
