/**
 * The DOM's selector matcher: does an element match a compiled selector (`@sluice/selectors`)? It walks
 * right to left from the candidate, as browsers do, through parent and sibling pointers: no recursion
 * over the tree (a document can nest 100,000 deep). It recurses only over the selector's own structure
 * (one level per compound left of a descendant or `~` combinator, and per `:is`/`:not`/`:has` nesting).
 *
 * Failures carry how far they reach, as in WebKit's and Blink's matchers: when `a b` found no `a` above
 * some ancestor, no higher ancestor can do better, so the descendant loop stops instead of trying each
 * one again (which would make `a b c` quadratic in the depth).
 */
import { NS } from '@sluice/tree-builder';
import {
  type AttributeTest,
  type ComplexSelector,
  type CompoundSelector,
  type PseudoClass,
  type RelativeSelector,
  type SelectorList,
  attributeMatches,
  htmlAttributeMatches,
  nthMatches,
  typeMatches,
} from '@sluice/selectors';
import type { Element } from '../element.js';
import { type Node, NodeType } from '../node.js';
import {
  canBeDisabled,
  checkedRadios,
  isChecked,
  isDefined,
  isDisabled,
  isLink,
  isPlaceholderShown,
  isReadWrite,
  matchesRequired,
} from './element-state.js';
import { htmlAttributeValue, nextElementOf, parentElementOf, previousElementOf } from './element-data.js';
import { hasMatches } from './has.js';

/** The element matched. */
export const MATCH = 0;
/** This element failed; another candidate for the same compound may still match. */
const FAIL_LOCAL = 1;
/** No earlier sibling can match either (the `+`/`~` loops stop). */
const FAIL_SIBLINGS = 2;
/** No ancestor can match either (the descendant loops stop). */
const FAIL_ALL = 3;

/** What one query knows besides the element: the document's mode, `:scope`, and per-query caches. */
export class MatchContext {
  /** `.class` and `#id` compare case-insensitively in a quirks-mode document. */
  readonly quirks: boolean;
  /** Whether many elements will be asked (querySelectorAll, closest): `:has` then computes per tree, once. */
  readonly bulk: boolean;
  /** Per relative selector of one compound (by identity), the anchors it matches, computed once (see has.ts). */
  hasCache: Map<RelativeSelector, Set<Element>> | null = null;
  /** The checked radio buttons per tree (see element-state.ts). */
  private radios: Map<Node, Set<Element>> | null = null;
  /** Sibling positions, per kind of count (see `position`). */
  private readonly positionCaches = new Map<string, Map<Element, number>>();
  private readonly ofCaches = new Map<SelectorList, Map<string, Map<Element, number>>>();

  /**
   * @param scope the element `:scope` matches (null: none)
   * @param quirks whether the document is in quirks mode
   * @param bulk see {@link MatchContext.bulk}
   */
  constructor(
    readonly scope: Element | null,
    quirks: boolean,
    bulk: boolean,
  ) {
    this.quirks = quirks;
    this.bulk = bulk;
  }

  /** The cache of sibling positions for one kind of count (`of`: by the list's identity). */
  positions(last: boolean, ofType: boolean, of: SelectorList | null): Map<Element, number> {
    const key = `${last ? 'last' : 'first'} ${ofType ? 'type' : 'child'}`;
    let byKey = this.positionCaches;
    if (of !== null) {
      byKey = this.ofCaches.get(of)!;
      if (byKey === undefined) this.ofCaches.set(of, (byKey = new Map()));
    }
    let cache = byKey.get(key);
    if (cache === undefined) byKey.set(key, (cache = new Map()));
    return cache;
  }

  /** The checked radios of the tree `el` is in. */
  radioWinners = (el: Element): ReadonlySet<Element> => {
    let root: Node = el;
    while (root._parent !== null) root = root._parent;
    const map = (this.radios ??= new Map());
    let set = map.get(root);
    if (set === undefined) map.set(root, (set = checkedRadios(root)));
    return set;
  };
}

/** Whether `el` matches some complex selector of `list`. */
export function matchesList(list: SelectorList, el: Element, ctx: MatchContext): boolean {
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (matchComplex(c, c.compounds.length - 1, el, ctx, null) === MATCH) return true;
  }
  return false;
}

/**
 * Where a relative selector (`:has()`'s argument) is anchored: its leftmost compound must stand in
 * `combinator` to `anchor`, and its ancestor walks stop below `boundary`.
 */
export interface Anchor {
  readonly anchor: Element;
  readonly combinator: RelativeSelector['combinator'];
  /** For `>`/descendant: the anchor; for `+`/`~`: the anchor's parent (walks stay among its descendants). */
  readonly boundary: Node | null;
}

/** Whether `el` matches `sel`'s compounds 0..k, right to left; one of MATCH, FAIL_*. */
export function matchComplex(sel: ComplexSelector, k: number, el: Element, ctx: MatchContext, anchor: Anchor | null): number {
  let cur = el;
  let i = k;
  for (;;) {
    if (!matchCompound(sel.compounds[i]!, cur, ctx)) return FAIL_LOCAL;
    if (i === 0) return anchor === null || anchoredAt(cur, anchor) ? MATCH : FAIL_LOCAL;
    switch (sel.combinators[i - 1]!) {
      case 'child': {
        const p = parentWithin(cur, anchor);
        if (p === null) return FAIL_ALL;
        cur = p;
        i--;
        continue;
      }
      case 'adjacent': {
        const s = previousElementOf(cur);
        if (s === null) return FAIL_SIBLINGS;
        cur = s;
        i--;
        continue;
      }
      case 'descendant':
        for (let a = parentWithin(cur, anchor); a !== null; a = parentWithin(a, anchor)) {
          const r = matchComplex(sel, i - 1, a, ctx, anchor);
          if (r === MATCH || r === FAIL_ALL) return r;
        }
        return FAIL_ALL;
      case 'sibling':
        for (let s = previousElementOf(cur); s !== null; s = previousElementOf(s)) {
          const r = matchComplex(sel, i - 1, s, ctx, anchor);
          if (r !== FAIL_LOCAL) return r;
        }
        return FAIL_SIBLINGS;
    }
  }
}

/** The parent element, unless it is the anchored walk's boundary. */
function parentWithin(el: Element, anchor: Anchor | null): Element | null {
  const p = parentElementOf(el);
  return anchor !== null && p === anchor.boundary ? null : p;
}

/** Whether the leftmost compound's element stands in the anchor's combinator to the anchor. */
function anchoredAt(el: Element, a: Anchor): boolean {
  switch (a.combinator) {
    case 'descendant':
      return true; // every element the walk reached is below the boundary, the anchor
    case 'child':
      return el._parent === a.anchor;
    case 'adjacent':
      return previousElementOf(el) === a.anchor;
    case 'sibling':
      for (let s = previousElementOf(el); s !== null; s = previousElementOf(s)) if (s === a.anchor) return true;
      return false;
  }
}

/** Whether the element satisfies every simple selector of the compound. */
export function matchCompound(c: CompoundSelector, el: Element, ctx: MatchContext): boolean {
  const ns = el.namespaceURI;
  if (!typeMatches(c.tag, c.tagLower, c.namespace, el.localName, ns)) return false;
  const tests = c.attributes;
  if (tests.length > 0 && !attributesMatch(tests, el, ns, ctx.quirks)) return false;
  const pseudos = c.pseudos;
  for (let i = 0; i < pseudos.length; i++) if (!matchPseudo(pseudos[i]!, el, ctx)) return false;
  return true;
}

/** Whether the element passes every attribute test (`.class`, `#id` among them). */
export function attributesMatch(tests: readonly AttributeTest[], el: Element, ns: string | null, quirks: boolean): boolean {
  if (ns === NS.HTML) {
    for (let i = 0; i < tests.length; i++) {
      const t = tests[i]!;
      if (t.anyNamespace) {
        if (!attributeMatches(t, ns, el._attrs, quirks)) return false;
      } else if (!htmlAttributeMatches(t, htmlAttributeValue(el, t.nameLower), quirks)) return false;
    }
    return true;
  }
  const attrs = el._attrs;
  for (let i = 0; i < tests.length; i++) if (!attributeMatches(tests[i]!, ns, attrs, quirks)) return false;
  return true;
}

function matchPseudo(p: PseudoClass, el: Element, ctx: MatchContext): boolean {
  switch (p.kind) {
    case 'nth-child':
      if (p.of !== null && !matchesList(p.of, el, ctx)) return false;
      return nthMatches(p.a, p.b, position(el, p.last, false, p.of, ctx));
    case 'nth-of-type':
      return nthMatches(p.a, p.b, position(el, p.last, true, null, ctx));
    case 'only-child':
      return previousElementOf(el) === null && nextElementOf(el) === null;
    case 'only-of-type':
      return position(el, false, true, null, ctx) === 1 && position(el, true, true, null, ctx) === 1;
    case 'root': {
      const parent = el._parent;
      return parent !== null && parent.nodeType === NodeType.DOCUMENT_NODE;
    }
    case 'scope':
      return el === ctx.scope;
    case 'empty':
      for (let c = el._first; c !== null; c = c._next) {
        const t = c.nodeType;
        if (t === NodeType.ELEMENT_NODE || (t === NodeType.TEXT_NODE && (c as unknown as { data: string }).data.length > 0)) return false;
      }
      return true;
    case 'any-link':
      return isLink(el);
    case 'checked':
      return isChecked(el, ctx.radioWinners);
    case 'disabled':
      return canBeDisabled(el) && isDisabled(el);
    case 'enabled':
      return canBeDisabled(el) && !isDisabled(el);
    case 'defined':
      return isDefined(el);
    case 'required':
      return matchesRequired(el, false);
    case 'optional':
      return matchesRequired(el, true);
    case 'read-write':
      return isReadWrite(el);
    case 'read-only':
      return el.namespaceURI === NS.HTML && !isReadWrite(el);
    case 'placeholder-shown':
      return isPlaceholderShown(el);
    case 'not':
      return !matchesList(p.list, el, ctx);
    case 'is':
      return matchesList(p.list, el, ctx);
    case 'has':
      return hasMatches(p, el, ctx);
    case 'never':
    case 'unsupported':
      return false;
  }
}

/**
 * The 1-based position of `el` among its element siblings: counted from the end with `last`; among
 * those with its namespace and local name with `ofType`; among those matching `of` when given. A bulk
 * query counts all the siblings of a parent in one pass and keeps the answers, so `li:last-child` over
 * 10,000 siblings is linear, not quadratic.
 */
function position(el: Element, last: boolean, ofType: boolean, of: SelectorList | null, ctx: MatchContext): number {
  // Most elements have few siblings: count them directly; only a long run of siblings is worth a cache.
  const direct = countSiblings(el, last, ofType, of, ctx, ctx.bulk ? 32 : Infinity);
  if (direct > 0) return direct;
  const cache = ctx.positions(last, ofType, of);
  let p = cache.get(el);
  if (p === undefined) {
    fillPositions(el, last, ofType, of, ctx, cache);
    p = cache.get(el)!;
  }
  return p;
}

/** The position by walking the siblings; 0 when more than `limit` siblings would have to be walked. */
function countSiblings(el: Element, last: boolean, ofType: boolean, of: SelectorList | null, ctx: MatchContext, limit: number): number {
  let n = 1;
  let steps = 0;
  const name = el.localName;
  const ns = el.namespaceURI;
  for (let s = last ? nextElementOf(el) : previousElementOf(el); s !== null; s = last ? nextElementOf(s) : previousElementOf(s)) {
    if (++steps > limit) return 0;
    if (ofType ? s.localName === name && s.namespaceURI === ns : of === null || matchesList(of, s, ctx)) n++;
  }
  return n;
}

/** Count every element sibling of `el` (itself included) in one pass, in the direction asked. */
function fillPositions(el: Element, last: boolean, ofType: boolean, of: SelectorList | null, ctx: MatchContext, cache: Map<Element, number>): void {
  const parent = el._parent;
  if (parent === null) {
    cache.set(el, 1);
    return;
  }
  let count = 0;
  const byType = ofType ? new Map<string, number>() : null;
  for (let c = last ? parent._last : parent._first; c !== null; c = last ? c._prev : c._next) {
    if (c.nodeType !== NodeType.ELEMENT_NODE) continue;
    const s = c as Element;
    if (byType !== null) {
      const key = `${s.namespaceURI ?? ''} ${s.localName}`;
      const k = (byType.get(key) ?? 0) + 1;
      byType.set(key, k);
      cache.set(s, k);
    } else if (of === null || matchesList(of, s, ctx)) cache.set(s, ++count);
    else cache.set(s, count + 1); // (not consulted: the element must match S itself)
  }
}
