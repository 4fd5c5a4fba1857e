/**
 * The "end tag name" states of RCDATA, RAWTEXT and script data (§13.2.5.11, .14, .17, .25): is the
 * `</name` being read an appropriate end tag (§13.2.5, "appropriate end tag token")?
 *
 * The standard collects the name in the temporary buffer and compares it with the last start tag's name
 * once a whitespace, `/` or `>` follows. Here each letter is compared as it comes, against
 * `Machine.endTagName`: at the first letter that differs the candidate is known to be text, so the
 * scanner goes straight back to the text state (the letters are text there too) and nothing more is held.
 */

import type { Machine } from '../machine.js';
import { isAsciiAlpha, isWhitespace } from './chars.js';
import { State } from './state.js';

/**
 * One step of an end tag name state on `c`, the character at `input[pos]`. Returns the new state:
 * `fallback` (the text state; `c` is reconsumed there), the same state (`c` was consumed), or a tag
 * state (the appropriate end tag was found: the text before it was emitted and the tag began).
 */
export function endTagNameStep(m: Machine, c: number, pos: number, state: number, fallback: number): number {
  const name = m.endTagName;
  if (name === null) return fallback;
  const i = m.matchIndex;
  if (isAsciiAlpha(c)) {
    if (i < name.length && (c | 0x20) === name.charCodeAt(i)) {
      m.matchIndex = i + 1;
      return state;
    }
    return fallback;
  }
  if (i !== name.length || !(isWhitespace(c) || c === 0x2f || c === 0x3e)) return fallback;
  // An appropriate end tag: the text before its `<` is done.
  m.pos = pos;
  m.emitText(m.mark);
  m.tagIsEnd = true;
  m.tagHasAttributes = false;
  m.nameEnd = m.base + pos;
  if (isWhitespace(c)) {
    m.pos = pos + 1;
    return State.BEFORE_ATTRIBUTE_NAME;
  }
  // `/` and `>` do in the after attribute name state what the end tag name state does with them.
  return State.AFTER_ATTRIBUTE_NAME;
}

