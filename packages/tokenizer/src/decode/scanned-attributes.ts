/**
 * The attribute boundaries the tag scanner found (§13.2.5.32–38), kept for the tag it emitted last, so
 * that decoding that tag's attributes does not walk the attribute states a second time.
 *
 * The scanner already passes every boundary: where each name starts and ends, where each value starts
 * and ends. It writes them here as absolute input offsets (four stores per attribute). A tag token
 * decodes from them only while it is the *live* tag: the last tag a tokenizer emitted, read before the
 * scanner starts the next one (the tree builder and most consumers read attributes inside `emit`).
 * Any other read (a tag kept and read later, a tag from another tokenizer) decodes from the tag's raw
 * text as before (decode/tag.ts): the same list either way.
 *
 * Character references, CR and NUL make a value more than its slice of the tag. They are rare: one
 * regular expression test of the tag's text settles that for all its values. (Caching the next of each
 * per input string instead searched whole pages for characters they lack: no faster, see
 * docs/tokenizer.md.)
 */

import type { Attribute } from '../tokens.js';
import { decodeName } from './names.js';
import { DecodedAttribute, decodeAttributeValue, exactAttributes, hasSpecial, nameAmong, nameEquals, namesOf, nextSpecial, takeAttributeList } from './tag.js';

/** The scanner's record of the current tag's attributes, one per tokenizer. */
export class ScannedAttributes {
  /**
   * Four absolute offsets per attribute: name start, name end, value start (-1 when there is no `=`),
   * value end (the closing quote, or the character after an unquoted value). Room for four attributes
   * at first: up to 64 bytes a typed array lives in the heap, made as cheaply as any object (one per
   * tokenizer, one tokenizer per document); `grow` doubles it for a tag with more.
   */
  spans: Int32Array = new Int32Array(16);
  /** Slots of `spans` in use (four per attribute). */
  length = 0;
  /** The absolute offset of the `<` of the tag the spans belong to (-1 before any). */
  tagStart = -1;
  /** The spans of the tag at `tagStart` are incomplete (the tokenizer was restored in the middle of it). */
  private incomplete = false;


  /**
   * The tag scanner (re)enters the tag that begins at `tagStart`: the number of slots already written
   * for it, none when it is a new tag (the last tag's spans are then forgotten).
   */
  resume(tagStart: number): number {
    if (this.tagStart !== tagStart) {
      this.tagStart = tagStart;
      this.incomplete = false;
      this.length = 0;
    }
    return this.length;
  }

  /** The scanner is about to emit the tag, whose spans fill `length` slots. */
  stop(length: number): void {
    this.length = length;
  }

  /** Twice the room (out of the scanner's way). */
  grow(): Int32Array {
    const grown = new Int32Array(this.spans.length * 2);
    grown.set(this.spans);
    return (this.spans = grown);
  }

  /**
   * Whether the spans are those of the whole tag that begins at `tagStart`: it is the tag being scanned
   * or the last one emitted (the scanner has not entered the next), and was not cut by a restore.
   */
  holds(tagStart: number): boolean {
    return this.tagStart === tagStart && !this.incomplete;
  }

  /**
   * The tokenizer was restored from a snapshot, perhaps in the middle of the tag at `tagStart`: the
   * attributes scanned before are not recorded here, so that tag decodes from its raw text.
   */
  restored(tagStart: number): void {
    this.tagStart = tagStart;
    this.length = 0;
    this.incomplete = true;
  }

  /**
   * The live tag's attributes (see the module comment): `raw` is the tag's text and `delta` turns an
   * absolute offset into an index in it. What `decodeAttributes` gives for the tag.
   */
  decode(raw: string, delta: number, byteForm: boolean): DecodedAttribute[] {
    const spans = this.spans;
    const length = this.length;
    // Gathered as `decodeAttributes` (tag.ts) gathers them: the same duplicate rule, the same result.
    const attributes = takeAttributeList();
    let count = 0;
    let seen: Set<string> | null = null;
    // Most tags hold no `&`, CR or NUL: then every value is its slice of the tag.
    let special = SPECIAL.test(raw) ? -1 : raw.length;
    for (let k = 0; k < length; k += 4) {
      const name = decodeName(raw, spans[k] + delta, spans[k + 1] + delta, byteForm);
      // §13.2.5.33: a later attribute of the same name is dropped.
      if (count < 8 ? nameAmong(attributes, count, name) : (seen ??= namesOf(attributes, count)).has(name)) continue;
      let value = '';
      if (spans[k + 2] >= 0) {
        const valueStart = spans[k + 2] + delta;
        const valueEnd = spans[k + 3] + delta;
        if (special < valueStart) special = nextSpecial(raw, valueStart);
        value = raw.slice(valueStart, valueEnd);
        if (special < valueEnd) value = decodeAttributeValue(value, undefined, 0, byteForm);
      }
      attributes[count++] = new DecodedAttribute(name, value);
      seen?.add(name);
    }
    return exactAttributes(attributes, count);
  }
}

/**
 * The decoded value of the attribute `name` (lowercase, ASCII) of `tag` from the scanner's spans when it
 * is the live tag, or null when it has none; undefined when it is not live (look it up in its raw text).
 * What `attributeValueOf` gives: the first attribute of that name. `source` is a string the tag lies in
 * and `delta` turns an absolute offset into an index in it.
 */
export function liveAttributeValue(
  scanned: ScannedAttributes | null,
  start: number,
  source: string,
  delta: number,
  name: string,
  byteForm: boolean,
): string | null | undefined {
  if (scanned === null || !scanned.holds(start)) return undefined;
  const spans = scanned.spans;
  const length = scanned.length;
  for (let k = 0; k < length; k += 4) {
    const nameStart = spans[k] + delta;
    if (spans[k + 1] + delta - nameStart !== name.length || !nameEquals(source, nameStart, name)) continue;
    if (spans[k + 2] < 0) return '';
    const value = source.slice(spans[k + 2] + delta, spans[k + 3] + delta);
    return hasSpecial(value) ? decodeAttributeValue(value, undefined, 0, byteForm) : value;
  }
  return null;
}

/** A character that makes a value more than its slice: `&` (a reference), CR (newlines), NUL. */
const SPECIAL = /[&\r\0]/;


/**
 * The decoded attributes of `tag` from the scanner's spans when it is the live tag (see the module
 * comment), else undefined (decode from its raw text).
 */
export function liveAttributes(
  scanned: ScannedAttributes | null,
  start: number,
  raw: string,
  delta: number,
  byteForm: boolean,
): readonly Attribute[] | undefined {
  if (scanned === null || !scanned.holds(start)) return undefined;
  return scanned.decode(raw, delta, byteForm);
}
