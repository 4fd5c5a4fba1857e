/**
 * The script data states (§13.2.5.4, .15–31): text, except for an appropriate `</script>`-like end tag,
 * with the `<!--` … `-->` escapes and `<script>` double escapes that decide where such an end tag counts.
 *
 * Everything these states emit is text, so only a possible end tag (`<`, `</`, `</scr`) outside the
 * double-escaped states is held back at a chunk boundary.
 */

import type { Machine } from '../machine.js';
import { isAsciiAlpha, isWhitespace } from './chars.js';
import { endTagNameStep } from './end-tag-candidate.js';
import { State } from './state.js';

const SCRIPT = 'script';

/** The temporary buffer of the double escape states, tracked as how much of `script` it matches. */
function scriptStep(index: number, c: number): number {
  return index >= 0 && index < SCRIPT.length && (c | 0x20) === SCRIPT.charCodeAt(index) ? index + 1 : -1;
}

/** Scans from `m.pos` in a script data state until the string ends or an end tag begins. */
export function scanScriptData(m: Machine): void {
  const input = m.input;
  const end = input.length;
  let pos = m.pos;
  let state = m.state;
  while (pos < end) {
    const c = input.charCodeAt(pos);
    switch (state) {
      case State.SCRIPT_DATA: {
        // §13.2.5.4 Script data state.
        const lt = input.indexOf('<', pos);
        if (lt < 0) {
          pos = end;
        } else {
          m.mark = m.base + lt;
          pos = lt + 1;
          state = State.SCRIPT_DATA_LESS_THAN_SIGN;
        }
        break;
      }

      case State.SCRIPT_DATA_LESS_THAN_SIGN:
        // §13.2.5.15.
        if (c === 0x2f) {
          pos++;
          state = State.SCRIPT_DATA_END_TAG_OPEN;
        } else if (c === 0x21) {
          pos++;
          state = State.SCRIPT_DATA_ESCAPE_START;
        } else {
          state = State.SCRIPT_DATA;
        }
        break;

      case State.SCRIPT_DATA_END_TAG_OPEN:
        // §13.2.5.16.
        if (isAsciiAlpha(c)) {
          m.matchIndex = 0;
          state = State.SCRIPT_DATA_END_TAG_NAME;
        } else {
          state = State.SCRIPT_DATA;
        }
        break;

      case State.SCRIPT_DATA_END_TAG_NAME:
      case State.SCRIPT_DATA_ESCAPED_END_TAG_NAME: {
        // §13.2.5.17 Script data end tag name state, §13.2.5.25 script data escaped end tag name state.
        const fallback = state === State.SCRIPT_DATA_END_TAG_NAME ? State.SCRIPT_DATA : State.SCRIPT_DATA_ESCAPED;
        const next = endTagNameStep(m, c, pos, state, fallback);
        if (next === state) pos++;
        else if (next === fallback) state = fallback;
        else {
          m.state = next;
          return;
        }
        break;
      }

      case State.SCRIPT_DATA_ESCAPE_START:
        // §13.2.5.18.
        if (c === 0x2d) {
          pos++;
          state = State.SCRIPT_DATA_ESCAPE_START_DASH;
        } else {
          state = State.SCRIPT_DATA;
        }
        break;

      case State.SCRIPT_DATA_ESCAPE_START_DASH:
        // §13.2.5.19.
        if (c === 0x2d) {
          pos++;
          state = State.SCRIPT_DATA_ESCAPED_DASH_DASH;
        } else {
          state = State.SCRIPT_DATA;
        }
        break;

      case State.SCRIPT_DATA_ESCAPED:
      case State.SCRIPT_DATA_DOUBLE_ESCAPED: {
        // §13.2.5.20 Script data escaped state, §13.2.5.27 script data double escaped state.
        const escaped = state === State.SCRIPT_DATA_ESCAPED;
        let i = pos;
        let d = c;
        while (d !== 0x2d && d !== 0x3c) {
          if (++i === end) break;
          d = input.charCodeAt(i);
        }
        pos = i;
        if (i < end) {
          pos++;
          if (d === 0x2d) {
            state = escaped ? State.SCRIPT_DATA_ESCAPED_DASH : State.SCRIPT_DATA_DOUBLE_ESCAPED_DASH;
          } else if (escaped) {
            m.mark = m.base + i;
            state = State.SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN;
          } else {
            state = State.SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN;
          }
        }
        break;
      }

      case State.SCRIPT_DATA_ESCAPED_DASH:
      case State.SCRIPT_DATA_DOUBLE_ESCAPED_DASH: {
        // §13.2.5.21, §13.2.5.28.
        const escaped = state === State.SCRIPT_DATA_ESCAPED_DASH;
        pos++;
        if (c === 0x2d) {
          state = escaped ? State.SCRIPT_DATA_ESCAPED_DASH_DASH : State.SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH;
        } else if (c === 0x3c) {
          if (escaped) m.mark = m.base + pos - 1;
          state = escaped ? State.SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN : State.SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN;
        } else {
          state = escaped ? State.SCRIPT_DATA_ESCAPED : State.SCRIPT_DATA_DOUBLE_ESCAPED;
        }
        break;
      }

      case State.SCRIPT_DATA_ESCAPED_DASH_DASH:
      case State.SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH: {
        // §13.2.5.22, §13.2.5.29.
        const escaped = state === State.SCRIPT_DATA_ESCAPED_DASH_DASH;
        pos++;
        if (c === 0x2d) {
          // stay
        } else if (c === 0x3c) {
          if (escaped) m.mark = m.base + pos - 1;
          state = escaped ? State.SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN : State.SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN;
        } else if (c === 0x3e) {
          state = State.SCRIPT_DATA;
        } else {
          state = escaped ? State.SCRIPT_DATA_ESCAPED : State.SCRIPT_DATA_DOUBLE_ESCAPED;
        }
        break;
      }

      case State.SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN:
        // §13.2.5.23.
        if (c === 0x2f) {
          pos++;
          state = State.SCRIPT_DATA_ESCAPED_END_TAG_OPEN;
        } else if (isAsciiAlpha(c)) {
          m.tempIndex = 0;
          state = State.SCRIPT_DATA_DOUBLE_ESCAPE_START;
        } else {
          state = State.SCRIPT_DATA_ESCAPED;
        }
        break;

      case State.SCRIPT_DATA_ESCAPED_END_TAG_OPEN:
        // §13.2.5.24.
        if (isAsciiAlpha(c)) {
          m.matchIndex = 0;
          state = State.SCRIPT_DATA_ESCAPED_END_TAG_NAME;
        } else {
          state = State.SCRIPT_DATA_ESCAPED;
        }
        break;

      case State.SCRIPT_DATA_DOUBLE_ESCAPE_START:
      case State.SCRIPT_DATA_DOUBLE_ESCAPE_END: {
        // §13.2.5.26 Script data double escape start state, §13.2.5.31 double escape end state: the
        // word after `<` (or `</`) is `script` exactly when the temporary buffer matched all of it.
        const starting = state === State.SCRIPT_DATA_DOUBLE_ESCAPE_START;
        if (isWhitespace(c) || c === 0x2f || c === 0x3e) {
          pos++;
          const isScript = m.tempIndex === SCRIPT.length;
          state = starting === isScript ? State.SCRIPT_DATA_DOUBLE_ESCAPED : State.SCRIPT_DATA_ESCAPED;
        } else if (isAsciiAlpha(c)) {
          pos++;
          m.tempIndex = scriptStep(m.tempIndex, c);
        } else {
          state = starting ? State.SCRIPT_DATA_ESCAPED : State.SCRIPT_DATA_DOUBLE_ESCAPED;
        }
        break;
      }

      case State.SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN:
        // §13.2.5.30.
        if (c === 0x2f) {
          pos++;
          m.tempIndex = 0;
          state = State.SCRIPT_DATA_DOUBLE_ESCAPE_END;
        } else {
          state = State.SCRIPT_DATA_DOUBLE_ESCAPED;
        }
        break;

      default:
        throw new Error(`sluice tokenizer: internal error, state ${state} in the script data scanner`);
    }
  }
  m.pos = pos;
  m.state = state;
}
