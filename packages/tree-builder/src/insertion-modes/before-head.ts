/** §13.2.6.4.3 The "before head" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { T, skipWhitespace } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { CHARACTERS, COMMENT, DOCTYPE, END_TAG, START_TAG, charactersFrom, type TreeToken } from '../tree-tokens.js';

export function beforeHead<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case CHARACTERS: {
      const i = skipWhitespace(t.data);
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
      if (t.id === T.HEAD) {
        tb.headElement = tb.insertHtmlElement(t);
        tb.mode = MODE.IN_HEAD;
        return;
      }
      break;
    case END_TAG:
      if (t.id === T.HEAD || t.id === T.BODY || t.id === T.HTML || t.id === T.BR) break;
      tb.error('unexpected-end-tag');
      return;
  }
  // Anything else: a head element the parser makes up.
  tb.headElement = tb.insertHtmlElementNamed('head', T.HEAD);
  tb.reprocess(MODE.IN_HEAD, t);
}
