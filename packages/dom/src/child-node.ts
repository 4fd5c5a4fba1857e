/**
 * The editing methods of the ParentNode and ChildNode mixins (DOM Standard §4.2.6 "Mixin ParentNode":
 * `prepend`, `append`, `replaceChildren`; §4.2.8 "Mixin ChildNode": `before`, `after`, `replaceWith`,
 * `remove`), as functions the node classes call with `this`. Strings become Text nodes ("convert nodes
 * into a node"). Nothing here recurses.
 */
import { DocumentFragment } from './document-fragment.js';
import type { Document } from './document.js';
import {
  EXCLUDE_ALL_CHILDREN,
  Node,
  NodeType,
  createTextNode,
  domError,
  ensurePreInsertValidity,
  preInsert,
  replaceAll,
  replaceNode,
} from './node.js';

/** What the mixin methods take: nodes, and strings that become Text nodes. */
export type NodeOrString = Node | string;

/** A node's node document: the Document itself for a Document. */
function nodeDocument(node: Node): Document | null {
  return node.nodeType === NodeType.DOCUMENT_NODE ? (node as Document) : node._owner;
}

/**
 * DOM §4.2.6 "convert nodes into a node": strings become Text nodes of `document`; one node is returned
 * as is, several are appended, in order, to a new DocumentFragment (which can throw, e.g. for a Document
 * in the list).
 * @internal
 */
export function convertNodesIntoNode(nodes: readonly NodeOrString[], document: Document | null, method: string): Node {
  const converted: Node[] = [];
  for (const n of nodes) {
    if (n instanceof Node) converted.push(n);
    else if (typeof n === 'string') converted.push(createTextNode(n, document));
    else converted.push(createTextNode(String(n), document)); // WebIDL (Node or DOMString): anything else is stringified
  }
  if (converted.length === 1) return converted[0];
  const fragment = new DocumentFragment(document);
  for (const n of converted) preInsert(n, fragment, null, method);
  return fragment;
}

/** @internal `ParentNode.prepend(...nodes)`: insert before the first child. */
export function prepend(parent: Node, nodes: readonly NodeOrString[]): void {
  const node = convertNodesIntoNode(nodes, nodeDocument(parent), 'prepend');
  preInsert(node, parent, parent._first, 'prepend');
}

/** @internal `ParentNode.append(...nodes)`: insert after the last child. */
export function append(parent: Node, nodes: readonly NodeOrString[]): void {
  const node = convertNodesIntoNode(nodes, nodeDocument(parent), 'append');
  preInsert(node, parent, null, 'append');
}

/** @internal `ParentNode.replaceChildren(...nodes)`: the children become `nodes` (none: all removed). */
export function replaceChildren(parent: Node, nodes: readonly NodeOrString[]): void {
  const node = convertNodesIntoNode(nodes, nodeDocument(parent), 'replaceChildren');
  ensurePreInsertValidity(node, parent, null, EXCLUDE_ALL_CHILDREN, 'replaceChildren');
  replaceAll(node, parent);
}

/** Whether `node` is one of `nodes` (the viable-sibling searches skip those: they are about to move). */
function isIn(node: Node, nodes: readonly NodeOrString[]): boolean {
  for (const n of nodes) if (n === node) return true;
  return false;
}

/** @internal `ChildNode.before(...nodes)`: insert just before this node; nothing happens without a parent. */
export function before(child: Node, nodes: readonly NodeOrString[]): void {
  const parent = child._parent;
  if (parent === null) return;
  let viablePrevious = child._prev;
  while (viablePrevious !== null && isIn(viablePrevious, nodes)) viablePrevious = viablePrevious._prev;
  const node = convertNodesIntoNode(nodes, nodeDocument(child), 'before');
  preInsert(node, parent, viablePrevious === null ? parent._first : viablePrevious._next, 'before');
}

/** @internal `ChildNode.after(...nodes)`: insert just after this node; nothing happens without a parent. */
export function after(child: Node, nodes: readonly NodeOrString[]): void {
  const parent = child._parent;
  if (parent === null) return;
  const viableNext = firstFollowingNotIn(child, nodes);
  const node = convertNodesIntoNode(nodes, nodeDocument(child), 'after');
  preInsert(node, parent, viableNext, 'after');
}

/** @internal `ChildNode.replaceWith(...nodes)`: put `nodes` where this node is; nothing happens without a parent. */
export function replaceWith(child: Node, nodes: readonly NodeOrString[]): void {
  const parent = child._parent;
  if (parent === null) return;
  const viableNext = firstFollowingNotIn(child, nodes);
  const node = convertNodesIntoNode(nodes, nodeDocument(child), 'replaceWith');
  // `child` may have been moved into `node` by the conversion (it was one of `nodes`).
  if (child._parent === parent) replaceNode(child, node, parent, 'replaceWith');
  else preInsert(node, parent, viableNext, 'replaceWith');
}

function firstFollowingNotIn(child: Node, nodes: readonly NodeOrString[]): Node | null {
  let n = child._next;
  while (n !== null && isIn(n, nodes)) n = n._next;
  return n;
}

/** The `where` of `insertAdjacentElement`, `insertAdjacentText` and `insertAdjacentHTML` (ASCII case-insensitive). */
export type InsertPosition = 'beforebegin' | 'afterbegin' | 'beforeend' | 'afterend';

/**
 * DOM §4.9 "insert adjacent": pre-insert `node` relative to `element` — before it, as its first child,
 * as its last child, or after it. Returns the node, or null for beforebegin/afterend without a parent.
 * SyntaxError for any other `where`.
 * @internal
 */
export function insertAdjacent(element: Node, where: string, node: Node, method: string): Node | null {
  switch (asciiLower(String(where))) {
    case 'beforebegin':
      return element._parent === null ? null : preInsert(node, element._parent, element, method);
    case 'afterbegin':
      return preInsert(node, element, element._first, method);
    case 'beforeend':
      return preInsert(node, element, null, method);
    case 'afterend':
      return element._parent === null ? null : preInsert(node, element._parent, element._next, method);
    default:
      return domError('SyntaxError', `${method}: ${JSON.stringify(String(where))} is not one of "beforebegin", "afterbegin", "beforeend", "afterend"`);
  }
}

function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}
