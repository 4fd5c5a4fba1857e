/**
 * The text states: data (§13.2.5.1), RCDATA (.2), RAWTEXT (.3), PLAINTEXT (.5), tag open (.6), end tag
 * open (.7), the RCDATA and RAWTEXT end tag candidates (.9–14), and the character reference states as
 * far as scanning needs them (.72–79).
 *
 * Text is not copied or decoded here: runs are skipped with `indexOf`, and the token is a slice made when
 * something else begins. Character references are only walked to find where they end (so text can be
 * flushed up to there); their values are decoded lazily by the text token.
 */

import { NAMED_ROOT, namedValue, stepNamed } from '../character-references/index.js';
import { ErrorCode } from '../errors.js';
import type { Machine } from '../machine.js';
import { isAsciiAlpha, isAsciiAlphanumeric, isAsciiDigit, isAsciiHexDigit } from './chars.js';
import { endTagNameStep } from './end-tag-candidate.js';
import { GROUP, Group, State } from './state.js';
import { scanTag } from './tag.js';

/**
 * Scans from `m.pos` in a text state until the string ends or a token other than text begins (then the
 * driver dispatches to that token's scanner).
 */
export function scanText(m: Machine): void {
  let input = m.input;
  let end = input.length;
  let pos = m.pos;
  let state = m.state;
  for (;;) {
    if (pos >= end) break;
    switch (state) {
      case State.DATA:
      case State.RCDATA: {
        // §13.2.5.1 Data state, §13.2.5.2 RCDATA state: `<` and `&` are all that matter.
        let lt = m.nextLessThan;
        if (lt < pos) {
          // Most runs of text between two tags are empty or a little whitespace (`</a></li>`,
          // `>\n    <`): step over whitespace by hand and see whether a `<` follows, before paying
          // for an `indexOf` call. Whitespace is never `<` or `&`, so nothing is skipped.
          let i = pos;
          let c = input.charCodeAt(i);
          while (c <= 0x20 && (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) && ++i < end) c = input.charCodeAt(i);
          if (c === 0x3c && i < end) lt = i;
          else {
            lt = i < end ? input.indexOf('<', i) : -1;
            m.nextLessThan = lt = lt < 0 ? end : lt;
          }
        }
        let amp = m.nextAmpersand;
        if (amp < pos) {
          amp = input.indexOf('&', pos);
          m.nextAmpersand = amp = amp < 0 ? end : amp;
        }
        if (lt < amp) {
          m.mark = m.base + lt;
          pos = lt + 1;
          state = state === State.DATA ? State.TAG_OPEN : State.RCDATA_LESS_THAN_SIGN;
        } else if (amp < end) {
          m.mark = m.base + amp;
          pos = amp + 1;
          m.returnState = state;
          state = State.CHARACTER_REFERENCE;
        } else {
          pos = end;
        }
        continue;
      }

      case State.RAWTEXT: {
        // §13.2.5.3 RAWTEXT state.
        const lt = input.indexOf('<', pos);
        if (lt < 0) {
          pos = end;
        } else {
          m.mark = m.base + lt;
          pos = lt + 1;
          state = State.RAWTEXT_LESS_THAN_SIGN;
        }
        continue;
      }

      case State.PLAINTEXT:
        // §13.2.5.5 PLAINTEXT state: everything is text.
        pos = end;
        continue;

      case State.TAG_OPEN: {
        // §13.2.5.6 Tag open state.
        const c = input.charCodeAt(pos);
        if (isAsciiAlpha(c)) {
          m.tagIsEnd = false;
          m.tagHasAttributes = false;
          enterToken(m, pos + 1, State.TAG_NAME);
          // §13.2.5.6 "switch to the tag name state": the tag scanner is called from here rather than
          // through the driver (`Machine.run`), and when it has emitted the tag and left the machine in
          // a text state (the data state, or the text mode `autoTextMode` chose) the scan goes on here:
          // no driver dispatch per tag on the common path. The registers are read back, as `emit` may
          // have inserted text (`insert()` cuts `input`).
          scanTag(m);
          if (GROUP[m.state] !== Group.TEXT) return;
          input = m.input;
          end = input.length;
          pos = m.pos;
          state = m.state;
          continue;
        }
        if (c === 0x21) {
          m.declarationIndex = 0;
          return enterToken(m, pos + 1, State.MARKUP_DECLARATION_OPEN);
        }
        if (c === 0x2f) {
          pos++;
          state = State.END_TAG_OPEN;
          continue;
        }
        if (c === 0x3f) {
          m.error(ErrorCode.unexpectedQuestionMarkInsteadOfTagName, m.base + pos);
          m.commentDataStart = 1; // the `?` is reconsumed in the bogus comment state: it is data
          return enterToken(m, pos, State.BOGUS_COMMENT);
        }
        m.error(ErrorCode.invalidFirstCharacterOfTagName, m.base + pos);
        state = State.DATA; // the `<` is text; reconsume
        continue;
      }

      case State.END_TAG_OPEN: {
        // §13.2.5.7 End tag open state.
        const c = input.charCodeAt(pos);
        if (isAsciiAlpha(c)) {
          m.tagIsEnd = true;
          m.tagHasAttributes = false;
          enterToken(m, pos + 1, State.TAG_NAME);
          // As in the tag open state: the tag scanner, then on in the text states if it ended there.
          scanTag(m);
          if (GROUP[m.state] !== Group.TEXT) return;
          input = m.input;
          end = input.length;
          pos = m.pos;
          state = m.state;
          continue;
        }
        if (c === 0x3e) {
          m.error(ErrorCode.missingEndTagName, m.base + pos);
          m.pos = pos + 1;
          m.state = State.DATA;
          m.emitText(m.mark);
          m.emitDiscarded(m.base + pos + 1, -1);
          return;
        }
        m.error(ErrorCode.invalidFirstCharacterOfTagName, m.base + pos);
        m.commentDataStart = 2;
        return enterToken(m, pos, State.BOGUS_COMMENT);
      }

      case State.RCDATA_LESS_THAN_SIGN:
      case State.RAWTEXT_LESS_THAN_SIGN:
        // §13.2.5.9 RCDATA less-than sign state, §13.2.5.12 RAWTEXT less-than sign state.
        if (input.charCodeAt(pos) === 0x2f) {
          pos++;
          state = state === State.RCDATA_LESS_THAN_SIGN ? State.RCDATA_END_TAG_OPEN : State.RAWTEXT_END_TAG_OPEN;
        } else {
          state = state === State.RCDATA_LESS_THAN_SIGN ? State.RCDATA : State.RAWTEXT;
        }
        continue;

      case State.RCDATA_END_TAG_OPEN:
      case State.RAWTEXT_END_TAG_OPEN: {
        // §13.2.5.10 RCDATA end tag open state, §13.2.5.13 RAWTEXT end tag open state.
        const rcdata = state === State.RCDATA_END_TAG_OPEN;
        if (isAsciiAlpha(input.charCodeAt(pos))) {
          m.matchIndex = 0;
          state = rcdata ? State.RCDATA_END_TAG_NAME : State.RAWTEXT_END_TAG_NAME;
        } else {
          state = rcdata ? State.RCDATA : State.RAWTEXT;
        }
        continue;
      }

      case State.RCDATA_END_TAG_NAME:
      case State.RAWTEXT_END_TAG_NAME: {
        // §13.2.5.11 RCDATA end tag name state, §13.2.5.14 RAWTEXT end tag name state.
        const fallback = state === State.RCDATA_END_TAG_NAME ? State.RCDATA : State.RAWTEXT;
        const next = endTagNameStep(m, input.charCodeAt(pos), pos, state, fallback);
        if (next === state) pos++;
        else if (next === fallback) state = fallback;
        else {
          m.state = next;
          return;
        }
        continue;
      }

      case State.CHARACTER_REFERENCE: {
        // §13.2.5.72 Character reference state.
        const c = input.charCodeAt(pos);
        if (isAsciiAlphanumeric(c)) {
          const node = stepNamed(NAMED_ROOT, c);
          if (node < 0) {
            state = State.AMBIGUOUS_AMPERSAND; // no name starts so: reconsume there
          } else {
            m.referenceNode = node;
            m.referenceMatched = namedValue(node) !== null;
            pos++;
            state = State.NAMED_CHARACTER_REFERENCE;
          }
        } else if (c === 0x23) {
          pos++;
          state = State.NUMERIC_CHARACTER_REFERENCE;
        } else {
          state = m.returnState; // not a reference: the `&` is text
        }
        continue;
      }

      case State.NAMED_CHARACTER_REFERENCE: {
        // §13.2.5.73 Named character reference state: follow the trie as long as some name continues.
        // When none does, the longest name matched (if any) is the reference; the letters after it are
        // text in the return state, so the scanner simply carries on from the character that ended it.
        let node = m.referenceNode;
        let matched = m.referenceMatched;
        while (pos < end) {
          const c = input.charCodeAt(pos);
          const child = stepNamed(node, c);
          if (child < 0) {
            state = matched ? m.returnState : State.AMBIGUOUS_AMPERSAND;
            break;
          }
          node = child;
          pos++;
          if (namedValue(child) !== null) {
            matched = true;
            if (c === 0x3b) {
              state = m.returnState; // a name never continues past its `;`
              break;
            }
          }
        }
        m.referenceNode = node;
        m.referenceMatched = matched;
        continue;
      }

      case State.AMBIGUOUS_AMPERSAND: {
        // §13.2.5.74 Ambiguous ampersand state: alphanumerics are text; a `;` after them is an error.
        while (pos < end && isAsciiAlphanumeric(input.charCodeAt(pos))) pos++;
        if (pos < end) {
          if (input.charCodeAt(pos) === 0x3b) m.error(ErrorCode.unknownNamedCharacterReference, m.base + pos);
          state = m.returnState;
        }
        continue;
      }

      case State.NUMERIC_CHARACTER_REFERENCE:
        // §13.2.5.75 Numeric character reference state.
        if ((input.charCodeAt(pos) | 0x20) === 0x78) {
          pos++;
          state = State.HEXADECIMAL_CHARACTER_REFERENCE_START;
        } else {
          state = State.DECIMAL_CHARACTER_REFERENCE_START;
        }
        continue;

      case State.HEXADECIMAL_CHARACTER_REFERENCE_START:
        // §13.2.5.76: no digits is absence-of-digits (reported by the decoder); the text stays.
        state = isAsciiHexDigit(input.charCodeAt(pos)) ? State.HEXADECIMAL_CHARACTER_REFERENCE : m.returnState;
        continue;

      case State.DECIMAL_CHARACTER_REFERENCE_START:
        // §13.2.5.77.
        state = isAsciiDigit(input.charCodeAt(pos)) ? State.DECIMAL_CHARACTER_REFERENCE : m.returnState;
        continue;

      case State.HEXADECIMAL_CHARACTER_REFERENCE:
      case State.DECIMAL_CHARACTER_REFERENCE: {
        // §13.2.5.78–79: digits, then `;` (consumed) or anything else (reconsumed); either way the
        // numeric character reference end state (§13.2.5.80) follows, which the decoder carries out.
        const hex = state === State.HEXADECIMAL_CHARACTER_REFERENCE;
        while (pos < end) {
          const c = input.charCodeAt(pos);
          if (hex ? isAsciiHexDigit(c) : isAsciiDigit(c)) pos++;
          else {
            if (c === 0x3b) pos++;
            state = m.returnState;
            break;
          }
        }
        continue;
      }

      default:
        throw new Error(`sluice tokenizer: internal error, state ${state} in the text scanner`);
    }
  }
  m.pos = pos;
  m.state = state;
}

/**
 * A token other than text begins at the `<` at `m.mark`: emit the text before it, then continue in
 * `state` from `pos`.
 */
function enterToken(m: Machine, pos: number, state: number): void {
  m.pos = pos;
  m.state = state;
  m.emitText(m.mark);
}
