/** §13.2.6.4.1 The "initial" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { documentModeOf, isDoctypeParseError } from '../quirks.js';
import { skipWhitespace } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import { CHARACTERS, COMMENT, DOCTYPE, charactersFrom, type TreeToken } from '../tree-tokens.js';

export function initial<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case CHARACTERS: {
      // Whitespace: ignore it.
      const i = skipWhitespace(t.data);
      if (i === t.data.length) return;
      t = charactersFrom(t, i);
      break;
    }
    case COMMENT:
      tb.insertComment(t, tb.document);
      return;
    case DOCTYPE: {
      if (isDoctypeParseError(t)) tb.error('unexpected-doctype-in-initial-mode');
      const doctype = tb.sink.createDocumentType(t.name ?? '', t.publicId ?? '', t.systemId ?? '', {
        start: t.start,
        end: t.end,
      });
      tb.sink.insertBefore(tb.document, doctype, null);
      // (An iframe srcdoc document would stay in no-quirks mode; this parser never parses one.)
      const documentMode = documentModeOf(t);
      tb.documentMode = documentMode;
      if (documentMode !== 'no-quirks') tb.sink.setDocumentMode(documentMode);
      tb.mode = MODE.BEFORE_HTML;
      return;
    }
  }
  // Anything else: no DOCTYPE, quirks mode.
  tb.error('missing-doctype');
  tb.documentMode = 'quirks';
  tb.sink.setDocumentMode('quirks');
  tb.reprocess(MODE.BEFORE_HTML, t);
}
