/** §13.2.6.4.18 The "in template" insertion mode. */
import { MODE, type InsertionMode } from '../insertion-mode.js';
import { T } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { CHARACTERS, COMMENT, DOCTYPE, END_TAG, EOF, START_TAG, type TreeToken } from '../tree-tokens.js';

export function inTemplate<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case CHARACTERS: case COMMENT: case DOCTYPE:
      return tb.processInMode(MODE.IN_BODY, t);
    case START_TAG:
      switch (t.id) {
        case T.BASE: case T.BASEFONT: case T.BGSOUND: case T.LINK: case T.META: case T.NOFRAMES: case T.SCRIPT:
        case T.STYLE: case T.TEMPLATE: case T.TITLE:
          return tb.processInMode(MODE.IN_HEAD, t);
        case T.CAPTION: case T.COLGROUP: case T.TBODY: case T.TFOOT: case T.THEAD:
          return switchTemplateMode(tb, MODE.IN_TABLE, t);
        case T.COL:
          return switchTemplateMode(tb, MODE.IN_COLUMN_GROUP, t);
        case T.TR:
          return switchTemplateMode(tb, MODE.IN_TABLE_BODY, t);
        case T.TD: case T.TH:
          return switchTemplateMode(tb, MODE.IN_ROW, t);
        default:
          return switchTemplateMode(tb, MODE.IN_BODY, t);
      }
    case END_TAG:
      if (t.id === T.TEMPLATE) return tb.processInMode(MODE.IN_HEAD, t);
      tb.error('unexpected-end-tag');
      return;
    case EOF: {
      const stack = tb.stack;
      if (!stack.has(T.TEMPLATE)) {
        tb.stopParsing();   // fragment case
        return;
      }
      tb.error('eof-in-template');
      stack.popUntilTag(T.TEMPLATE);
      tb.afe.clearToLastMarker();
      tb.templateModes.pop();
      tb.resetInsertionMode();
      // "Reprocess the token": `processEnd` dispatches the end-of-file token again until parsing stops
      // (a loop, not a recursion: a thousand open templates are a thousand rounds).
      return;
    }
  }
}

/** Replace the current template insertion mode by `mode` and reprocess the token in it. */
function switchTemplateMode<N>(tb: TreeBuilder<N>, mode: InsertionMode, t: TreeToken): void {
  tb.templateModes.pop();
  tb.templateModes.push(mode);
  tb.reprocess(mode, t);
}
