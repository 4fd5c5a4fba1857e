/**
 * The ancestor filter: what keeps `querySelectorAll('p div')` linear on a deep page. Without it, each
 * `div` walks all its ancestors looking for a `p` (a 100,000-deep page of divs: 5·10⁹ steps). Browsers
 * keep a Bloom filter of the names, ids and classes of the ancestors of the element being matched
 * (Blink's SelectorFilter); here a query walking the tree in order keeps exact counts of the few names,
 * ids and classes its selectors require of ancestors, and skips an element at once when one is missing.
 */
import { type ComplexSelector, type SelectorList, asciiLowercase, isAsciiWhitespace } from '@sluice/selectors';
import { NS } from '@sluice/tree-builder';
import type { Element } from '../element.js';
import { attributeValue } from './element-data.js';

/** What one complex selector requires of the candidate's ancestors: keys `t:name`, `i:id`, `c:class`. */
type Requirement = readonly string[];

/** The requirements of a list, and which kinds of keys an element must be counted for. */
export interface AncestorFilter {
  /** Per complex selector; an element can match the list only if some complex's keys are all present. */
  readonly requirements: readonly Requirement[];
  readonly wanted: ReadonlySet<string>;
  readonly ids: boolean;
  readonly classes: boolean;
}

const filters = new WeakMap<SelectorList, { quirks: AncestorFilter | null; standards: AncestorFilter | null }>();

/** The filter for `list`, or null when no complex selector requires anything of ancestors. */
export function ancestorFilterFor(list: SelectorList, quirks: boolean): AncestorFilter | null {
  let entry = filters.get(list);
  if (entry === undefined) {
    entry = { quirks: build(list, true), standards: build(list, false) };
    filters.set(list, entry);
  }
  return quirks ? entry.quirks : entry.standards;
}

function build(list: SelectorList, quirks: boolean): AncestorFilter | null {
  const requirements: Requirement[] = [];
  for (const complex of list) {
    const keys = requirementOf(complex, quirks);
    if (keys.length === 0) return null; // this complex selector could match without any: no filtering
    requirements.push(keys);
  }
  const wanted = new Set(requirements.flat());
  const kinds = [...wanted].map((k) => k[0]);
  return { requirements, wanted, ids: kinds.includes('i'), classes: kinds.includes('c') };
}

/**
 * Keys of the compounds that must be ancestors of the rightmost one: those left of it joined only by
 * descendant and child combinators (a compound left of a `+`/`~` is a sibling of one of them, not an
 * ancestor, so the walk stops at the first sibling combinator).
 */
function requirementOf(complex: ComplexSelector, quirks: boolean): string[] {
  const keys: string[] = [];
  for (let i = complex.compounds.length - 2; i >= 0; i--) {
    const combinator = complex.combinators[i]!;
    if (combinator !== 'descendant' && combinator !== 'child') break;
    const c = complex.compounds[i]!;
    // Lowercased on both sides: a necessary condition only (a foreign `clipPath` ancestor has the key
    // `t:clippath`, which `clippath` also asks for); the compound's own test applies HTML §4.16.2 exactly.
    if (c.tagLower !== null) keys.push(`t:${c.tagLower}`);
    for (const a of c.attributes) {
      // Only `#id` and `.class` (css-what marks them `quirks`): compared exactly, or lowercased in quirks mode.
      if (a.caseMode !== 'quirks') continue;
      if (a.operator === 'equals' && a.nameLower === 'id') keys.push(`i:${quirks ? a.valueLower : a.value}`);
      else if (a.operator === 'includes' && a.nameLower === 'class' && a.value !== '' && !/[\t\n\f\r ]/.test(a.value)) {
        keys.push(`c:${quirks ? a.valueLower : a.value}`);
      }
    }
  }
  return keys;
}

/** Counts of the wanted keys among the ancestors of the element being matched. */
export class AncestorCounts {
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly filter: AncestorFilter,
    private readonly quirks: boolean,
  ) {}

  /** The wanted keys `el` has (null: none), to pass to `add` and later `remove`. */
  keysOf(el: Element): string[] | null {
    const f = this.filter;
    let out: string[] | null = null;
    const tag = `t:${el.namespaceURI === NS.HTML ? el.localName : asciiLowercase(el.localName)}`;
    if (f.wanted.has(tag)) out = [tag];
    if (f.ids) {
      const id = attributeValue(el, 'id');
      if (id !== null) {
        const key = `i:${this.quirks ? asciiLowercase(id) : id}`;
        if (f.wanted.has(key)) (out ??= []).push(key);
      }
    }
    if (f.classes) {
      const value = attributeValue(el, 'class');
      if (value !== null) {
        const v = this.quirks ? asciiLowercase(value) : value;
        let start = -1;
        for (let i = 0; i <= v.length; i++) {
          if (i === v.length || isAsciiWhitespace(v.charCodeAt(i))) {
            if (start >= 0) {
              const key = `c:${v.slice(start, i)}`;
              if (f.wanted.has(key)) (out ??= []).push(key);
            }
            start = -1;
          } else if (start < 0) start = i;
        }
      }
    }
    return out;
  }

  add(keys: string[] | null): void {
    if (keys === null) return;
    for (const k of keys) this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }

  remove(keys: string[] | null): void {
    if (keys === null) return;
    for (const k of keys) this.counts.set(k, this.counts.get(k)! - 1);
  }

  /** Whether some complex selector's requirements are all among the current ancestors. */
  mayMatch(): boolean {
    const reqs = this.filter.requirements;
    outer: for (let r = 0; r < reqs.length; r++) {
      const keys = reqs[r]!;
      for (let i = 0; i < keys.length; i++) if ((this.counts.get(keys[i]!) ?? 0) === 0) continue outer;
      return true;
    }
    return false;
  }
}
