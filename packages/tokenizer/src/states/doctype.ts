/**
 * The DOCTYPE states (§13.2.5.53–68). The scanner records where the name and the identifiers lie
 * (`Machine.doctype`) and whether force-quirks was set; the token decodes the strings lazily.
 */

import { ErrorCode } from '../errors.js';
import { DoctypeField, Keyword, type Machine } from '../machine.js';
import { isWhitespace } from './chars.js';
import { State } from './state.js';

const PUBLIC = 'public';
const SYSTEM = 'system';

/** Scans from `m.pos` in a DOCTYPE state until the string ends or the DOCTYPE is emitted. */
export function scanDoctype(m: Machine): void {
  const input = m.input;
  const end = input.length;
  const d = m.doctype;
  let pos = m.pos;
  let state = m.state;
  while (pos < end) {
    const c = input.charCodeAt(pos);
    const at = m.base + pos;
    switch (state) {
      case State.DOCTYPE:
        // §13.2.5.53 DOCTYPE state.
        if (isWhitespace(c)) pos++;
        else if (c !== 0x3e) m.error(ErrorCode.missingWhitespaceBeforeDoctypeName, at);
        state = State.BEFORE_DOCTYPE_NAME;
        continue;

      case State.BEFORE_DOCTYPE_NAME:
        // §13.2.5.54 Before DOCTYPE name state.
        if (isWhitespace(c)) {
          pos++;
        } else if (c === 0x3e) {
          m.error(ErrorCode.missingDoctypeName, at);
          m.forceQuirks = true;
          return emit(m, pos);
        } else {
          d[DoctypeField.NAME_START] = at;
          pos++;
          state = State.DOCTYPE_NAME;
        }
        continue;

      case State.DOCTYPE_NAME:
        // §13.2.5.55 DOCTYPE name state.
        if (isWhitespace(c)) {
          d[DoctypeField.NAME_END] = at;
          pos++;
          m.keyword = Keyword.NONE;
          m.keywordIndex = 0;
          state = State.AFTER_DOCTYPE_NAME;
        } else if (c === 0x3e) {
          d[DoctypeField.NAME_END] = at;
          return emit(m, pos);
        } else {
          pos++;
        }
        continue;

      case State.AFTER_DOCTYPE_NAME: {
        // §13.2.5.56 After DOCTYPE name state, with its six-character lookahead for PUBLIC or SYSTEM
        // matched one character at a time.
        const i = m.keywordIndex;
        if (i === 0) {
          if (isWhitespace(c)) {
            pos++;
            continue;
          }
          if (c === 0x3e) return emit(m, pos);
          const l = c | 0x20;
          if (l === 0x70 || l === 0x73) {
            m.keyword = l === 0x70 ? Keyword.PUBLIC : Keyword.SYSTEM;
            m.keywordStart = at;
            m.keywordIndex = 1;
            pos++;
          } else {
            invalidAfterName(m, at);
            state = State.BOGUS_DOCTYPE;
          }
          continue;
        }
        const word = m.keyword === Keyword.PUBLIC ? PUBLIC : SYSTEM;
        if ((c | 0x20) !== word.charCodeAt(i)) {
          // Not the keyword: reconsume (what was matched is ignored by the bogus DOCTYPE state too).
          invalidAfterName(m, m.keywordStart);
          state = State.BOGUS_DOCTYPE;
          continue;
        }
        pos++;
        if (i + 1 < word.length) {
          m.keywordIndex = i + 1;
        } else {
          m.keywordIndex = 0;
          state = m.keyword === Keyword.PUBLIC ? State.AFTER_DOCTYPE_PUBLIC_KEYWORD : State.AFTER_DOCTYPE_SYSTEM_KEYWORD;
        }
        continue;
      }

      case State.AFTER_DOCTYPE_PUBLIC_KEYWORD:
      case State.AFTER_DOCTYPE_SYSTEM_KEYWORD: {
        // §13.2.5.57 After DOCTYPE public keyword state, §13.2.5.63 after DOCTYPE system keyword state.
        const isPublic = state === State.AFTER_DOCTYPE_PUBLIC_KEYWORD;
        if (isWhitespace(c)) {
          pos++;
          state = isPublic ? State.BEFORE_DOCTYPE_PUBLIC_IDENTIFIER : State.BEFORE_DOCTYPE_SYSTEM_IDENTIFIER;
        } else if (c === 0x22 || c === 0x27) {
          m.error(
            isPublic ? ErrorCode.missingWhitespaceAfterDoctypePublicKeyword : ErrorCode.missingWhitespaceAfterDoctypeSystemKeyword,
            at,
          );
          pos++;
          state = openIdentifier(d, isPublic, c, at + 1);
        } else if (c === 0x3e) {
          m.error(isPublic ? ErrorCode.missingDoctypePublicIdentifier : ErrorCode.missingDoctypeSystemIdentifier, at);
          m.forceQuirks = true;
          return emit(m, pos);
        } else {
          m.error(
            isPublic ? ErrorCode.missingQuoteBeforeDoctypePublicIdentifier : ErrorCode.missingQuoteBeforeDoctypeSystemIdentifier,
            at,
          );
          m.forceQuirks = true;
          state = State.BOGUS_DOCTYPE;
        }
        continue;
      }

      case State.BEFORE_DOCTYPE_PUBLIC_IDENTIFIER:
      case State.BEFORE_DOCTYPE_SYSTEM_IDENTIFIER: {
        // §13.2.5.58 Before DOCTYPE public identifier state, §13.2.5.64 before system identifier state.
        const isPublic = state === State.BEFORE_DOCTYPE_PUBLIC_IDENTIFIER;
        if (isWhitespace(c)) {
          pos++;
        } else if (c === 0x22 || c === 0x27) {
          pos++;
          state = openIdentifier(d, isPublic, c, at + 1);
        } else if (c === 0x3e) {
          m.error(isPublic ? ErrorCode.missingDoctypePublicIdentifier : ErrorCode.missingDoctypeSystemIdentifier, at);
          m.forceQuirks = true;
          return emit(m, pos);
        } else {
          m.error(
            isPublic ? ErrorCode.missingQuoteBeforeDoctypePublicIdentifier : ErrorCode.missingQuoteBeforeDoctypeSystemIdentifier,
            at,
          );
          m.forceQuirks = true;
          state = State.BOGUS_DOCTYPE;
        }
        continue;
      }

      case State.DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED:
      case State.DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED:
      case State.DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED:
      case State.DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED: {
        // §13.2.5.59–60, 65–66: up to the closing quote; a `>` first is abrupt.
        const isPublic = state <= State.DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED;
        const quote =
          state === State.DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED || state === State.DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED
            ? 0x22
            : 0x27;
        let i = pos;
        let e = c;
        while (e !== quote && e !== 0x3e) {
          if (++i === end) break;
          e = input.charCodeAt(i);
        }
        pos = i;
        if (i === end) continue;
        d[isPublic ? DoctypeField.PUBLIC_END : DoctypeField.SYSTEM_END] = m.base + i;
        if (e === 0x3e) {
          m.error(isPublic ? ErrorCode.abruptDoctypePublicIdentifier : ErrorCode.abruptDoctypeSystemIdentifier, m.base + i);
          m.forceQuirks = true;
          return emit(m, pos);
        }
        pos++;
        state = isPublic ? State.AFTER_DOCTYPE_PUBLIC_IDENTIFIER : State.AFTER_DOCTYPE_SYSTEM_IDENTIFIER;
        continue;
      }

      case State.AFTER_DOCTYPE_PUBLIC_IDENTIFIER:
      case State.BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS: {
        // §13.2.5.61 After DOCTYPE public identifier state, §13.2.5.62 between the identifiers.
        const after = state === State.AFTER_DOCTYPE_PUBLIC_IDENTIFIER;
        if (isWhitespace(c)) {
          pos++;
          state = State.BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS;
        } else if (c === 0x3e) {
          return emit(m, pos);
        } else if (c === 0x22 || c === 0x27) {
          if (after) m.error(ErrorCode.missingWhitespaceBetweenDoctypePublicAndSystemIdentifiers, at);
          pos++;
          state = openIdentifier(d, false, c, at + 1);
        } else {
          m.error(ErrorCode.missingQuoteBeforeDoctypeSystemIdentifier, at);
          m.forceQuirks = true;
          state = State.BOGUS_DOCTYPE;
        }
        continue;
      }

      case State.AFTER_DOCTYPE_SYSTEM_IDENTIFIER:
        // §13.2.5.67 After DOCTYPE system identifier state (no force-quirks for trailing junk).
        if (isWhitespace(c)) {
          pos++;
        } else if (c === 0x3e) {
          return emit(m, pos);
        } else {
          m.error(ErrorCode.unexpectedCharacterAfterDoctypeSystemIdentifier, at);
          state = State.BOGUS_DOCTYPE;
        }
        continue;

      case State.BOGUS_DOCTYPE: {
        // §13.2.5.68 Bogus DOCTYPE state.
        const gt = input.indexOf('>', pos);
        if (gt < 0) {
          pos = end;
          continue;
        }
        return emit(m, gt);
      }

      default:
        throw new Error(`sluice tokenizer: internal error, state ${state} in the DOCTYPE scanner`);
    }
  }
  m.pos = pos;
  m.state = state;
}

function invalidAfterName(m: Machine, at: number): void {
  m.error(ErrorCode.invalidCharacterSequenceAfterDoctypeName, at);
  m.forceQuirks = true;
  m.keywordIndex = 0;
}

/** Starts a quoted identifier whose text begins at `start`; returns its state. */
function openIdentifier(d: Int32Array, isPublic: boolean, quote: number, start: number): number {
  if (isPublic) {
    d[DoctypeField.PUBLIC_START] = start;
    return quote === 0x22 ? State.DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED : State.DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED;
  }
  d[DoctypeField.SYSTEM_START] = start;
  return quote === 0x22 ? State.DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED : State.DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED;
}

/** Emits the DOCTYPE ending with the `>` at `input[pos]`. */
function emit(m: Machine, pos: number): void {
  m.pos = pos + 1;
  m.emitDoctype(m.base + pos + 1);
}
