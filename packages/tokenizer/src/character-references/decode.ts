/**
 * Decoding the character references of a finished run of text or attribute value, exactly as the
 * tokenizer states §13.2.5.72–80 would have while scanning it.
 */

import { toByteForm } from '../decode/byte-form.js';
import { longestNamedMatch, namedValue } from './named-trie.js';
import { MAX_CODE_POINT, numericReferenceCodePoint, numericReferenceError } from './numeric.js';

/** The parse errors character references can cause (HTML §13.2.2, "Parse errors"). */
export type CharacterReferenceError =
  | 'absence-of-digits-in-numeric-character-reference'
  | 'missing-semicolon-after-character-reference'
  | 'unknown-named-character-reference'
  | 'null-character-reference'
  | 'character-reference-outside-unicode-range'
  | 'surrogate-character-reference'
  | 'noncharacter-character-reference'
  | 'control-character-reference';

const NUMBER_SIGN = 0x23;
const SEMICOLON = 0x3b;
const EQUALS_SIGN = 0x3d;

function isAsciiAlphanumeric(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
}

/** The value of `c` as a hexadecimal digit, or -1. */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * Decodes every character reference in `text`, a run of data / RCDATA text or an attribute value, as
 * the character reference states (§13.2.5.72–80) do, and returns the result. Text without `&` is
 * returned as is (the same string).
 *
 * - Named references take the longest name in the table that matches. A name without `;` (one of the
 *   legacy names) is a `missing-semicolon-after-character-reference` error — except in an attribute
 *   value (`inAttribute`) when the next character is `=` or an ASCII alphanumeric: then, "for
 *   historical reasons", it is not decoded and there is no error. No match, followed by ASCII
 *   alphanumerics and a `;`, is an `unknown-named-character-reference` error (§13.2.5.74, ambiguous
 *   ampersand state); the text stays as it is.
 * - Numeric references (`&#…`, `&#x…`, `&#X…`) follow §13.2.5.75–80: digit runs of any length, the
 *   0x80–0x9F remapping, U+FFFD for 0, surrogates and values past U+10FFFF.
 *
 * Newlines: pass text whose newlines are already normalized (§13.2.3.5, CR and CRLF to LF). A CR is
 * never part of a reference, so references decode the same either way, but `&#13;` yields a CR that a
 * normalization applied afterwards would wrongly turn into LF. NUL is never part of a reference and is
 * left as it is (a reference never produces U+0000: `&#0;` gives U+FFFD), so NUL handling may come
 * before or after. Because of that, decoding raw text reports the same errors, at raw offsets: a caller
 * may call once on raw text for errors only and once on normalized text for the value.
 *
 * `text` must end where the tokenizer is back in its data / RCDATA / attribute value state with no
 * reference pending: the end of the text counts as "not `;`, not alphanumeric", so cutting `&notin;`
 * after `&not`, `&#x4` before `1;` or `&foo` before `;` would change the value or lose an error.
 *
 * With `byteForm`, `text` is in byte form (see decode/byte-form.ts) and so is the result: each reference
 * becomes the UTF-8 bytes of its characters.
 *
 * @param onError Called for each parse error, in input order, with `index`: the offset in `text` of
 *   the input character the tokenizer is looking at when the standard reports the error, or
 *   `text.length` when that is the end of the text. Concretely: for a missing `;` and for the errors
 *   of the numeric end state, the offset just past the reference (past its `;` if it has one); for
 *   an unknown name, the offset of its `;`; for missing digits, the offset just past `&#` or `&#x`.
 *   The html5lib tokenizer tests' error column is this offset (plus the text's start) plus one.
 */
export function decodeCharacterReferences(
  text: string,
  inAttribute: boolean,
  onError?: (code: CharacterReferenceError, index: number) => void,
  byteForm = false,
): string {
  let amp = text.indexOf('&');
  if (amp < 0) return text;
  const length = text.length;
  let out = '';
  let copied = 0; // text[copied..] is not in `out` yet
  while (amp >= 0) {
    // §13.2.5.72 Character reference state: `next` ends up past everything this reference consumed.
    let next = amp + 1;
    const first = next < length ? text.charCodeAt(next) : -1;
    if (first === NUMBER_SIGN) {
      const value = decodeNumeric(text, amp, onError);
      next = numericEnd;
      if (value !== null) {
        // Two appends, not one of a concatenation: V8 then skips building an intermediate string.
        out += text.slice(copied, amp);
        out += byteForm ? toByteForm(value) : value;
        copied = next;
      }
    } else if (isAsciiAlphanumeric(first)) {
      // §13.2.5.73 Named character reference state.
      const match = longestNamedMatch(text, next);
      if (match >= 0) {
        const matchEnd = next + (match & 63);
        next = matchEnd;
        const terminated = text.charCodeAt(matchEnd - 1) === SEMICOLON;
        const after = matchEnd < length ? text.charCodeAt(matchEnd) : -1;
        if (!terminated && inAttribute && (after === EQUALS_SIGN || isAsciiAlphanumeric(after))) {
          // Not a reference, for historical reasons: the characters stay as they are.
        } else {
          if (!terminated) onError?.('missing-semicolon-after-character-reference', matchEnd);
          const value = namedValue(match >> 6) as string;
          out += text.slice(copied, amp);
          out += byteForm ? toByteForm(value) : value;
          copied = matchEnd;
        }
      } else {
        // §13.2.5.74 Ambiguous ampersand state: the alphanumerics stay as they are.
        while (next < length && isAsciiAlphanumeric(text.charCodeAt(next))) next++;
        if (next < length && text.charCodeAt(next) === SEMICOLON) {
          onError?.('unknown-named-character-reference', next);
        }
      }
    }
    // Anything else after `&` is not a reference: the `&` stays.
    amp = text.indexOf('&', next);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Where the last {@link decodeNumeric} call stopped: the offset just past what the reference consumed.
 * (Set after the last `onError` call, so a re-entrant call from `onError` cannot disturb it.)
 */
let numericEnd = 0;

/**
 * §13.2.5.75–80, numeric character reference states, for the `&#` at `amp`: the decoded text, or null
 * when there are no digits (then the characters stay as they are). Sets {@link numericEnd}.
 */
function decodeNumeric(
  text: string,
  amp: number,
  onError: ((code: CharacterReferenceError, index: number) => void) | undefined,
): string | null {
  const length = text.length;
  let i = amp + 2;
  let code = 0;
  let start: number;
  if (i < length && (text.charCodeAt(i) | 0x20) === 0x78) {
    // §13.2.5.76 Hexadecimal character reference start state, §13.2.5.78 hexadecimal state.
    start = ++i;
    for (let digit: number; i < length && (digit = hexDigit(text.charCodeAt(i))) >= 0; i++) {
      code = code * 16 + digit;
      if (code > MAX_CODE_POINT) code = MAX_CODE_POINT + 1; // saturate: any value past it is the same error
    }
  } else {
    // §13.2.5.77 Decimal character reference start state, §13.2.5.79 decimal state.
    start = i;
    for (let c: number; i < length && (c = text.charCodeAt(i)) >= 0x30 && c <= 0x39; i++) {
      code = code * 10 + (c - 0x30);
      if (code > MAX_CODE_POINT) code = MAX_CODE_POINT + 1;
    }
  }
  if (i === start) {
    onError?.('absence-of-digits-in-numeric-character-reference', i);
    numericEnd = i;
    return null;
  }
  if (i < length && text.charCodeAt(i) === SEMICOLON) i++;
  else onError?.('missing-semicolon-after-character-reference', i);
  // §13.2.5.80 Numeric character reference end state.
  if (onError !== undefined) {
    const error = numericReferenceError(code);
    if (error !== null) onError(error, i);
  }
  numericEnd = i;
  const codePoint = numericReferenceCodePoint(code);
  return codePoint < 0x10000 ? String.fromCharCode(codePoint) : String.fromCodePoint(codePoint);
}
