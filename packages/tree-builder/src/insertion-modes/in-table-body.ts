/** §13.2.6.4.13 The "in table body" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { T } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { END_TAG, START_TAG, type TreeToken } from '../tree-tokens.js';

export function inTableBody<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  const stack = tb.stack;
  if (t.kind === START_TAG) {
    switch (t.id) {
      case T.TR:
        stack.clearBackToTableBodyContext();
        tb.insertHtmlElement(t);
        tb.mode = MODE.IN_ROW;
        return;
      case T.TH: case T.TD:
        tb.error('unexpected-start-tag');
        stack.clearBackToTableBodyContext();
        tb.insertHtmlElementNamed('tr', T.TR);
        tb.reprocess(MODE.IN_ROW, t);
        return;
      case T.CAPTION: case T.COL: case T.COLGROUP: case T.TBODY: case T.TFOOT: case T.THEAD:
        return closeTableBodyAndReprocess(tb, t);
    }
  } else if (t.kind === END_TAG) {
    switch (t.id) {
      case T.TBODY: case T.TFOOT: case T.THEAD:
        if (!stack.hasInTableScope(t.id)) {
          tb.error('unexpected-end-tag');
          return;
        }
        stack.clearBackToTableBodyContext();
        stack.pop(tb.endLocation(t));
        tb.mode = MODE.IN_TABLE;
        return;
      case T.TABLE:
        return closeTableBodyAndReprocess(tb, t);
      case T.BODY: case T.CAPTION: case T.COL: case T.COLGROUP: case T.HTML: case T.TD: case T.TH: case T.TR:
        tb.error('unexpected-end-tag');
        return;
    }
  }
  tb.processInMode(MODE.IN_TABLE, t);
}

function closeTableBodyAndReprocess<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  if (!tb.stack.hasTableBodyInTableScope()) {
    tb.error('unexpected-token');
    return;
  }
  tb.stack.clearBackToTableBodyContext();
  tb.stack.pop();
  tb.reprocess(MODE.IN_TABLE, t);
}
