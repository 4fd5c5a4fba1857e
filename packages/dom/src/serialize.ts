/**
 * The HTML fragment serialization algorithm (HTML §13.3 "Serializing HTML fragments"), iteratively.
 *
 * It follows the current standard, including the 2025 change that escapes `<` and `>` in attribute values
 * (whatwg/html e21bd3b), so a serialized attribute can never be mistaken for markup. No newline is added
 * after the start tag of `pre`, `textarea` or `listing` (the standard dropped that step in 2016,
 * whatwg/html#1815, as browsers do): such an element whose text starts with a newline loses it when its
 * parent's serialization is parsed again. A processing instruction is written `<?target data>`.
 */
import { NS, type ElementAttribute } from '@sluice/tree-builder';
import type { Comment, Text } from './character-data.js';
import type { Document } from './document.js';
import type { DocumentFragment } from './document-fragment.js';
import type { DocumentType } from './document-type.js';
import type { Element } from './element.js';
import { type Node, NodeType } from './node.js';

/** Options for {@link serialize} and {@link serializeOuter}. */
export interface SerializeOptions {
  /**
   * Whether scripting is enabled for the nodes (decides whether `<noscript>` text is written raw).
   * Default: the owner document's `scriptingEnabled` (set by `parse`; false for `new Document()`).
   */
  scripting?: boolean;
}

/**
 * HTML §13.3: an element "serializes as void" if it is one of the void elements, or basefont, bgsound,
 * frame, keygen or param: no children and no end tag are written for it. HTML namespace only.
 */
const VOID_ELEMENTS = new Set([
  'area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen', 'link',
  'meta', 'param', 'source', 'track', 'wbr',
]);

/** HTML §13.3: text whose parent is one of these HTML elements is written literally (noscript: when scripting). */
const RAW_TEXT_PARENTS = new Set(['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

const TEXT_SPECIAL = /[&<>\u00a0]/;
const TEXT_SPECIAL_G = /[&<>\u00a0]/g;
const ATTR_SPECIAL = /[&<>"\u00a0]/;
const ATTR_SPECIAL_G = /[&<>"\u00a0]/g;
const REPLACEMENTS: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\u00a0': '&nbsp;',
};
const replace = (ch: string): string => REPLACEMENTS[ch];

/**
 * HTML §13.3 "escaping a string": `&` → `&amp;`, NBSP → `&nbsp;`, `<` → `&lt;`, `>` → `&gt;`, and in
 * attribute mode also `"` → `&quot;`.
 */
export function escapeString(s: string, attributeMode: boolean): string {
  if (attributeMode) return ATTR_SPECIAL.test(s) ? s.replace(ATTR_SPECIAL_G, replace) : s;
  return TEXT_SPECIAL.test(s) ? s.replace(TEXT_SPECIAL_G, replace) : s;
}

/**
 * The HTML fragment serialization algorithm (HTML §13.3), like the `innerHTML` getter: the node's
 * children (a template's contents, for a `<template>`) as HTML. `serialize(document)` gives the whole
 * document, doctype included. Empty for an element that serializes as void, and for a leaf node.
 * Iterative: any depth works.
 */
export function serialize(node: Node, options?: SerializeOptions): string {
  if (node.nodeType === NodeType.ELEMENT_NODE && serializesAsVoid(node as Element)) return '';
  const container = contentsOf(node);
  if (container._first === null) return '';
  return serializeChildren(container, scriptingFor(node, options));
}

/** Options for {@link serializeChunks}. */
export interface SerializeChunksOptions extends SerializeOptions {
  /** A chunk is yielded once it is at least this many characters long (default 16,384). */
  chunkLength?: number;
}

/**
 * What {@link serialize} returns, in chunks of about `chunkLength` characters, so that a big document
 * can be written out (with backpressure: the caller pulls the next chunk when it is ready) without ever
 * being one string. The same walk as `serialize`, which is this with one chunk; joined, the chunks are
 * `serialize(node, options)`. Attributes are read from the element's own list, never through
 * `el.attributes` (which would make and keep an Attr node per attribute: a whole page's worth doubles
 * the DOM's memory).
 */
export function* serializeChunks(node: Node, options?: SerializeChunksOptions): Generator<string, void, undefined> {
  if (node.nodeType === NodeType.ELEMENT_NODE && serializesAsVoid(node as Element)) return;
  const container = contentsOf(node);
  if (container._first === null) return;
  const chunkLength = options?.chunkLength ?? 16384;
  if (!(chunkLength > 0)) throw new RangeError(`serializeChunks: chunkLength must be a positive number, not ${String(options?.chunkLength)}`);
  yield* childrenChunks(container, scriptingFor(node, options), chunkLength);
}

/**
 * Like the `outerHTML` getter: the node itself and its children. For a Text, Comment or DocumentType
 * node, its own serialization (text escaped unless its parent is a raw-text element); for a Document or
 * DocumentFragment, the same as {@link serialize}.
 */
export function serializeOuter(node: Node, options?: SerializeOptions): string {
  const scripting = scriptingFor(node, options);
  switch (node.nodeType) {
    case NodeType.ELEMENT_NODE: {
      const el = node as Element;
      const start = startTag(el);
      if (serializesAsVoid(el)) return start;
      const container = contentsOf(el);
      const inner = container._first === null ? '' : serializeChildren(container, scripting);
      return `${start}${inner}</${tagNameOf(el)}>`;
    }
    case NodeType.DOCUMENT_NODE:
    case NodeType.DOCUMENT_FRAGMENT_NODE:
      return serialize(node, options);
    default:
      return leaf(node, scripting);
  }
}

function scriptingFor(node: Node, options: SerializeOptions | undefined): boolean {
  if (options?.scripting !== undefined) return options.scripting;
  const doc = node.nodeType === NodeType.DOCUMENT_NODE ? (node as Document) : node.ownerDocument;
  return doc !== null && doc.scriptingEnabled;
}

/** A template's children are its contents (HTML §13.3 step 3); anything else's are its own. */
function contentsOf(node: Node): Node {
  const content = (node as Partial<{ content: DocumentFragment }>).content;
  return content !== undefined && node.nodeType === NodeType.ELEMENT_NODE && isHtml(node as Element, 'template')
    ? content
    : node;
}

function isHtml(el: Element, localName: string): boolean {
  return el.localName === localName && el.namespaceURI === NS.HTML;
}

function serializesAsVoid(el: Element): boolean {
  return el.namespaceURI === NS.HTML && VOID_ELEMENTS.has(el.localName);
}

/** HTML §13.3: the local name for HTML, SVG and MathML elements; the qualified name otherwise. */
function tagNameOf(el: Element): string {
  const ns = el.namespaceURI;
  if (ns === NS.HTML || ns === NS.SVG || ns === NS.MATHML || el.prefix === null) return el.localName;
  return `${el.prefix}:${el.localName}`;
}

/** HTML §13.3 "the attribute's serialized name". */
function attributeName(a: ElementAttribute): string {
  switch (a.namespace) {
    case null:
      return a.localName;
    case NS.XML:
      return `xml:${a.localName}`;
    case NS.XMLNS:
      return a.localName === 'xmlns' ? 'xmlns' : `xmlns:${a.localName}`;
    case NS.XLINK:
      return `xlink:${a.localName}`;
    default:
      return a.name;
  }
}

function startTag(el: Element): string {
  let s = '<' + tagNameOf(el);
  const attrs = el._attrs;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i];
    s += ' ' + attributeName(a) + '="' + escapeString(a.value, true) + '"';
  }
  return s + '>';
}

/** A non-element child: text (escaped unless its parent is raw text), comment, doctype, processing instruction. */
function leaf(node: Node, scripting: boolean): string {
  switch (node.nodeType) {
    case NodeType.TEXT_NODE: {
      const data = (node as Text).data;
      const parent = node._parent;
      if (parent !== null && parent.nodeType === NodeType.ELEMENT_NODE) {
        const p = parent as Element;
        if (p.namespaceURI === NS.HTML && (RAW_TEXT_PARENTS.has(p.localName) || (scripting && p.localName === 'noscript'))) {
          return data;
        }
      }
      return escapeString(data, false);
    }
    case NodeType.COMMENT_NODE:
      return `<!--${(node as Comment).data}-->`;
    case NodeType.DOCUMENT_TYPE_NODE:
      return `<!DOCTYPE ${(node as DocumentType).name}>`;
    case NodeType.PROCESSING_INSTRUCTION_NODE: {
      const pi = node as unknown as { target: string; data: string };
      return `<?${pi.target} ${pi.data}>`;
    }
    default:
      return '';
  }
}

/** The serialization of the children of `container` (which has at least one), as one string. */
function serializeChildren(container: Node, scripting: boolean): string {
  return serializePart({ container, next: container._first, scripting }, Infinity);
}

/** A serialization under way: the node whose children are written, and the next node to write (null: done). */
interface Walk {
  readonly container: Node;
  next: Node | null;
  readonly scripting: boolean;
}

/** The chunks of {@link serializeChildren}: the same walk, stopped whenever `chunkLength` is reached. */
function* childrenChunks(container: Node, scripting: boolean, chunkLength: number): Generator<string, void, undefined> {
  const walk: Walk = { container, next: container._first, scripting };
  while (walk.next !== null) {
    const chunk = serializePart(walk, chunkLength);
    if (chunk !== '') yield chunk;
  }
}

/**
 * Serialize on from `walk.next` until the output is `chunkLength` long or more, or the children of
 * `walk.container` are all written; `walk.next` is left where the next part starts. A pre-order walk
 * over pointers, not a generator (a plain loop keeps `serialize` of a small element as fast as it was):
 * down into an element's children (a template's contents), and back up through parents, writing end
 * tags. A template's contents fragment leads back up to its template through `_host`.
 */
function serializePart(walk: Walk, chunkLength: number): string {
  const { container, scripting } = walk;
  let out = '';
  let n: Node = walk.next!;
  for (;;) {
    if (out.length >= chunkLength) {
      walk.next = n;
      return out;
    }
    if (n.nodeType === NodeType.ELEMENT_NODE) {
      const el = n as Element;
      out += startTag(el);
      if (!serializesAsVoid(el)) {
        const inner = contentsOf(el);
        if (inner._first !== null) {
          n = inner._first;
          continue;
        }
        out += '</' + tagNameOf(el) + '>';
      }
    } else {
      out += leaf(n, scripting);
    }
    // Move on: to the next sibling, or up (closing elements) until one has a next sibling.
    for (;;) {
      if (n._next !== null) {
        n = n._next;
        break;
      }
      let parent = n._parent!;
      if (parent === container) {
        walk.next = null;
        return out;
      }
      if (parent.nodeType === NodeType.DOCUMENT_FRAGMENT_NODE) parent = (parent as DocumentFragment)._host!;
      out += '</' + tagNameOf(parent as Element) + '>';
      n = parent;
    }
  }
}
