/** §13.2.6.4.2 The "before html" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { NS } from '../sink.js';
import { T, skipWhitespace } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { CHARACTERS, COMMENT, DOCTYPE, END_TAG, START_TAG, charactersFrom, type TreeToken } from '../tree-tokens.js';

export function beforeHtml<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case DOCTYPE:
      tb.error('unexpected-doctype');
      return;
    case COMMENT:
      tb.insertComment(t, tb.document);
      return;
    case CHARACTERS: {
      const i = skipWhitespace(t.data);
      if (i === t.data.length) return;
      t = charactersFrom(t, i);
      break;
    }
    case START_TAG:
      if (t.id === T.HTML) {
        const html = tb.createHtmlElementFor(t);
        tb.sink.insertBefore(tb.document, html.node, null);
        tb.stack.push(html);
        tb.mode = MODE.BEFORE_HEAD;
        return;
      }
      break;
    case END_TAG:
      if (t.id === T.HEAD || t.id === T.BODY || t.id === T.HTML || t.id === T.BR) break;
      tb.error('unexpected-end-tag');
      return;
  }
  // Anything else: an html element the parser makes up.
  const html = tb.createElement('html', NS.HTML, T.HTML, [], null);
  tb.sink.insertBefore(tb.document, html.node, null);
  tb.stack.push(html);
  tb.reprocess(MODE.BEFORE_HEAD, t);
}
