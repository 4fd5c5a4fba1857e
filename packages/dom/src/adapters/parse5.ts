/**
 * `toParse5(node)`: a copy of a sluice subtree in the shape of parse5 8's default tree adapter, so that
 * `parse5.serialize`, `serializeOuter` and the tools built on parse5's tree (hast-util-from-parse5,
 * parse5's `defaultTreeAdapter`) take it.
 *
 * What each sluice node becomes (plain objects, as parse5 makes them):
 * - Document: `{nodeName: '#document', mode, childNodes}`; DocumentFragment:
 *   `{nodeName: '#document-fragment', childNodes}`.
 * - DocumentType: `{nodeName: '#documentType', name, publicId, systemId, parentNode}`.
 * - Element: `{nodeName, tagName, attrs, namespaceURI, childNodes, parentNode}`; `nodeName` and
 *   `tagName` are the local name (`div`, `foreignObject`: parse5 has no element prefixes), an HTML
 *   `<template>` also has `content`, a `#document-fragment` (no `parentNode`).
 * - Attributes: `{name, value}`, with `namespace` and `prefix` for a namespaced one, and then `name` is
 *   the local name — `xlink:href` is `{name: 'href', namespace: XLink, prefix: 'xlink'}`, `xmlns` on a
 *   foreign element `{name: 'xmlns', namespace: XMLNS, prefix: ''}`, exactly parse5's records. An
 *   unprefixed attribute in another namespace (only `setAttributeNS` makes one) is given without its
 *   namespace: parse5's serializer would write it as `prefix:name`, HTML §13.3 by its qualified name.
 * - Text: `{nodeName: '#text', value, parentNode}`; Comment: `{nodeName: '#comment', data, parentNode}`.
 * - `sourceCodeLocation` where the node has a source location.
 *
 * Iterative: a 100,000-deep document converts, and parse5 8's serializer writes it.
 *
 * TypeScript: parse5's types name `mode` and `namespaceURI` with enums, which TypeScript compares by
 * name, so cast the result: `toParse5(doc) as unknown as DefaultTreeAdapterMap['document']`.
 */
import { NS } from '@sluice/tree-builder';
import type { CharacterData } from '../character-data.js';
import type { Document } from '../document.js';
import type { DocumentType } from '../document-type.js';
import type { Element } from '../element.js';
import { type Node, NodeType } from '../node.js';
import { type Parse5Location, parse5Location } from './location.js';

/** An attribute as parse5 records it. */
export interface Parse5Attribute {
  name: string;
  value: string;
  namespace?: string;
  prefix?: string;
}

/** A parse5 `#document`. */
export interface Parse5Document {
  nodeName: '#document';
  mode: 'no-quirks' | 'quirks' | 'limited-quirks';
  childNodes: Parse5ChildNode[];
  sourceCodeLocation?: Parse5Location | null;
}

/** A parse5 `#document-fragment` (a parsed fragment, or a template's `content`). */
export interface Parse5DocumentFragment {
  nodeName: '#document-fragment';
  childNodes: Parse5ChildNode[];
  sourceCodeLocation?: Parse5Location | null;
}

/** A parse5 element (`content` for an HTML `<template>`). */
export interface Parse5Element {
  nodeName: string;
  tagName: string;
  attrs: Parse5Attribute[];
  namespaceURI: string;
  childNodes: Parse5ChildNode[];
  parentNode: Parse5ParentNode | null;
  content?: Parse5DocumentFragment;
  sourceCodeLocation?: Parse5Location | null;
}

/** A parse5 `#documentType`. */
export interface Parse5DocumentType {
  nodeName: '#documentType';
  name: string;
  publicId: string;
  systemId: string;
  parentNode: Parse5ParentNode | null;
  sourceCodeLocation?: Parse5Location | null;
}

/** A parse5 `#text`. */
export interface Parse5TextNode {
  nodeName: '#text';
  value: string;
  parentNode: Parse5ParentNode | null;
  sourceCodeLocation?: Parse5Location | null;
}

/** A parse5 `#comment`. */
export interface Parse5CommentNode {
  nodeName: '#comment';
  data: string;
  parentNode: Parse5ParentNode | null;
  sourceCodeLocation?: Parse5Location | null;
}

/** A node that has `childNodes`. */
export type Parse5ParentNode = Parse5Document | Parse5DocumentFragment | Parse5Element;
/** A node that can be a child. */
export type Parse5ChildNode = Parse5Element | Parse5DocumentType | Parse5TextNode | Parse5CommentNode;
/** Any node `toParse5` makes. */
export type Parse5Node = Parse5ParentNode | Parse5ChildNode;

/** One sluice node without its children. */
function convert(node: Node): Parse5Node {
  let out: Parse5Node;
  switch (node.nodeType) {
    case NodeType.ELEMENT_NODE: {
      const el = node as Element;
      const attrs: Parse5Attribute[] = [];
      for (const a of el._attrs) {
        if (a.namespace === null) attrs.push({ name: a.name, value: a.value });
        else if (a.prefix === null && !(a.namespace === NS.XMLNS && a.localName === 'xmlns')) {
          // Unprefixed in another namespace (only the DOM API makes one): parse5's serializer would write
          // `prefix:name`; HTML §13.3 writes the qualified name, which a no-namespace record gives.
          attrs.push({ name: a.name, value: a.value });
        } else attrs.push({ name: a.localName, value: a.value, namespace: a.namespace, prefix: a.prefix ?? '' });
      }
      const e: Parse5Element = {
        nodeName: el.localName,
        tagName: el.localName,
        attrs,
        namespaceURI: el.namespaceURI ?? '',
        childNodes: [],
        parentNode: null,
      };
      if (el.localName === 'template' && el.namespaceURI === NS.HTML) {
        const content = el._templateContents();
        if (content !== null) e.content = { nodeName: '#document-fragment', childNodes: [] };
      }
      out = e;
      break;
    }
    case NodeType.TEXT_NODE:
      out = { nodeName: '#text', value: (node as CharacterData).data, parentNode: null };
      break;
    case NodeType.COMMENT_NODE:
      out = { nodeName: '#comment', data: (node as CharacterData).data, parentNode: null };
      break;
    case NodeType.DOCUMENT_TYPE_NODE: {
      const dt = node as DocumentType;
      out = { nodeName: '#documentType', name: dt.name, publicId: dt.publicId, systemId: dt.systemId, parentNode: null };
      break;
    }
    case NodeType.DOCUMENT_NODE:
      out = { nodeName: '#document', mode: (node as Document).mode, childNodes: [] };
      break;
    case NodeType.DOCUMENT_FRAGMENT_NODE:
      out = { nodeName: '#document-fragment', childNodes: [] };
      break;
    default:
      throw new TypeError(`toParse5: cannot convert a node of type ${node.nodeType} (${node.nodeName}); pass a Document, DocumentFragment, Element, Text, Comment or DocumentType`);
  }
  const loc = parse5Location(node);
  if (loc !== null) out.sourceCodeLocation = loc;
  return out;
}

/**
 * Copy `node` and its subtree into parse5 8's default tree shape (see the module comment). The copy's
 * top node has no `parentNode` link to anything (null). Throws a TypeError for an Attr.
 *
 * ```js
 * import * as parse5 from 'parse5';
 * parse5.serialize(toParse5(parse(html)));
 * ```
 */
export function toParse5(node: Document): Parse5Document;
export function toParse5(node: Node): Parse5Node;
export function toParse5(node: Node): Parse5Node {
  if (node === null || typeof node !== 'object' || typeof node.nodeType !== 'number') {
    throw new TypeError('toParse5: expected a sluice Node');
  }
  const top = convert(node);
  // Pairs of (sluice parent, its copy) whose children are still to be copied.
  const work: Node[] = [];
  const copies: Parse5ParentNode[] = [];
  const queue = (from: Node, to: Parse5Node): void => {
    if (!('childNodes' in to)) return;
    if (from.firstChild !== null) {
      work.push(from);
      copies.push(to);
    }
    if ('content' in to && to.content !== undefined) {
      const content = (from as Element)._templateContents()!;
      if (content.firstChild !== null) {
        work.push(content);
        copies.push(to.content);
      }
    }
  };
  queue(node, top);
  while (work.length > 0) {
    const from = work.pop()!;
    const to = copies.pop()!;
    const children = to.childNodes;
    for (let c = from.firstChild; c !== null; c = c.nextSibling) {
      const copy = convert(c) as Parse5ChildNode;
      copy.parentNode = to;
      children.push(copy);
      queue(c, copy);
    }
  }
  return top;
}
