/** `Document` (DOM Standard §4.5; HTML §3.1 "The Document object"). */
import { NS, type DocumentMode, type ElementAttribute, type SourceLocation } from '@sluice/tree-builder';
import { Attr } from './attr.js';
import { validateAndExtractAttribute } from './attribute-value.js';
import { Comment, Text } from './character-data.js';
import { DocumentFragment } from './document-fragment.js';
import { DocumentType } from './document-type.js';
import { Element, HTMLTemplateElement } from './element.js';
import { Node, NodeType, adoptInto, domError } from './node.js';
import * as parentNode from './parent-node.js';
import * as query from './query/index.js'; // Querying (issue #16)
import * as childNode from './child-node.js'; // Editing (issue #16)

/**
 * DOM §1.4 "valid element local name" (the standard's own regular expression): an ASCII letter followed
 * by anything but ASCII whitespace, NULL, `/` and `>` (every name the HTML parser can make), or `:`, `_`
 * or a non-ASCII code point followed by ASCII letters, digits, `-`, `.`, `:`, `_` and non-ASCII code points.
 */
const VALID_ELEMENT_LOCAL_NAME = /^(?:[A-Za-z][^\0\t\n\f\r\u0020/>]*|[:_\u0080-\u{10FFFF}][A-Za-z0-9\-.:_\u0080-\u{10FFFF}]*)$/u;
/** DOM §1.4 "valid namespace prefix": not empty, and no ASCII whitespace, NULL, `/` or `>`. */
const INVALID_NAMESPACE_PREFIX = /^$|[\t\n\f\r \0/>]/;
/** DOM §1.4 "valid doctype name": no ASCII whitespace, NULL or `>` (the empty string is valid). */
const INVALID_DOCTYPE_NAME = /[\t\n\f\r \0>]/;

/**
 * An HTML document. Its children are at most one doctype, at most one element (the `documentElement`),
 * and comments.
 */
export class Document extends Node {
  /**
   * sluice extension: the document's mode (DOM §"concept-document-mode"), set by the parser from the
   * DOCTYPE (HTML §13.2.6.4.1). `compatMode` is derived from it.
   */
  declare mode: DocumentMode;
  /**
   * sluice extension: whether scripting was enabled when the document was parsed (HTML §13.2.2 "scripting
   * flag"). It decides how `<noscript>` was parsed, and so how the serializer treats its text.
   * False for a document made with `new Document()`, like one from `DOMParser` in a browser.
   */
  declare scriptingEnabled: boolean;
  /**
   * @internal The document's encoding (DOM §4.5 "encoding"): the Encoding Standard's name of the
   * encoding the parser decoded its bytes with; 'UTF-8' for a document parsed from a string or made
   * with `new Document()` (as `DOMParser`'s documents report).
   */
  declare _encoding: string;

  /** Create an empty HTML document. */
  constructor() {
    super(null, null, true);
    this.mode = 'no-quirks';
    this.scriptingEnabled = false;
    this._encoding = 'UTF-8';
  }
  get nodeType(): 9 {
    return NodeType.DOCUMENT_NODE;
  }
  get nodeName(): '#document' {
    return '#document';
  }
  override get textContent(): null {
    return null;
  }
  /** @internal A new empty document with the same mode and scripting flag. */
  _cloneShallow(_owner: Document | null): Document {
    const copy = new Document();
    copy.mode = this.mode;
    copy.scriptingEnabled = this.scriptingEnabled;
    copy._encoding = this._encoding; // DOM §4.5 "clone a node": the copy's encoding is the document's
    return copy;
  }
  override set textContent(_value: string | null) {
    // DOM §4.4: setting textContent on a document does nothing.
  }

  /**
   * The document's encoding by its Encoding Standard name (DOM §4.5 `characterSet`): 'UTF-8',
   * 'windows-1252', 'Shift_JIS', 'UTF-16LE'… — what a browser reports for the same page. 'UTF-8' when
   * the document was parsed from a string.
   */
  get characterSet(): string {
    return this._encoding;
  }
  /** Legacy alias of {@link characterSet} (DOM §4.5). */
  get charset(): string {
    return this._encoding;
  }
  /** Legacy alias of {@link characterSet} (DOM §4.5). */
  get inputEncoding(): string {
    return this._encoding;
  }

  /** `'BackCompat'` in quirks mode, `'CSS1Compat'` otherwise (DOM §4.5). */
  get compatMode(): 'BackCompat' | 'CSS1Compat' {
    return this.mode === 'quirks' ? 'BackCompat' : 'CSS1Compat';
  }
  /** The doctype child, or null. */
  get doctype(): DocumentType | null {
    for (let c = this._first; c !== null; c = c._next) if (c.nodeType === NodeType.DOCUMENT_TYPE_NODE) return c as DocumentType;
    return null;
  }
  /** The element child (the root element, usually `<html>`), or null. */
  get documentElement(): Element | null {
    return parentNode.firstElementChild(this);
  }
  /** The first `<head>` child of the `<html>` root element, or null (HTML §3.1.5). */
  get head(): Element | null {
    return this._htmlChild(false);
  }
  /** The first `<body>` or `<frameset>` child of the `<html>` root element, or null (HTML §3.1.5). */
  get body(): Element | null {
    return this._htmlChild(true);
  }
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
  /** The first element in tree order whose id is `id`, or null. */
  getElementById(id: string): Element | null {
    return parentNode.getElementById(this, id);
  }
  /** Elements with this qualified name (`*` for all), in tree order; a snapshot array (not live). */
  getElementsByTagName(qualifiedName: string): Element[] {
    return parentNode.getElementsByTagName(this, qualifiedName);
  }
  // --- Querying (issue #16 item 1; see query/query.ts) ---
  /** The first element matching the selector list, in tree order, or null. Throws a `SyntaxError` DOMException for an invalid selector. */
  querySelector(selectors: string): Element | null {
    return query.querySelector(this, selectors);
  }
  /** The elements matching the selector list, in tree order: a static snapshot (an array). */
  querySelectorAll(selectors: string): Element[] {
    return query.querySelectorAll(this, selectors);
  }
  /** Elements whose class list has all the given (whitespace-separated) classes, in tree order; a snapshot array. */
  getElementsByClassName(classNames: string): Element[] {
    return query.getElementsByClassName(this, classNames);
  }
  /**
   * The document's title (HTML §3.1.3): the first `<title>`'s text with whitespace stripped and collapsed
   * (an SVG root's `<title>` child for an SVG document); ''. Setting it replaces that element's text,
   * creating a `<title>` in `<head>` when there is none (and a head).
   */
  get title(): string {
    return query.getTitle(this);
  }
  set title(value: string) {
    query.setTitle(this, value);
  }
  // --- end Querying ---

  /**
   * Create an HTML element (DOM `createElement`): the name is ASCII-lowercased; `template` gets an
   * `HTMLTemplateElement`. Throws InvalidCharacterError for a name that is not a "valid element local
   * name" (DOM §1.4: `'a b'`, `'1a'`, `''`…).
   */
  createElement(localName: string): Element {
    const name = String(localName);
    if (!VALID_ELEMENT_LOCAL_NAME.test(name)) {
      domError('InvalidCharacterError', `createElement: ${JSON.stringify(name)} is not a valid element name`);
    }
    return this._createElement(parentNode.asciiLowercase(name), NS.HTML, undefined, null);
  }
  /**
   * Create an element in a namespace (DOM `createElementNS`, "validate and extract"): `qualifiedName` may
   * carry a prefix (`svg:rect`). Throws InvalidCharacterError for an invalid prefix or local name,
   * NamespaceError for a prefix without a namespace, `xml`/`xmlns` with the wrong namespace.
   */
  createElementNS(namespace: string | null, qualifiedName: string): Element {
    const qname = String(qualifiedName);
    const ns = namespace === '' || namespace === undefined ? null : namespace;
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? null : qname.slice(0, colon);
    const localName = colon < 0 ? qname : qname.slice(colon + 1);
    if (prefix !== null && INVALID_NAMESPACE_PREFIX.test(prefix)) {
      domError('InvalidCharacterError', `createElementNS: ${JSON.stringify(prefix)} (in ${JSON.stringify(qname)}) is not a valid namespace prefix`);
    }
    if (!VALID_ELEMENT_LOCAL_NAME.test(localName)) {
      domError('InvalidCharacterError', `createElementNS: ${JSON.stringify(localName)} (in ${JSON.stringify(qname)}) is not a valid element local name`);
    }
    if (prefix !== null && ns === null) domError('NamespaceError', `createElementNS: the prefix ${JSON.stringify(prefix)} needs a namespace`);
    if (prefix === 'xml' && ns !== NS.XML) domError('NamespaceError', 'createElementNS: the xml prefix needs the XML namespace');
    if ((qname === 'xmlns' || prefix === 'xmlns') !== (ns === NS.XMLNS)) {
      domError('NamespaceError', 'createElementNS: the name xmlns (or prefix xmlns) and the XMLNS namespace go together');
    }
    if (ns === NS.HTML && prefix === null) return this._createElement(localName, NS.HTML, undefined, null);
    return new Element(this, localName, ns, prefix);
  }
  /** Create a Text node (DOM `createTextNode`). */
  createTextNode(data: string): Text {
    return new Text(String(data), this);
  }
  /** Create a Comment node (DOM `createComment`). */
  createComment(data: string): Comment {
    return new Comment(String(data), this);
  }
  /** Create an empty DocumentFragment (DOM `createDocumentFragment`). */
  createDocumentFragment(): DocumentFragment {
    return new DocumentFragment(this);
  }
  /**
   * Create a doctype node (what `document.implementation.createDocumentType` does in the DOM). Throws
   * InvalidCharacterError for a name with ASCII whitespace, NULL or `>`.
   */
  createDocumentType(name: string, publicId = '', systemId = ''): DocumentType {
    if (INVALID_DOCTYPE_NAME.test(name)) domError('InvalidCharacterError', `createDocumentType: ${JSON.stringify(name)} is not a valid doctype name`);
    return new DocumentType(name, publicId, systemId, this);
  }
  /**
   * A copy of `node` owned by this document (DOM `importNode`): with its descendants when `options` is
   * true, or an object whose `selfOnly` is not true (`{}` copies deeply; `false`, the default, does not).
   * NotSupportedError for a Document.
   */
  importNode<T extends Node>(node: T, options: boolean | { selfOnly?: boolean } = false): T {
    if (node.nodeType === NodeType.DOCUMENT_NODE) domError('NotSupportedError', 'importNode: a Document cannot be imported');
    const deep = typeof options === 'object' && options !== null ? options.selfOnly !== true : Boolean(options);
    const copy = node.cloneNode(deep);
    adoptInto(copy, this);
    return copy;
  }
  /**
   * Move `node` (and its descendants) into this document (DOM `adoptNode`): it is removed from its parent
   * and gets this document as owner. NotSupportedError for a Document.
   */
  adoptNode<T extends Node>(node: T): T {
    if (node.nodeType === NodeType.DOCUMENT_NODE) domError('NotSupportedError', 'adoptNode: a Document cannot be adopted');
    node.remove();
    adoptInto(node, this);
    return node;
  }
  /**
   * Create an Attr node (DOM `createAttribute`), not on any element yet: the name is ASCII-lowercased.
   * InvalidCharacterError for a name that is not a valid attribute local name.
   */
  createAttribute(localName: string): Attr {
    const name = String(localName);
    if (/^$|[\t\n\f\r \0/=>]/.test(name)) domError('InvalidCharacterError', `createAttribute: ${JSON.stringify(name)} is not a valid attribute name`);
    const lower = parentNode.asciiLowercase(name);
    const attr = new Attr({ name: lower, value: '', namespace: null, prefix: null, localName: lower }, null);
    attr._owner = this;
    return attr;
  }
  /**
   * Create a namespaced Attr node (DOM `createAttributeNS`, "validate and extract" for an attribute).
   * InvalidCharacterError / NamespaceError as for `setAttributeNS`.
   */
  createAttributeNS(namespace: string | null, qualifiedName: string): Attr {
    const qname = String(qualifiedName);
    const { namespace: ns, prefix, localName } = validateAndExtractAttribute(namespace, qname, 'createAttributeNS');
    const attr = new Attr({ name: qname, value: '', namespace: ns as ElementAttribute['namespace'], prefix, localName }, null);
    attr._owner = this;
    return attr;
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

  /** @internal Create an element with no checks (the parser's path); `template` in HTML gets its contents. */
  _createElement(
    localName: string,
    namespace: string,
    attributes: readonly ElementAttribute[] | undefined,
    location: SourceLocation | null,
  ): Element {
    if (localName === 'template' && namespace === NS.HTML) return new HTMLTemplateElement(this, attributes, location);
    return new Element(this, localName, namespace, null, attributes, location);
  }

  /** @internal */
  private _htmlChild(body: boolean): Element | null {
    const html = this.documentElement;
    if (html === null || html.localName !== 'html' || html.namespaceURI !== NS.HTML) return null;
    for (let c = html._first; c !== null; c = c._next) {
      if (c.nodeType !== NodeType.ELEMENT_NODE) continue;
      const el = c as Element;
      if (el.namespaceURI !== NS.HTML) continue;
      if (body ? el.localName === 'body' || el.localName === 'frameset' : el.localName === 'head') return el;
    }
    return null;
  }
}
