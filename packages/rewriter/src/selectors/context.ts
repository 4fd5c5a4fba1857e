/**
 * Whether a selector looks beyond the element itself: at its ancestors (descendant and child
 * combinators), its siblings (`+`, `~`, `:nth-child`, `:nth-of-type`, `of S`) or its place in the
 * document (`:root`). Only such a selector can change its answer when the adoption agency algorithm
 * (HTML §13.2.6.4.7) moves an element that was already matched — an element's name and attributes go
 * with it. A rewrite whose element handlers use none of them never has to hold output for a move
 * (transform/held-moves.ts).
 */
import type { SelectorList } from './ast.js';

/** Whether any selector of `list` depends on more than the element's own name and attributes. */
export function dependsOnContext(list: SelectorList): boolean {
  // An explicit stack of lists (`:not()`/`:is()` nest lists): selectors are user input, no recursion.
  const lists: SelectorList[] = [list];
  while (lists.length > 0) {
    const current = lists.pop()!;
    for (const complex of current) {
      if (complex.compounds.length > 1) return true;
      for (const compound of complex.compounds) {
        for (const pseudo of compound.pseudos) {
          if (pseudo.kind === 'nth-child' || pseudo.kind === 'nth-of-type' || pseudo.kind === 'root') return true;
          lists.push(pseudo.list);
        }
      }
    }
  }
  return false;
}

/**
 * Whether `list` matches every element: a complex selector that is a lone `*` (or `*|*`), with no
 * attribute test or pseudo-class. Every text and comment has such an ancestor (the html element) wherever
 * a move takes it, so the `text` and `comments` handlers of such a registration reach it all the same
 * (transform/held-moves.ts).
 */
export function matchesEveryElement(list: SelectorList): boolean {
  return list.some((complex) => {
    if (complex.compounds.length !== 1) return false;
    const c = complex.compounds[0]!;
    return c.tag === null && c.namespace === 'any' && c.attributes.length === 0 && c.pseudos.length === 0;
  });
}
