/**
 * A sluice DOM drawn as a collapsible tree: elements with their namespace and attributes, text,
 * comments, doctypes, and a `<template>`'s contents under a `content` entry.
 *
 * Lazy, so a 1 MB page's tree costs only what is shown: children are built when their parent is first
 * opened, and at most `PAGE` of them at a time (a "more" item shows the next ones). HTML nests 100,000
 * deep: nothing here recurses over the DOM.
 *
 * Keyboard: the WAI-ARIA tree view pattern (role=tree / treeitem / group, aria-expanded, one tab stop
 * moved with the focus): ↑/↓ move between visible items, → opens an item or goes to its first child,
 * ← closes it or goes to its parent, Home/End, Space opens/closes, Enter chooses the node (and opens or
 * closes it).
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
  /** The tree's accessible name (default "DOM tree"). */
  label?: string;
}

/** Children drawn per batch: a body with 20,000 children shows the first PAGE and a "more" item. */
export const PAGE = 200;

const NAMESPACE_BADGE: Record<string, string> = { [NS.SVG]: 'svg', [NS.MATHML]: 'math' };

/** What each drawn item knows: its node, and how to open it (null for a leaf). */
interface Item {
  open: ((focusFirst: boolean) => void) | null;
  close: (() => void) | null;
  node: Node | null;
  /** A "more" item: draws the next batch of its parent's children. */
  more?: () => void;
}

/** Draws `root`'s children (a Document or a DocumentFragment) into a new element. */
export function treeView(root: Node, options: TreeViewOptions = {}): HTMLElement {
  const marked = options.marked ?? new Set<Node>();
  const shownMarks = new Set<Node>();
  // The ancestors of marked nodes start open, so every mark is visible.
  const openPath = new Set<Node>();
  for (const m of marked) {
    // The first hundred marks are opened to (and drawn, past a batch); a page with thousands of matches stays quick.
    if (shownMarks.size === 100) break;
    shownMarks.add(m);
    for (let p = m.parentNode; p !== null; p = p.parentNode ?? hostOf(p)) openPath.add(p);
  }
  const list = h('ul', { class: 'tree', role: 'tree', 'aria-label': options.label ?? 'DOM tree' });
  const items = new WeakMap<HTMLElement, Item>();
  let budget = options.budget ?? 200;
  // Iterative: a work list of (parent node, list element, depth) to populate.
  const work: { node: Node; into: HTMLElement; depth: number }[] = [{ node: root, into: list, depth: 0 }];

  /** Draws `node`'s children from `from` on (at most PAGE, more if a marked node is further on). */
  const populate = (node: Node, into: HTMLElement, depth: number, from = 0): void => {
    const kids = childrenOf(node);
    let end = Math.min(kids.length, from + PAGE);
    for (let i = end; i < kids.length && shownMarks.size > 0; i++) if (openPath.has(kids[i]) || shownMarks.has(kids[i])) end = i + 1;
    for (let i = from; i < end; i++) {
      const child = kids[i];
      budget--;
      const li = itemFor(child, depth + 1);
      into.append(li);
      if (li.hasAttribute('aria-expanded') && (openPath.has(child) || (budget > 0 && depth < 12))) {
        li.setAttribute('aria-expanded', 'true');
        (li.lastElementChild as HTMLElement).hidden = false;
        items.get(li)!.open = openerFor(li, child, depth + 1, true);
        work.push({ node: child, into: li.lastElementChild as HTMLElement, depth: depth + 1 });
      }
    }
    if (end < kids.length) {
      const rest = kids.length - end;
      const more = h('li', { role: 'treeitem', class: 'more', tabindex: '-1', 'aria-level': String(depth + 1) },
        h('span', { class: 'row' }, h('span', { class: 'twisty', 'aria-hidden': 'true' }), h('span', { class: 'node more' },
          `… ${rest} more ${rest === 1 ? 'node' : 'nodes'}: Enter shows ${Math.min(rest, PAGE)} more`)));
      const showMore = () => {
        const focusAfter = more.previousElementSibling;
        more.remove();
        populate(node, into, depth, end);
        drain();
        ((focusAfter?.nextElementSibling ?? into.firstElementChild) as HTMLElement | null)?.focus();
      };
      items.set(more, { open: null, close: null, node: null, more: showMore });
      more.addEventListener('click', showMore);
      into.append(more);
    }
  };

  /** The opener of an item: the first open draws its children. */
  const openerFor = (li: HTMLElement, node: Node, depth: number, built = false) => (focusFirst: boolean) => {
    const sub = li.lastElementChild as HTMLElement;
    if (!built) {
      built = true;
      populate(node, sub, depth);
      drain();
    }
    li.setAttribute('aria-expanded', 'true');
    sub.hidden = false;
    if (focusFirst) focusItem(sub.firstElementChild as HTMLElement | null);
  };

  const itemFor = (child: Node, level: number): HTMLElement => {
    const label = labelFor(child);
    if (marked.has(child)) label.classList.add('marked');
    const row = h('span', { class: 'row' }, h('span', { class: 'twisty', 'aria-hidden': 'true' }), label);
    const li = h('li', { role: 'treeitem', tabindex: '-1', 'aria-level': String(level) }, row);
    if (!hasChildren(child)) {
      items.set(li, { open: null, close: null, node: child });
    } else {
      const sub = h('ul', { role: 'group', hidden: true });
      li.append(sub);
      li.setAttribute('aria-expanded', 'false');
      items.set(li, {
        node: child,
        open: openerFor(li, child, level),
        close: () => {
          li.setAttribute('aria-expanded', 'false');
          sub.hidden = true;
        },
      });
    }
    row.addEventListener('click', () => {
      focusItem(li);
      options.onSelect?.(child);
      toggle(li);
    });
    return li;
  };

  const toggle = (li: HTMLElement) => {
    const item = items.get(li);
    if (item === undefined) return;
    if (item.more !== undefined) item.more();
    else if (li.getAttribute('aria-expanded') === 'true') item.close?.();
    else item.open?.(false);
  };

  /** Roving tabindex: the focused item is the tree's one tab stop. */
  const focusItem = (li: HTMLElement | null) => {
    if (li === null) return;
    for (const other of list.querySelectorAll<HTMLElement>('[role=treeitem][tabindex="0"]')) other.tabIndex = -1;
    li.tabIndex = 0;
    li.focus();
  };

  const drain = () => {
    while (work.length > 0) {
      const w = work.shift()!;
      populate(w.node, w.into, w.depth);
    }
  };

  list.addEventListener('keydown', (e) => {
    const li = (e.target as HTMLElement).closest<HTMLElement>('[role=treeitem]');
    if (li === null || !list.contains(li)) return;
    const item = items.get(li);
    const expanded = li.getAttribute('aria-expanded');
    let handled = true;
    switch (e.key) {
      case 'ArrowDown': focusItem(nextVisible(li, list)); break;
      case 'ArrowUp': focusItem(previousVisible(li, list)); break;
      case 'ArrowRight':
        if (expanded === 'false') item?.open?.(false);
        else if (expanded === 'true') focusItem((li.lastElementChild as HTMLElement).firstElementChild as HTMLElement | null);
        break;
      case 'ArrowLeft':
        if (expanded === 'true') item?.close?.();
        else focusItem(parentItem(li, list));
        break;
      case 'Home': focusItem(list.firstElementChild as HTMLElement | null); break;
      case 'End': focusItem(lastVisible(list)); break;
      case ' ': toggle(li); break;
      case 'Enter':
        if (item?.node) options.onSelect?.(item.node);
        toggle(li);
        break;
      default: handled = false;
    }
    if (handled) e.preventDefault();
  });

  drain();
  const first = list.firstElementChild as HTMLElement | null;
  if (first !== null) first.tabIndex = 0;
  return list;
}

/** The visible item after `li`: its first child when open, else the next sibling of it or of an ancestor. */
function nextVisible(li: HTMLElement, tree: HTMLElement): HTMLElement | null {
  if (li.getAttribute('aria-expanded') === 'true') {
    const first = (li.lastElementChild as HTMLElement).firstElementChild as HTMLElement | null;
    if (first !== null) return first;
  }
  for (let at: HTMLElement | null = li; at !== null; at = parentItem(at, tree)) {
    if (at.nextElementSibling !== null) return at.nextElementSibling as HTMLElement;
  }
  return null;
}

/** The visible item before `li`: the last visible descendant of its previous sibling, or its parent. */
function previousVisible(li: HTMLElement, tree: HTMLElement): HTMLElement | null {
  const before = li.previousElementSibling as HTMLElement | null;
  return before === null ? parentItem(li, tree) : lastVisibleIn(before);
}

function lastVisible(tree: HTMLElement): HTMLElement | null {
  const last = tree.lastElementChild as HTMLElement | null;
  return last === null ? null : lastVisibleIn(last);
}

function lastVisibleIn(li: HTMLElement): HTMLElement {
  let at = li;
  while (at.getAttribute('aria-expanded') === 'true' && (at.lastElementChild as HTMLElement).lastElementChild !== null) {
    at = (at.lastElementChild as HTMLElement).lastElementChild as HTMLElement;
  }
  return at;
}

function parentItem(li: HTMLElement, tree: HTMLElement): HTMLElement | null {
  const group = li.parentElement;
  return group === null || group === tree ? null : (group.parentElement as HTMLElement | null);
}

function hasChildren(node: Node): boolean {
  if ((node as { isContentEntry?: boolean }).isContentEntry === true) return (node as unknown as ContentEntry).fragment.firstChild !== null;
  return node.firstChild !== null || node instanceof HTMLTemplateElement;
}

/** A node's children in the tree: an element's child nodes, then a template's `content` entry. */
function childrenOf(node: Node): readonly Node[] {
  if ((node as { isContentEntry?: boolean }).isContentEntry === true) return (node as unknown as ContentEntry).fragment.childNodes;
  if (!(node instanceof HTMLTemplateElement)) return node.childNodes;
  return [...node.childNodes, new ContentEntry(node) as unknown as Node];
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
      return h('span', { class: 'node element', 'data-name': el.localName }, parts, note);
    }
    case NodeType.TEXT_NODE:
      return h('span', { class: 'node text' }, '#text ', visible((node as unknown as { data: string }).data, 120));
    case NodeType.COMMENT_NODE:
      return h('span', { class: 'node comment' }, `<!-- ${(node as unknown as { data: string }).data} -->`);
    case NodeType.DOCUMENT_TYPE_NODE: {
      const d = node as DocumentType;
      const ids = d.publicId !== '' || d.systemId !== '' ? ` "${d.publicId}" "${d.systemId}"` : '';
      return h('span', { class: 'node doctype' }, `<!DOCTYPE ${d.name}${ids}>`);
    }
    default:
      return h('span', { class: 'node' }, node.nodeName);
  }
}
