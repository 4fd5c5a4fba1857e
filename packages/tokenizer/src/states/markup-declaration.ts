/**
 * Markup declarations: the markup declaration open state (§13.2.5.42), the comment states
 * (§13.2.5.43–52), the bogus comment state (.41) and the CDATA section states (.69–71).
 *
 * A comment's data is always a contiguous part of its raw text (the standard only ever holds back the
 * `-`, `--` or `--!` that may end it), so the scanner just records where the data ends when the comment
 * is emitted.
 */

import { ErrorCode } from '../errors.js';
import { Declaration, type Machine } from '../machine.js';
import { State } from './state.js';

const DOCTYPE = 'doctype';
const CDATA = '[CDATA[';

/** Scans from `m.pos` in a markup declaration state until the string ends or a token is emitted. */
export function scanMarkupDeclaration(m: Machine): void {
  const input = m.input;
  const end = input.length;
  let pos = m.pos;
  let state = m.state;
  outer: while (pos < end) {
    const c = input.charCodeAt(pos);
    switch (state) {
      case State.MARKUP_DECLARATION_OPEN: {
        // §13.2.5.42 Markup declaration open state: the standard looks ahead for `--`, `DOCTYPE`
        // (ASCII case-insensitive) or `[CDATA[`; the scanner matches one character at a time.
        const i = m.declarationIndex;
        let kind: number = m.declaration;
        let ok: boolean;
        if (i === 0) {
          kind = c === 0x2d ? Declaration.COMMENT : (c | 0x20) === 0x64 ? Declaration.DOCTYPE : c === 0x5b ? Declaration.CDATA : Declaration.UNDECIDED;
          ok = kind !== Declaration.UNDECIDED;
          m.declaration = kind;
        } else if (kind === Declaration.COMMENT) {
          ok = c === 0x2d;
        } else if (kind === Declaration.DOCTYPE) {
          ok = (c | 0x20) === DOCTYPE.charCodeAt(i);
        } else {
          ok = c === CDATA.charCodeAt(i);
        }
        if (!ok) {
          // "Anything else": incorrectly-opened-comment; what was matched so far is comment data.
          m.error(ErrorCode.incorrectlyOpenedComment, m.pendingStart + 2);
          m.commentDataStart = 2;
          state = State.BOGUS_COMMENT;
          continue;
        }
        pos++;
        m.declarationIndex = i + 1;
        if (kind === Declaration.COMMENT) {
          if (i === 1) {
            m.commentDataStart = 4;
            state = State.COMMENT_START;
          }
        } else if (kind === Declaration.DOCTYPE) {
          if (i === DOCTYPE.length - 1) {
            m.doctype.fill(-1);
            m.forceQuirks = false;
            m.keywordIndex = 0;
            m.state = State.DOCTYPE;
            m.pos = pos;
            return;
          }
        } else if (i === CDATA.length - 1) {
          if (m.cdataAllowed()) {
            // `<![CDATA[` is consumed without a token; the section's text follows.
            m.pos = pos;
            m.state = State.CDATA_SECTION;
            m.textKind = 'cdata';
            m.emitDiscarded(m.base + pos, -1);
            return;
          }
          m.error(ErrorCode.cdataInHtmlContent, m.base + pos - 1); // at the last `[`, as html5lib counts
          m.commentDataStart = 2;
          state = State.BOGUS_COMMENT;
        }
        continue;
      }

      case State.BOGUS_COMMENT: {
        // §13.2.5.41 Bogus comment state.
        const gt = input.indexOf('>', pos);
        if (gt < 0) {
          pos = end;
          break outer;
        }
        m.pos = gt + 1;
        m.emitComment(m.base + gt + 1, m.base + gt);
        return;
      }

      case State.COMMENT_START:
        // §13.2.5.43 Comment start state.
        if (c === 0x2d) {
          pos++;
          state = State.COMMENT_START_DASH;
        } else if (c === 0x3e) {
          m.error(ErrorCode.abruptClosingOfEmptyComment, m.base + pos);
          return emitComment(m, pos, 0);
        } else {
          state = State.COMMENT;
        }
        continue;

      case State.COMMENT_START_DASH:
        // §13.2.5.44 Comment start dash state.
        if (c === 0x2d) {
          pos++;
          state = State.COMMENT_END;
        } else if (c === 0x3e) {
          m.error(ErrorCode.abruptClosingOfEmptyComment, m.base + pos);
          return emitComment(m, pos, 1);
        } else {
          state = State.COMMENT; // the `-` is data
        }
        continue;

      case State.COMMENT: {
        // §13.2.5.45 Comment state: only `-` and `<` matter.
        let i = pos;
        let d = c;
        while (d !== 0x2d && d !== 0x3c) {
          if (++i === end) {
            pos = end;
            break outer;
          }
          d = input.charCodeAt(i);
        }
        pos = i + 1;
        state = d === 0x2d ? State.COMMENT_END_DASH : State.COMMENT_LESS_THAN_SIGN;
        continue;
      }

      case State.COMMENT_LESS_THAN_SIGN:
        // §13.2.5.46.
        if (c === 0x21) {
          pos++;
          state = State.COMMENT_LESS_THAN_SIGN_BANG;
        } else if (c === 0x3c) {
          pos++;
        } else {
          state = State.COMMENT;
        }
        continue;

      case State.COMMENT_LESS_THAN_SIGN_BANG:
        // §13.2.5.47.
        if (c === 0x2d) {
          pos++;
          state = State.COMMENT_LESS_THAN_SIGN_BANG_DASH;
        } else {
          state = State.COMMENT;
        }
        continue;

      case State.COMMENT_LESS_THAN_SIGN_BANG_DASH:
        // §13.2.5.48.
        if (c === 0x2d) {
          pos++;
          state = State.COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH;
        } else {
          state = State.COMMENT_END_DASH;
        }
        continue;

      case State.COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH:
        // §13.2.5.49.
        if (c !== 0x3e) m.error(ErrorCode.nestedComment, m.base + pos);
        state = State.COMMENT_END;
        continue;

      case State.COMMENT_END_DASH:
        // §13.2.5.50 Comment end dash state.
        if (c === 0x2d) {
          pos++;
          state = State.COMMENT_END;
        } else {
          state = State.COMMENT; // the `-` is data
        }
        continue;

      case State.COMMENT_END:
        // §13.2.5.51 Comment end state: the data ends before the `--`.
        if (c === 0x3e) return emitComment(m, pos, 2);
        if (c === 0x21) {
          pos++;
          state = State.COMMENT_END_BANG;
        } else if (c === 0x2d) {
          pos++; // one more `-` of data
        } else {
          state = State.COMMENT;
        }
        continue;

      case State.COMMENT_END_BANG:
        // §13.2.5.52 Comment end bang state.
        if (c === 0x2d) {
          pos++;
          state = State.COMMENT_END_DASH;
        } else if (c === 0x3e) {
          m.error(ErrorCode.incorrectlyClosedComment, m.base + pos);
          return emitComment(m, pos, 3);
        } else {
          state = State.COMMENT;
        }
        continue;

      case State.CDATA_SECTION: {
        // §13.2.5.69 CDATA section state.
        const bracket = input.indexOf(']', pos);
        if (bracket < 0) {
          pos = end;
          break outer;
        }
        m.mark = m.base + bracket;
        pos = bracket + 1;
        state = State.CDATA_SECTION_BRACKET;
        continue;
      }

      case State.CDATA_SECTION_BRACKET:
        // §13.2.5.70 CDATA section bracket state.
        if (c === 0x5d) {
          pos++;
          state = State.CDATA_SECTION_END;
        } else {
          state = State.CDATA_SECTION; // the `]` is text
        }
        continue;

      case State.CDATA_SECTION_END:
        // §13.2.5.71 CDATA section end state.
        if (c === 0x5d) {
          m.mark++; // the first `]` of three is text
          pos++;
        } else if (c === 0x3e) {
          // The text before `]]>`, then `]]>` itself, consumed without a token.
          m.pos = pos + 1;
          m.state = State.DATA;
          m.emitText(m.mark);
          m.textKind = 'data';
          m.emitDiscarded(m.base + pos + 1, -1);
          return;
        } else {
          state = State.CDATA_SECTION;
        }
        continue;

      default:
        throw new Error(`sluice tokenizer: internal error, state ${state} in the markup declaration scanner`);
    }
  }
  m.pos = pos;
  m.state = state;
}

/** Emits the comment ending with the `>` at `input[pos]`; its data ends `trailing` characters before. */
function emitComment(m: Machine, pos: number, trailing: number): void {
  const gt = m.base + pos;
  m.pos = pos + 1;
  m.emitComment(gt + 1, gt - trailing);
}
