/** §13.2.6.4.22 The "after after body" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { T, skipWhitespace } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import {
  CHARACTERS, COMMENT, DOCTYPE, EOF, START_TAG, charactersBefore, charactersFrom, type TreeToken,
} from '../tree-tokens.js';

export function afterAfterBody<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case COMMENT:
      tb.insertComment(t, tb.document);
      return;
    case DOCTYPE:
      return tb.processInMode(MODE.IN_BODY, t);
    case CHARACTERS: {
      const i = skipWhitespace(t.data);
      if (i > 0) tb.processInMode(MODE.IN_BODY, charactersBefore(t, i));
      if (i === t.data.length) return;
      t = charactersFrom(t, i);
      break;
    }
    case START_TAG:
      if (t.id === T.HTML) return tb.processInMode(MODE.IN_BODY, t);
      break;
    case EOF:
      tb.stopParsing();
      return;
  }
  // Anything else: back into the body.
  tb.error('unexpected-token-after-after-body');
  tb.bodyEndLocation = null;
  tb.htmlEndLocation = null;
  tb.reprocess(MODE.IN_BODY, t);
}
