/** §13.2.6.4.10 The "in table text" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { isAllWhitespace } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { CHARACTERS, characters, type TreeToken } from '../tree-tokens.js';

export function inTableText<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  if (t.kind === CHARACTERS) {
    let data = t.data;
    if (data.includes('\u0000')) {
      tb.nullCharacterErrors(t.start);
      data = data.replaceAll('\u0000', '');
    }
    if (data.length === 0) return;
    tb.pendingTableText.push(data);
    tb.pendingTableTextEnd = t.end;
    if (!tb.pendingTableTextDirty && !isAllWhitespace(data)) tb.pendingTableTextDirty = true;
    return;
  }
  // Anything else: flush the pending characters, then reprocess in the original mode.
  const pending = tb.pendingTableText.join('');
  tb.pendingTableText.length = 0;
  if (pending.length > 0) {
    const run = characters(pending, tb.pendingTableTextStart, tb.pendingTableTextEnd);
    if (tb.pendingTableTextDirty) {
      // Non-whitespace: the "in table" anything-else rules (foster parenting) for all of them.
      // At the first pending character (its position was taken then: the tokens since are counted).
      tb.errorAt('foster-parenting', tb.pendingTableTextStart, tb.pendingTableTextPosition);
      const previous = tb.fosterParenting;
      tb.fosterParenting = true;
      tb.processInMode(MODE.IN_BODY, run);
      tb.fosterParenting = previous;
    } else {
      tb.insertCharacters(run.data, run.start, run.end);
    }
  }
  tb.reprocess(tb.originalMode, t);
}
