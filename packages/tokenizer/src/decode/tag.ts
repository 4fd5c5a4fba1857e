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
import { decodeName } from './names.js';
import { normalizeNewlines } from './normalize.js';

/**
 * An attribute as decoded. Its own properties are just `name` and `value` (so tokens' attribute lists
 * compare and print simply, and an attribute costs two fields); `namespace`, `prefix` and `localName`
 * are getters on the prototype, giving it the shape of an attribute on an HTML element (the tree
 * builder's `ElementAttribute`): the tree builder and the DOM keep these objects instead of copies.
 */
export class DecodedAttribute implements Attribute {
  declare readonly name: string;
  declare readonly value: string;
  constructor(name: string, value: string) {
    this.name = name;
    this.value = value;
  }
  get namespace(): null {
    return null;
  }
  get prefix(): null {
    return null;
  }
  get localName(): string {
    return this.name;
  }
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

/** 1 for the characters that end a tag name (§13.2.5.8): TAB, LF, FF, CR, SPACE, `/`, `>` (all ≤ 0x3E). */
const ENDS_TAG_NAME = new Uint8Array(0x3f);
for (const c of [0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x2f, 0x3e]) ENDS_TAG_NAME[c] = 1;

/**
 * The attributes of a start tag, decoded from its exact source text (a start tag token's `raw`, from its
 * `<` to its `>`): the same list the token's `attributes` gives. For a consumer that keeps a tag's raw
 * text and decodes its attributes only if they are ever asked for.
 */
export function attributesOfRawTag(raw: string): DecodedAttribute[] {
  // The name runs from after the `<` to the first character that ends a tag name.
  let nameEnd = 1;
  const end = raw.length - 1; // the final `>`
  while (nameEnd < end) {
    const c = raw.charCodeAt(nameEnd);
    if (c <= 0x3e && ENDS_TAG_NAME[c] === 1) break;
    nameEnd++;
  }
  return decodeAttributes(raw, nameEnd, end);
}

/** A spare list for decoding (reused: the result is an exact-size copy; see `decodeAttributes`). */
let spare: DecodedAttribute[] | null = [];
const CLEARED = new DecodedAttribute('', '');

/**
 * The attributes of the tag `raw`, from `from` (just past the tag name) to `end` (the final `>`, or the
 * end of input for a tag cut by EOF): names lowercased, later duplicates dropped (and, with `report`,
 * reported), values decoded.
 *
 * The result is an array of exactly the attributes' length. (Built by `push`, an array gets room for 16
 * items at once; the DOM keeps these arrays, so the slack would be kept too.)
 */
export function decodeAttributes(raw: string, from: number, end: number, report?: TokenErrorSink): DecodedAttribute[] {
  // Take the spare list (a reentrant call, from `report`, would just make its own).
  const attributes = spare ?? [];
  spare = null;
  let count = 0;
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
    i++;
    while (i < end) {
      c = raw.charCodeAt(i);
      // Whitespace, `/` and `=` are all ≤ 0x3D.
      if (c <= 0x3d && (c === 0x3d || c === 0x2f || isWhitespace(c))) break;
      i++;
    }
    const name = decodeName(raw, nameStart, i);
    let duplicate = false;
    if (count < 8) {
      for (let k = 0; k < count; k++) {
        if (attributes[k].name === name) {
          duplicate = true;
          break;
        }
      }
    } else {
      if (seen === null) {
        seen = new Set<string>();
        for (let k = 0; k < count; k++) seen.add(attributes[k].name);
      }
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
      attributes[count++] = new DecodedAttribute(name, value);
      seen?.add(name);
    }
  }
  // Array literals for the usual few (allocated inline, unlike a `slice` call).
  let result: DecodedAttribute[];
  switch (count) {
    case 0: result = []; break;
    case 1: result = [attributes[0]]; break;
    case 2: result = [attributes[0], attributes[1]]; break;
    case 3: result = [attributes[0], attributes[1], attributes[2]]; break;
    default: result = attributes.slice(0, count);
  }
  // Let go of what the spare list points at (values may be slices of a whole page), then give it back.
  for (let k = 0; k < count; k++) attributes[k] = CLEARED;
  spare = attributes;
  return result;
}
