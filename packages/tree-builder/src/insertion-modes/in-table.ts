/** §13.2.6.4.9 The "in table" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { HTML_NS, T } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { CHARACTERS, COMMENT, DOCTYPE, END_TAG, EOF, START_TAG, type TagToken, type TreeToken } from '../tree-tokens.js';
import { isHiddenInput } from './in-body.js';

export function inTable<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  const stack = tb.stack;
  switch (t.kind) {
    case CHARACTERS: {
      const current = stack.current;
      const id = current.id;
      if (
        current.flags & HTML_NS &&
        (id === T.TABLE || id === T.TBODY || id === T.TEMPLATE || id === T.TFOOT || id === T.THEAD || id === T.TR)
      ) {
        // Collect the character tokens: whitespace stays in the table, anything else is foster parented.
        tb.pendingTableText.length = 0;
        tb.pendingTableTextDirty = false;
        tb.pendingTableTextStart = t.start;
        if (tb.reportsErrors) tb.pendingTableTextPosition = tb.positionOf(t.start);
        tb.pendingTableTextEnd = t.end;
        tb.originalMode = tb.mode;
        tb.reprocess(MODE.IN_TABLE_TEXT, t);
        return;
      }
      return anythingElse(tb, t);
    }
    case COMMENT:
      tb.insertComment(t);
      return;
    case DOCTYPE:
      tb.error('unexpected-doctype');
      return;
    case START_TAG:
      return startTag(tb, t);
    case END_TAG:
      switch (t.id) {
        case T.TABLE:
          if (!stack.hasInTableScope(T.TABLE)) {
            tb.error('unexpected-end-tag');
            return;
          }
          stack.popUntilTag(T.TABLE, tb.endLocation(t));
          tb.resetInsertionMode();
          return;
        case T.BODY: case T.CAPTION: case T.COL: case T.COLGROUP: case T.HTML: case T.TBODY: case T.TD:
        case T.TFOOT: case T.TH: case T.THEAD: case T.TR:
          tb.error('unexpected-end-tag');
          return;
        case T.TEMPLATE:
          return tb.processInMode(MODE.IN_HEAD, t);
      }
      return anythingElse(tb, t);
    case EOF:
      return tb.processInMode(MODE.IN_BODY, t);
  }
}

function startTag<N>(tb: TreeBuilder<N>, t: TagToken): void {
  const stack = tb.stack;
  switch (t.id) {
    case T.CAPTION:
      stack.clearBackToTableContext();
      tb.afe.pushMarker();
      tb.insertHtmlElement(t);
      tb.mode = MODE.IN_CAPTION;
      return;
    case T.COLGROUP:
      stack.clearBackToTableContext();
      tb.insertHtmlElement(t);
      tb.mode = MODE.IN_COLUMN_GROUP;
      return;
    case T.COL:
      stack.clearBackToTableContext();
      tb.insertHtmlElementNamed('colgroup', T.COLGROUP);
      tb.reprocess(MODE.IN_COLUMN_GROUP, t);
      return;
    case T.TBODY: case T.TFOOT: case T.THEAD:
      stack.clearBackToTableContext();
      tb.insertHtmlElement(t);
      tb.mode = MODE.IN_TABLE_BODY;
      return;
    case T.TD: case T.TH: case T.TR:
      stack.clearBackToTableContext();
      tb.insertHtmlElementNamed('tbody', T.TBODY);
      tb.reprocess(MODE.IN_TABLE_BODY, t);
      return;
    case T.TABLE:
      tb.error('unexpected-start-tag');
      if (!stack.hasInTableScope(T.TABLE)) return;
      stack.popUntilTag(T.TABLE);
      tb.resetInsertionMode();
      tb.dispatch(t);
      return;
    case T.STYLE: case T.SCRIPT: case T.TEMPLATE:
      return tb.processInMode(MODE.IN_HEAD, t);
    case T.INPUT:
      if (!isHiddenInput(t)) break;
      tb.error('unexpected-start-tag');
      tb.insertHtmlElement(t);
      stack.pop();
      t.acknowledged = true;
      return;
    case T.FORM: {
      tb.error('unexpected-start-tag');
      if (stack.has(T.TEMPLATE) || tb.formElement !== null) return;
      tb.formElement = tb.insertHtmlElement(t);
      stack.pop();
      return;
    }
  }
  anythingElse(tb, t);
}

/** "Anything else": process the token with the "in body" rules, foster parenting enabled. */
export function anythingElse<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  tb.error('foster-parenting');
  const previous = tb.fosterParenting;
  tb.fosterParenting = true;
  tb.processInMode(MODE.IN_BODY, t);
  tb.fosterParenting = previous;
}
