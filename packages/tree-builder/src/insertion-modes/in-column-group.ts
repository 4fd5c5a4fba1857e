/** §13.2.6.4.12 The "in column group" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { T, skipWhitespace } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { CHARACTERS, COMMENT, DOCTYPE, END_TAG, EOF, START_TAG, charactersFrom, whitespaceOf, type TreeToken } from '../tree-tokens.js';

export function inColumnGroup<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  const stack = tb.stack;
  switch (t.kind) {
    case CHARACTERS: {
      if (!stack.current.is(T.COLGROUP)) {
        // The current node is a template (or the fragment's root): whitespace characters are inserted, every
        // other character is "anything else" — a parse error, ignored — one by one.
        const whitespace = whitespaceOf(t.data);
        if (whitespace.length !== t.data.length) tb.error('unexpected-token-in-column-group');
        tb.insertCharacters(whitespace, t.start, t.end);
        return;
      }
      const i = skipWhitespace(t.data);
      if (i > 0) tb.insertCharacters(t.data.slice(0, i), t.start, t.end);
      if (i === t.data.length) return;
      t = charactersFrom(t, i);
      break;
    }
    case COMMENT:
      tb.insertComment(t);
      return;
    case DOCTYPE:
      tb.error('unexpected-doctype');
      return;
    case START_TAG:
      if (t.id === T.HTML) return tb.processInMode(MODE.IN_BODY, t);
      if (t.id === T.COL) {
        tb.insertHtmlElement(t);
        stack.pop();
        t.acknowledged = true;
        return;
      }
      if (t.id === T.TEMPLATE) return tb.processInMode(MODE.IN_HEAD, t);
      break;
    case END_TAG:
      if (t.id === T.COLGROUP) {
        if (!stack.current.is(T.COLGROUP)) {
          tb.error('unexpected-end-tag');
          return;
        }
        stack.pop(tb.endLocation(t));
        tb.mode = MODE.IN_TABLE;
        return;
      }
      if (t.id === T.COL) {
        tb.error('unexpected-end-tag');
        return;
      }
      if (t.id === T.TEMPLATE) return tb.processInMode(MODE.IN_HEAD, t);
      break;
    case EOF:
      return tb.processInMode(MODE.IN_BODY, t);
  }
  // Anything else: close the column group, reprocess "in table".
  if (!stack.current.is(T.COLGROUP)) {
    tb.error('unexpected-token-in-column-group');
    return;
  }
  stack.pop();
  tb.reprocess(MODE.IN_TABLE, t);
}
