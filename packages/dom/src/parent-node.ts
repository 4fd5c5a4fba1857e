/**
 * Queries shared by Document, DocumentFragment and Element (DOM Standard §4.2.6 "Mixin ParentNode",
 * §4.2.4 "Mixin NonElementParentNode", §4.4 "list of elements with qualified name").
 * All walks are iterative (pointer chasing, no recursion).
 */
import { NS } from '@sluice/tree-builder';
import type { Element } from './element.js';
import { type Node, NodeType, nextInSubtree } from './node.js';

/** The element children of `parent`, in order (a snapshot array). */
export function elementChildren(parent: Node): Element[] {
  const out: Element[] = [];
  for (let c = parent._first; c !== null; c = c._next) if (c.nodeType === NodeType.ELEMENT_NODE) out.push(c as Element);
  return out;
}

/** The first element child of `parent`, or null. */
export function firstElementChild(parent: Node): Element | null {
  for (let c = parent._first; c !== null; c = c._next) if (c.nodeType === NodeType.ELEMENT_NODE) return c as Element;
  return null;
}

/** The last element child of `parent`, or null. */
export function lastElementChild(parent: Node): Element | null {
  for (let c = parent._last; c !== null; c = c._prev) if (c.nodeType === NodeType.ELEMENT_NODE) return c as Element;
  return null;
}

/** The number of element children of `parent`. */
export function childElementCount(parent: Node): number {
  let n = 0;
  for (let c = parent._first; c !== null; c = c._next) if (c.nodeType === NodeType.ELEMENT_NODE) n++;
  return n;
}

/** The first descendant element of `root`, in tree order, whose `id` attribute is `id`; or null. */
export function getElementById(root: Node, id: string): Element | null {
  // DOM §4.9: an element whose `id` attribute is empty has no ID, so '' finds nothing (as in browsers).
  if (id === '') return null;
  for (let n = root._first; n !== null; n = nextInSubtree(n, root)) {
    if (n.nodeType === NodeType.ELEMENT_NODE && (n as Element).getAttribute('id') === id) return n as Element;
  }
  return null;
}

/**
 * The descendant elements of `root`, in tree order, with this qualified name (DOM §4.4 "list of elements
 * with qualified name"): `*` matches every element; an HTML element matches the ASCII-lowercased name,
 * any other element the name as given. Returns a snapshot array (the DOM's HTMLCollection is live).
 */
export function getElementsByTagName(root: Node, qualifiedName: string): Element[] {
  const out: Element[] = [];
  const all = qualifiedName === '*';
  const lower = asciiLowercase(qualifiedName);
  for (let n = root._first; n !== null; n = nextInSubtree(n, root)) {
    if (n.nodeType !== NodeType.ELEMENT_NODE) continue;
    const el = n as Element;
    if (all) {
      out.push(el);
      continue;
    }
    const q = el.prefix === null ? el.localName : `${el.prefix}:${el.localName}`;
    if (el.namespaceURI === NS.HTML ? q === lower : q === qualifiedName) out.push(el);
  }
  return out;
}

/** ASCII lowercase (Infra): only A–Z change. */
export function asciiLowercase(s: string): string {
  return /[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s;
}

/** ASCII uppercase (Infra): only a–z change (`'ß'.toUpperCase()` would give `SS`). */
export function asciiUppercase(s: string): string {
  return /[a-z]/.test(s) ? s.replace(/[a-z]+/g, (m) => m.toUpperCase()) : s;
}
