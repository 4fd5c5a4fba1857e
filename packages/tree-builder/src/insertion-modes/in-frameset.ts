/** §13.2.6.4.20 The "in frameset" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { T } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { CHARACTERS, COMMENT, DOCTYPE, END_TAG, EOF, START_TAG, whitespaceOf, type TreeToken } from '../tree-tokens.js';

export function inFrameset<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  const stack = tb.stack;
  switch (t.kind) {
    case CHARACTERS: {
      // Whitespace characters are inserted; every other character is a parse error and ignored.
      const whitespace = whitespaceOf(t.data);
      if (whitespace.length !== t.data.length) tb.error('unexpected-character-in-frameset');
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
      switch (t.id) {
        case T.HTML:
          return tb.processInMode(MODE.IN_BODY, t);
        case T.FRAMESET:
          tb.insertHtmlElement(t);
          return;
        case T.FRAME:
          tb.insertHtmlElement(t);
          stack.pop();
          t.acknowledged = true;
          return;
        case T.NOFRAMES:
          return tb.processInMode(MODE.IN_HEAD, t);
      }
      tb.error('unexpected-start-tag');
      return;
    case END_TAG:
      if (t.id === T.FRAMESET) {
        if (stack.current.is(T.HTML)) {
          tb.error('unexpected-end-tag');   // fragment case
          return;
        }
        stack.pop(tb.endLocation(t));
        if (!tb.isFragment && !stack.current.is(T.FRAMESET)) tb.mode = MODE.AFTER_FRAMESET;
        return;
      }
      tb.error('unexpected-end-tag');
      return;
    case EOF:
      if (!stack.current.is(T.HTML)) tb.error('eof-in-frameset');
      tb.stopParsing();
      return;
  }
}
