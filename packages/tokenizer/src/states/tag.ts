/**
 * The tag states: tag name (§13.2.5.8) and the attribute states (§13.2.5.32–40).
 *
 * Scanning only finds where the tag ends and where its name ends; names and values are decoded lazily
 * from the raw text (decode/tag.ts). Quoted values are skipped with `indexOf`. The errors these states
 * report are reported here (when errors are wanted), in branches the common path does not take.
 */

import { ErrorCode } from '../errors.js';
import type { Machine } from '../machine.js';
import { State } from './state.js';

/** 1 for the characters that end a tag name: TAB, LF, FF, CR, SPACE, `/`, `>` (all ≤ 0x3E). */
const ENDS_TAG_NAME = new Uint8Array(0x3f);
for (const c of [0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x2f, 0x3e]) ENDS_TAG_NAME[c] = 1;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

/** Scans from `m.pos` in a tag state until the string ends or the tag is emitted. */
export function scanTag(m: Machine): void {
  const input = m.input;
  const end = input.length;
  let pos = m.pos;
  let state = m.state;
  const base = m.base;
  // The attribute boundaries, recorded as absolute offsets for decoding (decode/scanned-attributes.ts):
  // four slots per attribute, written through these locals and stored back before leaving.
  const record = m.attributeSpans;
  let spans: Int32Array = record.spans;
  let n = record.resume(m.pendingStart);
  // Where the tag ends (its `>`), once found: the tag is emitted from one place, after the loop (one
  // call site keeps this function small enough for V8 to optimize as a whole).
  let close = -1;
  let selfClosing = false;
  outer: while (pos < end) {
    switch (state) {
      case State.TAG_NAME: {
        // §13.2.5.8 Tag name state.
        let c = input.charCodeAt(pos);
        while (c > 0x3e || ENDS_TAG_NAME[c] === 0) {
          if (++pos === end) break outer;
          c = input.charCodeAt(pos);
        }
        m.nameEnd = m.base + pos;
        if (c === 0x3e) {
          close = pos;
          break outer;
        }
        pos++;
        state = c === 0x2f ? State.SELF_CLOSING_START_TAG : State.BEFORE_ATTRIBUTE_NAME;
        continue;
      }

      case State.BEFORE_ATTRIBUTE_NAME: {
        // §13.2.5.32 Before attribute name state.
        let c = input.charCodeAt(pos);
        while (isWhitespace(c)) {
          if (++pos === end) break outer;
          c = input.charCodeAt(pos);
        }
        if (c === 0x2f || c === 0x3e) {
          state = State.AFTER_ATTRIBUTE_NAME;
          continue;
        }
        m.tagHasAttributes = true;
        // §13.2.5.32: "Start a new attribute": its name starts here.
        if (n + 4 > spans.length) spans = record.grow();
        spans[n] = spans[n + 1] = base + pos;
        spans[n + 2] = spans[n + 3] = -1;
        n += 4;
        if (c === 0x3d) {
          // The `=` starts the attribute's name.
          m.error(ErrorCode.unexpectedEqualsSignBeforeAttributeName, m.base + pos);
          pos++;
        }
        state = State.ATTRIBUTE_NAME;
        continue;
      }

      case State.ATTRIBUTE_NAME: {
        // §13.2.5.33 Attribute name state.
        for (;;) {
          const c = input.charCodeAt(pos);
          if (c > 0x3e) {
            if (++pos === end) break outer;
            continue;
          }
          if (isWhitespace(c) || c === 0x2f || c === 0x3e) {
            spans[n - 3] = base + pos;
            state = State.AFTER_ATTRIBUTE_NAME;
            continue outer;
          }
          if (c === 0x3d) {
            spans[n - 3] = base + pos;
            pos++;
            state = State.BEFORE_ATTRIBUTE_VALUE;
            continue outer;
          }
          if (c === 0x22 || c === 0x27 || c === 0x3c) {
            m.error(ErrorCode.unexpectedCharacterInAttributeName, m.base + pos);
          }
          if (++pos === end) break outer;
        }
      }

      case State.AFTER_ATTRIBUTE_NAME: {
        // §13.2.5.34 After attribute name state.
        let c = input.charCodeAt(pos);
        while (isWhitespace(c)) {
          if (++pos === end) break outer;
          c = input.charCodeAt(pos);
        }
        if (c === 0x3e) {
          close = pos;
          break outer;
        }
        if (c === 0x2f) {
          pos++;
          state = State.SELF_CLOSING_START_TAG;
        } else if (c === 0x3d) {
          pos++;
          state = State.BEFORE_ATTRIBUTE_VALUE;
        } else {
          m.tagHasAttributes = true;
          if (n + 4 > spans.length) spans = record.grow();
          spans[n] = spans[n + 1] = base + pos;
          spans[n + 2] = spans[n + 3] = -1;
          n += 4;
          state = State.ATTRIBUTE_NAME;
        }
        continue;
      }

      case State.BEFORE_ATTRIBUTE_VALUE: {
        // §13.2.5.35 Before attribute value state.
        let c = input.charCodeAt(pos);
        while (isWhitespace(c)) {
          if (++pos === end) break outer;
          c = input.charCodeAt(pos);
        }
        if (c === 0x22) {
          pos++;
          spans[n - 2] = spans[n - 1] = base + pos;
          state = State.ATTRIBUTE_VALUE_DOUBLE_QUOTED;
        } else if (c === 0x27) {
          pos++;
          spans[n - 2] = spans[n - 1] = base + pos;
          state = State.ATTRIBUTE_VALUE_SINGLE_QUOTED;
        } else if (c === 0x3e) {
          m.error(ErrorCode.missingAttributeValue, m.base + pos);
          spans[n - 2] = spans[n - 1] = base + pos; // an empty value
          close = pos;
          break outer;
        } else {
          spans[n - 2] = spans[n - 1] = base + pos;
          state = State.ATTRIBUTE_VALUE_UNQUOTED;
        }
        continue;
      }

      case State.ATTRIBUTE_VALUE_DOUBLE_QUOTED:
      case State.ATTRIBUTE_VALUE_SINGLE_QUOTED: {
        // §13.2.5.36–37 Attribute value (double-quoted / single-quoted) state. References in the value
        // cannot end it early (they consume only alphanumerics, `#` and `;`): they are decoded lazily.
        const q = input.indexOf(state === State.ATTRIBUTE_VALUE_DOUBLE_QUOTED ? '"' : "'", pos);
        if (q < 0) {
          pos = end;
          break outer;
        }
        spans[n - 1] = base + q;
        pos = q + 1;
        state = State.AFTER_ATTRIBUTE_VALUE_QUOTED;
        continue;
      }

      case State.ATTRIBUTE_VALUE_UNQUOTED: {
        // §13.2.5.38 Attribute value (unquoted) state.
        for (;;) {
          const c = input.charCodeAt(pos);
          if (c > 0x3e && c !== 0x60) {
            if (++pos === end) break outer;
            continue;
          }
          if (isWhitespace(c)) {
            spans[n - 1] = base + pos;
            pos++;
            state = State.BEFORE_ATTRIBUTE_NAME;
            continue outer;
          }
          if (c === 0x3e) {
            spans[n - 1] = base + pos;
            close = pos;
            break outer;
          }
          if (c === 0x22 || c === 0x27 || c === 0x3c || c === 0x3d || c === 0x60) {
            m.error(ErrorCode.unexpectedCharacterInUnquotedAttributeValue, m.base + pos);
          }
          if (++pos === end) break outer;
        }
      }

      case State.AFTER_ATTRIBUTE_VALUE_QUOTED: {
        // §13.2.5.39 After attribute value (quoted) state.
        const c = input.charCodeAt(pos);
        if (isWhitespace(c)) {
          pos++;
          state = State.BEFORE_ATTRIBUTE_NAME;
        } else if (c === 0x2f) {
          pos++;
          state = State.SELF_CLOSING_START_TAG;
        } else if (c === 0x3e) {
          close = pos;
          break outer;
        } else {
          m.error(ErrorCode.missingWhitespaceBetweenAttributes, m.base + pos);
          state = State.BEFORE_ATTRIBUTE_NAME;
        }
        continue;
      }

      case State.SELF_CLOSING_START_TAG: {
        // §13.2.5.40 Self-closing start tag state.
        if (input.charCodeAt(pos) === 0x3e) {
          close = pos;
          selfClosing = true;
          break outer;
        }
        m.error(ErrorCode.unexpectedSolidusInTag, m.base + pos);
        state = State.BEFORE_ATTRIBUTE_NAME;
        continue;
      }

      default:
        throw new Error(`sluice tokenizer: internal error, state ${state} in the tag scanner`);
    }
  }
  if (close >= 0) {
    record.stop(n);
    m.emitTag(close, selfClosing);
    return;
  }
  record.length = n;
  m.pos = pos;
  m.state = state;
}
