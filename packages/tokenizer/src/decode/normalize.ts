/**
 * Newline and NUL handling for decoded fields.
 *
 * §13.2.3.5: the input stream has every CR LF pair and every lone CR turned into LF before tokenization.
 * The scanner keeps raw text, so decoders apply it to each field they compute. NUL handling depends on
 * the state that consumed the character (U+FFFD, or kept as U+0000).
 */

import { REPLACEMENT_BYTES } from './byte-form.js';

const CR_OR_CRLF = /\r\n?/g;
const NUL = /\0/g;

/**
 * `s` with CRLF and CR turned into LF, and (when `replaceNul`) each NUL into U+FFFD (its UTF-8 bytes for
 * text in byte form: see byte-form.ts).
 */
export function normalizeNewlines(s: string, replaceNul: boolean, byteForm = false): string {
  // `replace` with a global regexp runs natively; far faster than building the string here.
  if (s.indexOf('\r') >= 0) s = s.replace(CR_OR_CRLF, '\n');
  if (replaceNul && s.indexOf('\0') >= 0) s = s.replace(NUL, byteForm ? REPLACEMENT_BYTES : '\uFFFD');
  return s;
}

/**
 * A tag, attribute or DOCTYPE name as the standard builds it: ASCII upper alphas lowercased (§13.2.5.8,
 * .33, .55), NUL replaced by U+FFFD (in byte form, its bytes); everything else, non-ASCII included, kept as is.
 */
export function lowercaseName(s: string, byteForm = false): string {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x41 && c <= 0x5a) || c === 0) break;
  }
  if (i === n) return s;
  let out = s.slice(0, i);
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) out += String.fromCharCode(c + 0x20);
    else if (c === 0) out += byteForm ? REPLACEMENT_BYTES : '\uFFFD';
    else out += s[i];
  }
  return out;
}
