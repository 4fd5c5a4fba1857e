/**
 * Where each attribute sits in a start tag's source text, so a rewritten tag can copy the attributes a
 * handler did not touch byte for byte (HTML §13.2.5.32–39, the attribute states, on a complete tag).
 */

/** An attribute's span in the tag's raw text: `[start, end)`, from the name to the end of the value. */
export interface RawAttribute {
  /** Name, ASCII-lowercased. */
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/**
 * Scan `raw` (`<name …>`) for its attributes. Duplicates are kept here (the caller matches them against
 * the token's decoded list, which drops later duplicates). Returns null when the text does not end the
 * way a complete tag does.
 */
export function scanRawAttributes(raw: string): { attributes: RawAttribute[]; tail: number } | null {
  const n = raw.length;
  if (n < 2 || raw.charCodeAt(n - 1) !== 0x3e /* > */) return null;
  let i = 1;
  while (i < n && !isSpace(raw.charCodeAt(i)) && raw[i] !== '/' && raw[i] !== '>') i++;
  const attributes: RawAttribute[] = [];
  for (;;) {
    // Before attribute name: whitespace and stray solidi.
    while (i < n && (isSpace(raw.charCodeAt(i)) || (raw[i] === '/' && raw[i + 1] !== '>'))) i++;
    if (i >= n) return null;
    if (raw[i] === '>' || (raw[i] === '/' && raw[i + 1] === '>')) return { attributes, tail: i };
    const start = i;
    // Attribute name: the first character may be `=`.
    i++;
    while (i < n && !isSpace(raw.charCodeAt(i)) && raw[i] !== '/' && raw[i] !== '>' && raw[i] !== '=') i++;
    const name = raw.slice(start, i).replace(/[A-Z]+/g, (m) => m.toLowerCase());
    let end = i;
    let j = i;
    while (j < n && isSpace(raw.charCodeAt(j))) j++;
    if (raw[j] === '=') {
      j++;
      while (j < n && isSpace(raw.charCodeAt(j))) j++;
      const q = raw[j];
      if (q === '"' || q === "'") {
        const close = raw.indexOf(q, j + 1);
        if (close < 0) return null;
        j = close + 1;
      } else {
        while (j < n && !isSpace(raw.charCodeAt(j)) && raw[j] !== '>') j++;
      }
      end = j;
      i = j;
    }
    attributes.push({ name, start, end });
  }
}
