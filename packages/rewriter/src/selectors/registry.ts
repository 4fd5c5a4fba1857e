/**
 * Gives every sibling-combinator prefix a bit and every `:nth-child(… of S)` list a counter slot, so
 * that each element can remember, when it is inserted, what later siblings will ask about it.
 */
import type { OfSelector, SelectorList, SiblingPrefix } from './ast.js';

/** The sibling bits and `of S` slots of every selector registered with one rewriter. */
export class SelectorRegistry {
  /** Prefixes in the order their bits were given. */
  readonly prefixes: SiblingPrefix[] = [];
  /** `of S` lists, inner lists before the lists that contain them (they are evaluated in this order). */
  readonly ofSelectors: OfSelector[] = [];
  /** Whether any selector uses `:nth-of-type`/`:first-of-type` (elements then count siblings by type). */
  needsTypeIndex = false;
  /** Whether any selector uses `:nth-child`/`:first-child` (elements then count their siblings). */
  needsIndex = false;

  /** Assign bits and slots to everything in `list` that needs one. Walks the selector structure, not the DOM. */
  add(list: SelectorList): void {
    for (const complex of list) {
      complex.siblingPrefixes.forEach((p) => {
        if (p !== null && p.bit < 0) {
          p.bit = this.prefixes.length;
          this.prefixes.push(p);
        }
      });
      for (const compound of complex.compounds) {
        for (const pseudo of compound.pseudos) {
          if (pseudo.kind === 'nth-of-type') this.needsTypeIndex = true;
          else if (pseudo.kind === 'not' || pseudo.kind === 'is') this.add(pseudo.list);
          else if (pseudo.kind === 'nth-child') this.needsIndex = true;
          if (pseudo.kind === 'nth-child' && pseudo.of !== null) {
            this.add(pseudo.of.list);
            if (pseudo.of.slot < 0) {
              pseudo.of.slot = this.ofSelectors.length;
              this.ofSelectors.push(pseudo.of);
            }
          }
        }
      }
    }
  }
}
