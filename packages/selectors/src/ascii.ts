/** Infra's ASCII helpers, as selectors compare names and values (Infra §4.6 "Strings"). */

/** ASCII lowercase (Infra): only A–Z change, unlike `toLowerCase` (which would change `İ`, `K`…). */
export function asciiLowercase(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  }
  return s;
}

/** ASCII whitespace (Infra): TAB, LF, FF, CR, SPACE. */
export function isAsciiWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}
