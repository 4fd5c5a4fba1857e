/**
 * `Attr` and `NamedNodeMap` (DOM Standard §4.9.1 "Interface NamedNodeMap", §4.9.2 "Interface Attr").
 *
 * An element keeps its attributes as plain records (the tree builder's `ElementAttribute`s, shared, not
 * copied); `Attr` nodes are made only when someone reads `element.attributes`, so parsing pays nothing
 * for them.
 */
import type { ElementAttribute, Namespace } from '@sluice/tree-builder';
import type { Document } from './document.js';
import type { Element } from './element.js';
import { Node, NodeType, domError, leafNode } from './node.js';
import { removeAttributeNode, setAttributeNode } from './attribute-value.js';

/** An attribute node: `namespaceURI`, `prefix`, `localName`, `name` (the qualified name) and `value`. */
export class Attr extends Node {
  /** The attribute's namespace, or null (XLink, XML, XMLNS for adjusted foreign attributes). */
  declare readonly namespaceURI: Namespace | string | null;
  /** The namespace prefix (`xlink` in `xlink:href`), or null. */
  declare readonly prefix: string | null;
  /** The local name (`href` in `xlink:href`). */
  declare readonly localName: string;
  /** The qualified name (`xlink:href`). */
  declare readonly name: string;
  /** @internal */ declare _value: string;
  /** @internal */ declare _element: Element | null;

  /** @internal Attr nodes are made by `element.attributes`; there is no public constructor in the DOM either. */
  constructor(record: ElementAttribute, element: Element | null) {
    super(element === null ? null : element.ownerDocument, null, false);
    this.namespaceURI = record.namespace;
    this.prefix = record.prefix;
    this.localName = record.localName;
    this.name = record.name;
    this._value = record.value;
    this._element = element;
  }

  get nodeType(): 2 {
    return NodeType.ATTRIBUTE_NODE;
  }
  get nodeName(): string {
    return this.name;
  }
  /** @internal A detached copy (DOM: cloning an Attr copies its namespace, prefix, local name and value). */
  _cloneShallow(owner: Document | null): Attr {
    const copy = new Attr(
      { name: this.name, value: this._value, namespace: this.namespaceURI as ElementAttribute['namespace'], prefix: this.prefix, localName: this.localName },
      null,
    );
    copy._owner = owner;
    return copy;
  }
  /** The element this attribute is on, or null once removed. */
  get ownerElement(): Element | null {
    return this._element;
  }
  /** The attribute's value. Setting it changes the element's attribute. */
  get value(): string {
    return this._value;
  }
  set value(value: string) {
    const el = this._element;
    if (el === null) {
      this._value = String(value);
      return;
    }
    // DOM §4.9.2 "set an existing attribute value": change this attribute where it is. (Not through
    // setAttributeNS: a no-namespace attribute named `a:b`, as setAttribute makes, would be refused there.)
    const i = el._indexOfNS(this.namespaceURI, this.localName);
    if (i >= 0) el._changeValue(i, String(value));
  }
  override get nodeValue(): string {
    return this._value;
  }
  override set nodeValue(value: string | null) {
    this.value = value ?? '';
  }
  override get textContent(): string {
    return this._value;
  }
  override set textContent(value: string | null) {
    this.value = value ?? '';
  }
  /** Always true (DOM §4.9.2: kept for historical reasons). */
  get specified(): true {
    return true;
  }
}

leafNode(Attr.prototype);

/**
 * An element's attributes, array-like: `length`, `map[i]`, `item(i)`, `getNamedItem(qualifiedName)`,
 * `getNamedItemNS(namespace, localName)`, and iteration. It is live: the element keeps it up to date as
 * its attributes change, and an Attr keeps its identity while it stays on the element.
 */
export class NamedNodeMap implements Iterable<Attr> {
  [index: number]: Attr;
  /** @internal */ _items: Attr[];
  /** @internal */ readonly _element: Element;

  /** @internal */
  constructor(element: Element, items: Attr[]) {
    this._element = element;
    this._items = items;
    for (let i = 0; i < items.length; i++) this[i] = items[i];
  }

  /** The number of attributes. */
  get length(): number {
    return this._items.length;
  }
  /** The attribute at `index`, or null. */
  item(index: number): Attr | null {
    return this._items[index] ?? null;
  }
  /** The first attribute whose qualified name is `qualifiedName` (ASCII-lowercased for HTML elements), or null. */
  getNamedItem(qualifiedName: string): Attr | null {
    const i = this._element._indexOfName(qualifiedName);
    return i < 0 ? null : this._items[i];
  }
  /** The attribute with this namespace and local name, or null. */
  getNamedItemNS(namespace: string | null, localName: string): Attr | null {
    const i = this._element._indexOfNS(namespace, localName);
    return i < 0 ? null : this._items[i];
  }
  [Symbol.iterator](): Iterator<Attr> {
    return this._items[Symbol.iterator]();
  }
  /** Put `attr` on the element (DOM `setNamedItem`, the same as `element.setAttributeNode`); returns the Attr replaced, or null. */
  setNamedItem(attr: Attr): Attr | null {
    return setAttributeNode(this._element, attr, 'setNamedItem');
  }
  /** Same as {@link setNamedItem}. */
  setNamedItemNS(attr: Attr): Attr | null {
    return setAttributeNode(this._element, attr, 'setNamedItemNS');
  }
  /** Remove the first attribute with this qualified name and return it; NotFoundError when there is none. */
  removeNamedItem(qualifiedName: string): Attr {
    const attr = this.getNamedItem(qualifiedName);
    if (attr === null) domError('NotFoundError', `removeNamedItem: the element has no attribute ${JSON.stringify(qualifiedName)}`);
    return removeAttributeNode(this._element, attr, 'removeNamedItem');
  }
  /** Remove the attribute with this namespace and local name and return it; NotFoundError when there is none. */
  removeNamedItemNS(namespace: string | null, localName: string): Attr {
    const attr = this.getNamedItemNS(namespace, localName);
    if (attr === null) domError('NotFoundError', `removeNamedItemNS: the element has no attribute ${JSON.stringify(localName)} in namespace ${String(namespace)}`);
    return removeAttributeNode(this._element, attr, 'removeNamedItemNS');
  }

  /** @internal Re-sync the index properties after an attribute was added or removed. */
  _sync(oldLength: number): void {
    const items = this._items;
    for (let i = 0; i < items.length; i++) this[i] = items[i];
    for (let i = items.length; i < oldLength; i++) delete this[i];
  }
}
