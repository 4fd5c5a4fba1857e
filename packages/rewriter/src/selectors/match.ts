/**
 * The streaming matcher: decides, when an element is inserted, whether it matches a compiled selector.
 *
 * Ancestors are reached through parent links (the real parents, as the tree builder placed the element);
 * earlier siblings are not kept at all: each element carries the bits its previous sibling and all its
 * previous siblings set (`+` and `~`), its 1-based index among element siblings, its index among
 * siblings of its type, and its index among siblings matching each `of S` list.
 */
import type { ElementAttribute } from '@sluice/tree-builder';
import type { ComplexSelector, CompoundSelector, SelectorList } from './ast.js';
import { compoundElementMatches } from './compound.js';
import { nthMatches } from '@sluice/selectors';

/** What the matcher needs to know about an element. */
export interface MatchableElement {
  readonly localName: string;
  readonly namespace: string;
  readonly attributes: readonly ElementAttribute[];
  /**
   * Optional, for HTML elements: the value of the attribute `name` (lowercase), or null when there is
   * none — what `attributes` says, without building the whole list (the matcher then reads `attributes`
   * only for foreign elements).
   */
  attributeValue?(name: string): string | null;
  /** The parent if it is an element; null under the document or a template's contents. */
  readonly parentElement: MatchableElement | null;
  /** Whether the parent is the document (`:root`). */
  readonly isRoot: boolean;
  /** 1-based index among element siblings. */
  readonly index: number;
  /** 1-based index among element siblings of the same namespace and local name. */
  readonly typeIndex: number;
  /** The sibling bits of the previous element sibling; null when there is none. */
  readonly prevBits: Uint8Array | null;
  /** The union of the sibling bits of all previous element siblings; null when there are none. */
  readonly anyPrevBits: Uint8Array | null;
  /** Per `of S` slot: 1-based index among siblings matching S, or 0 when this element does not match S. */
  readonly ofIndex: Int32Array | null;
  /**
   * Optional: what the walk of a descendant combinator found here — whether this element or one of its
   * ancestors matches `compounds[0..k]` of `sel` (1 or 0; -1: not known). Remembered, each element's
   * walk stops at the first ancestor that knows, instead of going up to the root every time.
   */
  ancestorMatch?(sel: ComplexSelector, k: number): number;
  rememberAncestorMatch?(sel: ComplexSelector, k: number, matches: boolean): void;
  /**
   * Optional, with `ancestorMatch`: whether this walk should remember — false for the first walk after
   * the tree's shape changed (memos are void at each change: where the tree changes between every two
   * walks, as the adoption agency algorithm can make it, remembering would only add work).
   */
  rememberWalks?(): boolean;
}

let verifying = false;

/** For tests: check every remembered descendant-combinator answer against the walk, and throw where they differ. */
export function verifyAncestorMatches(on: boolean): void {
  verifying = on;
}

/** Whether `el` matches any selector of the list. */
export function matchesList(list: SelectorList, el: MatchableElement, quirks: boolean): boolean {
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (matchesComplex(c, el, quirks, c.compounds.length - 1)) return true;
  }
  return false;
}

/** Whether `el` matches `compounds[0..k]` of the complex selector (right to left). */
export function matchesComplex(sel: ComplexSelector, el: MatchableElement, quirks: boolean, k: number): boolean {
  let cur = el;
  let i = k;
  for (;;) {
    if (!matchesCompound(sel.compounds[i]!, cur, quirks)) return false;
    if (i === 0) return true;
    const combinator = sel.combinators[i - 1]!;
    if (combinator === 'child') {
      const parent = cur.parentElement;
      if (parent === null) return false;
      cur = parent;
      i--;
      continue;
    }
    if (combinator === 'descendant') return someAncestorMatches(sel, cur.parentElement, quirks, i - 1);
    // `+` / `~`: the previous siblings decided `compounds[0..i-1]` for themselves when inserted.
    const bit = sel.siblingPrefixes[i - 1]!.bit;
    const bits = combinator === 'adjacent' ? cur.prevBits : cur.anyPrevBits;
    return bits !== null && bits[bit] === 1;
  }
}

/**
 * Whether `start` or one of its ancestors matches `compounds[0..k]` (a descendant combinator). Where the
 * elements remember (`ancestorMatch`), the walk stops at the first that knows, and each element it
 * passes learns the answer: O(1) amortized per element, where walking to the root each time made
 * `div i` on n nested `<span>`s and n `<i>`s quadratic (docs/rewriter.md, Cost).
 */
function someAncestorMatches(sel: ComplexSelector, start: MatchableElement | null, quirks: boolean, k: number): boolean {
  if (start === null) return false;
  if (start.ancestorMatch === undefined || !start.rememberWalks!()) return ancestorMatchesByWalk(sel, start, quirks, k);
  const path: MatchableElement[] = [];
  let found = false;
  for (let a: MatchableElement | null = start; a !== null; a = a.parentElement) {
    const known = a.ancestorMatch!(sel, k);
    if (known !== -1) {
      found = known === 1;
      break;
    }
    path.push(a);
    if (matchesComplex(sel, a, quirks, k)) {
      found = true;
      break;
    }
  }
  for (let j = 0; j < path.length; j++) path[j]!.rememberAncestorMatch!(sel, k, found);
  if (verifying && ancestorMatchesByWalk(sel, start, quirks, k) !== found) {
    throw new Error(`someAncestorMatches: remembered ${found}, the walk says ${!found} (${start.localName})`);
  }
  return found;
}

/** `someAncestorMatches` by walking up to the root (the definition). */
function ancestorMatchesByWalk(sel: ComplexSelector, start: MatchableElement | null, quirks: boolean, k: number): boolean {
  for (let a = start; a !== null; a = a.parentElement) if (matchesComplex(sel, a, quirks, k)) return true;
  return false;
}

function matchesCompound(compound: CompoundSelector, el: MatchableElement, quirks: boolean): boolean {
  if (!compoundElementMatches(compound, el, quirks)) return false;
  const pseudos = compound.pseudos;
  for (let i = 0; i < pseudos.length; i++) {
    const p = pseudos[i]!;
    switch (p.kind) {
      case 'nth-child':
        if (p.of === null) {
          if (!nthMatches(p.a, p.b, el.index)) return false;
        } else {
          const index = el.ofIndex === null ? 0 : el.ofIndex[p.of.slot]!;
          if (index === 0 || !nthMatches(p.a, p.b, index)) return false;
        }
        break;
      case 'nth-of-type':
        if (!nthMatches(p.a, p.b, el.typeIndex)) return false;
        break;
      case 'root':
        if (!el.isRoot) return false;
        break;
      case 'not':
        if (matchesList(p.list, el, quirks)) return false;
        break;
      case 'is':
        if (!matchesList(p.list, el, quirks)) return false;
        break;
    }
  }
  return true;
}

/**
 * The lowercased local names an element must have to match some complex selector of `list`, or null
 * when any name can match (a rightmost compound without a type selector). Used to skip selectors fast.
 */
export function rightmostTags(list: SelectorList): Set<string> | null {
  const tags = new Set<string>();
  for (const c of list) {
    const last = c.compounds[c.compounds.length - 1]!;
    if (last.tagLower === null) return null;
    tags.add(last.tagLower);
  }
  return tags;
}
