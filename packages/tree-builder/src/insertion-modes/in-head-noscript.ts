/** §13.2.6.4.5 The "in head noscript" insertion mode (scripting disabled). */
import { MODE } from '../insertion-mode.js';
import { T, skipWhitespace } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import {
  CHARACTERS, COMMENT, DOCTYPE, END_TAG, START_TAG, charactersBefore, charactersFrom, type TreeToken,
} from '../tree-tokens.js';

export function inHeadNoscript<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case DOCTYPE:
      tb.error('unexpected-doctype');
      return;
    case START_TAG:
      switch (t.id) {
        case T.HTML:
          return tb.processInMode(MODE.IN_BODY, t);
        case T.BASEFONT: case T.BGSOUND: case T.LINK: case T.META: case T.NOFRAMES: case T.STYLE:
          return tb.processInMode(MODE.IN_HEAD, t);
        case T.HEAD: case T.NOSCRIPT:
          tb.error('unexpected-start-tag');
          return;
      }
      break;
    case END_TAG:
      if (t.id === T.NOSCRIPT) {
        tb.stack.pop(tb.endLocation(t));
        tb.mode = MODE.IN_HEAD;
        return;
      }
      if (t.id === T.BR) break;
      tb.error('unexpected-end-tag');
      return;
    case CHARACTERS: {
      // Whitespace: "in head" rules (insert it). The rest: anything else.
      const i = skipWhitespace(t.data);
      if (i > 0) tb.processInMode(MODE.IN_HEAD, charactersBefore(t, i));
      if (i === t.data.length) return;
      t = charactersFrom(t, i);
      break;
    }
    case COMMENT:
      return tb.processInMode(MODE.IN_HEAD, t);
  }
  // Anything else: close the noscript.
  tb.error('unexpected-token-in-head-noscript');
  tb.stack.pop();
  tb.reprocess(MODE.IN_HEAD, t);
}
