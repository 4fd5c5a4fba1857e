/**
 * `:is()` and `:where()` take a forgiving selector list (Selectors 4 §3.5 "Forgiving Selector Parsing"):
 * a part that fails to parse is dropped instead of making the whole selector invalid, so `:is(a, !!)`
 * is `:is(a)` and `:is()` matches nothing. css-what parses strictly, so the text is rewritten first:
 * each such argument is split on its top-level commas, each part is checked on its own, and the
 * invalid ones are left out (an argument left empty becomes `:not(*)`, which matches nothing).
 */
import { attributeEnd, matchingParen, skipString } from './identifiers.js';

const FORGIVING = /^:(is|where)\(/i;

/** Whether the text may contain a forgiving list (cheap test before the rewrite). */
export function mayHaveForgivingList(s: string): boolean {
  return /:(?:is|where)\(/i.test(s);
}

/** The text with the invalid parts of every `:is()`/`:where()` argument removed; `valid` checks one part. */
export function dropInvalidParts(s: string, valid: (part: string) => boolean): string {
  let out = '';
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) {
      out += s.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === 0x22 || c === 0x27 || c === 0x5b) {
      const end = c === 0x5b ? attributeEnd(s, i) : skipString(s, i);
      out += s.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    const m = c === 0x3a ? FORGIVING.exec(s.slice(i, i + 7)) : null;
    if (m === null) {
      out += s[i];
      i++;
      continue;
    }
    const open = i + m[0].length - 1;
    const close = matchingParen(s, open);
    if (close >= s.length) return out + s.slice(i); // unbalanced: the strict parser says what is wrong
    const kept = splitTopLevel(s.slice(open + 1, close)).filter(valid);
    out += kept.length === 0 ? ':not(*)' : `:${m[1]!.toLowerCase()}(${kept.map((p) => dropInvalidParts(p, valid)).join(',')})`;
    i = close + 1;
  }
  return out;
}

/** Split on the commas outside parentheses, brackets, strings and escapes. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22 || c === 0x27) i = skipString(s, i);
    else if (c === 0x5b) i = attributeEnd(s, i);
    else if (c === 0x28) depth++;
    else if (c === 0x29) depth--;
    else if (c === 0x2c && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}
