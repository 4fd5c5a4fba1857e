/** §13.2.6.4.6 The "after head" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { T, skipWhitespace } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { CHARACTERS, COMMENT, DOCTYPE, END_TAG, START_TAG, charactersFrom, type TreeToken } from '../tree-tokens.js';

export function afterHead<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case CHARACTERS: {
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
      switch (t.id) {
        case T.HTML:
          return tb.processInMode(MODE.IN_BODY, t);
        case T.BODY:
          tb.insertHtmlElement(t);
          tb.framesetOk = false;
          tb.mode = MODE.IN_BODY;
          return;
        case T.FRAMESET:
          tb.insertHtmlElement(t);
          tb.mode = MODE.IN_FRAMESET;
          return;
        case T.BASE: case T.BASEFONT: case T.BGSOUND: case T.LINK: case T.META: case T.NOFRAMES:
        case T.SCRIPT: case T.STYLE: case T.TEMPLATE: case T.TITLE: {
          // Head content after the head: process it in the head element, then take the head off again.
          tb.error('abandoned-head-element-child');
          const head = tb.headElement!;
          tb.stack.push(head);
          tb.processInMode(MODE.IN_HEAD, t);
          tb.stack.removeSilently(head);
          return;
        }
        case T.HEAD:
          tb.error('unexpected-start-tag');
          return;
      }
      break;
    case END_TAG:
      if (t.id === T.TEMPLATE) return tb.processInMode(MODE.IN_HEAD, t);
      if (t.id === T.BODY || t.id === T.HTML || t.id === T.BR) break;
      tb.error('unexpected-end-tag');
      return;
  }
  // Anything else: a body element the parser makes up.
  tb.insertHtmlElementNamed('body', T.BODY);
  tb.reprocess(MODE.IN_BODY, t);
}
