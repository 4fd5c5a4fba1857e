/** §13.2.6.4.14 The "in row" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { T } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { END_TAG, START_TAG, type TreeToken } from '../tree-tokens.js';

export function inRow<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  const stack = tb.stack;
  if (t.kind === START_TAG) {
    switch (t.id) {
      case T.TH: case T.TD:
        stack.clearBackToTableRowContext();
        tb.insertHtmlElement(t);
        tb.mode = MODE.IN_CELL;
        tb.afe.pushMarker();
        return;
      case T.CAPTION: case T.COL: case T.COLGROUP: case T.TBODY: case T.TFOOT: case T.THEAD: case T.TR:
        return closeRowAndReprocess(tb, t);
    }
  } else if (t.kind === END_TAG) {
    switch (t.id) {
      case T.TR:
        if (!stack.hasInTableScope(T.TR)) {
          tb.error('unexpected-end-tag');
          return;
        }
        stack.clearBackToTableRowContext();
        stack.pop(tb.endLocation(t));
        tb.mode = MODE.IN_TABLE_BODY;
        return;
      case T.TABLE:
        return closeRowAndReprocess(tb, t);
      case T.TBODY: case T.TFOOT: case T.THEAD:
        if (!stack.hasInTableScope(t.id)) {
          tb.error('unexpected-end-tag');
          return;
        }
        if (!stack.hasInTableScope(T.TR)) return;
        return closeRowAndReprocess(tb, t);
      case T.BODY: case T.CAPTION: case T.COL: case T.COLGROUP: case T.HTML: case T.TD: case T.TH:
        tb.error('unexpected-end-tag');
        return;
    }
  }
  tb.processInMode(MODE.IN_TABLE, t);
}

function closeRowAndReprocess<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  if (!tb.stack.hasInTableScope(T.TR)) {
    tb.error('unexpected-token');
    return;
  }
  tb.stack.clearBackToTableRowContext();
  tb.stack.pop();
  tb.reprocess(MODE.IN_TABLE_BODY, t);
}
