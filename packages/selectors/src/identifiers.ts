/**
 * What css-what lets through and a browser's parser does not: names that are not CSS identifiers
 * (CSS Syntax §4.3.9 "Check if three code points would start an ident sequence"). css-what reads `.1a`,
 * `#1`, `1a` and `[a=1]` as names; Chromium throws a SyntaxError for each (an ID selector needs a hash
 * token whose value is an identifier, a type selector an identifier, an attribute value an identifier or
 * a string). This scan looks at the raw text, where an escape (`.\31 a`) is still visible, before
 * css-what unescapes it.
 */

/** A name-start code point (CSS Syntax §4.2): a letter, `_`, or a non-ASCII code point. */
function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c >= 0x80;
}

/** Whether the text at `i` starts an escape: `\` not followed by a newline or the end. */
function isEscape(s: string, i: number): boolean {
  return s.charCodeAt(i) === 0x5c && i + 1 < s.length && s.charCodeAt(i + 1) !== 0x0a && s.charCodeAt(i + 1) !== 0x0c && s.charCodeAt(i + 1) !== 0x0d;
}

/** CSS Syntax §4.3.9: whether the text at `i` would start an ident sequence. */
export function startsIdent(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (isNameStart(c) || isEscape(s, i)) return true;
  if (c !== 0x2d) return false;
  const d = s.charCodeAt(i + 1);
  return isNameStart(d) || d === 0x2d || isEscape(s, i + 1);
}

/** Pseudo-classes whose argument is a selector list. */
const SELECTOR_ARGUMENTS = new Set(['is', 'not', 'where', 'has', 'matches', 'host', 'host-context', 'slotted']);

const NTH = /^(?:nth-child|nth-last-child|nth-of-type|nth-last-of-type)\($/i;

/**
 * Look for a name that is not an identifier where the grammar wants one; returns what is wrong, or null.
 * Strings and escapes are skipped; the `An+B` argument of `:nth-*()` is left to `nth.ts`.
 */
export function findInvalidName(s: string): string | null {
  let compoundStart = true; // at a place where a compound (and so a type selector) may begin
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) {
      i++;
      compoundStart = false;
      continue;
    }
    if (c === 0x22 || c === 0x27) {
      i = skipString(s, i);
      compoundStart = false;
      continue;
    }
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x3e || c === 0x2b || c === 0x7e || c === 0x2c) {
      compoundStart = true;
      continue;
    }
    if (c === 0x2e || c === 0x23) {
      if (!startsIdent(s, i + 1)) return `${c === 0x2e ? 'the class' : 'the ID'} selector "${s.slice(i, i + 4)}…" does not start with a name`;
      compoundStart = false;
      continue;
    }
    if (c === 0x5b) {
      const end = attributeEnd(s, i);
      const problem = checkAttribute(s.slice(i + 1, end));
      if (problem !== null) return problem;
      i = end;
      compoundStart = false;
      continue;
    }
    if (c === 0x3a) {
      let j = i + 1;
      if (s.charCodeAt(j) === 0x3a) j++;
      let k = j;
      while (k < s.length && /[\w-]/.test(s[k]!)) k++;
      if (s.charCodeAt(k) === 0x28 && NTH.test(s.slice(j, k + 1))) {
        // Skip the An+B part; an `of S` part is scanned like the rest.
        const close = matchingParen(s, k);
        const arg = s.slice(k + 1, close);
        const of = /\sof\s/i.exec(arg);
        if (of !== null) {
          const problem = findInvalidName(arg.slice(of.index + of[0].length));
          if (problem !== null) return problem;
        }
        i = close;
        compoundStart = false;
        continue;
      }
      if (s.charCodeAt(k) === 0x28) {
        if (SELECTOR_ARGUMENTS.has(s.slice(j, k).toLowerCase())) {
          i = k;
          compoundStart = true; // a selector list follows
        } else {
          i = matchingParen(s, k); // another argument (`:lang(en)`, `::part(x)`): not a selector
          compoundStart = false;
        }
        continue;
      }
      i = k - 1;
      compoundStart = false;
      continue;
    }
    if (c === 0x28) {
      compoundStart = true;
      continue;
    }
    if (compoundStart && ((c >= 0x30 && c <= 0x39) || (c === 0x2d && !startsIdent(s, i)))) {
      return `the type selector "${s.slice(i, i + 4)}…" does not start with a name`;
    }
    compoundStart = false;
  }
  return null;
}

export function skipString(s: string, i: number): number {
  const quote = s.charCodeAt(i);
  for (let j = i + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x5c) j++;
    else if (c === quote) return j;
  }
  return s.length;
}

export function attributeEnd(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x5c) j++;
    else if (c === 0x22 || c === 0x27) j = skipString(s, j);
    else if (c === 0x5d) return j;
  }
  return s.length;
}

export function matchingParen(s: string, i: number): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x5c) j++;
    else if (c === 0x22 || c === 0x27) j = skipString(s, j);
    else if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return j;
  }
  return s.length;
}

/** `[name op value flag]`'s inside: the name and an unquoted value must be identifiers. */
function checkAttribute(inside: string): string | null {
  const m = /^[\t\n\f\r ]*((?:[^|=~^$*!\t\n\f\r \\]|\\.)*\|(?!=))?((?:[^|=~^$*!\t\n\f\r \]\\]|\\.)*)[\t\n\f\r ]*(?:[~|^$*!]?=[\t\n\f\r ]*(.*))?$/s.exec(inside);
  if (m === null) return null; // css-what reports what is wrong
  const name = m[2]!;
  if (name !== '' && !startsIdent(name, 0)) return `the attribute name in "[${inside}]" is not a name`;
  const value = m[3];
  if (value !== undefined && value !== '') {
    const q = value.charCodeAt(0);
    if (q !== 0x22 && q !== 0x27 && !startsIdent(value, 0)) return `the attribute value in "[${inside}]" is neither a name nor a quoted string`;
  }
  return null;
}
