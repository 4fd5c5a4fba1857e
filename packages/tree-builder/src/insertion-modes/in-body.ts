/**
 * §13.2.6.4.7 The "in body" insertion mode.
 *
 * `<select>`, `<option>`, `<optgroup>` and what may appear inside a select are handled here: the current
 * standard has no "in select" insertion modes.
 */
import { adoptionAgency } from '../adoption-agency.js';
import { htmlAttributes } from '../foreign-adjustments.js';
import { MODE } from '../insertion-mode.js';
import { NS } from '../sink.js';
import { HTML_NS, T, TAG_ID_COUNT, isAllWhitespace, isHeading } from '../tag-sets.js';
import type { TreeBuilder } from '../tree-builder.js';
import {
  CHARACTERS,
  COMMENT,
  DOCTYPE,
  END_TAG,
  EOF,
  ReusableTag,
  START_TAG,
  fakeTag,
  type CharacterToken,
  type TagToken,
  type TreeToken,
} from '../tree-tokens.js';

export function inBody<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  switch (t.kind) {
    case CHARACTERS:
      return characters(tb, t);
    case START_TAG:
      return bodyStartTag(tb, t);
    case END_TAG:
      return bodyEndTag(tb, t);
    case COMMENT:
      tb.insertComment(t);
      return;
    case DOCTYPE:
      tb.error('unexpected-doctype');
      return;
    case EOF:
      return endOfFile(tb, t);
  }
}

function characters<N>(tb: TreeBuilder<N>, t: CharacterToken): void {
  bodyCharacters(tb, t.data, t.start, t.end);
}

/** Character tokens "in body" (also the tree builder's fast path for text). */
export function bodyCharacters<N>(tb: TreeBuilder<N>, data: string, start: number, end: number): void {
  // U+0000 NULL: parse error, ignore the character.
  if (data.includes('\u0000')) {
    tb.nullCharacterErrors(start);
    data = data.replaceAll('\u0000', '');
    if (data.length === 0) return;
  }
  tb.reconstructActiveFormattingElements();
  tb.insertCharacters(data, start, end);
  // Any character other than whitespace sets the frameset-ok flag to "not ok".
  if (tb.framesetOk && !isAllWhitespace(data)) tb.framesetOk = false;
}

/** The elements "in body"'s end-of-file rule lets stay open without a parse error (§13.2.6.4.7). */
const MAY_STAY_OPEN_AT_EOF: ReadonlySet<string> = new Set([
  'dd', 'dt', 'li', 'optgroup', 'option', 'p', 'rb', 'rp', 'rt', 'rtc', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'body', 'html',
]);

function endOfFile<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  // With templates open, the "in template" rules handle it; otherwise stop parsing.
  if (tb.templateModes.length > 0) return tb.processInMode(MODE.IN_TEMPLATE, t);
  // "If there is a node in the stack of open elements that is not either a dd element, … or the html
  // element, then this is a parse error." Only looked for when errors are wanted (it is O(depth)).
  if (tb.reportsErrors) {
    for (const open of tb.openElements) {
      if (open.namespace !== NS.HTML || !MAY_STAY_OPEN_AT_EOF.has(open.localName)) {
        tb.error('eof-with-open-elements');
        break;
      }
    }
  }
  tb.stopParsing();
}

/** Whether an `<input>` token has a type attribute whose value is "hidden" (ASCII case-insensitive). */
export function isHiddenInput(t: TagToken): boolean {
  let type: string | null = null;
  if (t instanceof ReusableTag) type = t.attributeValue('type');
  else {
    for (const attribute of t.attributes) {
      if (attribute.name === 'type') {
        type = attribute.value;
        break;
      }
    }
  }
  return type !== null && type.length === 6 && type.toLowerCase() === 'hidden';
}

function insertFormattingElement<N>(tb: TreeBuilder<N>, t: TagToken): void {
  tb.reconstructActiveFormattingElements();
  const element = tb.insertHtmlElement(t);
  tb.afe.push(element);
}

/** Insert an element that is popped at once (void elements); acknowledge the self-closing flag. */
function insertVoidElement<N>(tb: TreeBuilder<N>, t: TagToken): void {
  tb.insertHtmlElement(t);
  tb.stack.pop();
  t.acknowledged = true;
}

/** Start tags "in body" (also the tree builder's fast path). */
export function bodyStartTag<N>(tb: TreeBuilder<N>, t: TagToken): void {
  const stack = tb.stack;
  switch (t.id) {
    case T.HTML:
      // Merge the attributes into the root element (unless inside a template).
      tb.error('unexpected-start-tag');
      if (stack.has(T.TEMPLATE)) return;
      tb.sink.addMissingAttributes(stack.first!.node, htmlAttributes(t.attributes));
      return;

    case T.BASE: case T.BASEFONT: case T.BGSOUND: case T.LINK: case T.META: case T.NOFRAMES: case T.SCRIPT:
    case T.STYLE: case T.TEMPLATE: case T.TITLE:
      return tb.processInMode(MODE.IN_HEAD, t);

    case T.BODY: {
      tb.error('unexpected-start-tag');
      const body = stack.second;
      if (body === null || !body.is(T.BODY) || stack.has(T.TEMPLATE)) return;
      tb.framesetOk = false;
      tb.sink.addMissingAttributes(body.node, htmlAttributes(t.attributes));
      return;
    }

    case T.FRAMESET: {
      tb.error('unexpected-start-tag');
      const body = stack.second;
      if (body === null || !body.is(T.BODY)) return;
      if (!tb.framesetOk) return;
      tb.sink.remove(body.node);
      while (stack.length > 1) stack.pop();
      tb.insertHtmlElement(t);
      tb.mode = MODE.IN_FRAMESET;
      return;
    }

    case T.ADDRESS: case T.ARTICLE: case T.ASIDE: case T.BLOCKQUOTE: case T.CENTER: case T.DETAILS:
    case T.DIALOG: case T.DIR: case T.DIV: case T.DL: case T.FIELDSET: case T.FIGCAPTION: case T.FIGURE:
    case T.FOOTER: case T.HEADER: case T.HGROUP: case T.MAIN: case T.MENU: case T.NAV: case T.OL: case T.P:
    case T.SEARCH: case T.SECTION: case T.SUMMARY: case T.UL:
      tb.closePInButtonScope();
      tb.insertHtmlElement(t);
      return;

    case T.H1: case T.H2: case T.H3: case T.H4: case T.H5: case T.H6: {
      tb.closePInButtonScope();
      const current = stack.current;
      if (isHeading(current.id) && current.flags & HTML_NS) {
        tb.error('unexpected-start-tag');
        stack.pop();
      }
      tb.insertHtmlElement(t);
      return;
    }

    case T.PRE: case T.LISTING:
      tb.closePInButtonScope();
      tb.insertHtmlElement(t);
      tb.skipNextNewline = true;
      tb.framesetOk = false;
      return;

    case T.FORM: {
      const inTemplate = stack.has(T.TEMPLATE);
      if (tb.formElement !== null && !inTemplate) {
        tb.error('unexpected-start-tag');
        return;
      }
      tb.closePInButtonScope();
      const form = tb.insertHtmlElement(t);
      if (!inTemplate) tb.formElement = form;
      return;
    }

    case T.LI: case T.DD: case T.DT:
      return listItem(tb, t);

    case T.PLAINTEXT:
      tb.closePInButtonScope();
      tb.insertHtmlElement(t);
      tb.tokenizer.setTextMode('plaintext');
      return;

    case T.BUTTON:
      if (stack.hasInScope(T.BUTTON)) {
        tb.error('unexpected-start-tag');
        stack.generateImpliedEndTags();
        stack.popUntilTag(T.BUTTON);
      }
      tb.reconstructActiveFormattingElements();
      tb.insertHtmlElement(t);
      tb.framesetOk = false;
      return;

    case T.A: {
      // An <a> still open since the last marker: close it with the adoption agency first.
      const a = tb.afe.lastBeforeMarker(T.A);
      if (a !== null) {
        tb.error('unexpected-start-tag');
        adoptionAgency(tb, T.A, null);
        tb.afe.remove(a);
        stack.remove(a);
      }
      return insertFormattingElement(tb, t);
    }

    case T.B: case T.BIG: case T.CODE: case T.EM: case T.FONT: case T.I: case T.S: case T.SMALL:
    case T.STRIKE: case T.STRONG: case T.TT: case T.U:
      return insertFormattingElement(tb, t);

    case T.NOBR:
      tb.reconstructActiveFormattingElements();
      if (stack.hasInScope(T.NOBR)) {
        tb.error('unexpected-start-tag');
        if (!adoptionAgency(tb, T.NOBR, null)) anyOtherEndTag(tb, t);
        tb.reconstructActiveFormattingElements();
      }
      tb.afe.push(tb.insertHtmlElement(t));
      return;

    case T.APPLET: case T.MARQUEE: case T.OBJECT:
      tb.reconstructActiveFormattingElements();
      tb.insertHtmlElement(t);
      tb.afe.pushMarker();
      tb.framesetOk = false;
      return;

    case T.TABLE:
      if (tb.documentMode !== 'quirks') tb.closePInButtonScope();
      tb.insertHtmlElement(t);
      tb.framesetOk = false;
      tb.mode = MODE.IN_TABLE;
      return;

    case T.AREA: case T.BR: case T.EMBED: case T.IMG: case T.KEYGEN: case T.WBR:
      tb.reconstructActiveFormattingElements();
      insertVoidElement(tb, t);
      tb.framesetOk = false;
      return;

    case T.INPUT: {
      // In a select: an <input> closes it (and is ignored in a select fragment).
      if (tb.context !== null && tb.context.is(T.SELECT)) {
        tb.error('unexpected-start-tag');
        return;
      }
      if (stack.hasInScope(T.SELECT)) {
        tb.error('unexpected-start-tag');
        stack.popUntilTag(T.SELECT);
      }
      tb.reconstructActiveFormattingElements();
      // The type is read before the element is made, so the element gets the attributes already decoded.
      const hidden = isHiddenInput(t);
      insertVoidElement(tb, t);
      if (!hidden) tb.framesetOk = false;
      return;
    }

    case T.PARAM: case T.SOURCE: case T.TRACK:
      insertVoidElement(tb, t);
      return;

    case T.HR:
      tb.closePInButtonScope();
      if (stack.hasInScope(T.SELECT)) {
        stack.generateImpliedEndTags();
        if (stack.hasInScope(T.OPTION) || stack.hasInScope(T.OPTGROUP)) tb.error('unexpected-start-tag');
      }
      insertVoidElement(tb, t);
      tb.framesetOk = false;
      return;

    case T.IMAGE: {
      // "Change the token's tag name to img and reprocess it. (Don't ask.)"
      tb.error('unexpected-start-tag');
      const img = fakeTag(START_TAG, 'img', T.IMG, t);
      tb.dispatch(img);
      t.acknowledged = img.acknowledged;
      return;
    }

    case T.TEXTAREA:
      tb.insertHtmlElement(t);
      tb.skipNextNewline = true;
      tb.tokenizer.setTextMode('rcdata');
      tb.originalMode = tb.mode;
      tb.framesetOk = false;
      tb.mode = MODE.TEXT;
      return;

    case T.XMP:
      tb.closePInButtonScope();
      tb.reconstructActiveFormattingElements();
      tb.framesetOk = false;
      tb.parseTextElement(t, 'rawtext');
      return;

    case T.IFRAME:
      tb.framesetOk = false;
      tb.parseTextElement(t, 'rawtext');
      return;

    case T.NOEMBED:
      tb.parseTextElement(t, 'rawtext');
      return;

    case T.NOSCRIPT:
      if (tb.scripting) {
        tb.parseTextElement(t, 'rawtext');
        return;
      }
      break;   // any other start tag

    case T.SELECT:
      if (tb.context !== null && tb.context.is(T.SELECT)) {
        tb.error('unexpected-start-tag');
        return;
      }
      if (stack.hasInScope(T.SELECT)) {
        // A select inside a select closes the outer one and is otherwise ignored.
        tb.error('unexpected-start-tag');
        stack.popUntilTag(T.SELECT);
        return;
      }
      tb.reconstructActiveFormattingElements();
      tb.insertHtmlElement(t);
      tb.framesetOk = false;
      return;

    case T.OPTION:
      if (stack.hasInScope(T.SELECT)) {
        stack.generateImpliedEndTags(T.OPTGROUP);
        if (stack.hasInScope(T.OPTION)) tb.error('unexpected-start-tag');
      } else if (stack.current.is(T.OPTION)) {
        stack.pop();
      }
      tb.reconstructActiveFormattingElements();
      tb.insertHtmlElement(t);
      return;

    case T.OPTGROUP:
      if (stack.hasInScope(T.SELECT)) {
        stack.generateImpliedEndTags();
        if (stack.hasInScope(T.OPTION) || stack.hasInScope(T.OPTGROUP)) tb.error('unexpected-start-tag');
      } else if (stack.current.is(T.OPTION)) {
        stack.pop();
      }
      tb.reconstructActiveFormattingElements();
      tb.insertHtmlElement(t);
      return;

    case T.RB: case T.RTC:
      if (stack.hasInScope(T.RUBY)) stack.generateImpliedEndTags();
      if (!stack.current.is(T.RUBY)) tb.error('unexpected-start-tag');
      tb.insertHtmlElement(t);
      return;

    case T.RP: case T.RT:
      if (stack.hasInScope(T.RUBY)) stack.generateImpliedEndTags(T.RTC);
      if (!stack.current.is(T.RUBY) && !stack.current.is(T.RTC)) tb.error('unexpected-start-tag');
      tb.insertHtmlElement(t);
      return;

    case T.MATH: case T.SVG:
      tb.reconstructActiveFormattingElements();
      tb.insertForeignElement(t, t.name, t.id === T.MATH ? NS.MATHML : NS.SVG);
      if (t.selfClosing) {
        stack.pop();
        t.acknowledged = true;
      }
      return;

    case T.CAPTION: case T.COL: case T.COLGROUP: case T.FRAME: case T.HEAD: case T.TBODY: case T.TD:
    case T.TFOOT: case T.TH: case T.THEAD: case T.TR:
      tb.error('unexpected-start-tag');
      return;
  }
  // Any other start tag.
  tb.reconstructActiveFormattingElements();
  tb.insertHtmlElement(t);
}

/** `<li>`, `<dd>`, `<dt>`: close an open list item of the same kind first. */
function listItem<N>(tb: TreeBuilder<N>, t: TagToken): void {
  const stack = tb.stack;
  tb.framesetOk = false;
  // The loop of the standard, from the current node down: the nearest li (dd or dt) is closed, unless a
  // special element other than address, div and p comes first.
  const node = stack.listItemToClose(t.id === T.LI ? 'li' : 'dd-dt');
  if (node !== null) {
    const id = node.id;
    stack.generateImpliedEndTags(id);
    if (!stack.current.is(id)) tb.error('end-tag-without-matching-open-element');
    stack.popUntilTag(id);
  }
  tb.closePInButtonScope();
  tb.insertHtmlElement(t);
}

/** End tags "in body" (also the tree builder's fast path). */
export function bodyEndTag<N>(tb: TreeBuilder<N>, t: TagToken): void {
  const stack = tb.stack;
  const id = t.id;
  switch (id) {
    case T.TEMPLATE:
      return tb.processInMode(MODE.IN_HEAD, t);

    case T.BODY:
      if (!stack.hasInScope(T.BODY)) {
        tb.error('unexpected-end-tag');
        return;
      }
      tb.bodyEndLocation = tb.endLocation(t);
      tb.mode = MODE.AFTER_BODY;
      tb.endTagKeptOpen(stack.second, tb.bodyEndLocation);
      return;

    case T.HTML:
      if (!stack.hasInScope(T.BODY)) {
        tb.error('unexpected-end-tag');
        return;
      }
      tb.reprocess(MODE.AFTER_BODY, t);
      return;

    case T.ADDRESS: case T.ARTICLE: case T.ASIDE: case T.BLOCKQUOTE: case T.BUTTON: case T.CENTER:
    case T.DETAILS: case T.DIALOG: case T.DIR: case T.DIV: case T.DL: case T.FIELDSET: case T.FIGCAPTION:
    case T.FIGURE: case T.FOOTER: case T.HEADER: case T.HGROUP: case T.LISTING: case T.MAIN: case T.MENU:
    case T.NAV: case T.OL: case T.PRE: case T.SEARCH: case T.SECTION: case T.SELECT: case T.SUMMARY:
    case T.UL:
      if (!stack.hasInScope(id)) {
        tb.error('unexpected-end-tag');
        return;
      }
      stack.generateImpliedEndTags();
      if (!stack.current.is(id)) tb.error('end-tag-without-matching-open-element');
      stack.popUntilTag(id, tb.endLocation(t));
      return;

    case T.FORM: {
      if (!stack.has(T.TEMPLATE)) {
        const form = tb.formElement;
        tb.formElement = null;
        if (form === null || !stack.hasRecordInScope(form)) {
          tb.error('unexpected-end-tag');
          return;
        }
        stack.generateImpliedEndTags();
        if (stack.current !== form) tb.error('end-tag-without-matching-open-element');
        stack.remove(form, tb.endLocation(t));
        return;
      }
      if (!stack.hasInScope(T.FORM)) {
        tb.error('unexpected-end-tag');
        return;
      }
      stack.generateImpliedEndTags();
      if (!stack.current.is(T.FORM)) tb.error('end-tag-without-matching-open-element');
      stack.popUntilTag(T.FORM, tb.endLocation(t));
      return;
    }

    case T.P:
      if (!stack.hasInButtonScope(T.P)) {
        tb.error('end-tag-without-matching-open-element');
        tb.insertHtmlElementNamed('p', T.P);
      }
      tb.closePElement(tb.endLocation(t));
      return;

    case T.LI:
      if (!stack.hasInListItemScope(T.LI)) {
        tb.error('end-tag-without-matching-open-element');
        return;
      }
      stack.generateImpliedEndTags(T.LI);
      if (!stack.current.is(T.LI)) tb.error('end-tag-without-matching-open-element');
      stack.popUntilTag(T.LI, tb.endLocation(t));
      return;

    case T.DD: case T.DT:
      if (!stack.hasInScope(id)) {
        tb.error('end-tag-without-matching-open-element');
        return;
      }
      stack.generateImpliedEndTags(id);
      if (!stack.current.is(id)) tb.error('end-tag-without-matching-open-element');
      stack.popUntilTag(id, tb.endLocation(t));
      return;

    case T.H1: case T.H2: case T.H3: case T.H4: case T.H5: case T.H6:
      if (!stack.hasHeadingInScope()) {
        tb.error('end-tag-without-matching-open-element');
        return;
      }
      stack.generateImpliedEndTags();
      if (!stack.current.is(id)) tb.error('end-tag-without-matching-open-element');
      stack.popUntilHeading(tb.endLocation(t));
      return;

    case T.A: case T.B: case T.BIG: case T.CODE: case T.EM: case T.FONT: case T.I: case T.NOBR: case T.S:
    case T.SMALL: case T.STRIKE: case T.STRONG: case T.TT: case T.U:
      if (!adoptionAgency(tb, id, tb.endLocation(t))) anyOtherEndTag(tb, t);
      return;

    case T.APPLET: case T.MARQUEE: case T.OBJECT:
      if (!stack.hasInScope(id)) {
        tb.error('unexpected-end-tag');
        return;
      }
      stack.generateImpliedEndTags();
      if (!stack.current.is(id)) tb.error('end-tag-without-matching-open-element');
      stack.popUntilTag(id, tb.endLocation(t));
      tb.afe.clearToLastMarker();
      return;

    case T.BR: {
      // "Drop the attributes from the token, and act as described in the next entry; i.e. act as if this
      // was a "br" start tag token with no attributes."
      tb.error('unexpected-end-tag');
      const br = fakeTag(START_TAG, 'br', T.BR, { attributes: [], selfClosing: false, start: t.start, end: t.end });
      br.acknowledged = true;
      bodyStartTag(tb, br);
      return;
    }
  }
  anyOtherEndTag(tb, t);
}

/**
 * The end tag names whose "in body" rules do more than close the element when it is the current node: the
 * formatting elements (the adoption agency), applet, marquee and object (the list of active formatting
 * elements is cleared to the last marker), form (the form element pointer), body and html (kept open),
 * template ("in head") and br (a `<br>`).
 */
const NOT_JUST_CLOSED = new Uint8Array(TAG_ID_COUNT);
for (const id of [
  T.A, T.B, T.BIG, T.CODE, T.EM, T.FONT, T.I, T.NOBR, T.S, T.SMALL, T.STRIKE, T.STRONG, T.TT, T.U,
  T.APPLET, T.MARQUEE, T.OBJECT, T.FORM, T.BODY, T.HTML, T.TEMPLATE, T.BR,
]) NOT_JUST_CLOSED[id] = 1;

/**
 * §13.2.6.4.7 "in body", an end tag whose element is the current node (an HTML element of that name: most
 * end tags of a page), for every name but `NOT_JUST_CLOSED`'s. The rules for these names (address … ul,
 * p, li, dd and dt, h1–h6, "any other end tag") then all come down to popping the current node: it is in
 * every scope (nothing lies above it); "generate implied end tags" stops at once (those rules that
 * generate them without excepting the token's name are for names that are not in that list); no error
 * is raised; and "pop until" pops it alone. Returns whether it did (false: take the full rules).
 */
export function endTagClosesCurrentNode<N>(tb: TreeBuilder<N>, t: TagToken): boolean {
  const stack = tb.stack;
  const current = stack.current;
  const id = t.id;
  if (NOT_JUST_CLOSED[id] === 1 || !(current.flags & HTML_NS) || current.id !== id || (id === T.UNKNOWN && current.localName !== t.name)) {
    return false;
  }
  // `stack.pop(tb.endLocation(t))`, without the location object.
  if (t.end > t.start) stack.popClosedByEndTag(t.start, t.end);
  else stack.pop(null);
  return true;
}

/** "Any other end tag": close the nearest open HTML element of that name, unless a special element is in the way. */
export function anyOtherEndTag<N>(tb: TreeBuilder<N>, t: TagToken): void {
  const stack = tb.stack;
  const node = stack.endTagTarget(t.name, t.id);
  if (node === null) {
    tb.error('unexpected-end-tag');
    return;
  }
  stack.generateImpliedEndTags(node.id);
  if (node !== stack.current) tb.error('end-tag-without-matching-open-element');
  stack.popUntilRecord(node, tb.endLocation(t));
}
