/**
 * `toHast(node)`: a copy of a sluice subtree as a hast tree (the syntax tree of unified/rehype, hast 3),
 * the tree `hast-util-from-html` would build for the same page, so that `hast-util-to-html`, rehype
 * plugins and the hast utilities take it.
 *
 * What each sluice node becomes, following hast-util-from-parse5's rules:
 * - Document and DocumentFragment: `{type: 'root', children, data: {quirksMode}}` (`quirksMode`: the
 *   document's mode is quirks or limited-quirks; false for a fragment).
 * - DocumentType: `{type: 'doctype'}`. hast's doctype has no fields: the name, public and system
 *   identifiers are lost (`hast-util-to-html` writes `<!doctype html>`), and with them the mode a
 *   reparse would give a legacy doctype; `root.data.quirksMode` keeps whether it was quirky.
 * - Element: `{type: 'element', tagName, properties, children}`; `tagName` is the local name (`div`,
 *   `foreignObject`, as the parser named it: hastscript, under hast-util-from-html, would spell an SVG
 *   `textarea` `textArea`) — hast has no namespace field: an element's space follows from where it is (the
 *   `<svg>` element starts SVG, HTML integration points return to HTML), which is how
 *   `hast-util-to-html` reads it. An HTML `<template>`'s contents are its `content`, a root.
 * - Properties: hast's names and value types (`className: ['a', 'b']`, `htmlFor`, `tabIndex: 1`,
 *   `checked: true`, `dataFooBar` for `data-foo-bar`, `xLinkHref` for `xlink:href`, `xmlLang`) for the
 *   attributes `hast-properties.ts` lists, with the SVG names on SVG elements (`strokeWidth`,
 *   `viewBox`); any other attribute keeps its name and string value. As in hast-util-from-parse5, a
 *   boolean attribute whose value is '' or its own name is `true` and a number attribute whose value is
 *   a number is that number, so `checked="checked"` and `tabindex="01"` come back from
 *   `hast-util-to-html` as `checked` and `tabindex="1"` — hast does not keep the spelling. An attribute
 *   named `constructor` or `__proto__` is left out (hast-util-from-parse5 drops them too:
 *   `hast-util-to-html` cannot look them up).
 * - Text: `{type: 'text', value}`; Comment: `{type: 'comment', value}`.
 * - `position` (`{start: {line, column, offset}, end: …}`) where the node has a source location; for an
 *   element closed without an end tag, the end of its last child (as hast-util-from-parse5 does); a
 *   template's `content` spans from its start tag's end to its end tag's start. A root has none
 *   (hast-util-from-html gives the document's root the whole input's span, whose length a node does
 *   not know).
 *
 * Serializing: `hast-util-to-html` takes the tree as is; for an SVG element's subtree that does not start
 * at `<svg>`, pass `{space: 'svg'}` to it, so that it writes SVG attribute names. Where what it writes
 * differs from the HTML serializer (§13.3) so that the tree changes (each case is tested):
 * - it escapes `<` and `&` in the text of every element but `<script>` and `<style>`, so text in
 *   `<noscript>` (scripting on), `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>` and `<plaintext>` holding
 *   them reparses with character references in it;
 * - it writes references into a comment holding `<!--`, `-->` or `--!>` (or starting with `>`), and into
 *   an attribute name holding `"`, `'`, `<`, `&` or a backtick; neither decodes them;
 * - it writes an attribute named `data…` without a dash after `data` (`datatype`) as `data-…` (`data-type`);
 * - it writes a `<template>` outside SVG from `content`, so a MathML `<template>` (an ordinary element,
 *   whose children are `children` here as in hast-util-from-parse5) loses its children.
 *
 * Iterative: a 100,000-deep document converts (hast-util-to-html recurses, though, and overflows the
 * stack on such a tree).
 */
import { NS } from '@sluice/tree-builder';
import type { CharacterData } from '../character-data.js';
import type { Document } from '../document.js';
import type { Element } from '../element.js';
import { type Node, NodeType } from '../node.js';
import { type PropertyInfo, propertyInfo } from './hast-properties.js';
import { type Parse5Span, parse5Location } from './location.js';

/** A point in the input (unist): 1-based line and column, 0-based offset. */
export interface HastPoint {
  line: number;
  column: number;
  offset?: number;
}

/** A span of the input (unist `Position`). */
export interface HastPosition {
  start: HastPoint;
  end: HastPoint;
}

/** A property value, as hast allows it. */
export type HastPropertyValue = boolean | number | string | null | undefined | (string | number)[];

/** hast's `properties`. */
export type HastProperties = Record<string, HastPropertyValue>;

/** hast `root`. */
export interface HastRoot {
  type: 'root';
  children: HastRootContent[];
  data?: { quirksMode?: boolean };
  position?: HastPosition;
}

/** hast `element`. */
export interface HastElement {
  type: 'element';
  tagName: string;
  properties: HastProperties;
  children: HastElementContent[];
  content?: HastRoot;
  position?: HastPosition;
}

/** hast `doctype`. */
export interface HastDoctype {
  type: 'doctype';
  position?: HastPosition;
}

/** hast `text`. */
export interface HastText {
  type: 'text';
  value: string;
  position?: HastPosition;
}

/** hast `comment`. */
export interface HastComment {
  type: 'comment';
  value: string;
  position?: HastPosition;
}

/** What an element can hold. */
export type HastElementContent = HastElement | HastText | HastComment;
/** What a root can hold. */
export type HastRootContent = HastElementContent | HastDoctype;
/** Any node `toHast` makes. */
export type HastNode = HastRoot | HastRootContent;

/** The value of one attribute as hast-util-from-parse5 reads it (hastscript's rules). */
function propertyValue(info: PropertyInfo, value: string): HastPropertyValue {
  let list: string[] | null = null;
  if (info.spaceSeparated) list = spaceSeparated(value);
  else if (info.commaSeparated) list = commaSeparated(value);
  else if (info.commaOrSpaceSeparated) list = spaceSeparated(commaSeparated(value).join(' '));
  if (list === null) return primitive(info, value);
  return list.map((item) => primitive(info, item) as string | number);
}

function primitive(info: PropertyInfo, value: string): string | number | boolean {
  if (info.number && value !== '' && !Number.isNaN(Number(value))) return Number(value);
  if ((info.boolean || info.overloadedBoolean) && (value === '' || value.toLowerCase() === info.property.toLowerCase())) {
    return true;
  }
  return value;
}

/** ASCII whitespace as space-separated-tokens splits on it. */
function spaceSeparated(value: string): string[] {
  const trimmed = value.trim();
  return trimmed === '' ? [] : trimmed.split(/[ \t\n\r\f]+/g);
}

/** Comma-separated tokens, trimmed; an empty last one dropped. */
function commaSeparated(value: string): string[] {
  const parts = value.split(',');
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const token = parts[i]!.trim();
    if (token !== '' || i < parts.length - 1) out.push(token);
  }
  return out;
}

function properties(el: Element): HastProperties {
  const space = el.namespaceURI === NS.SVG ? 'svg' : 'html';
  const props: HastProperties = {};
  for (const a of el._attrs) {
    const name = a.name;
    if (name === '__proto__' || name === 'constructor') continue;
    const info = propertyInfo(space, name);
    let value = propertyValue(info, a.value);
    const previous = props[info.property];
    if (info.property === 'className' && Array.isArray(previous) && Array.isArray(value)) value = [...previous, ...value];
    props[info.property] = value;
  }
  return props;
}

function point(line: number, column: number, offset: number): HastPoint {
  return { line, column, offset };
}

function position(span: Parse5Span): HastPosition {
  return { start: point(span.startLine, span.startCol, span.startOffset), end: point(span.endLine, span.endCol, span.endOffset) };
}

/** One sluice node without its children. */
function convert(node: Node): HastNode {
  let out: HastNode;
  switch (node.nodeType) {
    case NodeType.ELEMENT_NODE: {
      const el = node as Element;
      out = { type: 'element', tagName: el.localName, properties: properties(el), children: [] };
      break;
    }
    case NodeType.TEXT_NODE:
      out = { type: 'text', value: (node as CharacterData).data };
      break;
    case NodeType.COMMENT_NODE:
      out = { type: 'comment', value: (node as CharacterData).data };
      break;
    case NodeType.DOCUMENT_TYPE_NODE:
      out = { type: 'doctype' };
      break;
    case NodeType.DOCUMENT_NODE: {
      const mode = (node as Document).mode;
      out = { type: 'root', children: [], data: { quirksMode: mode === 'quirks' || mode === 'limited-quirks' } };
      break;
    }
    case NodeType.DOCUMENT_FRAGMENT_NODE:
      out = { type: 'root', children: [], data: { quirksMode: false } };
      break;
    default:
      throw new TypeError(`toHast: cannot convert a node of type ${node.nodeType} (${node.nodeName}); pass a Document, DocumentFragment, Element, Text, Comment or DocumentType`);
  }
  const loc = parse5Location(node);
  if (loc !== null && loc.startLine > 0 && loc.startCol > 0) out.position = position(loc);
  return out;
}

/**
 * Copy `node` and its subtree into a hast tree (see the module comment): a Document or DocumentFragment
 * gives a root, an Element an element, and so on. Throws a TypeError for an Attr.
 *
 * ```js
 * import { toHtml } from 'hast-util-to-html';
 * toHtml(toHast(parse(html)));
 * ```
 */
export function toHast(node: Document): HastRoot;
export function toHast(node: Node): HastNode;
export function toHast(node: Node): HastNode {
  if (node === null || typeof node !== 'object' || typeof node.nodeType !== 'number') {
    throw new TypeError('toHast: expected a sluice Node');
  }
  const top = convert(node);
  // Pairs of (sluice parent, its copy) whose children are still to be copied.
  const work: Node[] = [];
  const copies: (HastRoot | HastElement)[] = [];
  // Elements closed without an end tag that have children: their end is their last child's (fixed last).
  const unclosed: HastElement[] = [];
  const queue = (from: Node, to: HastNode): void => {
    if (to.type !== 'root' && to.type !== 'element') return;
    if (from.firstChild !== null) {
      work.push(from);
      copies.push(to);
      if (to.type === 'element' && to.position !== undefined && parse5Location(from)?.endTag === undefined) unclosed.push(to);
    }
    if (to.type === 'element' && to.tagName === 'template' && (from as Element).namespaceURI === NS.HTML) {
      const content = (from as Element)._templateContents();
      if (content === null) return;
      const root: HastRoot = { type: 'root', children: [], data: { quirksMode: false } };
      const loc = parse5Location(from);
      if (loc?.startTag !== undefined && loc.endTag !== undefined) {
        root.position = {
          start: point(loc.startTag.endLine, loc.startTag.endCol, loc.startTag.endOffset),
          end: point(loc.endTag.startLine, loc.endTag.startCol, loc.endTag.startOffset),
        };
      }
      to.content = root;
      if (content.firstChild !== null) {
        work.push(content);
        copies.push(root);
      }
    }
  };
  queue(node, top);
  while (work.length > 0) {
    const from = work.pop()!;
    const to = copies.pop()!;
    const children = to.children as HastRootContent[];
    for (let c = from.firstChild; c !== null; c = c.nextSibling) {
      const copy = convert(c) as HastRootContent;
      children.push(copy);
      queue(c, copy);
    }
  }
  // Descendants were queued after their ancestors: fixing from the end sees a child's final end first.
  for (let i = unclosed.length - 1; i >= 0; i--) {
    const el = unclosed[i]!;
    const tail = el.children[el.children.length - 1];
    if (tail?.position !== undefined) el.position!.end = { ...tail.position.end };
  }
  return top;
}
