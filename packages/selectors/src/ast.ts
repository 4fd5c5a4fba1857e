/**
 * The compiled form of a selector (Selectors 4 §3 "Selector syntax and structure"): what `parse.ts`
 * makes of css-what's token lists once it has checked them as a browser's parser would. Immutable; the
 * DOM matches it as is, the rewriter converts it into its streaming form (which adds per-rewriter slots).
 */

/** How two compounds are joined: descendant (whitespace), child `>`, next-sibling `+`, subsequent-sibling `~`. */
export type Combinator = 'descendant' | 'child' | 'adjacent' | 'sibling';

/** A comma-separated list: an element matches when it matches any of its complex selectors. */
export type SelectorList = readonly ComplexSelector[];

/** Compounds joined by combinators, e.g. `div > p.note + a[href]`. */
export interface ComplexSelector {
  /** Left to right. */
  readonly compounds: readonly CompoundSelector[];
  /** `combinators[i]` joins `compounds[i]` and `compounds[i + 1]`. */
  readonly combinators: readonly Combinator[];
}

/**
 * A relative selector (Selectors 4 §3.4), the argument of `:has()`: a complex selector that starts with a
 * combinator, relative to the anchor element (`:has(> a)`: a child; `:has(a)`: a descendant).
 */
export interface RelativeSelector {
  /** The combinator between the anchor and `selector.compounds[0]` (descendant when none is written). */
  readonly combinator: Combinator;
  readonly selector: ComplexSelector;
}

/** Which namespaces a type or universal selector accepts (a query has no `@namespace` rules). */
export type NamespaceTest = 'any' | 'none';

/** One compound: a type/universal selector plus attribute and pseudo-class conditions. */
export interface CompoundSelector {
  /** The type selector's name as written (null for `*` or none): what names of elements other than HTML elements are compared to (HTML §4.16.2, `typeMatches`). */
  readonly tag: string | null;
  /** The same, ASCII-lowercased: what names of HTML elements are compared to (`typeMatches`). */
  readonly tagLower: string | null;
  /** `any` for `a`, `*`, `*|a`; `none` for `|a` (elements in no namespace only). */
  readonly namespace: NamespaceTest;
  /** Attribute selectors, `.class` and `#id` among them, in the order written. */
  readonly attributes: readonly AttributeTest[];
  readonly pseudos: readonly PseudoClass[];
}

/** The attribute operators: `[a]`, `=`, `~=`, `|=`, `^=`, `$=`, `*=` (Selectors 4 §6.1–6.2). */
export type AttributeOperator = 'exists' | 'equals' | 'includes' | 'dash' | 'prefix' | 'suffix' | 'substring';

/**
 * How an attribute value compares: the `i`/`s` flags (Selectors 4 §6.3); `default` follows HTML's list of
 * attributes whose values compare case-insensitively on HTML elements; `quirks` (`.class`, `#id`) is
 * case-insensitive in a quirks-mode document only (HTML §"Case-sensitivity of selectors").
 */
export type CaseMode = 'default' | 'i' | 's' | 'quirks';

export interface AttributeTest {
  /** As written: what names of attributes other than an HTML element's namespace-less ones are compared to (HTML §4.16.2, `attributeMatches`). */
  readonly name: string;
  /** ASCII-lowercased: what names of an HTML element's namespace-less attributes are compared to (`attributeMatches`). */
  readonly nameLower: string;
  /** `[a]` (and `[|a]`) match attributes in no namespace; `[*|a]` attributes in any namespace. */
  readonly anyNamespace: boolean;
  readonly operator: AttributeOperator;
  readonly value: string;
  readonly valueLower: string;
  readonly caseMode: CaseMode;
}

/**
 * A pseudo-class (Selectors 4 §4–§14; HTML §4.16.3 "Pseudo-classes"), or a pseudo-element (which matches
 * no element). `:first-child` is `nth-child` with a=0, b=1; `:last-child` the same counted from the end.
 * `name` is the pseudo-class as written, lowercased, with its colon(s) and `()` when functional
 * (`:last-child`, `:nth-child()`, `::before`): for messages.
 */
export type PseudoClass = PseudoClassTest & { readonly name: string };

/** The tests of {@link PseudoClass}, by kind. */
export type PseudoClassTest =
  | { readonly kind: 'nth-child'; readonly a: number; readonly b: number; readonly last: boolean; readonly of: SelectorList | null }
  | { readonly kind: 'nth-of-type'; readonly a: number; readonly b: number; readonly last: boolean }
  | { readonly kind: 'only-child' }
  | { readonly kind: 'only-of-type' }
  | { readonly kind: 'root' }
  | { readonly kind: 'scope' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'any-link' }
  | { readonly kind: 'checked' }
  | { readonly kind: 'disabled' }
  | { readonly kind: 'enabled' }
  | { readonly kind: 'defined' }
  | { readonly kind: 'required' }
  | { readonly kind: 'optional' }
  | { readonly kind: 'read-only' }
  | { readonly kind: 'read-write' }
  | { readonly kind: 'placeholder-shown' }
  | { readonly kind: 'not'; readonly list: SelectorList }
  | { readonly kind: 'is'; readonly list: SelectorList }
  | { readonly kind: 'has'; readonly relatives: readonly RelativeSelector[] }
  /**
   * Valid, but never matches in a document nobody interacts with or renders (`:hover`, `:focus`,
   * `:visited`, `:target`…), or a pseudo-element (`::before`: querySelector never returns one). `name`
   * as written, with its colons.
   */
  | { readonly kind: 'never'; readonly pseudoElement: boolean }
  /** A valid pseudo-class sluice does not evaluate (`:lang()`, `:required`…): consumers reject it by `name`. */
  | { readonly kind: 'unsupported' };
