/** §13.2.6.4.4 The "in head" insertion mode. */
import { MODE } from '../insertion-mode.js';
import { T, skipWhitespace } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import {
  CHARACTERS, COMMENT, DOCTYPE, END_TAG, START_TAG, charactersFrom, type TagToken, type TreeToken,
} from '../tree-tokens.js';

export function inHead<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case CHARACTERS: {
      // Whitespace: insert it. The rest: anything else.
      const i = skipWhitespace(t.data);
      if (i > 0) tb.insertCharacters(t.data.slice(0, i), t.start, t.end);
      if (i === t.data.length) return;
      t = charactersFrom(t, i);
      break;
    }
    case COMMENT:
      tb.insertComment(t);
      return;
    case DOCTYPE:
      tb.error('unexpected-doctype');
      return;
    case START_TAG:
      if (startTag(tb, t)) return;
      break;
    case END_TAG:
      if (endTag(tb, t)) return;
      break;
  }
  // Anything else: the head is done.
  tb.stack.pop();
  tb.reprocess(MODE.AFTER_HEAD, t);
}

/** Returns false for "anything else". */
function startTag<N>(tb: TreeBuilder<N>, t: TagToken): boolean {
  switch (t.id) {
    case T.HTML:
      tb.processInMode(MODE.IN_BODY, t);
      return true;
    case T.BASE: case T.BASEFONT: case T.BGSOUND: case T.LINK: case T.META:
      tb.insertHtmlElement(t);
      tb.stack.pop();
      t.acknowledged = true;
      return true;
    case T.TITLE:
      tb.parseTextElement(t, 'rcdata');
      return true;
    case T.NOSCRIPT:
      if (tb.scripting) {
        tb.parseTextElement(t, 'rawtext');
      } else {
        tb.insertHtmlElement(t);
        tb.mode = MODE.IN_HEAD_NOSCRIPT;
      }
      return true;
    case T.NOFRAMES: case T.STYLE:
      tb.parseTextElement(t, 'rawtext');
      return true;
    case T.SCRIPT:
      // Insert at the adjusted insertion location, push, switch the tokenizer to script data.
      tb.insertHtmlElement(t);
      tb.tokenizer.setTextMode('scriptData');
      tb.originalMode = tb.mode;
      tb.mode = MODE.TEXT;
      return true;
    case T.TEMPLATE:
      tb.insertHtmlElement(t);
      tb.afe.pushMarker();
      tb.framesetOk = false;
      tb.mode = MODE.IN_TEMPLATE;
      tb.templateModes.push(MODE.IN_TEMPLATE);
      return true;
    case T.HEAD:
      tb.error('unexpected-start-tag');
      return true;
    default:
      return false;
  }
}

function endTag<N>(tb: TreeBuilder<N>, t: TagToken): boolean {
  const stack = tb.stack;
  switch (t.id) {
    case T.HEAD:
      stack.pop(tb.endLocation(t));
      tb.mode = MODE.AFTER_HEAD;
      return true;
    case T.BODY: case T.HTML: case T.BR:
      return false;
    case T.TEMPLATE:
      if (!stack.has(T.TEMPLATE)) {
        tb.error('unexpected-end-tag');
        return true;
      }
      stack.generateImpliedEndTagsThoroughly();
      if (!stack.current.is(T.TEMPLATE)) tb.error('end-tag-without-matching-open-element');
      stack.popUntilTag(T.TEMPLATE, tb.endLocation(t));
      tb.afe.clearToLastMarker();
      tb.templateModes.pop();
      tb.resetInsertionMode();
      return true;
    default:
      tb.error('unexpected-end-tag');
      return true;
  }
}
