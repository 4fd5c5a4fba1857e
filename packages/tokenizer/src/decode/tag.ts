/**
 * Decoding a tag token's fields from its raw text: the tag name (§13.2.5.8) and the attributes
 * (§13.2.5.32–40), re-reading the attribute states over the finished tag.
 *
 * The scanner found where the tag ends and where its name ends; it reported the errors of the states
 * themselves. What is left for here is what only the values tell: duplicate attributes (§13.2.5.33,
 * "when the user agent leaves the attribute name state") and character reference errors in values.
 */

import { decodeCharacterReferences } from '../character-references/index.js';
import { ErrorCode, ErrorPriority, type TokenErrorSink } from '../errors.js';
import type { Attribute } from '../tokens.js';
import { lowercaseName, normalizeNewlines } from './normalize.js';

/** An attribute as decoded: a plain object, so that tokens' attribute lists compare and print simply. */
interface DecodedAttribute extends Attribute {
  readonly name: string;
  readonly value: string;
}

/** TAB, LF, FF, CR, SPACE (all ≤ 0x20). */
function isWhitespace(c: number): boolean {
  return c <= 0x20 && (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d);
}

/**
 * The first `&`, CR or NUL in `raw` at or after `from` (where a value stops being its own raw text),
 * or `raw.length`. Three `indexOf` calls (memchr fast) per tag beat looking at every character.
 */
function nextSpecial(raw: string, from: number): number {
  let n = raw.indexOf('&', from);
  let k = n < 0 ? raw.length : n;
  n = raw.indexOf('\r', from);
  if (n >= 0 && n < k) k = n;
  n = raw.indexOf('\0', from);
  if (n >= 0 && n < k) k = n;
  return k;
}

/** An attribute value (§13.2.5.36–38): newlines normalized, NUL to U+FFFD, references decoded. */
export function decodeAttributeValue(raw: string, report: TokenErrorSink | undefined, offset: number): string {
  if (report !== undefined && raw.indexOf('&') >= 0) {
    decodeCharacterReferences(raw, true, (code, index) => report(code, offset + index, ErrorPriority.DECODING));
  }
  return decodeCharacterReferences(normalizeNewlines(raw, true), true);
}

/**
 * The attributes of the tag `raw`, from `from` (just past the tag name) to `end` (the final `>`, or the
 * end of input for a tag cut by EOF): names lowercased, later duplicates dropped (and, with `report`,
 * reported), values decoded.
 */
export function decodeAttributes(raw: string, from: number, end: number, report?: TokenErrorSink): Attribute[] {
  const attributes: DecodedAttribute[] = [];
  let seen: Set<string> | null = null;
  let special = nextSpecial(raw, from);
  let i = from;
  while (i < end) {
    let c = raw.charCodeAt(i);
    // §13.2.5.32 Before attribute name state (and §13.2.5.40 self-closing start tag state: a `/` not
    // followed by `>` is reconsumed here).
    if (isWhitespace(c) || c === 0x2f) {
      i++;
      continue;
    }
    // §13.2.5.33 Attribute name state. A leading `=` is part of the name.
    const nameStart = i;
    // Whether the name has an ASCII upper alpha or a NUL, which decoding changes (usually not).
    let changes = (c >= 0x41 && c <= 0x5a) || c === 0;
    i++;
    while (i < end) {
      c = raw.charCodeAt(i);
      if (c <= 0x3d) {
        // Whitespace, `/` and `=` are all ≤ 0x3D.
        if (c === 0x3d || c === 0x2f || isWhitespace(c)) break;
        if (c === 0) changes = true;
      } else if (c <= 0x5a && c >= 0x41) {
        changes = true;
      }
      i++;
    }
    const name = changes ? lowercaseName(raw.slice(nameStart, i)) : raw.slice(nameStart, i);
    let duplicate = false;
    if (attributes.length < 8) {
      for (let k = 0; k < attributes.length; k++) {
        if (attributes[k].name === name) {
          duplicate = true;
          break;
        }
      }
    } else {
      if (seen === null) seen = new Set(attributes.map((a) => a.name));
      duplicate = seen.has(name);
    }
    if (duplicate) report?.(ErrorCode.duplicateAttribute, i, ErrorPriority.DECODING);
    // §13.2.5.34 After attribute name state.
    while (i < end && isWhitespace(raw.charCodeAt(i))) i++;
    let value = '';
    if (i < end && raw.charCodeAt(i) === 0x3d) {
      i++;
      // §13.2.5.35 Before attribute value state.
      while (i < end && isWhitespace(raw.charCodeAt(i))) i++;
      if (i < end) {
        const q = raw.charCodeAt(i);
        let valueStart: number;
        let valueEnd: number;
        if (q === 0x22 || q === 0x27) {
          // §13.2.5.36–37 Attribute value (double- / single-quoted) state.
          valueStart = i + 1;
          valueEnd = raw.indexOf(q === 0x22 ? '"' : "'", valueStart);
          if (valueEnd < 0 || valueEnd > end) valueEnd = end; // cut by EOF
          i = valueEnd + 1;
        } else {
          // §13.2.5.38 Attribute value (unquoted) state.
          valueStart = i;
          while (i < end && !isWhitespace(raw.charCodeAt(i))) i++;
          valueEnd = i;
        }
        // A dropped duplicate's value is still tokenized: its reference errors still count.
        if (!duplicate || report !== undefined) {
          if (special < valueStart) special = nextSpecial(raw, valueStart);
          value =
            special >= valueEnd
              ? raw.slice(valueStart, valueEnd)
              : decodeAttributeValue(raw.slice(valueStart, valueEnd), report, valueStart);
        }
      }
    }
    if (!duplicate) {
      attributes.push({ name, value });
      seen?.add(name);
    }
  }
  return attributes;
}
