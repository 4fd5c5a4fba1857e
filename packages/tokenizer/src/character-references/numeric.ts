/**
 * §13.2.5.80 Numeric character reference end state: what a character reference code becomes, and
 * which parse error (if any) the standard reports for it.
 */

/** The largest code point; digit accumulation saturates just above it so long digit runs cannot overflow. */
export const MAX_CODE_POINT = 0x10ffff;

/**
 * §13.2.5.80's table for the C1 controls 0x80–0x9F: the windows-1252 character each stands for, or 0
 * where the table has no row (0x81, 0x8D, 0x8F, 0x90, 0x9D stay as they are).
 */
const C1_REPLACEMENTS = new Uint16Array([
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, // 0x80–0x87
  0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, // 0x88–0x8F
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, // 0x90–0x97
  0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178, // 0x98–0x9F
]);

/** The parse errors of the numeric character reference end state. */
export type NumericReferenceError =
  | 'null-character-reference'
  | 'character-reference-outside-unicode-range'
  | 'surrogate-character-reference'
  | 'noncharacter-character-reference'
  | 'control-character-reference';

/**
 * The parse error §13.2.5.80 reports for the character reference code `code`, or null.
 * `code` may be anything above {@link MAX_CODE_POINT} (the caller saturates it there).
 */
export function numericReferenceError(code: number): NumericReferenceError | null {
  if (code === 0) return 'null-character-reference';
  if (code > MAX_CODE_POINT) return 'character-reference-outside-unicode-range';
  if (code >= 0xd800 && code <= 0xdfff) return 'surrogate-character-reference';
  // Noncharacters: U+FDD0–U+FDEF and the last two code points of every plane.
  if ((code >= 0xfdd0 && code <= 0xfdef) || (code & 0xfffe) === 0xfffe) return 'noncharacter-character-reference';
  // 0x0D, or a control (C0, or U+007F–U+009F) that is not ASCII whitespace (TAB, LF, FF, CR, SPACE).
  if (code <= 0x1f ? code !== 0x09 && code !== 0x0a && code !== 0x0c : code >= 0x7f && code <= 0x9f) {
    return 'control-character-reference';
  }
  return null;
}

/** The code point §13.2.5.80 emits for the character reference code `code`. */
export function numericReferenceCodePoint(code: number): number {
  if (code === 0 || code > MAX_CODE_POINT || (code >= 0xd800 && code <= 0xdfff)) return 0xfffd;
  if (code >= 0x80 && code <= 0x9f) return C1_REPLACEMENTS[code - 0x80] || code;
  return code;
}
