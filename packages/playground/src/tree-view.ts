/**
 * A sluice DOM drawn as a collapsible tree: elements with their namespace and attributes, text,
 * comments, doctypes, and a `<template>`'s contents under a `content` entry. Children are built when
 * their parent is first opened, so a 1 MB page's tree costs only what is shown (HTML nests 100,000 deep:
 * nothing here recurses over the DOM).
 */
import { HTMLTemplateElement, NS, NodeType, type DocumentType, type Element, type Node } from 'sluice';
import { h, visible } from './dom.js';

export interface TreeViewOptions {
  /** Elements to mark (the rewrite's matched elements); their ancestors start open. */
  marked?: ReadonlySet<Node>;
  /** Called when a node is chosen (click or Enter). */
  onSelect?: (node: Node) => void;
  /** Open the first levels up to this many nodes (default 200). */
  budget?: number;
}

const NAMESPACE_BADGE: Record<string, string> = { [NS.SVG]: 'svg', [NS.MATHML]: 'math' };

/** Draws `root`'s children (a Document or a DocumentFragment) into a new element. */
export function treeView(root: Node, options: TreeViewOptions = {}): HTMLElement {
  const marked = options.marked ?? new Set<Node>();
  // The ancestors of marked nodes start open, so every mark is visible.
  const openPath = new Set<Node>();
  let paths = 0;
  for (const m of marked) {
    // The first hundred marks are opened to; a page with thousands of matches stays quick.
    if (paths++ === 100) break;
    for (let p = m.parentNode; p !== null; p = p.parentNode ?? hostOf(p)) openPath.add(p);
  }
  const list = h('ul', { class: 'tree', role: 'tree' });
  let budget = options.budget ?? 200;
  // Iterative: a work list of (parent node, list element, depth) to populate.
  const work: { node: Node; into: HTMLElement; depth: number }[] = [{ node: root, into: list, depth: 0 }];
  const populate = (node: Node, into: HTMLElement, depth: number): void => {
    for (const child of childrenOf(node)) {
      budget--;
      const item = itemFor(child);
      into.append(item.li);
      if (item.details !== null) {
        const details = item.details;
        const sub = item.sub!;
        let built = false;
        const build = () => {
          if (built) return;
          built = true;
          populate(child, sub, depth + 1);
        };
        details.addEventListener('toggle', () => {
          if (details.open) build();
        });
        if (openPath.has(child) || (budget > 0 && depth < 12)) {
          built = true;
          details.open = true;
          work.push({ node: child, into: sub, depth: depth + 1 });
        }
      }
    }
  };
  const itemFor = (child: Node) => {
    const label = labelFor(child);
    if (marked.has(child)) label.classList.add('marked');
    label.addEventListener('click', () => options.onSelect?.(child));
    label.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') options.onSelect?.(child);
    });
    const kids = childrenOf(child);
    if (kids.length === 0) return { li: h('li', { role: 'treeitem' }, label), details: null, sub: null };
    const sub = h('ul', { role: 'group' });
    const details = h('details', {}, h('summary', {}, label), sub);
    return { li: h('li', { role: 'treeitem' }, details), details, sub };
  };
  while (work.length > 0) {
    const w = work.shift()!;
    populate(w.node, w.into, w.depth);
  }
  return list;
}

/** A node's children in the tree: an element's child nodes, then a template's `content` entry. */
function childrenOf(node: Node): Node[] {
  if ((node as { isContentEntry?: boolean }).isContentEntry === true) return (node as unknown as ContentEntry).fragment.childNodes.slice();
  const kids = node.childNodes.slice();
  if (node instanceof HTMLTemplateElement) kids.push(new ContentEntry(node) as unknown as Node);
  return kids;
}

/** The `content` entry under a template: stands for its template contents (a DocumentFragment). */
class ContentEntry {
  readonly isContentEntry = true;
  readonly fragment;
  constructor(readonly template: HTMLTemplateElement) {
    this.fragment = template.content;
  }
}

/** A DocumentFragment that is a template's contents: its template (to walk up from marked nodes). */
function hostOf(node: Node): Node | null {
  return (node as unknown as { _host?: Node })._host ?? null;
}

function labelFor(node: Node): HTMLElement {
  if ((node as { isContentEntry?: boolean }).isContentEntry === true) {
    return h('span', { class: 'node content', title: 'The template contents: a DocumentFragment, not children of the template' }, 'content (template contents)');
  }
  switch (node.nodeType) {
    case NodeType.ELEMENT_NODE: {
      const el = node as Element;
      const parts: (HTMLElement | string)[] = ['<'];
      const ns = el.namespaceURI ?? '';
      const badge = NAMESPACE_BADGE[ns];
      if (badge !== undefined) parts.push(h('span', { class: 'ns', title: ns }, badge), ' ');
      parts.push(h('span', { class: 'tag' }, el.localName));
      const attrs = el.attributes;
      for (let i = 0; i < attrs.length; i++) {
        const a = attrs.item(i)!;
        const title = a.namespaceURI === null ? undefined : `${a.namespaceURI} ${a.localName}`;
        parts.push(' ', h('span', { class: 'attr', ...(title ? { title } : {}) }, a.name), '=', h('span', { class: 'value' }, visible(a.value, 80)));
      }
      parts.push('>');
      const loc = el.sourceLocation;
      const note = loc === null ? h('span', { class: 'implied', title: 'No start tag in the input: the tree builder made this element (or copied it)' }, ' implied') : null;
      return h('span', { class: 'node element', 'data-name': el.localName, tabindex: '0' }, parts, note);
    }
    case NodeType.TEXT_NODE:
      return h('span', { class: 'node text', tabindex: '0' }, '#text ', visible((node as unknown as { data: string }).data, 120));
    case NodeType.COMMENT_NODE:
      return h('span', { class: 'node comment', tabindex: '0' }, `<!-- ${(node as unknown as { data: string }).data} -->`);
    case NodeType.DOCUMENT_TYPE_NODE: {
      const d = node as DocumentType;
      const ids = d.publicId !== '' || d.systemId !== '' ? ` "${d.publicId}" "${d.systemId}"` : '';
      return h('span', { class: 'node doctype', tabindex: '0' }, `<!DOCTYPE ${d.name}${ids}>`);
    }
    default:
      return h('span', { class: 'node' }, node.nodeName);
  }
}
