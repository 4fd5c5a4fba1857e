/** Character classes of §13.2.5 (Infra's ASCII definitions), on UTF-16 code units. */

/** ASCII whitespace as the tokenizer sees it: TAB, LF, FF, CR (not yet normalized), SPACE. */
export function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

export function isAsciiAlpha(c: number): boolean {
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x7a;
}

export function isAsciiAlphanumeric(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || isAsciiAlpha(c);
}

export function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isAsciiHexDigit(c: number): boolean {
  const l = c | 0x20;
  return (c >= 0x30 && c <= 0x39) || (l >= 0x61 && l <= 0x66);
}
