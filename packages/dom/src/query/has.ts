/**
 * `:has()` (Selectors 4 §4.5 "The Relational Pseudo-class"): an element matches when some element
 * reached through a relative selector's leading combinator matches it, anchored at the element.
 *
 * Searching each candidate's subtree anew would make `querySelectorAll(':has(span)')` quadratic on a deep
 * page (every ancestor searches everything below it). So in a bulk query (querySelectorAll, closest) a
 * relative selector of one compound — `:has(span)`, `:has(> .x)`, `:has(+ b)`, `:has(~ i[href])` — is
 * computed once for the whole tree, in one linear pass (see `markAnchors`). A relative selector of
 * several compounds (`:has(> ul li)`) searches what its combinator reaches from each candidate,
 * iteratively; that can be quadratic on a deep page.
 */
import type { PseudoClass, RelativeSelector } from '@sluice/selectors';
import type { Element } from '../element.js';
import { type Node, NodeType, nextInSubtree } from '../node.js';
import { nextElementOf, previousElementOf } from './element-data.js';
import { type Anchor, MATCH, type MatchContext, matchComplex, matchCompound } from './match.js';

type HasPseudo = Extract<PseudoClass, { kind: 'has' }>;

/** Whether `el` matches the `:has()` pseudo-class `p`. */
export function hasMatches(p: HasPseudo, el: Element, ctx: MatchContext): boolean {
  const relatives = p.relatives;
  for (let i = 0; i < relatives.length; i++) {
    const r = relatives[i]!;
    if (ctx.bulk && r.selector.compounds.length === 1) {
      const cache = (ctx.hasCache ??= new Map());
      let marked = cache.get(r);
      if (marked === undefined) cache.set(r, (marked = markAnchors(r, el, ctx)));
      if (marked.has(el)) return true;
    } else if (relativeMatches(r, el, ctx)) return true;
  }
  return false;
}

/**
 * For a relative selector of one compound C, every element of `el`'s tree that it matches, in one pass:
 * each element matching C marks the anchors it makes match — `:has(C)` its ancestors, `:has(> C)` its
 * parent, `:has(+ C)` its previous sibling, `:has(~ C)` its previous siblings. A climb stops at the first
 * element already marked (everything beyond it is marked too), so the pass is linear.
 */
function markAnchors(r: RelativeSelector, el: Element, ctx: MatchContext): Set<Element> {
  let root: Node = el;
  while (root._parent !== null) root = root._parent;
  const compound = r.selector.compounds[0]!;
  const marked = new Set<Element>();
  for (let n: Node | null = root; n !== null; n = nextInSubtree(n, root)) {
    if (n.nodeType !== NodeType.ELEMENT_NODE || !matchCompound(compound, n as Element, ctx)) continue;
    switch (r.combinator) {
      case 'descendant':
        for (let a = n._parent; a !== null && a.nodeType === NodeType.ELEMENT_NODE && !marked.has(a as Element); a = a._parent) marked.add(a as Element);
        break;
      case 'child':
        if (n._parent !== null && n._parent.nodeType === NodeType.ELEMENT_NODE) marked.add(n._parent as Element);
        break;
      case 'adjacent': {
        const s = previousElementOf(n);
        if (s !== null) marked.add(s);
        break;
      }
      case 'sibling':
        for (let s = previousElementOf(n); s !== null && !marked.has(s); s = previousElementOf(s)) marked.add(s);
        break;
    }
  }
  return marked;
}

/** Whether some element the relative selector's leading combinator reaches from `el` matches it. */
function relativeMatches(r: RelativeSelector, el: Element, ctx: MatchContext): boolean {
  const sel = r.selector;
  const k = sel.compounds.length - 1;
  const anchor: Anchor = { anchor: el, combinator: r.combinator, boundary: r.combinator === 'child' || r.combinator === 'descendant' ? el : el._parent };
  // Whether the rightmost compound can be below the first one (then subtrees must be searched).
  const deep = sel.combinators.some((c) => c === 'child' || c === 'descendant');
  switch (r.combinator) {
    case 'child':
    case 'descendant': {
      if (!deep && r.combinator === 'child') {
        for (let c = el._first; c !== null; c = c._next) {
          if (c.nodeType === NodeType.ELEMENT_NODE && matchComplex(sel, k, c as Element, ctx, anchor) === MATCH) return true;
        }
        return false;
      }
      for (let n = el._first; n !== null; n = nextInSubtree(n, el)) {
        if (n.nodeType === NodeType.ELEMENT_NODE && matchComplex(sel, k, n as Element, ctx, anchor) === MATCH) return true;
      }
      return false;
    }
    case 'adjacent':
    case 'sibling': {
      const first = nextElementOf(el);
      if (first === null) return false; // (an element without a parent has no siblings)
      if (!deep) {
        // Only following siblings can match; with `+` alone, only the next `compounds.length` of them.
        const reach = r.combinator === 'adjacent' && sel.combinators.every((c) => c === 'adjacent') ? sel.compounds.length : Infinity;
        let count = 0;
        for (let s: Element | null = first; s !== null && count < reach; s = nextElementOf(s), count++) {
          if (matchComplex(sel, k, s, ctx, anchor) === MATCH) return true;
        }
        return false;
      }
      const parent = el._parent!;
      for (let n: Node | null = first; n !== null; n = nextInSubtree(n, parent)) {
        if (n.nodeType === NodeType.ELEMENT_NODE && matchComplex(sel, k, n as Element, ctx, anchor) === MATCH) return true;
      }
      return false;
    }
  }
}
