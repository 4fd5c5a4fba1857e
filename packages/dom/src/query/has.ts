/**
 * `:has()` (Selectors 4 §4.5 "The Relational Pseudo-class"): an element matches when some element
 * reached through a relative selector's leading combinator matches it, anchored at the element.
 *
 * Searching each candidate's subtree anew would make `querySelectorAll(':has(span)')` quadratic on a deep
 * page (every ancestor searches everything below it). So in a bulk query (querySelectorAll, closest) the
 * common form — a descendant combinator and one compound, `:has(span)`, `:has(.x[href])` — is computed
 * once for the whole tree: each element matching the compound marks its ancestors, climbing only until
 * it meets one already marked, so the pass is linear. `:has(> a)` and `:has(+ a)` look at children or one
 * sibling; the other forms search what the combinator reaches, iteratively.
 */
import type { PseudoClass, RelativeSelector } from '@sluice/selectors';
import type { Element } from '../element.js';
import { type Node, NodeType, nextInSubtree } from '../node.js';
import { nextElementOf } from './element-data.js';
import { type Anchor, MATCH, type MatchContext, matchComplex, matchCompound } from './match.js';

type HasPseudo = Extract<PseudoClass, { kind: 'has' }>;

/** Whether `el` matches the `:has()` pseudo-class `p`. */
export function hasMatches(p: HasPseudo, el: Element, ctx: MatchContext): boolean {
  if (ctx.bulk && p.relatives.every(isSimpleDescendant)) {
    const cache = (ctx.hasCache ??= new Map());
    let marked = cache.get(p);
    if (marked === undefined) cache.set(p, (marked = markAncestors(p.relatives, el, ctx)));
    return marked.has(el);
  }
  for (let i = 0; i < p.relatives.length; i++) if (relativeMatches(p.relatives[i]!, el, ctx)) return true;
  return false;
}

/** `:has(C)` with a single compound C and no leading combinator. */
function isSimpleDescendant(r: RelativeSelector): boolean {
  return r.combinator === 'descendant' && r.selector.compounds.length === 1;
}

/**
 * The elements of `el`'s tree that have a descendant matching one of the relatives' compounds: one pass
 * over the tree; each match marks its ancestors up to the first one already marked.
 */
function markAncestors(relatives: readonly RelativeSelector[], el: Element, ctx: MatchContext): Set<Element> {
  let root: Node = el;
  while (root._parent !== null) root = root._parent;
  const marked = new Set<Element>();
  for (let n: Node | null = root; n !== null; n = nextInSubtree(n, root)) {
    if (n.nodeType !== NodeType.ELEMENT_NODE) continue;
    const d = n as Element;
    let hit = false;
    for (let i = 0; i < relatives.length && !hit; i++) hit = matchCompound(relatives[i]!.selector.compounds[0]!, d, ctx);
    if (!hit) continue;
    for (let a = d._parent; a !== null && a.nodeType === NodeType.ELEMENT_NODE && !marked.has(a as Element); a = a._parent) {
      marked.add(a as Element);
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
