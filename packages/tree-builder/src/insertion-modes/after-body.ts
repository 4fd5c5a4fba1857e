/** §13.2.6.4.19 The "after body" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { T, skipWhitespace } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import {
  CHARACTERS, COMMENT, DOCTYPE, END_TAG, EOF, START_TAG, charactersBefore, charactersFrom, type TreeToken,
} from '../tree-tokens.js';

export function afterBody<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case CHARACTERS: {
      // Whitespace: "in body" rules. The rest: anything else.
      const i = skipWhitespace(t.data);
      if (i > 0) tb.processInMode(MODE.IN_BODY, charactersBefore(t, i));
      if (i === t.data.length) return;
      t = charactersFrom(t, i);
      break;
    }
    case COMMENT:
      // As the last child of the first element on the stack (the html element).
      tb.insertComment(t, tb.stack.first!.node);
      return;
    case DOCTYPE:
      tb.error('unexpected-doctype');
      return;
    case START_TAG:
      if (t.id === T.HTML) return tb.processInMode(MODE.IN_BODY, t);
      break;
    case END_TAG:
      if (t.id === T.HTML) {
        if (tb.isFragment) {
          tb.error('unexpected-end-tag');
          return;
        }
        tb.htmlEndLocation = tb.endLocation(t);
        tb.mode = MODE.AFTER_AFTER_BODY;
        tb.endTagKeptOpen(tb.stack.first, tb.htmlEndLocation);
        return;
      }
      break;
    case EOF:
      tb.stopParsing();
      return;
  }
  // Anything else: back into the body.
  tb.error('unexpected-token-after-body');
  tb.bodyEndLocation = null;
  tb.htmlEndLocation = null;
  tb.reprocess(MODE.IN_BODY, t);
}
