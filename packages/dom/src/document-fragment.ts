/** `DocumentFragment` (DOM Standard §4.7). */
import type { Document } from './document.js';
import type { Element } from './element.js';
import { Node, NodeType } from './node.js';
import * as parentNode from './parent-node.js';
import * as query from './query/index.js'; // Querying (issue #16)
import * as childNode from './child-node.js'; // Editing (issue #16)

/**
 * A DocumentFragment: a parentless container of nodes. Inserting it moves its children. It is also what
 * `parseFragment` returns and what a `<template>`'s `content` is.
 */
export class DocumentFragment extends Node {
  /** @internal The template whose contents this is (its "host", DOM §4.7), or null. */
  declare _host: Element | null;

  /** Create an empty fragment (like `new DocumentFragment()`; prefer `document.createDocumentFragment()`). */
  constructor(ownerDocument: Document | null = null) {
    super(ownerDocument, null, true);
    this._host = null;
  }
  get nodeType(): 11 {
    return NodeType.DOCUMENT_FRAGMENT_NODE;
  }
  get nodeName(): '#document-fragment' {
    return '#document-fragment';
  }
  /** @internal */
  _cloneShallow(owner: Document | null): DocumentFragment {
    return new DocumentFragment(owner);
  }
  // ---- Editing (issue #16): DOM §4.2.6 ParentNode (algorithms in child-node.ts).
  /** Insert nodes (strings become Text nodes) before the first child (DOM `ParentNode.prepend`). */
  prepend(...nodes: (Node | string)[]): void {
    childNode.prepend(this, nodes);
  }
  /** Insert nodes (strings become Text nodes) after the last child (DOM `ParentNode.append`). */
  append(...nodes: (Node | string)[]): void {
    childNode.append(this, nodes);
  }
  /** Replace all children with `nodes` (strings become Text nodes; none: remove all). */
  replaceChildren(...nodes: (Node | string)[]): void {
    childNode.replaceChildren(this, nodes);
  }
  // ---- End of editing block.
  /** The element children (a snapshot array). */
  get children(): Element[] {
    return parentNode.elementChildren(this);
  }
  /** The first element child, or null. */
  get firstElementChild(): Element | null {
    return parentNode.firstElementChild(this);
  }
  /** The last element child, or null. */
  get lastElementChild(): Element | null {
    return parentNode.lastElementChild(this);
  }
  /** The number of element children. */
  get childElementCount(): number {
    return parentNode.childElementCount(this);
  }
  /** The first descendant element whose id is `id`, or null. */
  getElementById(id: string): Element | null {
    return parentNode.getElementById(this, id);
  }
  /** Descendant elements with this qualified name (`*` for all), in tree order; a snapshot array. */
  getElementsByTagName(qualifiedName: string): Element[] {
    return parentNode.getElementsByTagName(this, qualifiedName);
  }
  // --- Querying (issue #16 item 1; see query/query.ts) ---
  /** The first descendant element matching the selector list, in tree order, or null. Throws a `SyntaxError` DOMException for an invalid selector. */
  querySelector(selectors: string): Element | null {
    return query.querySelector(this, selectors);
  }
  /** The descendant elements matching the selector list, in tree order: a static snapshot (an array). */
  querySelectorAll(selectors: string): Element[] {
    return query.querySelectorAll(this, selectors);
  }
  // --- end Querying ---
}
