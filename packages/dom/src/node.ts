/**
 * The `Node` base class (DOM Standard §4.4 "Interface Node").
 *
 * Children are kept as a doubly linked list (`firstChild`/`lastChild`, `previousSibling`/`nextSibling`),
 * so inserting or removing any child is O(1) and the tree builder's "append to the current node" costs
 * nothing more than a few pointer writes. Nothing here recurses: tree walks follow parent and sibling
 * pointers, so a 100,000-deep document is no harder than a flat one.
 */
import type { SourceLocation } from '@sluice/tree-builder';
import { locate, type NodeSourceLocation, type SourceText } from './source-location.js';
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

/**
 * Throw a `DOMException` the way the DOM Standard names it: `name` is the exception's name
 * (`HierarchyRequestError`, `NotFoundError`, `InvalidCharacterError`, `SyntaxError`…, WebIDL §2.8.1),
 * `message` says what was wrong, starting with the method that refused (`insertBefore: …`). The name is
 * not repeated in the message: `String(error)` and stack traces already print `name: message`.
 */
export function domError(name: string, message: string): never {
  throw new DOMException(message, name);
}

/** @internal Makes a Text node (registered by character-data.ts: node.ts cannot import it, it extends Node). */
let makeText: ((data: string, owner: Document | null) => Node) | null = null;

/** @internal Register the Text constructor for the algorithms here that create text nodes. */
export function registerTextFactory(factory: (data: string, owner: Document | null) => Node): void {
  makeText = factory;
}

/** @internal DOM §4.2.3 "create a text node" given a document (null: a node made without one). */
export function createTextNode(data: string, owner: Document | null): Node {
  return makeText!(data, owner);
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
  /** `compareDocumentPosition` bits (DOM §4.4). */
  static readonly DOCUMENT_POSITION_DISCONNECTED = 1;
  static readonly DOCUMENT_POSITION_PRECEDING = 2;
  static readonly DOCUMENT_POSITION_FOLLOWING = 4;
  static readonly DOCUMENT_POSITION_CONTAINS = 8;
  static readonly DOCUMENT_POSITION_CONTAINED_BY = 16;
  static readonly DOCUMENT_POSITION_IMPLEMENTATION_SPECIFIC = 32;

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
  declare readonly DOCUMENT_POSITION_DISCONNECTED: 1;
  declare readonly DOCUMENT_POSITION_PRECEDING: 2;
  declare readonly DOCUMENT_POSITION_FOLLOWING: 4;
  declare readonly DOCUMENT_POSITION_CONTAINS: 8;
  declare readonly DOCUMENT_POSITION_CONTAINED_BY: 16;
  declare readonly DOCUMENT_POSITION_IMPLEMENTATION_SPECIFIC: 32;

  // Fields are `declare`d and assigned in the constructor, not initialized in place: with ES2022 class
  // fields (define semantics) V8 creates nodes markedly slower, and the DOM is on the parser's hot path.
  /** @internal */ declare _parent: Node | null;
  /** @internal */ declare _first: Node | null;
  /** @internal */ declare _last: Node | null;
  /** @internal */ declare _next: Node | null;
  /** @internal */ declare _prev: Node | null;
  /**
   * @internal What only some nodes that can have children need (the `childNodes` snapshot; an element's
   * prefix, `attributes` map…), made when first needed — Blink's NodeRareData: a parsed document has
   * many elements, each kept alive and copied by the young-generation GC, so a field few of them use is
   * one less to copy when it lives here. Null on the prototype of nodes that cannot have children.
   */
  declare _extra: NodeExtra | null;
  /** @internal */ declare _owner: Document | null;

  /**
   * @internal The source location as two numbers (`_start < 0`: none). Kept as small integers in the node
   * itself rather than as a `{start, end}` object: a parsed document holds one per node, and every extra
   * object the DOM retains is copied by each young-generation GC until it is promoted.
   */
  declare _start: number;
  /** @internal */ declare _end: number;
  /**
   * @internal With source locations on (`parse`'s `sourceLocations`): the input's text, from which
   * `sourceLocation` works out lines and columns. Set only on nodes so parsed (absent on all others).
   */
  declare _source?: SourceText;

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
    // Not through the `sourceLocation` setter: a new node has nothing to decode first, and the setter's
    // `_beforeLocationChange` would read fields the subclass has not set yet (a lookup that misses, on
    // every node the parser makes).
    if (location === null) {
      this._start = -1;
      this._end = -1;
    } else {
      this._start = location.start;
      this._end = location.end;
    }
    if (container) {
      this._first = null;
      this._last = null;
      this._extra = null;
    }
  }

  /**
   * sluice extension: where the parser found this node, as `[start, end)` offsets in UTF-16 code units
   * into the input (an element's start tag; a text node's whole run of merged text). Null for nodes
   * built through the DOM API or implied by the parser (an implied `<html>`, `<tbody>` …).
   * Parsed with `sourceLocations: true`, also parse5's `sourceCodeLocation` fields — lines, columns,
   * offsets; an element's `startTag`, `endTag`, `attrs` (see `NodeSourceLocation`, docs/parsing.md).
   * Each read returns a new object (the node stores the two offsets, not the object).
   */
  get sourceLocation(): NodeSourceLocation | null {
    if (this._start < 0) return null;
    const source = this._source;
    const end = this._end;
    return source === undefined ? { start: this._start, end: end < -1 ? endOfUndecoded(end) : end } : locate(this, source);
  }
  set sourceLocation(location: SourceLocation | null) {
    // What is still decoded from the input at the old location (a Text's data, an element's attributes)
    // is decoded first.
    this._beforeLocationChange();
    if (location === null) {
      this._start = -1;
      this._end = -1;
    } else {
      this._start = location.start;
      this._end = location.end;
    }
  }

  /** @internal Called before `_start` and `_end` change: decode what is still read from the input there. */
  _beforeLocationChange(): void {}

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
    const extra = this._extra;
    let a = extra === null ? null : extra.childArray;
    if (a === null) {
      a = [];
      for (let c: Node | null = this._first; c !== null; c = c._next) a.push(c);
      this._extraOf().childArray = a;
    }
    return a;
  }

  /** @internal The node's `NodeExtra`, made on first use (only nodes that can have children have one). */
  _extraOf(): NodeExtra {
    return (this._extra ??= new NodeExtra());
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
  /**
   * DOM §4.4 `textContent` setter, for an Element or DocumentFragment: "string replace all" — the
   * children are replaced by one Text node holding `value`, or by nothing when `value` is empty or null.
   * (Document and DocumentType ignore it; Text, Comment and Attr set their data or value.)
   */
  set textContent(value: string | null) {
    const data = value === null ? '' : String(value);
    replaceAll(data === '' ? null : createTextNode(data, this._owner), this);
  }

  /** Whether `other` is this node or one of its descendants. */
  contains(other: Node | null): boolean {
    for (let n = other; n !== null; n = n._parent) if (n === this) return true;
    return false;
  }

  /** Whether the node's root is a Document (DOM §4.4 `isConnected`; template contents are not connected). */
  get isConnected(): boolean {
    return this.getRootNode().nodeType === NodeType.DOCUMENT_NODE;
  }

  /** The root of the node's tree: the topmost ancestor, or the node itself (DOM §4.4 `getRootNode`). */
  getRootNode(_options?: { composed?: boolean }): Node {
    let n: Node = this;
    while (n._parent !== null) n = n._parent;
    return n;
  }

  /** Whether `other` is this very node (DOM §4.4 `isSameNode`, the same as `===`). */
  isSameNode(other: Node | null): boolean {
    return other === this;
  }

  /**
   * Whether `other` equals this node (DOM §4.4 "equals"): same type, the same name/namespace/prefix,
   * attributes (in any order), data or doctype fields, and children that are equal in order. Template
   * contents are not compared (the DOM does not). Iterative.
   */
  isEqualNode(other: Node | null): boolean {
    if (other === null || other === undefined) return false;
    const pending: Node[] = [this, other];
    while (pending.length > 0) {
      const b = pending.pop()!;
      const a = pending.pop()!;
      if (!shallowEquals(a, b)) return false;
      let ca = a._first;
      let cb = b._first;
      while (ca !== null && cb !== null) {
        pending.push(ca, cb);
        ca = ca._next;
        cb = cb._next;
      }
      if (ca !== null || cb !== null) return false;
    }
    return true;
  }

  /**
   * Where `other` is relative to this node (DOM §4.4 `compareDocumentPosition`): a mask of
   * `Node.DOCUMENT_POSITION_*` bits — PRECEDING or FOLLOWING, plus CONTAINS (other is an ancestor) or
   * CONTAINED_BY (a descendant); DISCONNECTED and IMPLEMENTATION_SPECIFIC (with a consistent order) for
   * nodes in different trees; 0 for the node itself. Attributes count as just after their element.
   */
  compareDocumentPosition(other: Node): number {
    if (other === this) return 0;
    let node1: Node | null = other;
    let node2: Node | null = this;
    let attr1: Node | null = null;
    let attr2: Node | null = null;
    if (node1.nodeType === NodeType.ATTRIBUTE_NODE) {
      attr1 = node1;
      node1 = ownerElementOf(node1);
    }
    if (node2.nodeType === NodeType.ATTRIBUTE_NODE) {
      attr2 = node2;
      node2 = ownerElementOf(node2);
      if (attr1 !== null && node1 !== null && node2 === node1) {
        for (const attr of (node2 as unknown as { attributes: Iterable<Node> }).attributes) {
          if (shallowEquals(attr, attr1)) return POSITION.IMPLEMENTATION_SPECIFIC + POSITION.PRECEDING;
          if (shallowEquals(attr, attr2)) return POSITION.IMPLEMENTATION_SPECIFIC + POSITION.FOLLOWING;
        }
      }
    }
    if (node1 === null || node2 === null || node1.getRootNode() !== node2.getRootNode()) {
      const order = node1 === null || node2 === null ? 0 : treeOrderKey(node1.getRootNode()) - treeOrderKey(node2.getRootNode());
      return POSITION.DISCONNECTED + POSITION.IMPLEMENTATION_SPECIFIC + (order < 0 ? POSITION.PRECEDING : POSITION.FOLLOWING);
    }
    if ((attr1 === null && node1 !== node2 && node1.contains(node2)) || (node1 === node2 && attr2 !== null)) {
      return POSITION.CONTAINS + POSITION.PRECEDING;
    }
    if ((attr2 === null && node1 !== node2 && node2.contains(node1)) || (node1 === node2 && attr1 !== null)) {
      return POSITION.CONTAINED_BY + POSITION.FOLLOWING;
    }
    return precedes(node1, node2) ? POSITION.PRECEDING : POSITION.FOLLOWING;
  }

  /**
   * Merge adjacent Text nodes and remove empty ones, in this node's descendants (DOM §4.4 `normalize`).
   * Iterative.
   */
  normalize(): void {
    let n = this._first;
    while (n !== null) {
      if (n.nodeType !== NodeType.TEXT_NODE) {
        n = nextInSubtree(n, this);
        continue;
      }
      const text = n as unknown as { data: string };
      if (text.data.length === 0) {
        const next = nextSkippingChildren(n, this);
        n._parent!._removeChild(n);
        n = next;
        continue;
      }
      let data = '';
      let current = n._next;
      while (current !== null && current.nodeType === NodeType.TEXT_NODE) {
        data += (current as unknown as { data: string }).data;
        const following: Node | null = current._next;
        current._parent!._removeChild(current);
        current = following;
      }
      if (data !== '') text.data += data;
      n = nextSkippingChildren(n, this);
    }
  }

  /**
   * Append `node` as the last child (DOM §4.4 `appendChild`, the "append" of §4.2.3). A node that already
   * has a parent is moved; a DocumentFragment's children are moved in its place. Returns `node`.
   * Throws HierarchyRequestError for an insertion the DOM forbids (see {@link insertBefore}).
   */
  appendChild<T extends Node>(node: T): T {
    return preInsert(node, this, null, 'appendChild');
  }

  /**
   * Insert `node` before `child`, or append it when `child` is null (DOM §4.2.3 "pre-insert"). A node that
   * already has a parent is moved; a DocumentFragment's children are moved in its place; a node from
   * another document is adopted into this one. Returns `node`.
   *
   * Throws a `DOMException`: `HierarchyRequestError` when this node cannot have children, when `node` is
   * this node or one of its ancestors, when `node` is a Document or an Attr, when a Text node would be a
   * child of a Document or a doctype a child of anything else, and when a Document would end up with two
   * elements, two doctypes, or its doctype after its element; `NotFoundError` when `child` is not a
   * child of this node.
   */
  insertBefore<T extends Node>(node: T, child: Node | null): T {
    return preInsert(node, this, child ?? null, 'insertBefore');
  }

  /** Remove `child` from this node's children and return it (DOM §4.2.3 "pre-remove"). Throws NotFoundError if it is not a child. */
  removeChild<T extends Node>(child: T): T {
    if (!(child instanceof Node)) throw new TypeError(`removeChild: the argument is not a Node (got ${describe(child)})`);
    if (child._parent !== this) domError('NotFoundError', 'removeChild: the node to remove is not a child of this node');
    this._removeChild(child);
    return child;
  }

  /**
   * Replace `child` with `node` (DOM §4.2.3 "replace"); returns `child`. Throws like {@link insertBefore}
   * (NotFoundError when `child` is not a child of this node).
   */
  replaceChild<T extends Node>(node: Node, child: T): T {
    replaceNode(child, node, this, 'replaceChild');
    return child;
  }

  /**
   * Remove this node from its parent, if it has one (DOM §4.2.8 `ChildNode.remove()`; in the DOM only
   * elements, character data and doctypes have it, here every node does).
   */
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
    const extra = this._extra;
    if (extra !== null) extra.childArray = null;
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
    const extra = this._extra;
    if (extra !== null) extra.childArray = null;
  }
}

for (const [name, value] of Object.entries(NodeType)) {
  Object.defineProperty(Node.prototype, name, { value, enumerable: true });
}

/**
 * @internal `_end` of a Text node whose data is still undecoded (see `CharacterData`): the end offset and
 * the token's text kind (an index, 0–7) in one number below -1 (-1 is "no location"). It stays a small
 * integer for every end below 2^27, which `DomTreeSink` makes sure of.
 */
export function undecodedEnd(end: number, kind: number): number {
  return -2 - (end * 8 + kind);
}
/** @internal The end offset of an `undecodedEnd`. */
export function endOfUndecoded(encoded: number): number {
  return Math.floor((-2 - encoded) / 8);
}
/** @internal The text kind of an `undecodedEnd`. */
export function kindOfUndecoded(encoded: number): number {
  return (-2 - encoded) % 8;
}

/**
 * @internal The rarely needed part of a node that can have children (see `Node._extra`); an element's is
 * an `ElementExtra`, which has more.
 */
export class NodeExtra {
  /** The `childNodes` snapshot, dropped whenever the children change. */
  declare childArray: Node[] | null;
  constructor() {
    this.childArray = null;
  }
}

/** The `childNodes` of a node without children (frozen: shared by all of them). */
const NO_NODES: readonly Node[] = Object.freeze([]);

/**
 * @internal Mark a node class whose instances never have children: its child fields are read-only nulls
 * on the prototype instead of fields of each instance (writing one throws: nothing is ever inserted into
 * such a node).
 */
export function leafNode(prototype: Node): void {
  for (const name of ['_first', '_last', '_extra']) Object.defineProperty(prototype, name, { value: null, writable: false });
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

/** `childrenToExclude` of DOM §4.2.3 "ensure pre-insert validity": all of the parent's children. */
const ALL_CHILDREN = Symbol('all children');

/**
 * DOM §4.2.3 "ensure pre-insert validity" given `node`, `parent`, `child` and `childrenToExclude`
 * (nothing, the one child being replaced, or all children for `replaceChildren`). `method` names the
 * caller in the error messages. Iterative: the ancestor check walks up the parent chain.
 * @internal
 */
export function ensurePreInsertValidity(
  node: Node,
  parent: Node,
  child: Node | null,
  exclude: Node | typeof ALL_CHILDREN | null,
  method: string,
): void {
  if (!(node instanceof Node)) throw new TypeError(`${method}: the node to insert is not a Node (got ${describe(node)})`);
  if (child !== null && !(child instanceof Node)) throw new TypeError(`${method}: the reference child is not a Node or null (got ${describe(child)})`);
  const pt = parent.nodeType;
  // Step 1.
  if (pt !== NodeType.DOCUMENT_NODE && pt !== NodeType.DOCUMENT_FRAGMENT_NODE && pt !== NodeType.ELEMENT_NODE) {
    domError('HierarchyRequestError', `${method}: ${kindOf(parent)} cannot have children`);
  }
  // Step 2: node is a host-including inclusive ancestor of parent (a template's contents count their
  // template as host, DOM §4.2.2). A node without children or template contents can only be an
  // inclusive ancestor of itself, so the common case, inserting a new leaf, skips the O(depth) walk.
  if (node === parent) domError('HierarchyRequestError', `${method}: a node cannot be inserted into itself`);
  const content = node._templateContents();
  if (node._first !== null || (content !== null && content._first !== null)) {
    for (let a: Node | null = parent; a !== null; a = a._parent ?? hostOf(a)) {
      if (a === node) domError('HierarchyRequestError', `${method}: the node to insert is an ancestor of the parent (a node cannot be inserted into its own descendant)`);
    }
  }
  // Step 3.
  if (child !== null && child._parent !== parent) {
    domError('NotFoundError', `${method}: the reference child is not a child of this node`);
  }
  // Step 4.
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
    domError('HierarchyRequestError', `${method}: ${kindOf(node)} cannot be inserted into a tree`);
  }
  // Step 5.
  if (pt !== NodeType.DOCUMENT_NODE) {
    if (nt === NodeType.DOCUMENT_TYPE_NODE) {
      domError('HierarchyRequestError', `${method}: a doctype can only be a child of a Document, not of ${kindOf(parent)}`);
    }
    return;
  }
  // Steps 6–7.
  if (nt === NodeType.TEXT_NODE) domError('HierarchyRequestError', `${method}: a Text node cannot be a child of a Document`);
  if (nt !== NodeType.DOCUMENT_FRAGMENT_NODE && nt !== NodeType.ELEMENT_NODE && nt !== NodeType.DOCUMENT_TYPE_NODE) return;
  const excluded = (c: Node): boolean => exclude === ALL_CHILDREN || c === exclude;
  const hasChild = (type: number): boolean => {
    for (let c = parent._first; c !== null; c = c._next) if (c.nodeType === type && !excluded(c)) return true;
    return false;
  };
  const following = (type: number): boolean => {
    for (let c = child === null ? null : child._next; c !== null; c = c._next) if (c.nodeType === type) return true;
    return false;
  };
  const preceding = (type: number): boolean => {
    for (let c = child === null ? null : child._prev; c !== null; c = c._prev) if (c.nodeType === type) return true;
    return false;
  };
  // Step 8.
  if (nt === NodeType.DOCUMENT_FRAGMENT_NODE) {
    let elements = 0;
    for (let c = node._first; c !== null; c = c._next) {
      if (c.nodeType === NodeType.ELEMENT_NODE) elements++;
      else if (c.nodeType === NodeType.TEXT_NODE) {
        domError('HierarchyRequestError', `${method}: the fragment holds a Text node, which cannot be a child of a Document`);
      }
    }
    if (elements > 1) domError('HierarchyRequestError', `${method}: the fragment holds ${elements} elements; a Document can have only one element child`);
    if (elements === 0) return;
  }
  // Step 9: an element (alone or in a fragment).
  if (nt !== NodeType.DOCUMENT_TYPE_NODE) {
    if (hasChild(NodeType.ELEMENT_NODE)) domError('HierarchyRequestError', `${method}: a Document can have only one element child, and it has one`);
    if ((child !== null && following(NodeType.DOCUMENT_TYPE_NODE)) || (child !== null && child.nodeType === NodeType.DOCUMENT_TYPE_NODE && !excluded(child))) {
      domError('HierarchyRequestError', `${method}: the document element cannot come before the doctype`);
    }
    return;
  }
  // Steps 10–11: a doctype.
  if (hasChild(NodeType.DOCUMENT_TYPE_NODE)) domError('HierarchyRequestError', `${method}: a Document can have only one doctype, and it has one`);
  if ((child !== null && preceding(NodeType.ELEMENT_NODE)) || (child === null && hasChild(NodeType.ELEMENT_NODE))) {
    domError('HierarchyRequestError', `${method}: the doctype cannot come after the document element`);
  }
}

/** @internal The `exclude` argument of {@link ensurePreInsertValidity} for "all of the parent's children". */
export const EXCLUDE_ALL_CHILDREN: typeof ALL_CHILDREN = ALL_CHILDREN;

/** @internal DOM §4.2.3 "pre-insert" `node` into `parent` before `child`; returns `node`. */
export function preInsert<T extends Node>(node: T, parent: Node, child: Node | null, method: string): T {
  ensurePreInsertValidity(node, parent, child, null, method);
  insertNode(node, parent, child === node ? node._next : child);
  return node;
}

/**
 * @internal DOM §4.2.3 "replace" `child` with `node` within `parent`. Throws like {@link preInsert}, and
 * NotFoundError when `child` is not a child of `parent`.
 */
export function replaceNode(child: Node, node: Node, parent: Node, method: string): void {
  if (!(child instanceof Node)) throw new TypeError(`${method}: the child to replace is not a Node (got ${describe(child)})`);
  ensurePreInsertValidity(node, parent, child, child, method);
  if (child === node) return; // removed and put back where it was: nothing changes
  let ref = child._next;
  if (ref === node) ref = node._next;
  parent._removeChild(child);
  insertNode(node, parent, ref);
}

/** @internal DOM §4.2.3 "replace all" with `node` (or null) within `parent`: no validity checks. */
export function replaceAll(node: Node | null, parent: Node): void {
  while (parent._last !== null) parent._removeChild(parent._last);
  if (node !== null) insertNode(node, parent, null);
}

/**
 * DOM §4.2.3 "insert" without the checks: adopt `node` (a fragment: its children) into the parent's
 * document, then link it in before `ref`.
 */
function insertNode(node: Node, parent: Node, ref: Node | null): void {
  const doc = parent.nodeType === NodeType.DOCUMENT_NODE ? (parent as Document) : parent._owner;
  if (doc !== null) {
    if (node.nodeType === NodeType.DOCUMENT_FRAGMENT_NODE) {
      for (let c = node._first; c !== null; c = c._next) if (c._owner !== doc) adoptInto(c, doc);
    } else if (node._owner !== doc) {
      adoptInto(node, doc);
    }
  }
  parent._insertBefore(node, ref);
}

/**
 * DOM §4.5 "adopt" (the part that matters without events): give `root`, its descendants, their
 * attributes and (HTML §4.12.3 "adopting steps") template contents `doc` as node document. Iterative.
 * @internal
 */
export function adoptInto(root: Node, doc: Document): void {
  const pending: Node[] = [root];
  while (pending.length > 0) {
    const top = pending.pop()!;
    for (let n: Node | null = top; n !== null; n = n === top ? top._first : nextInSubtree(n, top)) {
      n._owner = doc;
      if (n.nodeType === NodeType.ELEMENT_NODE) {
        const map = (n as unknown as { _extra: { attrMap: { _items: Node[] } | null } | null })._extra?.attrMap;
        if (map) for (const a of map._items) a._owner = doc;
        const content = n._templateContents();
        if (content !== null) pending.push(content);
      }
    }
  }
}

/** How an error message names a node: `a Text node`, `an element <p>`, `a Document`… */
function kindOf(node: Node): string {
  switch (node.nodeType) {
    case NodeType.ELEMENT_NODE:
      return `an element <${(node as unknown as { localName: string }).localName}>`;
    case NodeType.TEXT_NODE:
      return 'a Text node';
    case NodeType.COMMENT_NODE:
      return 'a Comment';
    case NodeType.DOCUMENT_NODE:
      return 'a Document';
    case NodeType.DOCUMENT_TYPE_NODE:
      return 'a DocumentType';
    case NodeType.DOCUMENT_FRAGMENT_NODE:
      return 'a DocumentFragment';
    case NodeType.ATTRIBUTE_NODE:
      return 'an Attr';
    default:
      return `a node of type ${node.nodeType}`;
  }
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value;
}

/** The template element whose contents `node` is, if it is one (host-including ancestors, DOM §4.2.2). */
function hostOf(node: Node): Node | null {
  return (node as unknown as { _host?: Node | null })._host ?? null;
}

/** The `Node.DOCUMENT_POSITION_*` bits (DOM §4.4). */
const POSITION = {
  DISCONNECTED: 1,
  PRECEDING: 2,
  FOLLOWING: 4,
  CONTAINS: 8,
  CONTAINED_BY: 16,
  IMPLEMENTATION_SPECIFIC: 32,
} as const;

for (const [name, value] of Object.entries(POSITION)) {
  Object.defineProperty(Node.prototype, `DOCUMENT_POSITION_${name}`, { value, enumerable: true });
}

/** A number per tree root, made on first use: the consistent order of disconnected trees. */
const ROOT_ORDER = new WeakMap<Node, number>();
let nextRootOrder = 0;
function treeOrderKey(root: Node): number {
  let key = ROOT_ORDER.get(root);
  if (key === undefined) ROOT_ORDER.set(root, (key = nextRootOrder++));
  return key;
}

function ownerElementOf(attr: Node): Node | null {
  return (attr as unknown as { ownerElement: Node | null }).ownerElement;
}

/** Whether `a` comes before `b` in tree order (same tree, neither contains the other). Iterative. */
function precedes(a: Node, b: Node): boolean {
  const pathA: Node[] = [];
  for (let n: Node | null = a; n !== null; n = n._parent) pathA.push(n);
  const pathB: Node[] = [];
  for (let n: Node | null = b; n !== null; n = n._parent) pathB.push(n);
  let i = pathA.length - 1;
  let j = pathB.length - 1;
  while (i >= 0 && j >= 0 && pathA[i] === pathB[j]) {
    i--;
    j--;
  }
  if (i < 0) return true; // a is an ancestor of b
  if (j < 0) return false;
  // pathA[i] and pathB[j] are siblings: which comes first?
  for (let s = pathA[i]._next; s !== null; s = s._next) if (s === pathB[j]) return true;
  return false;
}

/** DOM §4.4 "equals", for the node itself (not its children). */
function shallowEquals(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType) return false;
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  switch (a.nodeType) {
    case NodeType.DOCUMENT_TYPE_NODE:
      return x.name === y.name && x.publicId === y.publicId && x.systemId === y.systemId;
    case NodeType.ELEMENT_NODE: {
      if (x.namespaceURI !== y.namespaceURI || x.prefix !== y.prefix || x.localName !== y.localName) return false;
      const attrsA = (a as unknown as Element)._attrs;
      const attrsB = (b as unknown as Element)._attrs;
      if (attrsA.length !== attrsB.length) return false;
      for (const at of attrsA) {
        if (!attrsB.some((bt) => bt.namespace === at.namespace && bt.localName === at.localName && bt.value === at.value)) return false;
      }
      return true;
    }
    case NodeType.ATTRIBUTE_NODE:
      return x.namespaceURI === y.namespaceURI && x.localName === y.localName && x.value === y.value;
    case NodeType.PROCESSING_INSTRUCTION_NODE:
      return x.target === y.target && x.data === y.data;
    case NodeType.TEXT_NODE:
    case NodeType.COMMENT_NODE:
    case NodeType.CDATA_SECTION_NODE:
      return x.data === y.data;
    default:
      return true;
  }
}
