/**
 * Which element names can make a selector's combinators answer otherwise: what a move in the view must
 * void of the descendant-combinator memos (view/view-sink.ts `moveVoidsMemos`). An element whose
 * lowercased name no compound left of a rightmost one names (in `:not()`, `:is()` and `of S` lists too)
 * can neither be the ancestor a descendant combinator finds nor the child a child combinator checks.
 */
import type { SelectorList } from './ast.js';

/**
 * The names of the compounds left of the rightmost in each complex selector (what the memos are of), or
 * null where one of them names no type (`*`, `.note`, `:not(div)`): it may match any element.
 */
export interface SelectorNames {
  /** Those compounds' type names, lowercased; null: one has none. */
  readonly any: ReadonlySet<string> | null;
  /** Of those, the ones on the right of a child combinator (`div > p a`: `p`); null: one has none. */
  readonly children: ReadonlySet<string> | null;
}

/** The names in `lists` (nested lists included, walked without recursion). */
export function selectorNames(lists: readonly SelectorList[]): SelectorNames {
  let any: Set<string> | null = new Set();
  let children: Set<string> | null = new Set();
  const todo: SelectorList[] = [...lists];
  while (todo.length > 0) {
    for (const complex of todo.pop()!) {
      const last = complex.compounds.length - 1;
      complex.compounds.forEach((compound, i) => {
        // (A memo is of a left side, `compounds[0..k]` with k < last: the rightmost compound is the
        // element's own, decided when it is inserted, and no move changes that. A sibling prefix is
        // `compounds[0..i]` of the same selector: nothing more to collect.)
        const name = compound.tagLower;
        if (i < last) {
          if (name === null) any = null;
          else any?.add(name);
          if (i > 0 && complex.combinators[i - 1] === 'child') {
            if (name === null) children = null;
            else children?.add(name);
          }
        }
        for (const p of compound.pseudos) {
          if (p.kind === 'not' || p.kind === 'is') todo.push(p.list);
          else if (p.kind === 'nth-child' && p.of !== null) todo.push(p.of.list);
        }
      });
    }
  }
  return { any, children };
}
