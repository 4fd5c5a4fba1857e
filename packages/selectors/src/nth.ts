/** The `An+B` microsyntax (CSS Syntax §6 "The An+B microsyntax") and its match test. */

/** A parsed `An+B`. */
export interface Nth {
  readonly a: number;
  readonly b: number;
}

const KEYWORDS: Record<string, Nth> = { odd: { a: 2, b: 1 }, even: { a: 2, b: 0 } };

// `2n+1`, `-n+3`, `+n`, `n`, `3n`, `-2n - 1`, `2n -1`; or a bare integer `5`, `-1`. No space between a
// sign and its number, nor before the `n` (`+ 2n` is invalid, as in browsers).
const AN_PLUS_B = /^(?:([+-]?)(\d*)n(?:\s*([+-])\s*(\d+))?|([+-]?\d+))$/;

/** Parse `An+B` (case-insensitive, surrounding whitespace allowed); null when it is not valid. */
export function parseNth(text: string): Nth | null {
  const t = text.trim().toLowerCase();
  const keyword = KEYWORDS[t];
  if (keyword !== undefined) return keyword;
  const m = AN_PLUS_B.exec(t);
  if (m === null) return null;
  if (m[5] !== undefined) return { a: 0, b: Number(m[5]) };
  const aDigits = m[2] === '' ? 1 : Number(m[2]);
  const a = m[1] === '-' ? -aDigits : aDigits;
  const b = m[4] === undefined ? 0 : m[3] === '-' ? -Number(m[4]) : Number(m[4]);
  return { a, b };
}

/** Whether the 1-based `index` is `a*n + b` for some integer n ≥ 0. */
export function nthMatches(a: number, b: number, index: number): boolean {
  if (a === 0) return index === b;
  const n = (index - b) / a;
  return n >= 0 && Number.isInteger(n);
}
