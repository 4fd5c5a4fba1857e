/** `Document` (DOM Standard §4.5; HTML §3.1 "The Document object"). */
import { NS, type DocumentMode, type ElementAttribute, type SourceLocation } from '@sluice/tree-builder';
import { Comment, Text } from './character-data.js';
import { DocumentFragment } from './document-fragment.js';
import { DocumentType } from './document-type.js';
import { Element, HTMLTemplateElement } from './element.js';
import { Node, NodeType, domError } from './node.js';
import * as parentNode from './parent-node.js';
import * as query from './query/index.js'; // Querying (issue #16)

/** Tag names DOM §"valid element local name" rejects: empty, or containing whitespace, NULL, `/` or `>`. */
const INVALID_ELEMENT_NAME = /^$|[\t\n\f\r \0/>]/;

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
   * `HTMLTemplateElement`. Throws InvalidCharacterError for an invalid name.
   */
  createElement(localName: string): Element {
    if (INVALID_ELEMENT_NAME.test(localName)) {
      domError('InvalidCharacterError', `createElement: ${JSON.stringify(localName)} is not a valid element name`);
    }
    return this._createElement(parentNode.asciiLowercase(localName), NS.HTML, undefined, null);
  }
  /** Create an element in a namespace (DOM `createElementNS`); `qualifiedName` may carry a prefix. */
  createElementNS(namespace: string | null, qualifiedName: string): Element {
    const colon = qualifiedName.indexOf(':');
    const prefix = colon < 0 ? null : qualifiedName.slice(0, colon);
    const localName = colon < 0 ? qualifiedName : qualifiedName.slice(colon + 1);
    if (INVALID_ELEMENT_NAME.test(localName) || prefix === '' || localName.includes(':')) {
      domError('InvalidCharacterError', `createElementNS: ${JSON.stringify(qualifiedName)} is not a valid qualified name`);
    }
    const ns = namespace === '' ? null : namespace;
    if (prefix !== null && ns === null) domError('NamespaceError', `createElementNS: prefix ${prefix} needs a namespace`);
    if (ns === NS.HTML && prefix === null) return this._createElement(localName, NS.HTML, undefined, null);
    return new Element(this, localName, ns, prefix);
  }
  /** Create a Text node. */
  createTextNode(data: string): Text {
    return new Text(data, this);
  }
  /** Create a Comment node. */
  createComment(data: string): Comment {
    return new Comment(data, this);
  }
  /** Create an empty DocumentFragment. */
  createDocumentFragment(): DocumentFragment {
    return new DocumentFragment(this);
  }
  /** Create a doctype node (what `document.implementation.createDocumentType` does in the DOM). */
  createDocumentType(name: string, publicId = '', systemId = ''): DocumentType {
    return new DocumentType(name, publicId, systemId, this);
  }

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
