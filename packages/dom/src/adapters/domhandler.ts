/**
 * `toDomhandler(node)`: a copy of a sluice subtree in the shape of domhandler 6's nodes — the tree of
 * htmlparser2, cheerio, css-select, domutils and dom-serializer — so that `cheerio.load(toDomhandler(doc))`
 * queries, edits and renders it.
 *
 * The copy is made of this module's own small classes, not domhandler's (which would make domhandler a
 * run-time dependency): they have domhandler's fields and its DOM-alias getters, and these libraries
 * tell nodes apart by those fields only — `type` (`isTag`, `isText`, `isDocument` …) and an own
 * `children` property (`hasChildren`), never by `instanceof`. Nodes these libraries add later (cheerio's
 * `append('<b>')`, domhandler's `cloneNode`) are domhandler's own classes and mix with these freely.
 *
 * What each sluice node becomes:
 * - Document and DocumentFragment: a `Document` (`type: 'root'`); a document's mode is `x-mode`
 *   ('no-quirks', 'quirks', 'limited-quirks'), as parse5-htmlparser2-tree-adapter records it.
 * - DocumentType: a `ProcessingInstruction` named `!doctype` whose `data` is the tag's text without
 *   `<` `>` (`!DOCTYPE html PUBLIC "…" "…"`), with `x-name`, `x-publicId`, `x-systemId`.
 * - Element: `name` (the local name: `div`, `foreignObject`), `attribs` (qualified name → value, in
 *   order), `namespace`, `x-attribsNamespace` and `x-attribsPrefix`, `type` 'script', 'style' or 'tag'
 *   (by name, as domhandler's constructor decides).
 * - A `<template>`: its contents are a `Document` that is the template's only child — where
 *   parse5-htmlparser2-tree-adapter keeps them, so cheerio (which serializes through parse5 and that
 *   adapter) renders them. One consequence, the same as for a page cheerio parsed itself: css-select
 *   descends into template contents, so `$('template p')` finds the `<p>` a browser's
 *   `querySelectorAll` (and sluice's DOM) does not see.
 * - Text and Comment: `data`. There are no CDATA nodes (the HTML parser makes text of `<![CDATA[`).
 *
 * Attribute names: `attribs` is keyed by the qualified name (`xlink:href`, `xml:lang`), as htmlparser2
 * keys it and as dom-serializer and css-select read it — so `$(el).attr('xlink:href')` and
 * `[xlink\:href]` work, and `href` next to `xlink:href` are two attributes. parse5-htmlparser2-tree-adapter
 * instead keys a namespaced attribute by its local name (`href`) and keeps its namespace in
 * `x-attribsNamespace`; with the qualified name as the key, a namespace there would make parse5's
 * serializer (cheerio's `$.html()`) write `xlink:xlink:href`, also for nodes domhandler's `cloneNode`
 * copied. So `x-attribsNamespace` and `x-attribsPrefix` hold a namespace and prefix only for `xmlns` on
 * a foreign element (the XMLNS namespace, prefix ''), as parse5 records it; a prefixed
 * attribute's namespace is the one its prefix names (the HTML parser makes `xlink:`, `xml:` and `xmlns:`
 * only: HTML §13.2.6.1 "adjust foreign attributes"), which `toParse5` and `toHast` keep.
 *
 * Source locations (where the node has one): `startIndex` and `endIndex` (UTF-16 offsets into the input,
 * the end exclusive as parse5's `endOffset`) and `sourceCodeLocation`, as parse5-htmlparser2-tree-adapter
 * sets them (see `toParse5`).
 *
 * Iterative: a 100,000-deep document converts (cheerio's and dom-serializer's own renderers recurse,
 * though, and overflow the stack on such a tree).
 *
 * TypeScript: domhandler's types name `type` with an enum, which TypeScript compares by name, so pass the
 * result to cheerio as `toDomhandler(doc) as unknown as AnyNode` (domhandler's `AnyNode`).
 */
import { NS } from '@sluice/tree-builder';
import type { CharacterData } from '../character-data.js';
import type { Document as SluiceDocument } from '../document.js';
import type { DocumentType } from '../document-type.js';
import type { Element as SluiceElement } from '../element.js';
import { type Node, NodeType } from '../node.js';
import { type Parse5Location, parse5Location } from './location.js';

/** The `type` values of domhandler's nodes (domelementtype's `ElementType`). */
export type DomhandlerType = 'root' | 'text' | 'directive' | 'comment' | 'script' | 'style' | 'tag' | 'cdata' | 'doctype';

/** The fields every domhandler-shaped node has, with domhandler's DOM-style aliases. */
export abstract class DomhandlerNodeBase {
  abstract readonly type: DomhandlerType;
  // Fields are `declare`d and assigned in the constructor (not define-initialized), as in the DOM's
  // nodes: a converted page makes one object per node.
  /** The parent, or null. */
  declare parent: DomhandlerParent | null;
  /** The previous sibling, or null. */
  declare prev: DomhandlerChild | null;
  /** The next sibling, or null. */
  declare next: DomhandlerChild | null;
  /** Where the node starts in the input (UTF-16 offset), or null. */
  declare startIndex: number | null;
  /** Where the node ends in the input (exclusive UTF-16 offset), or null. */
  declare endIndex: number | null;
  /** parse5's location of the node (as parse5-htmlparser2-tree-adapter keeps it), when known. */
  declare sourceCodeLocation?: Parse5Location | null;

  constructor() {
    this.parent = null;
    this.prev = null;
    this.next = null;
    this.startIndex = null;
    this.endIndex = null;
  }
  /** The DOM node type (domhandler: 1 for elements and processing instructions, 3, 8, 9). */
  abstract get nodeType(): number;
  /** Same as `parent`. */
  get parentNode(): DomhandlerParent | null {
    return this.parent;
  }
  set parentNode(parent: DomhandlerParent | null) {
    this.parent = parent;
  }
  /** Same as `prev`. */
  get previousSibling(): DomhandlerChild | null {
    return this.prev;
  }
  set previousSibling(prev: DomhandlerChild | null) {
    this.prev = prev;
  }
  /** Same as `next`. */
  get nextSibling(): DomhandlerChild | null {
    return this.next;
  }
  set nextSibling(next: DomhandlerChild | null) {
    this.next = next;
  }
  /** A copy of this node (with `recursive`, of its subtree too), as domhandler's `cloneNode` makes. Iterative. */
  cloneNode<T extends DomhandlerNodeBase>(this: T, recursive = false): T {
    const top = shallowCopy(this as unknown as DomhandlerAnyNode);
    if (!recursive) return top as unknown as T;
    const work: [DomhandlerAnyNode, DomhandlerAnyNode][] = [[this as unknown as DomhandlerAnyNode, top]];
    while (work.length > 0) {
      const [from, to] = work.pop()!;
      if (!('children' in from) || !('children' in to)) continue;
      let prev: DomhandlerChild | null = null;
      for (const child of from.children) {
        const copy = shallowCopy(child) as DomhandlerChild;
        link(to, copy, prev);
        prev = copy;
        if ('children' in child && child.children.length > 0) work.push([child, copy]);
      }
    }
    return top as unknown as T;
  }
}

/** Text and comments: a node holding `data`. */
export abstract class DomhandlerDataNode extends DomhandlerNodeBase {
  /** The node's text. */
  declare data: string;
  constructor(data: string) {
    super();
    this.data = data;
  }
  /** Same as `data`. */
  get nodeValue(): string {
    return this.data;
  }
  set nodeValue(data: string) {
    this.data = data;
  }
}

/** A text node (`type: 'text'`). */
export class DomhandlerText extends DomhandlerDataNode {
  declare readonly type: 'text';
  get nodeType(): 3 {
    return 3;
  }
}

/** A comment (`type: 'comment'`). */
export class DomhandlerComment extends DomhandlerDataNode {
  declare readonly type: 'comment';
  get nodeType(): 8 {
    return 8;
  }
}

/** The doctype, as htmlparser2 and parse5-htmlparser2-tree-adapter make it (`type: 'directive'`, `name: '!doctype'`). */
export class DomhandlerProcessingInstruction extends DomhandlerDataNode {
  declare readonly type: 'directive';
  /** `!doctype`. */
  declare name: string;
  /** The doctype's name. */
  declare 'x-name'?: string;
  /** The doctype's public identifier ('' when none). */
  declare 'x-publicId'?: string;
  /** The doctype's system identifier ('' when none). */
  declare 'x-systemId'?: string;
  constructor(name: string, data: string) {
    super(data);
    this.name = name;
  }
  get nodeType(): 1 {
    return 1;
  }
}

/** A node with `children` (an own property: domhandler's `hasChildren` tests for exactly that). */
export abstract class DomhandlerNodeWithChildren extends DomhandlerNodeBase {
  /** The children, in order. */
  declare children: DomhandlerChild[];
  constructor(children: DomhandlerChild[]) {
    super();
    this.children = children;
  }
  /** The first child, or null. */
  get firstChild(): DomhandlerChild | null {
    return this.children[0] ?? null;
  }
  /** The last child, or null. */
  get lastChild(): DomhandlerChild | null {
    return this.children.length > 0 ? this.children[this.children.length - 1]! : null;
  }
  /** Same as `children`. */
  get childNodes(): DomhandlerChild[] {
    return this.children;
  }
  set childNodes(children: DomhandlerChild[]) {
    this.children = children;
  }
}

/** The root (`type: 'root'`): a document, a fragment, or a template's contents. */
export class DomhandlerDocument extends DomhandlerNodeWithChildren {
  declare readonly type: 'root';
  /** The document's mode (`'no-quirks'`, `'quirks'`, `'limited-quirks'`); absent for fragments. */
  declare 'x-mode'?: 'no-quirks' | 'quirks' | 'limited-quirks';
  get nodeType(): 9 {
    return 9;
  }
}

/** An element. */
export class DomhandlerElement extends DomhandlerNodeWithChildren {
  /** The local name (`div`, `foreignObject`). */
  declare name: string;
  /** The attributes: qualified name → value, in the element's order. */
  declare attribs: Record<string, string>;
  /** `'script'` or `'style'` by name, else `'tag'` (as domhandler's constructor decides). */
  declare type: 'tag' | 'script' | 'style';
  /** The element's namespace URI. */
  declare namespace?: string;
  /** Present when the element has an `xmlns` attribute: its namespace, XMLNS (see the module comment). */
  declare 'x-attribsNamespace'?: Record<string, string | undefined>;
  /** Present when the element has an `xmlns` attribute: its prefix, '' (see the module comment). */
  declare 'x-attribsPrefix'?: Record<string, string | undefined>;
  constructor(name: string, attribs: Record<string, string>, children: DomhandlerChild[] = []) {
    super(children);
    this.name = name;
    this.attribs = attribs;
    this.type = name === 'script' ? 'script' : name === 'style' ? 'style' : 'tag';
  }
  get nodeType(): 1 {
    return 1;
  }
  /** Same as `name` (domhandler's alias; not uppercased). */
  get tagName(): string {
    return this.name;
  }
  set tagName(name: string) {
    this.name = name;
  }
  /**
   * The attributes as parse5-htmlparser2-tree-adapter's serializer reads them: `{name, value, namespace,
   * prefix}` in order (`namespace` and `prefix` from `x-attribsNamespace`/`x-attribsPrefix`).
   */
  get attributes(): { name: string; value: string; namespace: string | undefined; prefix: string | undefined }[] {
    const ns = this['x-attribsNamespace'];
    const prefixes = this['x-attribsPrefix'];
    return Object.keys(this.attribs).map((name) => ({
      name,
      value: this.attribs[name]!,
      namespace: ns?.[name],
      prefix: prefixes?.[name],
    }));
  }
}

// The fixed `type`s live on the prototypes (domhandler's readers only read `node.type`).
for (const [cls, type] of [
  [DomhandlerText, 'text'],
  [DomhandlerComment, 'comment'],
  [DomhandlerProcessingInstruction, 'directive'],
  [DomhandlerDocument, 'root'],
] as const) {
  Object.defineProperty(cls.prototype, 'type', { value: type, writable: false, enumerable: true });
}

/** A node that can have children. */
export type DomhandlerParent = DomhandlerDocument | DomhandlerElement;
/** A node that can be a child. */
export type DomhandlerChild = DomhandlerElement | DomhandlerText | DomhandlerComment | DomhandlerProcessingInstruction | DomhandlerDocument;
/** Any node `toDomhandler` makes. */
export type DomhandlerAnyNode = DomhandlerParent | DomhandlerChild;

/** Append `child` to `parent`'s children after `prev` (its current last child), linking the siblings. */
function link(parent: DomhandlerParent, child: DomhandlerChild, prev: DomhandlerChild | null): void {
  parent.children.push(child);
  child.parent = parent;
  child.prev = prev;
  if (prev !== null) prev.next = child;
}

function shallowCopy(node: DomhandlerAnyNode): DomhandlerAnyNode {
  let copy: DomhandlerAnyNode;
  switch (node.type) {
    case 'text':
      copy = new DomhandlerText(node.data);
      break;
    case 'comment':
      copy = new DomhandlerComment(node.data);
      break;
    case 'directive': {
      const pi = new DomhandlerProcessingInstruction(node.name, node.data);
      if (node['x-name'] !== undefined) {
        pi['x-name'] = node['x-name'];
        pi['x-publicId'] = node['x-publicId'];
        pi['x-systemId'] = node['x-systemId'];
      }
      copy = pi;
      break;
    }
    case 'root': {
      const root = new DomhandlerDocument([]);
      if (node['x-mode'] !== undefined) root['x-mode'] = node['x-mode'];
      copy = root;
      break;
    }
    default: {
      const el = new DomhandlerElement(node.name, { ...node.attribs });
      el.type = node.type;
      if (node.namespace !== undefined) el.namespace = node.namespace;
      if (node['x-attribsNamespace'] !== undefined) el['x-attribsNamespace'] = { ...node['x-attribsNamespace'] };
      if (node['x-attribsPrefix'] !== undefined) el['x-attribsPrefix'] = { ...node['x-attribsPrefix'] };
      copy = el;
    }
  }
  copy.startIndex = node.startIndex;
  copy.endIndex = node.endIndex;
  if (node.sourceCodeLocation != null) copy.sourceCodeLocation = node.sourceCodeLocation;
  return copy;
}

/** The doctype's text between `<` and `>`, as parse5-htmlparser2-tree-adapter writes it into `data`. */
function doctypeData(name: string, publicId: string, systemId: string): string {
  const quote = (id: string): string => (id.includes('"') ? `'${id}'` : `"${id}"`);
  let data = '!DOCTYPE ';
  if (name !== '') data += name;
  if (publicId !== '') data += ` PUBLIC ${quote(publicId)}`;
  else if (systemId !== '') data += ' SYSTEM';
  if (systemId !== '') data += ` ${quote(systemId)}`;
  return data;
}

/** One sluice node without its children. */
function convert(node: Node): DomhandlerAnyNode {
  let out: DomhandlerAnyNode;
  switch (node.nodeType) {
    case NodeType.ELEMENT_NODE: {
      const el = node as SluiceElement;
      const attribs: Record<string, string> = {};
      let xmlns = false;
      for (const a of el._attrs) {
        // A repeated qualified name (only the DOM API can make one) keeps the first, as getAttribute does.
        if (Object.prototype.hasOwnProperty.call(attribs, a.name)) continue;
        defineOwn(attribs, a.name, a.value);
        if (a.namespace === NS.XMLNS && a.prefix === null && a.localName === 'xmlns') xmlns = true;
      }
      const e = new DomhandlerElement(el.localName, attribs);
      e.namespace = el.namespaceURI ?? undefined;
      // Only `xmlns` (XMLNS, no prefix) keeps a namespace there: see the module comment. Without one
      // the two records are left out, as htmlparser2 leaves them out.
      if (xmlns) {
        e['x-attribsNamespace'] = { xmlns: NS.XMLNS };
        e['x-attribsPrefix'] = { xmlns: '' };
      }
      out = e;
      break;
    }
    case NodeType.TEXT_NODE:
      out = new DomhandlerText((node as CharacterData).data);
      break;
    case NodeType.COMMENT_NODE:
      out = new DomhandlerComment((node as CharacterData).data);
      break;
    case NodeType.DOCUMENT_TYPE_NODE: {
      const dt = node as DocumentType;
      const pi = new DomhandlerProcessingInstruction('!doctype', doctypeData(dt.name, dt.publicId, dt.systemId));
      pi['x-name'] = dt.name;
      pi['x-publicId'] = dt.publicId;
      pi['x-systemId'] = dt.systemId;
      out = pi;
      break;
    }
    case NodeType.DOCUMENT_NODE: {
      const root = new DomhandlerDocument([]);
      root['x-mode'] = (node as SluiceDocument).mode;
      out = root;
      break;
    }
    case NodeType.DOCUMENT_FRAGMENT_NODE:
      out = new DomhandlerDocument([]);
      break;
    default:
      throw new TypeError(`toDomhandler: cannot convert a node of type ${node.nodeType} (${node.nodeName}); pass a Document, DocumentFragment, Element, Text, Comment or DocumentType`);
  }
  const loc = parse5Location(node);
  if (loc !== null) {
    out.startIndex = loc.startOffset;
    out.endIndex = loc.endOffset;
    out.sourceCodeLocation = loc;
  }
  return out;
}

/** `record[key] = value` that also works for keys like `__proto__`. */
function defineOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/**
 * Copy `node` and its subtree into domhandler 6's shape (see the module comment). A Document or
 * DocumentFragment gives a `DomhandlerDocument` (`type: 'root'`), ready for `cheerio.load`; an Element,
 * Text, Comment or DocumentType gives that node with `parent` null. Throws a TypeError for an Attr.
 *
 * ```js
 * const $ = cheerio.load(toDomhandler(parse(html)));
 * $('a[href]').attr('rel', 'nofollow');
 * $.html();
 * ```
 */
export function toDomhandler(node: SluiceDocument | Node): DomhandlerAnyNode {
  if (node === null || typeof node !== 'object' || typeof (node as Node).nodeType !== 'number') {
    throw new TypeError('toDomhandler: expected a sluice Node');
  }
  const top = convert(node);
  // Pairs of (sluice parent, its copy) whose children are still to be copied.
  const work: Node[] = [];
  const copies: DomhandlerParent[] = [];
  const queueChildren = (from: Node, to: DomhandlerParent): void => {
    if (from.firstChild !== null) {
      work.push(from);
      copies.push(to);
    }
  };
  const queueTemplate = (from: Node, to: DomhandlerElement): void => {
    const content = templateContent(from);
    if (content === null) return;
    const root = new DomhandlerDocument([]);
    link(to, root, null);
    queueChildren(content, root);
  };
  if ('children' in top) {
    queueChildren(node, top);
    if (top.type !== 'root') queueTemplate(node, top);
  }
  while (work.length > 0) {
    const from = work.pop()!;
    const to = copies.pop()!;
    let prev: DomhandlerChild | null = to.children.length > 0 ? to.children[to.children.length - 1]! : null;
    for (let c = from.firstChild; c !== null; c = c.nextSibling) {
      const copy = convert(c) as DomhandlerChild;
      link(to, copy, prev);
      prev = copy;
      if (copy.type === 'tag' || copy.type === 'script' || copy.type === 'style') {
        queueChildren(c, copy);
        queueTemplate(c, copy);
      }
    }
  }
  return top;
}

/** A `<template>`'s contents (HTML namespace only: SVG and MathML `template`s are ordinary elements). */
function templateContent(node: Node): Node | null {
  const el = node as SluiceElement;
  if (el.localName !== 'template' || el.namespaceURI !== NS.HTML) return null;
  return el._templateContents();
}
