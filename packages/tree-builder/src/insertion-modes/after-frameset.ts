/** §13.2.6.4.21 The "after frameset" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { T } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { CHARACTERS, COMMENT, DOCTYPE, END_TAG, EOF, START_TAG, whitespaceOf, type TreeToken } from '../tree-tokens.js';

export function afterFrameset<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case CHARACTERS: {
      const whitespace = whitespaceOf(t.data);
      if (whitespace.length !== t.data.length) tb.error('unexpected-character-after-frameset');
      tb.insertCharacters(whitespace, t.start, t.end);
      return;
    }
    case COMMENT:
      tb.insertComment(t);
      return;
    case DOCTYPE:
      tb.error('unexpected-doctype');
      return;
    case START_TAG:
      if (t.id === T.HTML) return tb.processInMode(MODE.IN_BODY, t);
      if (t.id === T.NOFRAMES) return tb.processInMode(MODE.IN_HEAD, t);
      tb.error('unexpected-start-tag');
      return;
    case END_TAG:
      if (t.id === T.HTML) {
        tb.htmlEndLocation = tb.endLocation(t);
        tb.mode = MODE.AFTER_AFTER_FRAMESET;
        tb.endTagKeptOpen(tb.stack.first, tb.htmlEndLocation);
        return;
      }
      tb.error('unexpected-end-tag');
      return;
    case EOF:
      tb.stopParsing();
      return;
  }
}
