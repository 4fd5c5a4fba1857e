/** §13.2.6.4.11 The "in caption" insertion mode. */
import { MODE } from '../insertion-mode.js';
import type { SourceLocation } from '../sink.js';
import { T } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { END_TAG, START_TAG, type TreeToken } from '../tree-tokens.js';

export function inCaption<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  if (t.kind === END_TAG) {
    switch (t.id) {
      case T.CAPTION:
        if (!tb.stack.hasInTableScope(T.CAPTION)) {
          tb.error('unexpected-end-tag');
          return;
        }
        closeCaption(tb, tb.endLocation(t));
        return;
      case T.TABLE:
        if (!tb.stack.hasInTableScope(T.CAPTION)) {
          tb.error('unexpected-end-tag');
          return;
        }
        closeCaption(tb, null);
        tb.reprocess(MODE.IN_TABLE, t);
        return;
      case T.BODY: case T.COL: case T.COLGROUP: case T.HTML: case T.TBODY: case T.TD: case T.TFOOT: case T.TH:
      case T.THEAD: case T.TR:
        tb.error('unexpected-end-tag');
        return;
    }
  } else if (t.kind === START_TAG) {
    switch (t.id) {
      case T.CAPTION: case T.COL: case T.COLGROUP: case T.TBODY: case T.TD: case T.TFOOT: case T.TH: case T.THEAD:
      case T.TR:
        if (!tb.stack.hasInTableScope(T.CAPTION)) {
          tb.error('unexpected-start-tag');
          return;
        }
        closeCaption(tb, null);
        tb.reprocess(MODE.IN_TABLE, t);
        return;
    }
  }
  tb.processInMode(MODE.IN_BODY, t);
}

function closeCaption<N>(tb: TreeBuilder<N>, endLocation: SourceLocation | null): void {
  tb.stack.generateImpliedEndTags();
  if (!tb.stack.current.is(T.CAPTION)) tb.error('end-tag-without-matching-open-element');
  tb.stack.popUntilTag(T.CAPTION, endLocation);
  tb.afe.clearToLastMarker();
  tb.mode = MODE.IN_TABLE;
}
