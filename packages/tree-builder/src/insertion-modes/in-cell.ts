/** §13.2.6.4.15 The "in cell" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { T } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { END_TAG, START_TAG, type TreeToken } from '../tree-tokens.js';

export function inCell<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  const stack = tb.stack;
  if (t.kind === END_TAG) {
    switch (t.id) {
      case T.TD: case T.TH:
        if (!stack.hasInTableScope(t.id)) {
          tb.error('unexpected-end-tag');
          return;
        }
        stack.generateImpliedEndTags();
        if (!stack.current.is(t.id)) tb.error('end-tag-without-matching-open-element');
        stack.popUntilTag(t.id, tb.endLocation(t));
        tb.afe.clearToLastMarker();
        tb.mode = MODE.IN_ROW;
        return;
      case T.BODY: case T.CAPTION: case T.COL: case T.COLGROUP: case T.HTML:
        tb.error('unexpected-end-tag');
        return;
      case T.TABLE: case T.TBODY: case T.TFOOT: case T.THEAD: case T.TR:
        if (!stack.hasInTableScope(t.id)) {
          tb.error('unexpected-end-tag');
          return;
        }
        closeCell(tb);
        tb.dispatch(t);
        return;
    }
  } else if (t.kind === START_TAG) {
    switch (t.id) {
      case T.CAPTION: case T.COL: case T.COLGROUP: case T.TBODY: case T.TD: case T.TFOOT: case T.TH:
      case T.THEAD: case T.TR:
        if (!stack.hasCellInTableScope()) {
          tb.error('unexpected-start-tag');
          return;
        }
        closeCell(tb);
        tb.dispatch(t);
        return;
    }
  }
  tb.processInMode(MODE.IN_BODY, t);
}

/** "close the cell". */
function closeCell<N>(tb: TreeBuilder<N>): void {
  const stack = tb.stack;
  stack.generateImpliedEndTags();
  if (!stack.current.is(T.TD) && !stack.current.is(T.TH)) tb.error('end-tag-without-matching-open-element');
  stack.popUntilCell(null);
  tb.afe.clearToLastMarker();
  tb.mode = MODE.IN_ROW;
}
