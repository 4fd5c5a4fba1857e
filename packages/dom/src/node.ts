/**
 * The `Node` base class (DOM Standard §4.4 "Interface Node").
 *
 * Children are kept as a doubly linked list (`firstChild`/`lastChild`, `previousSibling`/`nextSibling`),
 * so inserting or removing any child is O(1) and the tree builder's "append to the current node" costs
 * nothing more than a few pointer writes. Nothing here recurses: tree walks follow parent and sibling
 * pointers, so a 100,000-deep document is no harder than a flat one.
 */
import type { SourceLocation } from '@sluice/tree-builder';
import type { Document } from './document.js';
import type { Element } from './element.js';

/** The node types of DOM Standard §4.4 (`Node.ELEMENT_NODE` …). */
export const NodeType = {
  ELEMENT_NODE: 1,
  ATTRIBUTE_NODE: 2,
  TEXT_NODE: 3,
  CDATA_SECTION_NODE: 4,
  ENTITY_REFERENCE_NODE: 5,
  ENTITY_NODE: 6,
  PROCESSING_INSTRUCTION_NODE: 7,
  COMMENT_NODE: 8,
  DOCUMENT_NODE: 9,
  DOCUMENT_TYPE_NODE: 10,
  DOCUMENT_FRAGMENT_NODE: 11,
  NOTATION_NODE: 12,
} as const;

/** Throw a `DOMException` the way the DOM Standard names it (e.g. `HierarchyRequestError`). */
export function domError(name: string, message: string): never {
  throw new DOMException(`${name}: ${message}`, name);
}

/**
 * The abstract base of every node: `Document`, `DocumentFragment`, `DocumentType`, `Element`, `Text`,
 * `Comment` and `Attr`.
 */
export abstract class Node {
  static readonly ELEMENT_NODE = 1;
  static readonly ATTRIBUTE_NODE = 2;
  static readonly TEXT_NODE = 3;
  static readonly CDATA_SECTION_NODE = 4;
  static readonly ENTITY_REFERENCE_NODE = 5;
  static readonly ENTITY_NODE = 6;
  static readonly PROCESSING_INSTRUCTION_NODE = 7;
  static readonly COMMENT_NODE = 8;
  static readonly DOCUMENT_NODE = 9;
  static readonly DOCUMENT_TYPE_NODE = 10;
  static readonly DOCUMENT_FRAGMENT_NODE = 11;
  static readonly NOTATION_NODE = 12;

  declare readonly ELEMENT_NODE: 1;
  declare readonly ATTRIBUTE_NODE: 2;
  declare readonly TEXT_NODE: 3;
  declare readonly CDATA_SECTION_NODE: 4;
  declare readonly ENTITY_REFERENCE_NODE: 5;
  declare readonly ENTITY_NODE: 6;
  declare readonly PROCESSING_INSTRUCTION_NODE: 7;
  declare readonly COMMENT_NODE: 8;
  declare readonly DOCUMENT_NODE: 9;
  declare readonly DOCUMENT_TYPE_NODE: 10;
  declare readonly DOCUMENT_FRAGMENT_NODE: 11;
  declare readonly NOTATION_NODE: 12;

  // Fields are `declare`d and assigned in the constructor, not initialized in place: with ES2022 class
  // fields (define semantics) V8 creates nodes markedly slower, and the DOM is on the parser's hot path.
  /** @internal */ declare _parent: Node | null;
  /** @internal */ declare _first: Node | null;
  /** @internal */ declare _last: Node | null;
  /** @internal */ declare _next: Node | null;
  /** @internal */ declare _prev: Node | null;
  /** @internal The `childNodes` snapshot, dropped whenever the children change. */
  declare _childArray: Node[] | null;
  /** @internal */ declare _owner: Document | null;

  /**
   * @internal The source location as two numbers (`_start < 0`: none). Kept as small integers in the node
   * itself rather than as a `{start, end}` object: a parsed document holds one per node, and every extra
   * object the DOM retains is copied by each young-generation GC until it is promoted.
   */
  declare _start: number;
  /** @internal */ declare _end: number;

  /**
   * @internal `container`: whether the node can have children (Document, DocumentFragment, Element).
   * Only those get the child fields; Text, Comment, DocumentType and Attr read them from their prototype
   * (always null, see `leafNode`). A parsed document is mostly Text and Element nodes, every one kept
   * alive and copied by the young-generation GC: three fields fewer per Text node is measurable.
   */
  constructor(ownerDocument: Document | null, location: SourceLocation | null, container: boolean) {
    this._parent = null;
    this._next = null;
    this._prev = null;
    this._owner = ownerDocument;
    this.sourceLocation = location;
    if (container) {
      this._first = null;
      this._last = null;
      this._childArray = null;
    }
  }

  /**
   * sluice extension: where the parser found this node, as `[start, end)` offsets in UTF-16 code units
   * into the input (an element's start tag; a text node's whole run of merged text). Null for nodes
   * built through the DOM API or implied by the parser (an implied `<html>`, `<tbody>` …).
   * Each read returns a new object (the node stores the two offsets, not the object).
   */
  get sourceLocation(): SourceLocation | null {
    return this._start < 0 ? null : { start: this._start, end: this._end };
  }
  set sourceLocation(location: SourceLocation | null) {
    if (location === null) {
      this._start = -1;
      this._end = -1;
    } else {
      this._start = location.start;
      this._end = location.end;
    }
  }

  /** The node type: one of the `Node.*_NODE` constants. */
  abstract get nodeType(): number;
  /** `#text`, `#comment`, `#document`, `#document-fragment`, an element's `tagName`, a doctype's name, an attribute's name. */
  abstract get nodeName(): string;

  /** The document this node belongs to; null for a Document itself. */
  get ownerDocument(): Document | null {
    return this._owner;
  }
  /** The parent node, or null. */
  get parentNode(): Node | null {
    return this._parent;
  }
  /** The parent if it is an Element, else null. */
  get parentElement(): Element | null {
    const p = this._parent;
    return p !== null && p.nodeType === NodeType.ELEMENT_NODE ? (p as Element) : null;
  }
  /** The first child, or null. */
  get firstChild(): Node | null {
    return this._first;
  }
  /** The last child, or null. */
  get lastChild(): Node | null {
    return this._last;
  }
  /** The next sibling, or null. */
  get nextSibling(): Node | null {
    return this._next;
  }
  /** The previous sibling, or null. */
  get previousSibling(): Node | null {
    return this._prev;
  }

  /**
   * The children, as an array. NOT live (unlike the DOM's `NodeList`): it is a snapshot of the children
   * when read. The same array is returned until the children change, so indexing it in a loop is O(1);
   * do not mutate it.
   */
  get childNodes(): readonly Node[] {
    if (this._first === null) return NO_NODES;
    let a = this._childArray;
    if (a === null) {
      a = [];
      for (let c: Node | null = this._first; c !== null; c = c._next) a.push(c);
      this._childArray = a;
    }
    return a;
  }

  /** Whether the node has children. */
  hasChildNodes(): boolean {
    return this._first !== null;
  }

  /** The node's value: a Text or Comment's data, an Attr's value; null for other nodes. */
  get nodeValue(): string | null {
    return null;
  }
  set nodeValue(_value: string | null) {
    // DOM §4.4: setting nodeValue on a node whose nodeValue is null does nothing.
  }

  /**
   * The text content (DOM §4.4): the concatenated data of all descendant Text nodes for an Element or
   * DocumentFragment; the data of a Text or Comment; null for a Document or DocumentType.
   */
  get textContent(): string | null {
    let out = '';
    for (let n = this._first; n !== null; n = nextInSubtree(n, this)) {
      if (n.nodeType === NodeType.TEXT_NODE) out += (n as unknown as { data: string }).data;
    }
    return out;
  }
  /** Replace all children with a single Text node holding `value` (none if it is empty). */
  set textContent(value: string | null) {
    const doc = this._owner;
    while (this._last !== null) this._removeChild(this._last);
    if (value !== null && value !== '' && doc !== null) this._insertBefore(doc.createTextNode(value), null);
  }

  /** Whether `other` is this node or one of its descendants. */
  contains(other: Node | null): boolean {
    for (let n = other; n !== null; n = n._parent) if (n === this) return true;
    return false;
  }

  /** Append `node` as the last child (DOM `appendChild`, moving it if it already has a parent). */
  appendChild<T extends Node>(node: T): T {
    return this.insertBefore(node, null);
  }

  /**
   * Insert `node` before `child`, or append it when `child` is null (DOM §4.2.3 "pre-insert"). A node that
   * already has a parent is moved; a DocumentFragment's children are moved in its place.
   * Throws a `DOMException` (HierarchyRequestError, NotFoundError) for an insertion the DOM forbids.
   */
  insertBefore<T extends Node>(node: T, child: Node | null): T {
    ensurePreInsertionValidity(node, this, child);
    let ref = child;
    if (ref === node) ref = node._next;
    this._insertBefore(node, ref);
    return node;
  }

  /** Remove `child` from this node's children and return it. Throws NotFoundError if it is not a child. */
  removeChild<T extends Node>(child: T): T {
    if (child._parent !== this) domError('NotFoundError', 'removeChild: the node to remove is not a child of this node');
    this._removeChild(child);
    return child;
  }

  /** Replace `child` with `node` (DOM `replaceChild`). */
  replaceChild<T extends Node>(node: Node, child: T): T {
    if (child._parent !== this) domError('NotFoundError', 'replaceChild: the node to replace is not a child of this node');
    if (node === child) return child;
    ensurePreInsertionValidity(node, this, null, child);
    const ref = child._next === node ? node._next : child._next;
    this._removeChild(child);
    this._insertBefore(node, ref);
    return child;
  }

  /** Remove this node from its parent, if it has one (DOM `ChildNode.remove()`). */
  remove(): void {
    if (this._parent !== null) this._parent._removeChild(this);
  }

  /**
   * A copy of this node (DOM §4.4 "clone a node"): with its attributes, data or doctype fields; with
   * `deep`, its descendants too, and a template's contents (HTML's template cloning steps). The copy has
   * no parent, the same owner document, and no source location (it did not come from the input).
   * Iterative: any depth works.
   */
  cloneNode(deep = false): this {
    const copy = this._cloneShallow(this._owner);
    if (!deep) return copy as this;
    // A document's copy owns the copies of its descendants (DOM §4.4 "clone a node", step on documents).
    const owner = copy.nodeType === NodeType.DOCUMENT_NODE ? (copy as unknown as Document) : this._owner;
    // Pairs of (source parent, copy parent) whose children are still to be copied.
    const work: Node[] = [this, copy];
    const content = this._templateContents();
    if (content !== null) work.push(content, copy._templateContents()!);
    while (work.length > 0) {
      const to = work.pop()!;
      const from = work.pop()!;
      for (let c = from._first; c !== null; c = c._next) {
        const cc = c._cloneShallow(owner);
        to._insertBefore(cc, null);
        if (c._first !== null) work.push(c, cc);
        const inner = c._templateContents();
        if (inner !== null && inner._first !== null) work.push(inner, cc._templateContents()!);
      }
    }
    return copy as this;
  }

  /** @internal A copy of this node without its children. */
  abstract _cloneShallow(owner: Document | null): Node;

  /** @internal A template's contents; null for every other node. */
  _templateContents(): Node | null {
    return null;
  }

  /**
   * @internal Insert without the validity checks (the tree builder's inserts are valid by construction,
   * and the ancestor check would cost O(depth) per insert). Moves `node` if it has a parent.
   */
  _insertBefore(node: Node, ref: Node | null): void {
    if (node.nodeType === NodeType.DOCUMENT_FRAGMENT_NODE) {
      let c = node._first;
      while (c !== null) {
        const next = c._next;
        this._insertBefore(c, ref);
        c = next;
      }
      return;
    }
    if (node._parent !== null) node._parent._removeChild(node);
    node._parent = this;
    if (ref === null) {
      const last = this._last;
      node._prev = last;
      node._next = null;
      if (last === null) this._first = node;
      else last._next = node;
      this._last = node;
    } else {
      const prev = ref._prev;
      node._prev = prev;
      node._next = ref;
      ref._prev = node;
      if (prev === null) this._first = node;
      else prev._next = node;
    }
    this._childArray = null;
  }

  /** @internal Unlink a child (the caller made sure it is one). */
  _removeChild(child: Node): void {
    const prev = child._prev;
    const next = child._next;
    if (prev === null) this._first = next;
    else prev._next = next;
    if (next === null) this._last = prev;
    else next._prev = prev;
    child._parent = null;
    child._prev = null;
    child._next = null;
    this._childArray = null;
  }
}

for (const [name, value] of Object.entries(NodeType)) {
  Object.defineProperty(Node.prototype, name, { value, enumerable: true });
}

/** The `childNodes` of a node without children (frozen: shared by all of them). */
const NO_NODES: readonly Node[] = Object.freeze([]);

/**
 * @internal Mark a node class whose instances never have children: its child fields are read-only nulls
 * on the prototype instead of fields of each instance (writing one throws: nothing is ever inserted into
 * such a node).
 */
export function leafNode(prototype: Node): void {
  for (const name of ['_first', '_last', '_childArray']) Object.defineProperty(prototype, name, { value: null, writable: false });
}

/**
 * The node after `node` in tree order, staying inside `root`'s subtree (`root` itself excluded), or null.
 * Iterative: it follows first-child, next-sibling and parent pointers.
 */
export function nextInSubtree(node: Node, root: Node): Node | null {
  if (node._first !== null) return node._first;
  return nextSkippingChildren(node, root);
}

/** Like {@link nextInSubtree}, but does not descend into `node`'s children. */
export function nextSkippingChildren(node: Node, root: Node): Node | null {
  let n: Node | null = node;
  while (n !== null && n !== root) {
    if (n._next !== null) return n._next;
    n = n._parent;
  }
  return null;
}

/** DOM §4.2.3 "ensure pre-insertion validity", plus the replace variant's document checks. */
function ensurePreInsertionValidity(node: Node, parent: Node, child: Node | null, replacing: Node | null = null): void {
  const pt = parent.nodeType;
  if (pt !== NodeType.DOCUMENT_NODE && pt !== NodeType.DOCUMENT_FRAGMENT_NODE && pt !== NodeType.ELEMENT_NODE) {
    domError('HierarchyRequestError', `cannot insert into a node of type ${pt} (${parent.nodeName})`);
  }
  // Host-including inclusive ancestor check: a template's contents count its template as host. A node
  // with no children (and no template contents) can only be an inclusive ancestor of itself, so the
  // usual case, appending a new node, skips the O(depth) walk.
  if (node === parent) domError('HierarchyRequestError', 'cannot insert a node into itself');
  const content = (node as unknown as { content?: Node }).content;
  if (node._first !== null || (content instanceof Node && content._first !== null)) {
    for (let a: Node | null = parent; a !== null; a = a._parent ?? hostOf(a)) {
      if (a === node) domError('HierarchyRequestError', 'the node to insert is an ancestor of the parent');
    }
  }
  if (child !== null && child._parent !== parent) {
    domError('NotFoundError', 'the reference child is not a child of this node');
  }
  const nt = node.nodeType;
  if (
    nt !== NodeType.DOCUMENT_FRAGMENT_NODE &&
    nt !== NodeType.DOCUMENT_TYPE_NODE &&
    nt !== NodeType.ELEMENT_NODE &&
    nt !== NodeType.TEXT_NODE &&
    nt !== NodeType.COMMENT_NODE &&
    nt !== NodeType.PROCESSING_INSTRUCTION_NODE &&
    nt !== NodeType.CDATA_SECTION_NODE
  ) {
    domError('HierarchyRequestError', `a node of type ${nt} (${node.nodeName}) cannot be inserted`);
  }
  if (nt === NodeType.TEXT_NODE && pt === NodeType.DOCUMENT_NODE) {
    domError('HierarchyRequestError', 'a Text node cannot be a child of a Document');
  }
  if (nt === NodeType.DOCUMENT_TYPE_NODE && pt !== NodeType.DOCUMENT_NODE) {
    domError('HierarchyRequestError', 'a DocumentType can only be a child of a Document');
  }
  if (pt !== NodeType.DOCUMENT_NODE) return;
  // Document children: at most one element, at most one doctype, doctype before the element.
  const ref = replacing ?? child;
  const hasOther = (type: number): boolean => {
    for (let c = parent._first; c !== null; c = c._next) if (c.nodeType === type && c !== replacing) return true;
    return false;
  };
  const followsRef = (type: number): boolean => {
    for (let c = ref === null ? null : ref._next; c !== null; c = c._next) if (c.nodeType === type) return true;
    return false;
  };
  const precedesRef = (type: number): boolean => {
    for (let c = parent._first; c !== null && c !== ref; c = c._next) if (c.nodeType === type && c !== replacing) return true;
    return false;
  };
  let elements = 0;
  if (nt === NodeType.DOCUMENT_FRAGMENT_NODE) {
    for (let c = node._first; c !== null; c = c._next) {
      if (c.nodeType === NodeType.ELEMENT_NODE) elements++;
      else if (c.nodeType === NodeType.TEXT_NODE) domError('HierarchyRequestError', 'a Text node cannot be a child of a Document');
    }
    if (elements > 1) domError('HierarchyRequestError', 'a Document can have only one element child');
  } else if (nt === NodeType.ELEMENT_NODE) {
    elements = 1;
  }
  if (elements === 1) {
    if (hasOther(NodeType.ELEMENT_NODE)) domError('HierarchyRequestError', 'a Document can have only one element child');
    if (ref !== null && (ref.nodeType === NodeType.DOCUMENT_TYPE_NODE || followsRef(NodeType.DOCUMENT_TYPE_NODE)) && ref !== replacing) {
      domError('HierarchyRequestError', 'the document element must come after the doctype');
    }
    if (replacing !== null && followsRef(NodeType.DOCUMENT_TYPE_NODE)) {
      domError('HierarchyRequestError', 'the document element must come after the doctype');
    }
  }
  if (nt === NodeType.DOCUMENT_TYPE_NODE) {
    if (hasOther(NodeType.DOCUMENT_TYPE_NODE)) domError('HierarchyRequestError', 'a Document can have only one doctype');
    if (precedesRef(NodeType.ELEMENT_NODE) || (ref === null && hasOther(NodeType.ELEMENT_NODE))) {
      domError('HierarchyRequestError', 'the doctype must come before the document element');
    }
  }
}

/** The template element whose contents `node` is, if it is one (host-including ancestors, DOM §4.2.2). */
function hostOf(node: Node): Node | null {
  return (node as unknown as { _host?: Node | null })._host ?? null;
}
