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
import { type StartTagClass, TextTokenClass, type TextToken, attributesOfRawTag } from '@sluice/tokenizer';
// The token classes' internal members (`source`, `offset`, `end`), for sluice's own packages (docs/architecture.md).
import type {} from '@sluice/tokenizer/internal';
import { Comment, TEXT_KINDS, Text } from './character-data.js';
import { Document } from './document.js';
import { DocumentType } from './document-type.js';
import { Element, HTMLTemplateElement } from './element.js';
import { type Node, NodeType, undecodedEnd } from './node.js';
import { maybeCloneOptionIntoSelectedcontent } from './selectedcontent.js';
import { SourceText } from './source-location.js';

/** Options of a {@link DomTreeSink}. */
export interface DomTreeSinkOptions {
  /**
   * Give every parsed node parse5's source locations (lines, columns, offsets; an element's start tag,
   * end tag and attributes) in `sourceLocation`. The sink keeps the input's text (the parser hands it
   * over through `sourceText`) and records where each element's end was implied; lines and columns are
   * worked out when read. Default false: offsets only, nothing kept.
   */
  sourceLocations?: boolean;
}

const NO_ATTRIBUTES: readonly ElementAttribute[] = Object.freeze([]);

/** Text ending at or past this offset is decoded at once: its `undecodedEnd` would not be a small integer. */
const LAZY_END_LIMIT = 2 ** 27;

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
  /** @internal With `sourceLocations`: the input's text, which every node made here is tagged with. */
  readonly source: SourceText | null;
  /**
   * With `sourceLocations` (else absent, so a parser does not hand the text over): the next chunk of the
   * input (see `TreeSink.sourceText`).
   */
  declare readonly sourceText?: (text: string) => void;

  /** Build into `document` (a new, empty one by default). */
  constructor(document: Document = new Document(), options: DomTreeSinkOptions = {}) {
    this.document = document;
    if (options.sourceLocations !== undefined && typeof options.sourceLocations !== 'boolean') {
      throw new TypeError('DomTreeSink: options.sourceLocations must be a boolean');
    }
    if (options.sourceLocations === true) {
      const source = new SourceText();
      this.source = source;
      (this as { sourceText?: (text: string) => void }).sourceText = (text: string) => source.add(text);
    } else this.source = null;
    // A subclass that changes how text is inserted or raw tags are taken (the CLI's SelectSink drops
    // text outside its matches) gets every one through its method: the token hooks, which would go
    // around it, are turned off for it (the tree builder calls a hook only where the sink has one).
    const hooks = this as { insertTextToken?: unknown; createElementForStartTag?: unknown; createElementFromStartTag?: unknown; elementClosedByEndTag?: unknown };
    const proto = DomTreeSink.prototype;
    if (this.insertText !== proto.insertText && hooks.insertTextToken === proto.insertTextToken) hooks.insertTextToken = undefined;
    if (this.createElementWithRawAttributes !== proto.createElementWithRawAttributes && hooks.createElementForStartTag === proto.createElementForStartTag) {
      hooks.createElementForStartTag = undefined;
    }
    // The two hooks without location objects stand for `createElement` (through the raw-tag methods) and
    // `elementPopped`: a subclass that has its own of those gets every call there.
    if (
      hooks.createElementFromStartTag === proto.createElementFromStartTag &&
      (this.createElement !== proto.createElement ||
        this.createElementWithRawAttributes !== proto.createElementWithRawAttributes ||
        hooks.createElementForStartTag !== proto.createElementForStartTag)
    ) {
      hooks.createElementFromStartTag = undefined;
    }
    if (this.elementPopped !== proto.elementPopped && hooks.elementClosedByEndTag === proto.elementClosedByEndTag) hooks.elementClosedByEndTag = undefined;
  }

  /** HTML §13.2.6.1 "create an element for a token": the element, with its attributes, not yet inserted. */
  createElement(
    localName: string,
    namespace: ElementNamespace,
    attributes: readonly ElementAttribute[],
    location: SourceLocation | null,
  ): Element {
    if (localName === 'selectedcontent' && namespace === NS.HTML) this.selectedcontent = true;
    const element = this.document._createElement(localName, namespace, attributes, location);
    if (this.source !== null && location !== null) element._source = this.source;
    return element;
  }

  /**
   * An HTML element whose attributes are decoded from `rawTag` only when something reads them (see
   * `TreeSink.createElementWithRawAttributes`): the element keeps the tag's text until then.
   */
  createElementWithRawAttributes(localName: string, rawTag: string, location: SourceLocation | null): Element {
    const element = this.createElement(localName, NS.HTML, NO_ATTRIBUTES, location);
    // The element reads a raw tag as `[_start, _end)` of a longer string (see `Element._attrData`): a tag
    // whose location is not its own length is decoded now.
    element._attrData = location === null || rawTag.length === location.end - location.start ? rawTag : attributesOfRawTag(rawTag);
    return element;
  }

  /**
   * @internal `createElementWithRawAttributes` given the start tag token: the element keeps the string
   * the tag lies in, not a slice of it, when the tag's offset there is its offset in the input (one
   * string parsed whole: the page) — the tag is then its location's span of it.
   */
  createElementForStartTag(localName: string, tag: StartTagClass, location: SourceLocation | null): Element {
    if (location === null || tag.byteForm || tag.offset !== tag.start || location.start !== tag.start || location.end !== tag.end) {
      return this.createElementWithRawAttributes(localName, tag.raw, location);
    }
    const element = this.createElement(localName, NS.HTML, NO_ATTRIBUTES, location);
    element._attrData = tag.source;
    return element;
  }

  /**
   * @internal `createElementForStartTag(localName, tag, { start: tag.start, end: tag.end })` without the
   * location object (`TreeSink.createElementFromStartTag`): the element's location is set from the tag.
   */
  createElementFromStartTag(localName: string, tag: StartTagClass): Element {
    if (tag.byteForm || tag.offset !== tag.start) return this.createElementWithRawAttributes(localName, tag.raw, { start: tag.start, end: tag.end });
    const element = this.createElement(localName, NS.HTML, NO_ATTRIBUTES, null);
    element._start = tag.start;
    element._end = tag.end;
    if (this.source !== null) element._source = this.source;
    element._attrData = tag.source;
    return element;
  }

  /** A detached Comment. */
  createComment(data: string, location: SourceLocation | null): Comment {
    const comment = new Comment(data, this.document, location);
    if (this.source !== null && location !== null) comment._source = this.source;
    return comment;
  }

  /** A detached DocumentType. */
  createDocumentType(name: string, publicId: string, systemId: string, location: SourceLocation | null): DocumentType {
    const doctype = new DocumentType(name, publicId, systemId, this.document, location);
    if (this.source !== null && location !== null) doctype._source = this.source;
    return doctype;
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
    if (this.source !== null && location !== null && data.charCodeAt(0) !== 0x0a) location = this.afterSkippedNewline(location);
    const text = new Text(data, this.document, location);
    if (this.source !== null && location !== null) text._source = this.source;
    parent._insertBefore(text, before);
  }

  /**
   * @internal The tree builder's `insertTextToken`: the token's characters less any U+0000, appended as
   * `insertText` would. A new Text node keeps them undecoded (see `CharacterData._data`) when the token
   * lies in a string at its offset in the input (one string parsed whole: the page) and no source text
   * is kept; it is decoded when first read.
   */
  insertTextToken(parent: Node, token: TextToken): void {
    const last = parent._last;
    if (!(token instanceof TextTokenClass)) {
      const value = token.value;
      this.insertText(parent, value.indexOf('\0') < 0 ? value : value.replaceAll('\0', ''), null, { start: token.start, end: token.start + token.raw.length });
      return;
    }
    if (
      this.source !== null ||
      token.byteForm ||
      token.offset !== token.start ||
      token.end >= LAZY_END_LIMIT ||
      token.end === token.start ||
      (last !== null && last.nodeType === NodeType.TEXT_NODE)
    ) {
      const value = token.value;
      const data = value.indexOf('\0') < 0 ? value : value.replaceAll('\0', '');
      this.insertText(parent, data, null, { start: token.start, end: token.end });
      return;
    }
    const text = new Text(token.source, this.document, null);
    text._start = token.start;
    text._end = undecodedEnd(token.end, TEXT_KINDS.indexOf(token.kind));
    parent._insertBefore(text, null);
  }

  /**
   * With source locations on: text whose source starts with a newline its data lacks is the text after
   * `<pre>`, `<listing>` or `<textarea>`, whose first newline the tree builder dropped (§13.2.6.4.7). parse5
   * drops it from a token of whitespace it tokenizes apart from other text: the text starts after that
   * newline (LF, CR or CRLF) when non-whitespace follows it — the newline was a token of its own — and at
   * it when more whitespace follows (the token lost its first character, not its location).
   */
  private afterSkippedNewline(location: SourceLocation): SourceLocation {
    const text = this.source!.text();
    const c = text.charCodeAt(location.start);
    if (c !== 0x0a && c !== 0x0d) return location;
    const start = location.start + (c === 0x0d && text.charCodeAt(location.start + 1) === 0x0a ? 2 : 1);
    const next = text.charCodeAt(start);
    if (next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0c || next === 0x0d) return location;
    return { start, end: location.end };
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
   * Record the end tag's location on the element as `endTagLocation` (with source locations on and no end
   * tag: where its end was implied, `at`); for an `<option>`, run "maybe clone an option into
   * selectedcontent" (HTML §4.10.10), which the standard ties to this very moment.
   */
  elementPopped(element: Node, endLocation: SourceLocation | null, at = -1): void {
    const el = asElement(element, 'elementPopped');
    if (this.source === null || el._start < 0) el.endTagLocation = endLocation;
    else this.recordEnd(el, endLocation, at);
    if (this.selectedcontent && el.localName === 'option' && el.namespaceURI === NS.HTML) {
      maybeCloneOptionIntoSelectedcontent(el);
    }
  }

  /**
   * @internal `elementPopped(element, { start: endStart, end: endEnd }, at)` without the location object
   * (`TreeSink.elementClosedByEndTag`: the element's own end tag closed it).
   */
  elementClosedByEndTag(element: Node, endStart: number, endEnd: number, at: number): void {
    const el = asElement(element, 'elementClosedByEndTag');
    if (this.source === null || el._start < 0) el._setEndTag(endStart, endEnd);
    else this.recordEnd(el, { start: endStart, end: endEnd }, at);
    if (this.selectedcontent && el.localName === 'option' && el.namespaceURI === NS.HTML) {
      maybeCloneOptionIntoSelectedcontent(el);
    }
  }

  /**
   * With source locations on: an end tag the tree builder accepted for an element it keeps open (`</body>`,
   * `</html>`) is where that element ends, as parse5 has it — unless a later one moves it.
   */
  endTagKeptOpen(element: Node, location: SourceLocation | null): void {
    if (this.source === null || location === null) return;
    const el = asElement(element, 'endTagKeptOpen');
    if (el._start >= 0) this.recordEnd(el, location, location.start);
  }

  /**
   * Where a located element ends, as parse5 8 sets it (`_setEndLocation`): at the end tag that closed it
   * when that tag has the element's name (ASCII case-insensitively: parse5 gives a foreign end tag that
   * matched the name of the element it matched, `</foreignobject>` for `<foreignObject>`); an
   * end tag of another name (`</h2>` closing an `<h1>`, `</html>` closing the body) or any other token
   * ends it where that token starts (`at`), with no end tag. An element popped by its own start tag
   * (void, or self-closing in foreign content) keeps its start tag's end: parse5 never pushes those. At
   * the end of input, an element whose end tag was already seen (`</body>`, `</html>`) keeps it.
   */
  private recordEnd(el: Element, endLocation: SourceLocation | null, at: number): void {
    if (endLocation !== null) {
      if (endTagNameIs(this.source!.text(), endLocation.start, el.localName.toLowerCase())) {
        el.endTagLocation = endLocation;
        return;
      }
      at = endLocation.start;
    } else if (el._endTagStart >= 0 && el._endTagEnd > el._endTagStart) {
      // `<html>` and `<body>`, whose end tag was seen (`endTagKeptOpen`), at the end of input: parse5
      // leaves an element's end be when it has an end tag.
      return;
    }
    // Popped by its own start tag: parse5 never pushes a void element or a self-closing foreign one, so
    // they keep their start tag's end; a `<form>` in a table it does push and pop (§13.2.6.4.9), ending
    // it where its start tag starts.
    if (at < 0 || (at === el._start && !(el.localName === 'form' && el.namespaceURI === NS.HTML))) return;
    // An empty span: no end tag (`endTagLocation` stays null), the end parse5 gives it.
    el._setEndTag(at, at);
  }
}

/** Whether the end tag at `start` in `text` (`</name…`) is named `name` once ASCII-lowercased. */
function endTagNameIs(text: string, start: number, name: string): boolean {
  const from = start + 2;
  const after = from + name.length;
  if (after > text.length) return false;
  const c = text.charCodeAt(after);
  // The name ends at whitespace, `/` or `>` (§13.2.5.8 tag name state).
  if (!(c === 0x3e || c === 0x2f || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || Number.isNaN(c))) return false;
  for (let i = 0; i < name.length; i++) {
    let d = text.charCodeAt(from + i);
    if (d >= 0x41 && d <= 0x5a) d += 0x20;
    if (d !== name.charCodeAt(i)) return false;
  }
  return true;
}

function asElement(node: Node, method: string): Element {
  if (node.nodeType !== NodeType.ELEMENT_NODE) throw new Error(`DomTreeSink.${method}: ${node.nodeName} is not an element`);
  return node as Element;
}
