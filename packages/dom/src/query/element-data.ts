/**
 * What the matcher reads of a node, straight from the DOM's fields: parent and sibling elements, and
 * attribute values.
 */
import { NS } from '@sluice/tree-builder';
import type { Element } from '../element.js';
import { type Node, NodeType } from '../node.js';

/** The parent if it is an element, else null (a document's or a fragment's child, or a detached element). */
export function parentElementOf(el: Node): Element | null {
  const p = el._parent;
  return p !== null && p.nodeType === NodeType.ELEMENT_NODE ? (p as Element) : null;
}

/** The previous sibling that is an element, or null. */
export function previousElementOf(el: Node): Element | null {
  for (let s = el._prev; s !== null; s = s._prev) if (s.nodeType === NodeType.ELEMENT_NODE) return s as Element;
  return null;
}

/** The next sibling that is an element, or null. */
export function nextElementOf(el: Node): Element | null {
  for (let s = el._next; s !== null; s = s._next) if (s.nodeType === NodeType.ELEMENT_NODE) return s as Element;
  return null;
}

/**
 * The value of the element's attribute in no namespace whose name is `name` (already lowercase), or null.
 * For HTML elements only (their attribute names are lowercase). An element still holding its raw start
 * tag gets its attributes decoded here, once (`_attrs`): a query reads the same attributes of every
 * element, and often again in the next query; scanning the raw tag for each read measured slower
 * (bench/query.mjs) than decoding it once.
 */
export function htmlAttributeValue(el: Element, name: string): string | null {
  const data = el._attrs;
  for (let i = 0; i < data.length; i++) {
    const a = data[i]!;
    if (a.name === name && a.namespace === null) return a.value;
  }
  return null;
}

/** The value of the attribute in no namespace named `name` (lowercase) on any element, or null. */
export function attributeValue(el: Element, name: string): string | null {
  if (el.namespaceURI === NS.HTML) return htmlAttributeValue(el, name);
  const attrs = el._attrs;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    if (a.namespace === null && a.localName === name) return a.value;
  }
  return null;
}

/** Whether `el` is an HTML element named `localName`. */
export function isHtmlElement(el: Element, localName: string): boolean {
  return el.localName === localName && el.namespaceURI === NS.HTML;
}
