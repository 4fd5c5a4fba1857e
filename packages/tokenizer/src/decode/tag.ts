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
import { isAscii } from './byte-form.js';
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
export function nextSpecial(raw: string, from: number): number {
  let n = raw.indexOf('&', from);
  let k = n < 0 ? raw.length : n;
  n = raw.indexOf('\r', from);
  if (n >= 0 && n < k) k = n;
  n = raw.indexOf('\0', from);
  if (n >= 0 && n < k) k = n;
  return k;
}

/**
 * Whether `s` has a character `nextSpecial` looks for. Three `indexOf` searches: V8's are vectorized,
 * and measured several times faster than one pass of `charCodeAt` over a URL-sized value.
 */
export function hasSpecial(s: string): boolean {
  return s.indexOf('&') >= 0 || s.indexOf('\r') >= 0 || s.indexOf('\0') >= 0;
}

/**
 * An attribute value (§13.2.5.36–38): newlines normalized, NUL to U+FFFD, references decoded (with
 * `byteForm`, `raw` and the value are in byte form: see byte-form.ts).
 */
export function decodeAttributeValue(raw: string, report: TokenErrorSink | undefined, offset: number, byteForm = false): string {
  if (report !== undefined && raw.indexOf('&') >= 0) {
    decodeCharacterReferences(raw, true, (code, index) => report(code, offset + index, ErrorPriority.DECODING));
  }
  return decodeCharacterReferences(normalizeNewlines(raw, true, byteForm), true, undefined, byteForm);
}

/** 1 for the characters that end a tag name (§13.2.5.8): TAB, LF, FF, CR, SPACE, `/`, `>` (all ≤ 0x3E). */
const ENDS_TAG_NAME = new Uint8Array(0x3f);
for (const c of [0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x2f, 0x3e]) ENDS_TAG_NAME[c] = 1;

/**
 * The attributes of a start tag, decoded from its exact source text (a start tag token's `raw`, from its
 * `<` to its `>`): the same list the token's `attributes` gives. For a consumer that keeps a tag's raw
 * text and decodes its attributes only if they are ever asked for. `byteForm`: the tag came from a
 * tokenizer with `byteInput`, and so are the names and values in byte form (see `TokenizerOptions`).
 */
export function attributesOfRawTag(raw: string, byteForm = false): DecodedAttribute[] {
  return decodeAttributes(raw, nameEndOfRawTag(raw), raw.length - 1, undefined, byteForm);
}

/**
 * The decoded value of the attribute `name` (lowercase) of the start tag `raw` (its exact source text),
 * or null when it has none: what looking `name` up in `attributesOfRawTag(raw)` gives, without decoding
 * the other attributes. `byteForm` as for `attributesOfRawTag` (`name` is ASCII then, or in byte form).
 */
export function attributeValueOfRawTag(raw: string, name: string, byteForm = false): string | null {
  return attributeValueOf(raw, nameEndOfRawTag(raw), raw.length - 1, name, byteForm);
}

/** An attribute's place in a start tag's source text (see `attributeSpansOfRawTag`). */
export interface AttributeSpan {
  /** The name, decoded (ASCII-lowercased). */
  readonly name: string;
  /** From the first character of the name… */
  readonly start: number;
  /** …to just past the value (its closing quote included), or past the name when there is no `=`. */
  readonly end: number;
}

/**
 * Where each attribute of the complete start tag `raw` lies, duplicates included (the token's
 * `attributes` keeps the first of each name): for copying attributes byte for byte into a rewritten tag.
 */
export function attributeSpansOfRawTag(raw: string): AttributeSpan[] {
  const spans: AttributeSpan[] = [];
  const end = raw.length - 1; // the final `>`
  const span = new Int32Array(4);
  let i = nameEndOfRawTag(raw);
  while ((i = nextAttribute(raw, i, end, span)) >= 0) {
    spans.push({ name: decodeName(raw, span[0], span[1]), start: span[0], end: span[2] < 0 ? span[1] : i });
  }
  return spans;
}

/** Where the name of the start tag `raw` ends: at the first character that ends a tag name after the `<`. */
export function nameEndOfRawTag(raw: string): number {
  let nameEnd = 1;
  const end = raw.length - 1; // the final `>`
  while (nameEnd < end) {
    const c = raw.charCodeAt(nameEnd);
    if (c <= 0x3e && ENDS_TAG_NAME[c] === 1) break;
    nameEnd++;
  }
  return nameEnd;
}

/**
 * Where the next attribute of a tag lies: `span[0..1]` its name, `span[2..3]` its value (`span[2]` is -1
 * when it has no `=`; a value cut by EOF ends at `end`). Starts at `i` (after the tag name or the previous
 * attribute) and returns where the attribute ends, or -1 when no attribute is left before `end`.
 * The attribute states (§13.2.5.32–38) over a finished tag: the scanner already found it well formed
 * enough to end, so only the boundaries are left to find.
 */
function nextAttribute(raw: string, i: number, end: number, span: Int32Array): number {
  let c = 0;
  // §13.2.5.32 Before attribute name state (and §13.2.5.40 self-closing start tag state: a `/` not
  // followed by `>` is reconsumed here).
  for (;;) {
    if (i >= end) return -1;
    c = raw.charCodeAt(i);
    if (!(isWhitespace(c) || c === 0x2f)) break;
    i++;
  }
  // §13.2.5.33 Attribute name state. A leading `=` is part of the name.
  span[0] = i;
  i++;
  while (i < end) {
    c = raw.charCodeAt(i);
    // Whitespace, `/` and `=` are all ≤ 0x3D.
    if (c <= 0x3d && (c === 0x3d || c === 0x2f || isWhitespace(c))) break;
    i++;
  }
  span[1] = i;
  span[2] = -1;
  // §13.2.5.34 After attribute name state.
  while (i < end && isWhitespace(raw.charCodeAt(i))) i++;
  if (i >= end || raw.charCodeAt(i) !== 0x3d) return i;
  i++;
  // §13.2.5.35 Before attribute value state.
  while (i < end && isWhitespace(raw.charCodeAt(i))) i++;
  if (i >= end) {
    // `=` and then the tag's end: an empty value.
    span[2] = span[3] = i;
    return i;
  }
  const q = raw.charCodeAt(i);
  if (q === 0x22 || q === 0x27) {
    // §13.2.5.36–37 Attribute value (double- / single-quoted) state.
    span[2] = i + 1;
    let valueEnd = raw.indexOf(q === 0x22 ? '"' : "'", i + 1);
    if (valueEnd < 0 || valueEnd > end) valueEnd = end; // cut by EOF
    span[3] = valueEnd;
    return valueEnd + 1;
  }
  // §13.2.5.38 Attribute value (unquoted) state.
  span[2] = i;
  while (i < end && !isWhitespace(raw.charCodeAt(i))) i++;
  span[3] = i;
  return i;
}

/** Scratch for `nextAttribute` (never held across calls that could re-enter). */
const SPAN = new Int32Array(4);

/**
 * What both attribute decoders (`decodeAttributes` here, from a tag's text; scanned-attributes.ts, from the
 * tag scanner's spans) gather a tag's attributes with: one spare list reused from tag to tag, the
 * §13.2.5.33 duplicate check, and the exact-size result.
 */
let spare: DecodedAttribute[] | null = [];
const CLEARED = new DecodedAttribute('', '');

/** The spare list to gather into (a reentrant call, from an error sink, makes its own); `exactAttributes` gives it back. */
export function takeAttributeList(): DecodedAttribute[] {
  const list = spare ?? [];
  spare = null;
  return list;
}

/** §13.2.5.33: whether `name` is one of the first `count` attributes gathered (a scan: for up to 8). */
export function nameAmong(attributes: readonly DecodedAttribute[], count: number, name: string): boolean {
  for (let k = 0; k < count; k++) if (attributes[k].name === name) return true;
  return false;
}

/** The names of the first `count` attributes gathered: the duplicate check past 8 (the caller adds each new one). */
export function namesOf(attributes: readonly DecodedAttribute[], count: number): Set<string> {
  const seen = new Set<string>();
  for (let k = 0; k < count; k++) seen.add(attributes[k].name);
  return seen;
}

/**
 * The first `count` attributes of `attributes` (from `takeAttributeList`) as an array of exactly that
 * length, and the list given back. (Built by `push`, an array gets room for 16 items at once; the DOM
 * keeps these arrays, so the slack would be kept too.)
 */
export function exactAttributes(attributes: DecodedAttribute[], count: number): DecodedAttribute[] {
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

/**
 * The attributes of the tag `raw`, from `from` (just past the tag name) to `end` (the final `>`, or the
 * end of input for a tag cut by EOF): names lowercased, later duplicates dropped (and, with `report`,
 * reported), values decoded. With `byteForm`, `raw` and the result are in byte form (see byte-form.ts).
 *
 * The result is an array of exactly the attributes' length (see `exactAttributes`).
 */
export function decodeAttributes(raw: string, from: number, end: number, report?: TokenErrorSink, byteForm = false): DecodedAttribute[] {
  const attributes = takeAttributeList();
  // Its own span: `report` may decode another tag's attributes before this loop reads this one's.
  const span = report === undefined ? SPAN : new Int32Array(4);
  let count = 0;
  let seen: Set<string> | null = null;
  let special = nextSpecial(raw, from);
  let i = from;
  while ((i = nextAttribute(raw, i, end, span)) >= 0) {
    const nameEnd = span[1];
    const name = decodeName(raw, span[0], nameEnd, byteForm);
    const duplicate = count < 8 ? nameAmong(attributes, count, name) : (seen ??= namesOf(attributes, count)).has(name);
    if (duplicate) report?.(ErrorCode.duplicateAttribute, nameEnd, ErrorPriority.DECODING);
    let value = '';
    const valueStart = span[2];
    // A dropped duplicate's value is still tokenized: its reference errors still count.
    if (valueStart >= 0 && (!duplicate || report !== undefined)) {
      const valueEnd = span[3];
      if (special < valueStart) special = nextSpecial(raw, valueStart);
      value = special >= valueEnd ? raw.slice(valueStart, valueEnd) : decodeAttributeValue(raw.slice(valueStart, valueEnd), report, valueStart, byteForm);
    }
    if (!duplicate) {
      attributes[count++] = new DecodedAttribute(name, value);
      seen?.add(name);
    }
  }
  return exactAttributes(attributes, count);
}

/**
 * The decoded value of the attribute named `name` (already lowercase) in the tag `raw`, attributes from
 * `from` to `end` as for `decodeAttributes`, or null when there is none: what looking `name` up in
 * `decodeAttributes`' result gives (the first attribute of that name wins), without decoding the others.
 * `raw` may also be a longer string the tag lies in (`from` and `end` then count from its start).
 */
export function attributeValueOf(raw: string, from: number, end: number, name: string, byteForm = false): string | null {
  if (byteForm && !isAscii(name)) {
    // A raw NUL decodes to three bytes in byte form: `nameEquals` compares character for character.
    // (`raw` cut after the tag: it may be a whole page the tag lies in, and the decoder searches ahead.)
    for (const attribute of decodeAttributes(raw.slice(0, end + 1), from, end, undefined, true)) if (attribute.name === name) return attribute.value;
    return null;
  }
  const length = name.length;
  let i = from;
  while ((i = nextAttribute(raw, i, end, SPAN)) >= 0) {
    const nameStart = SPAN[0];
    if (SPAN[1] - nameStart !== length || !nameEquals(raw, nameStart, name)) continue;
    const valueStart = SPAN[2];
    if (valueStart < 0) return '';
    const value = raw.slice(valueStart, SPAN[3]);
    return hasSpecial(value) ? decodeAttributeValue(value, undefined, 0, byteForm) : value;
  }
  return null;
}

/**
 * Whether the raw name at `raw[start, start + name.length)` decodes to `name` (lowercase): ASCII upper
 * alphas compare lowercased; a NUL (U+FFFD once decoded) compares as U+FFFD.
 */
export function nameEquals(raw: string, start: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) {
    let c = raw.charCodeAt(start + k);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    else if (c === 0) c = 0xfffd;
    if (c !== name.charCodeAt(k)) return false;
  }
  return true;
}
