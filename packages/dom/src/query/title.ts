/** `document.title` (HTML §3.1.3 "DOM tree accessors"). */
import { NS } from '@sluice/tree-builder';
import type { Document } from '../document.js';
import type { Element } from '../element.js';
import { type Node, NodeType, nextInSubtree } from '../node.js';
import { isAsciiWhitespace } from '@sluice/selectors';

/** HTML §3.1.3 "the title element": the first HTML `title` element in the document, in tree order. */
function titleElement(doc: Document): Element | null {
  for (let n = doc._first; n !== null; n = nextInSubtree(n, doc)) {
    if (n.nodeType === NodeType.ELEMENT_NODE && (n as Element).localName === 'title' && (n as Element).namespaceURI === NS.HTML) return n as Element;
  }
  return null;
}

/** The first SVG `title` child of an SVG `svg` document element (the title getter's SVG case). */
function svgTitle(root: Element): Element | null {
  for (let c = root._first; c !== null; c = c._next) {
    if (c.nodeType === NodeType.ELEMENT_NODE && (c as Element).localName === 'title' && (c as Element).namespaceURI === NS.SVG) return c as Element;
  }
  return null;
}

function isSvgRoot(root: Element | null): boolean {
  return root !== null && root.localName === 'svg' && root.namespaceURI === NS.SVG;
}

/** "Child text content": the data of the Text children, concatenated. */
function childText(el: Element): string {
  let s = '';
  for (let c: Node | null = el._first; c !== null; c = c._next) if (c.nodeType === NodeType.TEXT_NODE) s += (c as unknown as { data: string }).data;
  return s;
}

/** Infra "strip and collapse ASCII whitespace". */
function stripAndCollapse(s: string): string {
  let out = '';
  let pendingSpace = false;
  for (let i = 0; i < s.length; i++) {
    if (isAsciiWhitespace(s.charCodeAt(i))) {
      pendingSpace = out.length > 0;
      continue;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += s[i];
  }
  return out;
}

/** The `document.title` getter. */
export function getTitle(doc: Document): string {
  const root = doc.documentElement;
  const el = isSvgRoot(root) ? svgTitle(root!) : titleElement(doc);
  return el === null ? '' : stripAndCollapse(childText(el));
}

/** The `document.title` setter: replace the title element's children with the text, making one in `<head>` if needed. */
export function setTitle(doc: Document, value: string): void {
  const root = doc.documentElement;
  let el: Element | null;
  if (root !== null && isSvgRoot(root)) {
    el = svgTitle(root);
    if (el === null) {
      el = doc.createElementNS(NS.SVG, 'title');
      root._insertBefore(el, root._first);
    }
  } else if (root !== null && root.namespaceURI === NS.HTML) {
    el = titleElement(doc);
    if (el === null) {
      const head = doc.head;
      if (head === null) return;
      el = doc.createElement('title');
      head._insertBefore(el, null);
    }
  } else return;
  // "String replace all": remove every child, then insert a Text node unless the string is empty.
  while (el._last !== null) el._removeChild(el._last);
  const text = String(value);
  if (text !== '') el._insertBefore(doc.createTextNode(text), null);
}
