/**
 * `DomTreeSink`: the tree builder's mutation events (HTML §13.2.6), applied to a sluice `Document`.
 */
import {
  NS,
  type DocumentMode,
  type ElementAttribute,
  type ElementNamespace,
  type SourceLocation,
  type TreeSink,
} from '@sluice/tree-builder';
import { Comment, Text } from './character-data.js';
import { Document } from './document.js';
import { DocumentType } from './document-type.js';
import { Element, HTMLTemplateElement } from './element.js';
import { type Node, NodeType } from './node.js';
import { maybeCloneOptionIntoSelectedcontent } from './selectedcontent.js';

const NO_ATTRIBUTES: readonly ElementAttribute[] = Object.freeze([]);

/**
 * A `TreeSink<Node>` that builds a sluice DOM. Pass it to the tree builder's `Parser`, then read
 * `sink.document`.
 *
 * The sink trusts the tree builder: its inserts skip the DOM's validity checks (which cost O(depth) each),
 * but misuse that would corrupt the tree (a `before` that is not a child of `parent`, `templateContents`
 * of a non-template) throws.
 */
export class DomTreeSink implements TreeSink<Node> {
  /** The document being built. */
  readonly document: Document;
  /** Whether this sink made a `<selectedcontent>`: only then can popping an option change the tree. */
  private selectedcontent = false;

  /** Build into `document` (a new, empty one by default). */
  constructor(document: Document = new Document()) {
    this.document = document;
  }

  /** HTML §13.2.6.1 "create an element for a token": the element, with its attributes, not yet inserted. */
  createElement(
    localName: string,
    namespace: ElementNamespace,
    attributes: readonly ElementAttribute[],
    location: SourceLocation | null,
  ): Element {
    if (localName === 'selectedcontent' && namespace === NS.HTML) this.selectedcontent = true;
    return this.document._createElement(localName, namespace, attributes, location);
  }

  /**
   * An HTML element whose attributes are decoded from `rawTag` only when something reads them (see
   * `TreeSink.createElementWithRawAttributes`): the element keeps the tag's text until then.
   */
  createElementWithRawAttributes(localName: string, rawTag: string, location: SourceLocation | null): Element {
    const element = this.createElement(localName, NS.HTML, NO_ATTRIBUTES, location);
    element._attrData = rawTag;
    return element;
  }

  /** A detached Comment. */
  createComment(data: string, location: SourceLocation | null): Comment {
    return new Comment(data, this.document, location);
  }

  /** A detached DocumentType. */
  createDocumentType(name: string, publicId: string, systemId: string, location: SourceLocation | null): DocumentType {
    return new DocumentType(name, publicId, systemId, this.document, location);
  }

  /**
   * HTML §13.2.6.1 "insert a character": append to the Text node just before the insertion point if there
   * is one (its source location grows to cover both), else insert a new Text node. Appending is `+=` on
   * the node's data, O(1) amortized (V8 builds a rope and flattens it once when read).
   */
  insertText(parent: Node, data: string, before: Node | null, location: SourceLocation | null): void {
    let prev: Node | null;
    if (before === null) prev = parent._last;
    else {
      if (before._parent !== parent) throw new Error('DomTreeSink.insertText: `before` is not a child of `parent`');
      prev = before._prev;
    }
    if (prev !== null && prev.nodeType === NodeType.TEXT_NODE) {
      const text = prev as Text;
      text.data += data;
      if (text._start >= 0 && location !== null) text._end = location.end;
      return;
    }
    parent._insertBefore(new Text(data, this.document, location), before);
  }

  /** DOM insertBefore (moves `node` if it has a parent); appends when `before` is null. */
  insertBefore(parent: Node, node: Node, before: Node | null): void {
    if (before !== null && before._parent !== parent) {
      throw new Error('DomTreeSink.insertBefore: `before` is not a child of `parent`');
    }
    if (before === node) return; // Already in place.
    parent._insertBefore(node, before);
  }

  /** Remove `node` from its parent, if it has one. */
  remove(node: Node): void {
    const p = node._parent;
    if (p !== null) p._removeChild(node);
  }

  /** Move every child of `from`, in order, to the end of `to`. */
  moveChildren(from: Node, to: Node): void {
    let c = from._first;
    while (c !== null) {
      const next = c._next;
      to._insertBefore(c, null);
      c = next;
    }
  }

  /** The parent of `node`, or null. */
  parentNode(node: Node): Node | null {
    return node._parent;
  }

  /** Add each attribute whose name the element lacks (the `<html>`/`<body>` start tag merging). */
  addMissingAttributes(element: Node, attributes: readonly ElementAttribute[]): void {
    const el = asElement(element, 'addMissingAttributes');
    for (const attr of attributes) {
      if (el._indexOfName(attr.name) < 0) el._append(attr);
    }
  }

  /** Set the document's mode (quirks, limited-quirks, no-quirks). */
  setDocumentMode(mode: DocumentMode): void {
    this.document.mode = mode;
  }

  /** The template contents of a `<template>` made by this sink. Throws for any other node. */
  templateContents(template: Node): Node {
    if (!(template instanceof HTMLTemplateElement)) {
      throw new Error(`DomTreeSink.templateContents: ${template.nodeName} is not an HTML <template> element`);
    }
    return template.content;
  }

  /**
   * Record the end tag's location on the element as `endTagLocation`; for an `<option>`, run "maybe clone
   * an option into selectedcontent" (HTML §4.10.10), which the standard ties to this very moment.
   */
  elementPopped(element: Node, endLocation: SourceLocation | null): void {
    const el = asElement(element, 'elementPopped');
    el.endTagLocation = endLocation;
    if (this.selectedcontent && el.localName === 'option' && el.namespaceURI === NS.HTML) {
      maybeCloneOptionIntoSelectedcontent(el);
    }
  }
}

function asElement(node: Node, method: string): Element {
  if (node.nodeType !== NodeType.ELEMENT_NODE) throw new Error(`DomTreeSink.${method}: ${node.nodeName} is not an element`);
  return node as Element;
}
