/**
 * DOM §4.9 "get an attribute value" and "set an attribute value" with no namespace: what reflecting
 * APIs (`classList`, `dataset`) use. Unlike `setAttribute`, they find the attribute by its local name
 * in no namespace, and do not lowercase: the callers hand over names that are already right.
 */
import { NS, type ElementAttribute } from '@sluice/tree-builder';
import type { Attr } from './attr.js';
import type { Element } from './element.js';
import { Node, NodeType, domError } from './node.js';

/** @internal The value of the no-namespace attribute `localName` of `element`, or null when it has none. */
export function getAttributeValue(element: Element, localName: string): string | null {
  const i = element._indexOfNS(null, localName);
  return i < 0 ? null : element._attrs[i].value;
}

/** @internal Set (change or append) the no-namespace attribute `localName` of `element` to `value`. */
export function setAttributeValue(element: Element, localName: string, value: string): void {
  const i = element._indexOfNS(null, localName);
  if (i >= 0) element._changeValue(i, value);
  else element._append({ name: localName, value, namespace: null, prefix: null, localName });
}

/**
 * DOM §4.9 "set an attribute" with an Attr node (`setAttributeNode`, `setNamedItem`): `attr` takes the
 * place of the attribute with its namespace and local name, or is appended. Returns the Attr it
 * replaced, or null. InUseAttributeError when `attr` belongs to another element.
 * @internal
 */
export function setAttributeNode(element: Element, attr: Attr, method: string): Attr | null {
  if (!(attr instanceof Node) || attr.nodeType !== NodeType.ATTRIBUTE_NODE) {
    throw new TypeError(`${method}: expected an Attr`);
  }
  const owner = attr._element;
  if (owner !== null && owner !== element) {
    domError('InUseAttributeError', `${method}: the attribute ${JSON.stringify(attr.name)} belongs to another element; remove it there or clone it first`);
  }
  const map = element.attributes; // the Attr nodes exist from here on, in step with the records
  const i = element._indexOfNS(attr.namespaceURI, attr.localName);
  if (i >= 0 && map._items[i] === attr) return attr;
  const record: ElementAttribute = {
    name: attr.name,
    value: attr._value,
    namespace: attr.namespaceURI as ElementAttribute['namespace'],
    prefix: attr.prefix,
    localName: attr.localName,
  };
  attr._element = element;
  const doc = element.ownerDocument;
  if (doc !== null) attr._owner = doc;
  if (i >= 0) {
    const old = map._items[i];
    element._ownAttrs()[i] = record;
    map._items[i] = attr;
    map._sync(map._items.length);
    old._element = null;
    return old;
  }
  element._ownAttrs().push(record);
  map._items.push(attr);
  map._sync(map._items.length - 1);
  return null;
}

/**
 * DOM §4.9 `removeAttributeNode`: remove `attr` from `element`; NotFoundError when it is not one of its
 * attributes.
 * @internal
 */
export function removeAttributeNode(element: Element, attr: Attr, method: string): Attr {
  const map = element.attributes;
  const i = map._items.indexOf(attr);
  if (i < 0) domError('NotFoundError', `${method}: the attribute is not one of this element's attributes`);
  element._removeAt(i);
  return attr;
}

/**
 * DOM §1.4 "validate and extract" with context "attribute": the namespace ('' is null), the prefix (what
 * comes before the first colon) and the local name (the rest, which may hold more colons). Throws
 * InvalidCharacterError for an invalid prefix or local name, NamespaceError for a prefix without a
 * namespace, `xml` outside the XML namespace, `xmlns` outside the XMLNS namespace or the reverse.
 * `method` names the caller in the messages.
 * @internal
 */
export function validateAndExtractAttribute(
  namespace: string | null | undefined,
  qualifiedName: string,
  method: string,
): { namespace: string | null; prefix: string | null; localName: string } {
  const ns = namespace === '' || namespace === undefined ? null : namespace;
  const colon = qualifiedName.indexOf(':');
  const prefix = colon < 0 ? null : qualifiedName.slice(0, colon);
  const localName = colon < 0 ? qualifiedName : qualifiedName.slice(colon + 1);
  const q = JSON.stringify(qualifiedName);
  if (prefix !== null && /^$|[\t\n\f\r \0/>]/.test(prefix)) {
    domError('InvalidCharacterError', `${method}: ${JSON.stringify(prefix)} (in ${q}) is not a valid namespace prefix`);
  }
  if (/^$|[\t\n\f\r \0/=>]/.test(localName)) {
    domError('InvalidCharacterError', `${method}: ${JSON.stringify(localName)} (in ${q}) is not a valid attribute local name`);
  }
  if (prefix !== null && ns === null) domError('NamespaceError', `${method}: the prefix ${JSON.stringify(prefix)} needs a namespace`);
  if (prefix === 'xml' && ns !== NS.XML) domError('NamespaceError', `${method}: the xml prefix needs the XML namespace`);
  if ((qualifiedName === 'xmlns' || prefix === 'xmlns') !== (ns === NS.XMLNS)) {
    domError('NamespaceError', `${method}: the name xmlns (or prefix xmlns) and the XMLNS namespace go together`);
  }
  return { namespace: ns, prefix, localName };
}
