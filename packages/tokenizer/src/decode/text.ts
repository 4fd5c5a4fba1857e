/**
 * Decoding a text token's value (§13.2.5.1–5, .69): what the standard emits as character tokens for a
 * run of raw text of one kind.
 */

import { decodeCharacterReferences } from '../character-references/index.js';
import { ErrorCode, ErrorPriority, type TokenErrorSink } from '../errors.js';
import type { TextKind } from '../tokens.js';
import { normalizeNewlines } from './normalize.js';

/**
 * The value of a text token of kind `kind` whose raw text is `raw`: character references decoded in
 * data and RCDATA (§13.2.5.72), CR and CRLF turned into LF, NUL kept in data and CDATA and U+FFFD
 * elsewhere (RCDATA, RAWTEXT, script data, PLAINTEXT).
 *
 * With `byteForm`, `raw` is in byte form and so is the value (see decode/byte-form.ts).
 *
 * With `report`, also reports the character reference errors, at offsets in `raw`. The scanner itself
 * reports `unknown-named-character-reference` in text (its `;` may come in a later text token), so it
 * is not reported here.
 */
export function decodeText(raw: string, kind: TextKind, report?: TokenErrorSink, byteForm = false): string {
  // (The cache holds values decoded as text, not in byte form; they differ only where a reference is.)
  if (kind === 'data' && report === undefined && raw.length <= MAX_CACHED_TEXT && !(byteForm && raw.indexOf('&') >= 0)) {
    return decodeShortData(raw);
  }
  const references = kind === 'data' || kind === 'rcdata';
  const normalized = normalizeNewlines(raw, kind !== 'data' && kind !== 'cdata', byteForm);
  if (!references) return normalized;
  if (report !== undefined && raw.indexOf('&') >= 0) {
    // Decoding raw text reports the same errors as decoding normalized text, at raw offsets.
    decodeCharacterReferences(raw, false, (code, index) => {
      if (code !== ErrorCode.unknownNamedCharacterReference) report(code, index, ErrorPriority.DECODING);
    });
  }
  return decodeCharacterReferences(normalized, false, undefined, byteForm);
}

/**
 * Short runs of data text repeat a lot: most of a page's text nodes are the whitespace between tags
 * (`"\n    "`, `"\r\n\t\t"`), a few thousand distinct strings over a whole corpus. Their values are
 * cached by raw text: a hit skips the newline normalization (a CRLF page would otherwise copy each one)
 * and hands out one shared string, so a DOM does not keep a copy per text node. A miss or a collision
 * just decodes. Only an optimization: the value is the same either way.
 *
 * Up to 12 characters: V8 copies a slice that short (a longer one is a view into its parent string, which
 * the cache would then keep alive: a whole page).
 */
const MAX_CACHED_TEXT = 12;
const TEXT_SLOT_BITS = 11;
const TEXT_SLOTS = 1 << TEXT_SLOT_BITS;
const cachedRaw: string[] = new Array<string>(TEXT_SLOTS).fill('');
const cachedValue: string[] = new Array<string>(TEXT_SLOTS).fill('');

function decodeShortData(raw: string): string {
  const length = raw.length;
  if (length === 0) return raw;
  // The slot from the length and four characters, mixed by Fibonacci hashing; two ways per slot (a
  // miss moves the slot's entry beside it). With a sum of three characters in 512 slots the commonest
  // runs of whitespace (`"\n\t\t\t"`, `"\r\n      "`) evicted each other: 17% of the corpus's short
  // texts missed. The string comparison settles it.
  const h =
    raw.charCodeAt(0) ^
    (raw.charCodeAt(length >> 1) << 7) ^
    (raw.charCodeAt(length - 1) << 14) ^
    (raw.charCodeAt((length * 3) >> 2) << 21) ^
    (length << 27);
  const slot = Math.imul(h, 0x9e3779b1) >>> (32 - TEXT_SLOT_BITS);
  if (cachedRaw[slot] === raw) return cachedValue[slot];
  if (cachedRaw[slot ^ 1] === raw) return cachedValue[slot ^ 1];
  const value = decodeCharacterReferences(normalizeNewlines(raw, false), false);
  cachedRaw[slot ^ 1] = cachedRaw[slot];
  cachedValue[slot ^ 1] = cachedValue[slot];
  cachedRaw[slot] = raw;
  cachedValue[slot] = value;
  return value;
}
