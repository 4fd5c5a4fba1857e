/** §13.2.6.4.8 The "text" insertion mode (inside script, style, title, textarea, …). */
import { T } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { CHARACTERS, END_TAG, EOF, type TreeToken } from '../tree-tokens.js';

export function text<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case CHARACTERS:
      tb.insertCharacters(t.data, t.start, t.end);
      return;
    case EOF:
      // The element is cut short (a script would be marked "already started": it never runs).
      tb.error('eof-in-element-that-can-contain-only-text');
      tb.stack.pop();
      tb.reprocess(tb.originalMode, t);
      return;
    case END_TAG: {
      const element = tb.stack.pop(tb.endLocation(t));
      tb.mode = tb.originalMode;
      if (t.id === T.SCRIPT) tb.runScript(element.node);
      return;
    }
    default:
      // The tokenizer emits nothing else in the text modes.
      return;
  }
}
