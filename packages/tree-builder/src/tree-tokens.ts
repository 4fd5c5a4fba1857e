/**
 * The tokens as the tree builder processes them (WHATWG HTML §13.2.6).
 *
 * The tokenizer's raw tokens are turned into these once, at the door: a tag gets its tag id looked up,
 * character data its span. Rules that "reprocess" a token, or act "as if" a different one had been seen
 * (`</br>` as `<br>`, `<image>` as `<img>`), build one of these.
 */
import type { Attribute, StartTagClass } from '@sluice/tokenizer';

export const START_TAG = 0;
export const END_TAG = 1;
export const CHARACTERS = 2;
export const COMMENT = 3;
export const DOCTYPE = 4;
export const EOF = 5;

export interface TagToken {
  readonly kind: typeof START_TAG | typeof END_TAG;
  /** Tag name, ASCII-lowercased. */
  readonly name: string;
  /** The HTML tag id of `name` (`T.UNKNOWN` when the rules never name it). */
  readonly id: number;
  readonly attributes: readonly Attribute[];
  readonly selfClosing: boolean;
  /** Source span: `[start, end)`; `end === start` for tags the parser made up. */
  readonly start: number;
  readonly end: number;
  /** §13.2.5 "acknowledge the token's self-closing flag". */
  acknowledged: boolean;
  /**
   * The tokenizer's start tag while its attributes are still undecoded (they are decoded the first time
   * `attributes` is read); null or absent otherwise.
   */
  readonly undecodedSource?: StartTagClass | null;
}

/** A run of character tokens, all processed the same way. */
export interface CharacterToken {
  readonly kind: typeof CHARACTERS;
  readonly data: string;
  readonly start: number;
  readonly end: number;
}

export interface CommentTreeToken {
  readonly kind: typeof COMMENT;
  readonly data: string;
  readonly start: number;
  readonly end: number;
}

export interface DoctypeTreeToken {
  readonly kind: typeof DOCTYPE;
  readonly name: string | null;
  readonly publicId: string | null;
  readonly systemId: string | null;
  readonly forceQuirks: boolean;
  readonly start: number;
  readonly end: number;
}

export interface EofToken {
  readonly kind: typeof EOF;
  readonly start: number;
  readonly end: number;
}

export type TreeToken = TagToken | CharacterToken | CommentTreeToken | DoctypeTreeToken | EofToken;

export function tagToken(
  kind: typeof START_TAG | typeof END_TAG,
  name: string,
  id: number,
  attributes: readonly Attribute[],
  selfClosing: boolean,
  start: number,
  end: number,
): TagToken {
  return { kind, name, id, attributes, selfClosing, start, end, acknowledged: false };
}

export function characters(data: string, start: number, end: number): CharacterToken {
  return { kind: CHARACTERS, data, start, end };
}

/** The characters of `t` from index `from` on, as a token of their own (for whitespace splitting). */
export function charactersFrom(t: CharacterToken, from: number): CharacterToken {
  return from === 0 ? t : characters(t.data.slice(from), t.start, t.end);
}

/** The characters of `t` before index `to`, as a token of their own. */
export function charactersBefore(t: CharacterToken, to: number): CharacterToken {
  return to === t.data.length ? t : characters(t.data.slice(0, to), t.start, t.end);
}

/** A tag the rules act "as if" they had seen: `like` lends its attributes, flag and span (default none). */
export function fakeTag(
  kind: typeof START_TAG | typeof END_TAG,
  name: string,
  id: number,
  like?: { readonly attributes: readonly Attribute[]; readonly selfClosing: boolean; readonly start: number; readonly end: number },
): TagToken {
  return tagToken(kind, name, id, like?.attributes ?? [], like?.selfClosing ?? false, like?.start ?? 0, like?.end ?? 0);
}

/** Only the ASCII whitespace characters of `data` (modes that keep whitespace and drop everything else). */
export function whitespaceOf(data: string): string {
  return data.replace(/[^\t\n\f\r ]+/g, '');
}

/**
 * A tag token the tree builder fills in place for each incoming tag (no allocation per token). Safe
 * because no rule keeps a token past its processing: elements copy what they need.
 *
 * A start tag from the tokenizer keeps its token as `source`, and its attributes are only decoded if a
 * rule reads them (or the element is made by `createElement`): `undecodedSource` tells a sink that can
 * take raw attributes that nothing has needed them yet.
 */
export class ReusableTag implements TagToken {
  declare readonly kind: typeof START_TAG | typeof END_TAG;
  declare name: string;
  declare id: number;
  /** The attributes, or null: not read yet, decoded from `source` when they are. */
  declare private decoded: readonly Attribute[] | null;
  declare private source: StartTagClass | null;
  declare selfClosing: boolean;
  declare start: number;
  declare end: number;
  declare acknowledged: boolean;

  constructor(kind: typeof START_TAG | typeof END_TAG) {
    this.kind = kind;
    this.name = '';
    this.id = 0;
    this.decoded = NO_ATTRIBUTES;
    this.source = null;
    this.selfClosing = false;
    this.start = 0;
    this.end = 0;
    this.acknowledged = false;
  }

  get attributes(): readonly Attribute[] {
    const decoded = this.decoded;
    return decoded !== null ? decoded : (this.decoded = (this.source as StartTagClass).attributes);
  }

  /**
   * The value of the attribute `name` (lowercase), or null: read from the tokenizer's tag without
   * decoding the others while nothing has read them (the rules' one-attribute checks: `<input type>`).
   */
  attributeValue(name: string): string | null {
    const decoded = this.decoded;
    if (decoded === null) return (this.source as StartTagClass).attributeValue(name);
    for (let i = 0; i < decoded.length; i++) if (decoded[i].name === name) return decoded[i].value;
    return null;
  }

  /** The tokenizer's start tag while its attributes are undecoded (none has read them). */
  get undecodedSource(): StartTagClass | null {
    const source = this.source;
    return this.decoded === null && source !== null && source.attributesUndecoded ? source : null;
  }

  /** Let go of the last tag's token (see `TreeBuilder.releaseDocument`). */
  release(): void {
    this.decoded = NO_ATTRIBUTES;
    this.source = null;
  }

  /** Fill in a tag; its attributes are `attributes`, or (null) those of the tokenizer's start tag `source`. */
  set(
    name: string,
    id: number,
    attributes: readonly Attribute[] | null,
    source: StartTagClass | null,
    selfClosing: boolean,
    start: number,
    end: number,
  ): this {
    this.name = name;
    this.id = id;
    this.decoded = attributes;
    this.source = source;
    this.selfClosing = selfClosing;
    this.start = start;
    this.end = end;
    this.acknowledged = false;
    return this;
  }
}

const NO_ATTRIBUTES: readonly Attribute[] = Object.freeze([]);
