/**
 * The streaming form of a selector: what `parse.ts` makes of `@sluice/selectors`' compiled form once it
 * has checked that a stream can decide every part of it when an element's start tag arrives. It adds
 * what a stream needs (per-rewriter sibling bits and `of S` slots); the parts that look at one element
 * (type, attributes, `An+B`) are the shared engine's.
 */
import type { AttributeOperator, AttributeTest, CaseMode, Combinator, NamespaceTest } from '@sluice/selectors';

export type { AttributeOperator, AttributeTest, CaseMode, Combinator, NamespaceTest };

/** A comma-separated list: an element matches when it matches any of its complex selectors. */
export type SelectorList = readonly ComplexSelector[];

/** Compounds joined by combinators, e.g. `div > p.note + a[href]`. */
export interface ComplexSelector {
  /** Left to right. */
  readonly compounds: readonly CompoundSelector[];
  /** `combinators[i]` joins `compounds[i]` and `compounds[i + 1]`. */
  readonly combinators: readonly Combinator[];
  /**
   * For each `+`/`~` at `combinators[i]`, the complex selector made of `compounds[0..i]`: a stream
   * cannot look back at earlier siblings, so it remembers, per element, which of these prefixes matched
   * (see `view/element-record.ts`). Null where `combinators[i]` is not a sibling combinator.
   */
  readonly siblingPrefixes: readonly (SiblingPrefix | null)[];
}

/** A sibling-combinator prefix and the slot its result has in each element's sibling bits. */
export interface SiblingPrefix {
  readonly selector: ComplexSelector;
  /** Assigned by `SelectorRegistry`; -1 until then. */
  bit: number;
}

/** One compound: a type/universal selector plus attribute and pseudo-class conditions. */
export interface CompoundSelector {
  /** The type selector's name as written (null for `*` or none): what foreign elements' names are compared to (HTML §4.16.2, `@sluice/selectors` typeMatches). */
  readonly tag: string | null;
  /** The same, ASCII-lowercased: what HTML elements' names are compared to, and the key of the by-name prefilters. */
  readonly tagLower: string | null;
  /** `any` for `a`, `*`, `*|a`; `none` for `|a` (matches nothing in an HTML document). */
  readonly namespace: NamespaceTest;
  readonly attributes: readonly AttributeTest[];
  readonly pseudos: readonly PseudoTest[];
}

/** Pseudo-classes a stream can decide at the start tag. `:first-child` is `nth-child` with a=0, b=1. */
export type PseudoTest =
  | { readonly kind: 'nth-child'; readonly a: number; readonly b: number; readonly of: OfSelector | null }
  | { readonly kind: 'nth-of-type'; readonly a: number; readonly b: number }
  | { readonly kind: 'root' }
  | { readonly kind: 'not'; readonly list: SelectorList }
  | { readonly kind: 'is'; readonly list: SelectorList };

/** The `S` of `:nth-child(An+B of S)`, with the slot of its sibling count. */
export interface OfSelector {
  readonly list: SelectorList;
  /** Assigned by `SelectorRegistry`; -1 until then. */
  slot: number;
}
