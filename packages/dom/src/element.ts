/**
 * `Element` and `HTMLTemplateElement` (DOM Standard §4.9 "Interface Element"; HTML §4.12.3 "The template
 * element").
 */
import { attributesOfRawTag } from '@sluice/tokenizer';
import { NS, type ElementAttribute, type SourceLocation } from '@sluice/tree-builder';
import { Attr, NamedNodeMap } from './attr.js';
import type { Document } from './document.js';
import { DocumentFragment } from './document-fragment.js';
import { Node, NodeExtra, NodeType, domError } from './node.js';
import * as parentNode from './parent-node.js';
import * as query from './query/index.js'; // Querying (issue #16)
import { serialize, serializeOuter } from './serialize.js';
// Editing (issue #16)
import * as childNode from './child-node.js';
import { removeAttributeNode, setAttributeNode, validateAndExtractAttribute } from './attribute-value.js';
import { type DOMStringMap, datasetOf } from './dataset.js';
import { type DOMTokenList, classListOf } from './dom-token-list.js';
import { insertAdjacentHTML, setInnerHTML, setOuterHTML } from './inner-html.js';

const NO_ATTRIBUTES: readonly ElementAttribute[] = Object.freeze([]);

/** DOM §"valid attribute local name": not empty, and no ASCII whitespace, NULL, `/`, `=` or `>`. */
const INVALID_ATTRIBUTE_NAME = /^$|[\t\n\f\r \0/=>]/;

/** Whether `s` contains an ASCII upper-case letter (cheaper than a regex for short names). */
function hasAsciiUpper(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return true;
  }
  return false;
}

/** @internal The part of an element only some elements need (see `Node._extra`). */
export class ElementExtra extends NodeExtra {
  declare prefix: string | null;
  /** The `attributes` map, made on first read. */
  declare attrMap: NamedNodeMap | null;
  /** Whether the element's `_attrs` is its own array (copy on first write). */
  declare attrsOwned: boolean;
  /** The end tag's location when `Element._endTag` cannot hold it (-2). */
  declare endTagStart: number;
  /** @internal */ declare endTagEnd: number;
  constructor(prefix: string | null) {
    super();
    this.prefix = prefix;
    this.attrMap = null;
    this.attrsOwned = false;
    this.endTagStart = -1;
    this.endTagEnd = -1;
  }
}

/**
 * The raw start tag an element's undecoded `_attrData` stands for: the string itself when it is as long
 * as the tag's location (the tag alone, or a string that is nothing but the tag), else the tag's
 * `[start, end)` span of it. (`DomTreeSink` keeps a raw tag only with a location of its length, or none;
 * the span is never read after the location changes: `_beforeLocationChange` decodes first.)
 */
function rawTagOf(data: string, start: number, end: number): string {
  return start < 0 || data.length === end - start ? data : data.slice(start, end);
}

/** Uppercased HTML element names, for `tagName` (a few dozen names; bounded for custom ones). */
const UPPERCASE_NAMES = new Map<string, string>();

function uppercaseName(localName: string): string {
  let upper = UPPERCASE_NAMES.get(localName);
  if (upper === undefined) {
    upper = parentNode.asciiUppercase(localName);
    if (UPPERCASE_NAMES.size < 1024) UPPERCASE_NAMES.set(localName, upper);
  }
  return upper;
}

/** An element: a local name in a namespace, attributes, and children. */
export class Element extends Node {
  /** The local name, e.g. `div`, `foreignObject`. */
  declare readonly localName: string;
  /** The namespace: HTML, SVG or MathML for parsed elements. */
  declare readonly namespaceURI: string | null;
  /**
   * @internal The end tag's location in one small integer (see `_endTagStart`, `_endTagEnd`): ≥ 0, an
   * end tag as long as `</name>` starting there (nearly every one: `</p>`, `</DIV>`); -1, none; ≤ -3, an
   * empty span at `-3 - _endTag` (where an end was implied, kept with source locations on); -2, any
   * other span, kept in `_extra`. One field, not two, in every element of a parsed document.
   */
  declare _endTag: number;
  /**
   * @internal The attribute records, in order (shared with the tree builder until first changed), or a
   * string they are still to be decoded from (see `_attrs`): the raw start tag itself, or the whole
   * string the parser read it from, the tag being `[_start, _end)` of it (then the element costs no
   * string of its own: the page is kept alive either way, as a slice of it would keep it).
   */
  declare _attrData: readonly ElementAttribute[] | string;
  /**
   * @internal What only some elements need (a prefix, an `attributes` map, changed attributes, the
   * `childNodes` snapshot), made when first needed: a parsed document has many elements, each one kept
   * alive and copied by the GC, so every field an element does not need to own is one less to copy.
   */
  declare _extra: ElementExtra | null;

  /**
   * Create a detached element (prefer `document.createElement`/`createElementNS`, or the parser).
   * `attributes` is used as is, not copied: do not change the array afterwards.
   */
  constructor(
    ownerDocument: Document | null,
    localName: string,
    namespaceURI: string | null = NS.HTML,
    prefix: string | null = null,
    attributes: readonly ElementAttribute[] = NO_ATTRIBUTES,
    location: SourceLocation | null = null,
  ) {
    super(ownerDocument, location, true);
    this.localName = localName;
    this.namespaceURI = namespaceURI;
    this._attrData = attributes;
    this._endTag = -1;
    this._extra = prefix === null ? null : new ElementExtra(prefix);
  }

  /**
   * @internal The attribute records, in order. An element the parser made from a start tag nobody had
   * decoded yet (`DomTreeSink.createElementWithRawAttributes`) keeps that tag's raw text instead, and
   * decodes it here, the first time anything reads its attributes: most attributes of a parsed page are
   * never read, and undecoded they cost neither the decoding nor the memory of their records.
   */
  get _attrs(): readonly ElementAttribute[] {
    const data = this._attrData;
    return typeof data === 'string' ? (this._attrData = attributesOfRawTag(rawTagOf(data, this._start, this._end))) : data;
  }
  /** @internal */
  set _attrs(attributes: readonly ElementAttribute[]) {
    this._attrData = attributes;
  }
  /** @internal Attributes still to be decoded from the input at the start tag's location are decoded now. */
  override _beforeLocationChange(): void {
    if (typeof this._attrData === 'string') void this._attrs;
  }

  /** The namespace prefix; always null for elements made by the HTML parser. */
  get prefix(): string | null {
    const extra = this._extra;
    return extra === null ? null : extra.prefix;
  }

  /** @internal The element's `ElementExtra`, made on first use. */
  override _extraOf(): ElementExtra {
    return (this._extra ??= new ElementExtra(null));
  }

  /**
   * sluice extension: where the end tag that closed this element was (from the tree sink's
   * `elementPopped`); null when it was closed implicitly, at EOF, or is still open. Each read returns a
   * new object.
   */
  get endTagLocation(): SourceLocation | null {
    // An empty span is no end tag: where an implied end was (kept with source locations on).
    const start = this._endTagStart;
    const end = this._endTagEnd;
    return start < 0 || end === start ? null : { start, end };
  }
  set endTagLocation(location: SourceLocation | null) {
    if (location === null) this._endTag = -1;
    else this._setEndTag(location.start, location.end);
  }

  /** @internal Where the end tag (or the implied end) starts; -1 for none. */
  get _endTagStart(): number {
    const v = this._endTag;
    return v >= -1 ? v : v === -2 ? this._extra!.endTagStart : -3 - v;
  }
  /** @internal Where the end tag (or the implied end) ends; -1 for none. */
  get _endTagEnd(): number {
    const v = this._endTag;
    return v >= 0 ? v + this.localName.length + 3 : v === -1 ? -1 : v === -2 ? this._extra!.endTagEnd : -3 - v;
  }
  /** @internal Record the end tag's (or implied end's) span `[start, end)`; a negative start is none. */
  _setEndTag(start: number, end: number): void {
    if (start < 0) this._endTag = -1;
    else if (end === start + this.localName.length + 3) this._endTag = start;
    else if (end === start) this._endTag = -3 - start;
    else {
      const extra = this._extraOf();
      extra.endTagStart = start;
      extra.endTagEnd = end;
      this._endTag = -2;
    }
  }

  get nodeType(): 1 {
    return NodeType.ELEMENT_NODE;
  }
  /** Same as `tagName`. */
  get nodeName(): string {
    return this.tagName;
  }
  /** @internal A copy with the same attributes (the records are immutable, so sharing them is safe). */
  _cloneShallow(owner: Document | null): Element {
    const copy =
      this.localName === 'template' && this.namespaceURI === NS.HTML && this.prefix === null
        ? new HTMLTemplateElement(owner, this._attrs)
        : new Element(owner, this.localName, this.namespaceURI, this.prefix, this._attrs);
    // Both now share the array: whoever writes first copies it.
    if (this._extra !== null) this._extra.attrsOwned = false;
    return copy;
  }
  /**
   * The qualified name, ASCII-uppercased for an element in the HTML namespace (DOM §4.9: every sluice
   * Document is an HTML document). `DIV`, but `foreignObject` for SVG.
   */
  get tagName(): string {
    const prefix = this.prefix;
    if (this.namespaceURI !== NS.HTML) return prefix === null ? this.localName : `${prefix}:${this.localName}`;
    return prefix === null ? uppercaseName(this.localName) : parentNode.asciiUppercase(`${prefix}:${this.localName}`);
  }

  /** The attributes as Attr nodes: array-like, with `getNamedItem`. Kept in sync with the element. */
  get attributes(): NamedNodeMap {
    const extra = this._extraOf();
    let m = extra.attrMap;
    if (m === null) {
      const items: Attr[] = [];
      for (const rec of this._attrs) items.push(new Attr(rec, this));
      m = extra.attrMap = new NamedNodeMap(this, items);
    }
    return m;
  }
  /** Whether the element has any attribute. */
  hasAttributes(): boolean {
    return this._attrs.length > 0;
  }
  /** The qualified names of the attributes, in order. */
  getAttributeNames(): string[] {
    return this._attrs.map((a) => a.name);
  }
  /** The value of the first attribute with this qualified name (lowercased for HTML elements), or null. */
  getAttribute(qualifiedName: string): string | null {
    const i = this._indexOfName(qualifiedName);
    return i < 0 ? null : this._attrs[i].value;
  }
  /** The value of the attribute with this namespace and local name, or null. */
  getAttributeNS(namespace: string | null, localName: string): string | null {
    const i = this._indexOfNS(namespace, localName);
    return i < 0 ? null : this._attrs[i].value;
  }
  /** Whether an attribute with this qualified name exists. */
  hasAttribute(qualifiedName: string): boolean {
    return this._indexOfName(qualifiedName) >= 0;
  }
  /** Whether an attribute with this namespace and local name exists. */
  hasAttributeNS(namespace: string | null, localName: string): boolean {
    return this._indexOfNS(namespace, localName) >= 0;
  }
  /**
   * Set an attribute (DOM `setAttribute`): the name is ASCII-lowercased on an HTML element; an existing
   * attribute with that qualified name gets the new value, otherwise a no-namespace attribute is appended.
   * Throws InvalidCharacterError for an invalid name.
   */
  setAttribute(qualifiedName: string, value: string): void {
    if (INVALID_ATTRIBUTE_NAME.test(qualifiedName)) {
      domError('InvalidCharacterError', `setAttribute: ${JSON.stringify(qualifiedName)} is not a valid attribute name`);
    }
    const name = this.namespaceURI === NS.HTML ? parentNode.asciiLowercase(qualifiedName) : qualifiedName;
    const i = this._indexOfName(name);
    const v = String(value);
    if (i >= 0) this._changeValue(i, v);
    else this._append({ name, value: v, namespace: null, prefix: null, localName: name });
  }
  /**
   * Set a namespaced attribute (DOM `setAttributeNS`): `qualifiedName` may carry a prefix (`xlink:href`).
   * Throws InvalidCharacterError / NamespaceError for names the DOM rejects.
   */
  setAttributeNS(namespace: string | null, qualifiedName: string, value: string): void {
    // DOM §1.4 "validate and extract" (context "attribute").
    const { namespace: ns, prefix, localName } = validateAndExtractAttribute(namespace, String(qualifiedName), 'setAttributeNS');
    const i = this._indexOfNS(ns, localName);
    const v = String(value);
    if (i >= 0) this._changeValue(i, v);
    else this._append({ name: String(qualifiedName), value: v, namespace: ns as ElementAttribute['namespace'], prefix, localName });
  }
  /** Remove the first attribute with this qualified name, if any. */
  removeAttribute(qualifiedName: string): void {
    const i = this._indexOfName(qualifiedName);
    if (i >= 0) this._removeAt(i);
  }
  /** Remove the attribute with this namespace and local name, if any. */
  removeAttributeNS(namespace: string | null, localName: string): void {
    const i = this._indexOfNS(namespace, localName);
    if (i >= 0) this._removeAt(i);
  }
  /**
   * Toggle a boolean attribute (DOM `toggleAttribute`): remove it if present, add it (value '') if
   * absent; with `force`, only add (true) or only remove (false). Returns whether it is now present.
   * Throws InvalidCharacterError for an invalid name, present or not.
   */
  toggleAttribute(qualifiedName: string, force?: boolean): boolean {
    if (INVALID_ATTRIBUTE_NAME.test(qualifiedName)) {
      domError('InvalidCharacterError', `toggleAttribute: ${JSON.stringify(qualifiedName)} is not a valid attribute name`);
    }
    const i = this._indexOfName(qualifiedName);
    if (i < 0) {
      if (force === undefined || force) {
        this.setAttribute(qualifiedName, '');
        return true;
      }
      return false;
    }
    if (force === undefined || !force) {
      this._removeAt(i);
      return false;
    }
    return true;
  }

  /** The `id` attribute ('' when absent). */
  get id(): string {
    return this.getAttribute('id') ?? '';
  }
  set id(value: string) {
    this.setAttribute('id', value);
  }
  /** The `class` attribute ('' when absent). */
  get className(): string {
    return this.getAttribute('class') ?? '';
  }
  set className(value: string) {
    this.setAttribute('class', value);
  }

  /** The element children (a snapshot array; the DOM's HTMLCollection is live). */
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
  /** The next sibling that is an element, or null. */
  get nextElementSibling(): Element | null {
    for (let s = this._next; s !== null; s = s._next) if (s.nodeType === NodeType.ELEMENT_NODE) return s as Element;
    return null;
  }
  /** The previous sibling that is an element, or null. */
  get previousElementSibling(): Element | null {
    for (let s = this._prev; s !== null; s = s._prev) if (s.nodeType === NodeType.ELEMENT_NODE) return s as Element;
    return null;
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
  /** Whether this element matches the selector list (`:scope` is this element). */
  matches(selectors: string): boolean {
    return query.matches(this, selectors);
  }
  /** Legacy alias of {@link matches} (DOM §4.9). */
  webkitMatchesSelector(selectors: string): boolean {
    return query.matches(this, selectors, 'webkitMatchesSelector');
  }
  /** The closest inclusive ancestor element matching the selector list, or null. */
  closest(selectors: string): Element | null {
    return query.closest(this, selectors);
  }
  /** Descendant elements whose class list has all the given (whitespace-separated) classes; a snapshot array. */
  getElementsByClassName(classNames: string): Element[] {
    return query.getElementsByClassName(this, classNames);
  }
  // --- end Querying ---
  // ---- Editing (issue #16): DOM §4.2.6 ParentNode, §4.2.8 ChildNode, §4.9 classList, HTML §3.2.6.6
  // dataset, HTML §8.5 innerHTML / outerHTML. The algorithms live in child-node.ts, dom-token-list.ts,
  // dataset.ts and inner-html.ts.

  /**
   * The children serialized as HTML (HTML §13.3, see `serialize`; a template's contents for a
   * `<template>`). Setting it parses the string as a fragment with this element as context (HTML §13.2.8)
   * and replaces the children (a template's contents) with the result.
   */
  get innerHTML(): string {
    return serialize(this);
  }
  set innerHTML(markup: string) {
    setInnerHTML(this, markup);
  }
  /**
   * The element and its children serialized as HTML (see `serializeOuter`). Setting it parses the string
   * with the parent as context and replaces this element with the result: nothing happens without a
   * parent; NoModificationAllowedError when the parent is a Document; a DocumentFragment parent parses
   * with a `<body>` as context.
   */
  get outerHTML(): string {
    return serializeOuter(this);
  }
  set outerHTML(markup: string) {
    setOuterHTML(this, markup);
  }
  /**
   * The `class` attribute's tokens, as a live DOMTokenList (the same object each time). Assigning a
   * string sets the attribute (WebIDL [PutForwards=value]).
   */
  get classList(): DOMTokenList {
    return classListOf(this);
  }
  set classList(value: string) {
    classListOf(this).value = value;
  }
  /** The `data-*` attributes as a DOMStringMap: `el.dataset.fooBar` is `data-foo-bar` (the same object each time). */
  get dataset(): DOMStringMap {
    return datasetOf(this);
  }
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
  /** Insert nodes (strings become Text nodes) just before this element (DOM `ChildNode.before`; no-op without a parent). */
  before(...nodes: (Node | string)[]): void {
    childNode.before(this, nodes);
  }
  /** Insert nodes (strings become Text nodes) just after this element (DOM `ChildNode.after`; no-op without a parent). */
  after(...nodes: (Node | string)[]): void {
    childNode.after(this, nodes);
  }
  /** Replace this element with nodes (strings become Text nodes) (DOM `ChildNode.replaceWith`; no-op without a parent). */
  replaceWith(...nodes: (Node | string)[]): void {
    childNode.replaceWith(this, nodes);
  }
  /**
   * Insert `element` before this element, as its first or last child, or after it (`where`:
   * 'beforebegin', 'afterbegin', 'beforeend', 'afterend'; DOM "insert adjacent"). Returns it, or null
   * when there is no parent to insert into. SyntaxError for another `where`.
   */
  insertAdjacentElement(where: childNode.InsertPosition, element: Element): Element | null {
    return childNode.insertAdjacent(this, where, element, 'insertAdjacentElement') as Element | null;
  }
  /** Like {@link insertAdjacentElement}, with a new Text node holding `data`. */
  insertAdjacentText(where: childNode.InsertPosition, data: string): void {
    const text = childNode.convertNodesIntoNode([String(data)], this._owner, 'insertAdjacentText'); // one new Text node
    childNode.insertAdjacent(this, where, text, 'insertAdjacentText');
  }
  /**
   * Parse `markup` (HTML §8.5 `insertAdjacentHTML`) with the parent (beforebegin, afterend) or this
   * element (afterbegin, beforeend) as context, and insert the nodes at that position.
   * NoModificationAllowedError for beforebegin/afterend without a parent element; SyntaxError for
   * another position.
   */
  insertAdjacentHTML(position: childNode.InsertPosition, markup: string): void {
    insertAdjacentHTML(this, position, markup);
  }
  /** The Attr node of the first attribute with this qualified name (lowercased for HTML elements), or null. */
  getAttributeNode(qualifiedName: string): Attr | null {
    return this.attributes.getNamedItem(qualifiedName);
  }
  /** The Attr node with this namespace and local name, or null. */
  getAttributeNodeNS(namespace: string | null, localName: string): Attr | null {
    return this.attributes.getNamedItemNS(namespace, localName);
  }
  /**
   * Put `attr` on this element (DOM `setAttributeNode`), in place of the attribute with its namespace and
   * local name; returns the Attr replaced, or null. InUseAttributeError when it is on another element.
   */
  setAttributeNode(attr: Attr): Attr | null {
    return setAttributeNode(this, attr, 'setAttributeNode');
  }
  /** Same as {@link setAttributeNode} (DOM `setAttributeNodeNS`). */
  setAttributeNodeNS(attr: Attr): Attr | null {
    return setAttributeNode(this, attr, 'setAttributeNodeNS');
  }
  /** Remove `attr` from this element and return it; NotFoundError when it is not one of its attributes. */
  removeAttributeNode(attr: Attr): Attr {
    return removeAttributeNode(this, attr, 'removeAttributeNode');
  }
  // ---- End of editing block.

  /** @internal Index of the first attribute with this qualified name (HTML elements: lowercased). */
  _indexOfName(qualifiedName: string): number {
    const name =
      this.namespaceURI === NS.HTML && hasAsciiUpper(qualifiedName) ? parentNode.asciiLowercase(qualifiedName) : qualifiedName;
    const attrs = this._attrs;
    for (let i = 0; i < attrs.length; i++) if (attrs[i].name === name) return i;
    return -1;
  }
  /** @internal Index of the attribute with this namespace and local name. */
  _indexOfNS(namespace: string | null, localName: string): number {
    const ns = namespace === '' ? null : namespace;
    const attrs = this._attrs;
    for (let i = 0; i < attrs.length; i++) if (attrs[i].localName === localName && attrs[i].namespace === ns) return i;
    return -1;
  }
  /** @internal Our own, writable copy of the records. */
  _ownAttrs(): ElementAttribute[] {
    const extra = this._extraOf();
    if (!extra.attrsOwned) {
      this._attrs = this._attrs.slice();
      extra.attrsOwned = true;
    }
    return this._attrs as ElementAttribute[];
  }
  /** @internal */
  _changeValue(i: number, value: string): void {
    const attrs = this._ownAttrs();
    // Spelled out, not spread: the tokenizer's records have `namespace`, `prefix`, `localName` as getters.
    const old = attrs[i];
    attrs[i] = { name: old.name, value, namespace: old.namespace, prefix: old.prefix, localName: old.localName };
    const m = this._extra === null ? null : this._extra.attrMap;
    if (m !== null) m._items[i]._value = value;
  }
  /** @internal Append an attribute record (no duplicate check: the caller made it). */
  _append(record: ElementAttribute): void {
    this._ownAttrs().push(record);
    const m = this._extra === null ? null : this._extra.attrMap;
    if (m !== null) {
      m._items.push(new Attr(record, this));
      m._sync(m._items.length - 1);
    }
  }
  /** @internal */
  _removeAt(i: number): void {
    this._ownAttrs().splice(i, 1);
    const m = this._extra === null ? null : this._extra.attrMap;
    if (m !== null) {
      const [gone] = m._items.splice(i, 1);
      gone._element = null;
      m._sync(m._items.length + 1);
    }
  }
}

/**
 * A `<template>` element in the HTML namespace. Its parsed children live in `content`, a DocumentFragment
 * the template owns (HTML §4.12.3), not among its own children.
 */
export class HTMLTemplateElement extends Element {
  /** The template contents. */
  declare readonly content: DocumentFragment;

  /** Create a detached template (prefer `document.createElement('template')` or the parser). */
  constructor(
    ownerDocument: Document | null,
    attributes: readonly ElementAttribute[] = NO_ATTRIBUTES,
    location: SourceLocation | null = null,
  ) {
    super(ownerDocument, 'template', NS.HTML, null, attributes, location);
    this.content = new DocumentFragment(ownerDocument);
    this.content._host = this;
  }
  /** @internal */
  override _templateContents(): DocumentFragment {
    return this.content;
  }
}
