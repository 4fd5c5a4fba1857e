/**
 * Which registrations (`.on()` selectors) an element of the rewriter's view matches, decided when the
 * element is first inserted: its type and attributes, its ancestors (parent links), and what its
 * earlier siblings left for it — the sibling bits `+` and `~` read, the counts `:nth-child(An+B of S)`
 * reads. The view (view/view-sink.ts) keeps the tree; this decides matches on it.
 */
import type { Positions, ElementRecord } from '../view/records.js';
import type { SelectorList } from './ast.js';
import { asciiLowercase } from '@sluice/selectors';
import { matchesComplex, matchesList } from './match.js';
import type { SelectorRegistry } from './registry.js';

/** A registered selector, as the matcher needs it: its list. */
export interface SinkSelector {
  readonly list: SelectorList;
}

const NO_CANDIDATES: readonly number[] = [];

/** The selectors of one transform, compiled for matching elements of its view. */
export class ElementMatcher {
  /** Whether the document is in quirks mode (`.class`/`#id` then compare case-insensitively). */
  quirks = false;
  readonly bitCount: number;
  readonly slotCount: number;
  /** Whether records must keep sibling positions (some selector uses them). */
  readonly positioned: boolean;
  /** Snapshots of the registry's lists (a rewriter may register more selectors after this transform began). */
  private readonly prefixes: SelectorRegistry['prefixes'];
  private readonly ofSelectors: SelectorRegistry['ofSelectors'];
  /** Candidate registration indices per lowercased local name (cached merge of `byTag` and `anyTag`). */
  private readonly candidates = new Map<string, readonly number[]>();
  /** Per registration: whether an element needs at least one attribute to match it. */
  private readonly needsAttributes: readonly boolean[];
  /** The rightmost type names and their registrations, when they are few and no selector matches any name. */
  private readonly fewTags: readonly string[] | null = null;
  private readonly fewLists: readonly (readonly number[])[] = [];

  /**
   * @param registry sibling bits and `of S` slots of every selector
   * @param selectors the registrations' selectors, by registration index
   * @param byTag registration indices per lowercased rightmost type name
   * @param anyTag registration indices whose rightmost compound matches any name
   */
  constructor(
    registry: SelectorRegistry,
    private readonly selectors: readonly SinkSelector[],
    private readonly byTag: ReadonlyMap<string, readonly number[]>,
    private readonly anyTag: readonly number[],
  ) {
    this.prefixes = registry.prefixes.slice();
    this.ofSelectors = registry.ofSelectors.slice();
    this.bitCount = this.prefixes.length;
    this.slotCount = this.ofSelectors.length;
    this.positioned = registry.needsTypeIndex || registry.needsIndex || this.bitCount > 0 || this.slotCount > 0;
    this.needsAttributes = selectors.map((s) => s.list.every((c) => c.compounds[c.compounds.length - 1]!.attributes.length > 0));
    if (anyTag.length === 0 && byTag.size <= 8) {
      this.fewTags = [...byTag.keys()];
      this.fewLists = [...byTag.values()];
    }
  }

  /** `:nth-child(An+B of S)`: this element's index among the siblings matching each S. */
  evaluateOf(pp: Positions, node: ElementRecord, np: Positions, bp: Positions | null): void {
    const slots = this.ofSelectors;
    const ofIndex = new Int32Array(this.slotCount);
    np.ofIndex = ofIndex; // inner lists (earlier slots) may be consulted by later ones
    for (let s = 0; s < slots.length; s++) {
      if (!matchesList(slots[s]!.list, node, this.quirks)) continue;
      const count = pp.ofCounts?.[s] ?? 0;
      const beforeMatches = bp !== null && bp.ofIndex !== null && bp.ofIndex[s]! > 0 ? 1 : 0;
      ofIndex[s] = count - beforeMatches + 1;
    }
  }

  /** This element's result for every sibling prefix, for its later siblings to read. */
  evaluateBits(node: ElementRecord, np: Positions): void {
    const prefixes = this.prefixes;
    const bits = new Uint8Array(this.bitCount);
    let any = false;
    for (let b = 0; b < prefixes.length; b++) {
      const sel = prefixes[b]!.selector;
      if (matchesComplex(sel, node, this.quirks, sel.compounds.length - 1)) {
        bits[b] = 1;
        any = true;
      }
    }
    np.bits = any ? bits : null;
  }

  /** Decide which registrations match the newly inserted element. */
  evaluate(node: ElementRecord): void {
    if (this.selectors.length === 0 || node.inTemplate) return; // inTemplate: `document.querySelectorAll` does not see it
    // ASCII lowercase, as type selectors compare (and as byte form needs: `toLowerCase` would change
    // the bytes of a non-ASCII name, U+00C3 to U+00E3).
    const lower = node.isHtml ? node.localName : asciiLowercase(node.localName);
    let candidates: readonly number[] | undefined;
    const few = this.fewTags;
    if (few !== null) {
      // A few type selectors and nothing that matches any name: comparing names is cheaper than a Map.
      candidates = NO_CANDIDATES;
      for (let i = 0; i < few.length; i++) {
        if (few[i] === lower) {
          candidates = this.fewLists[i]!;
          break;
        }
      }
    } else candidates = this.candidates.get(lower);
    if (candidates === undefined) {
      const own = this.byTag.get(lower);
      candidates = own === undefined ? this.anyTag : [...own, ...this.anyTag].sort((a, b) => a - b);
      // Bounded: a document can use any number of distinct (custom) element names.
      if (this.candidates.size < 4096) this.candidates.set(lower, candidates);
    }
    if (candidates.length === 0) return;
    // Selectors whose every rightmost compound tests an attribute cannot match an element without any.
    const bare = !node.mayHaveAttributes;
    const needs = this.needsAttributes;
    if (candidates.length === 1) {
      // One candidate (the usual case): the shared list itself is the result, no array per element.
      const r = candidates[0]!;
      if (!(bare && needs[r]) && matchesList(this.selectors[r]!.list, node, this.quirks)) node.matched = candidates;
      return;
    }
    let matched: number[] | null = null;
    for (let i = 0; i < candidates.length; i++) {
      const r = candidates[i]!;
      if (!(bare && needs[r]) && matchesList(this.selectors[r]!.list, node, this.quirks)) (matched ??= []).push(r);
    }
    // All of them matched: share the candidates' list (the transformer caches handlers by list).
    node.matched = matched !== null && matched.length === candidates.length ? candidates : matched;
  }
}
