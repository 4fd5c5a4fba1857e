/** §13.2.6.4.23 The "after after frameset" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { T } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { CHARACTERS, COMMENT, DOCTYPE, EOF, START_TAG, characters, whitespaceOf, type TreeToken } from '../tree-tokens.js';

export function afterAfterFrameset<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case COMMENT:
      tb.insertComment(t, tb.document);
      return;
    case DOCTYPE:
      return tb.processInMode(MODE.IN_BODY, t);
    case CHARACTERS: {
      // Whitespace: "in body" rules; every other character is a parse error and ignored.
      const whitespace = whitespaceOf(t.data);
      if (whitespace.length !== t.data.length) tb.error('unexpected-character-after-after-frameset');
      if (whitespace.length > 0) tb.processInMode(MODE.IN_BODY, characters(whitespace, t.start, t.end));
      return;
    }
    case START_TAG:
      if (t.id === T.HTML) return tb.processInMode(MODE.IN_BODY, t);
      if (t.id === T.NOFRAMES) return tb.processInMode(MODE.IN_HEAD, t);
      break;
    case EOF:
      tb.stopParsing();
      return;
  }
  tb.error('unexpected-token-after-after-frameset');
}
