/**
 * The token classes: each holds its raw text (or, for text and tags, where it lies in the string being
 * read), its start offset and the few offsets the scanner found on the way; every decoded field is a
 * getter computed on first access and cached — except a tag's name, which the tokenizer decodes as it
 * emits the tag (every consumer reads it, and it is cheapest to read from the string just scanned).
 *
 * One class per token type, each always built with the same fields in the same order, so every
 * property access stays monomorphic. Fields are `declare`d and assigned in constructors (explicit ones,
 * also in subclasses): class field initializers (define semantics) and default derived constructors
 * both cost measurably per token, and there is one token per tag or run of text.
 */

import { attributeValueOf, decodeAttributes, nameEndOfRawTag } from './decode/tag.js';
import { decodeName } from './decode/names.js';
import { liveAttributeValue, liveAttributes, type ScannedAttributes } from './decode/scanned-attributes.js';
import { isAscii } from './decode/byte-form.js';
import { decodeText } from './decode/text.js';
import { lowercaseName, normalizeNewlines } from './decode/normalize.js';
import { reportInputStreamErrors } from './preprocess.js';
import type { TokenErrorSink } from './errors.js';
import type {
  Attribute,
  CommentToken,
  DiscardedToken,
  DoctypeToken,
  EndTagToken,
  StartTagToken,
  TextKind,
  TextToken,
} from './tokens.js';

/** What every token class can do besides being a token: report the errors its fields hold. */
export interface TokenErrors {
  /** Decodes every field now, reporting preprocessing and decoding errors at offsets in `raw`. */
  collectErrors(report: TokenErrorSink): void;
}

/**
 * Node's `util.inspect` hook (a registered symbol: harmless elsewhere). Tokens print and serialize as
 * their public fields: their own properties are internal (a text or tag token points into the whole
 * string it was read from, see `Text.source`), and decoded fields are getters.
 */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** Character data (§13.2.5.1–5, .69). */
export class Text implements TextToken, TokenErrors {
  declare readonly type: 'text';
  declare readonly kind: TextKind;
  declare readonly start: number;
  /** @internal Offset just past the token in the whole input (`start` plus the length of `raw`). */
  declare readonly end: number;
  /**
   * @internal The string the token's text lies in, from `offset`: the string the tokenizer was reading
   * (the token is sliced from it only when `raw` is read: most consumers need its span, not its text),
   * or the token's own text.
   */
  declare readonly source: string;
  /** @internal See `source`. */
  declare readonly offset: number;
  declare private rawText: string | undefined;
  declare private decoded: string | undefined;
  /** Whether `raw` is in byte form (a tokenizer with `byteInput`): `value` is then too. */
  declare readonly byteForm: boolean;

  /**
   * @param source the token's raw text, or (with `offset` and `length`) a string it lies in
   * @param start the raw text's offset in the whole input
   */
  constructor(kind: TextKind, source: string, start: number, byteForm = false, offset = 0, length = source.length) {
    this.type = 'text';
    this.kind = kind;
    this.start = start;
    this.end = start + length;
    this.source = source;
    this.offset = offset;
    this.rawText = offset === 0 && length === source.length ? source : undefined;
    this.decoded = undefined;
    this.byteForm = byteForm;
  }

  get raw(): string {
    const raw = this.rawText;
    return raw !== undefined ? raw : (this.rawText = this.source.slice(this.offset, this.offset + this.end - this.start));
  }

  get value(): string {
    const decoded = this.decoded;
    return decoded !== undefined ? decoded : (this.decoded = decodeText(this.raw, this.kind, undefined, this.byteForm));
  }

  collectErrors(report: TokenErrorSink): void {
    reportInputStreamErrors(this.raw, this.kind === 'cdata', report);
    this.decoded = decodeText(this.raw, this.kind, report, this.byteForm);
  }

  /** The public fields (what `JSON.stringify` and Node's `console.log` show). */
  toJSON(): TextToken {
    return { type: this.type, kind: this.kind, raw: this.raw, start: this.start, value: this.value };
  }
  [INSPECT](): TextToken {
    return this.toJSON();
  }
}

/** Shared decoding of start and end tags: the name is `raw[nameStart, nameEnd)`, attributes follow. */
abstract class Tag implements TokenErrors {
  declare readonly start: number;
  /** @internal Offset just past the token in the whole input (`start` plus the length of `raw`). */
  declare readonly end: number;
  /** @internal The string the tag's text lies in, from `offset` (see `Text.source`). */
  declare readonly source: string;
  /** @internal See `source`. */
  declare readonly offset: number;
  declare private rawText: string | undefined;
  declare readonly selfClosing: boolean;
  /** Where the name ends in `raw` (it starts at 1 for a start tag, 2 for an end tag). */
  declare protected readonly nameEnd: number;
  declare private decodedName: string | undefined;
  declare private decodedAttributes: readonly Attribute[] | undefined;
  /** The last `attributeValue` lookup made before the attributes were decoded, and its answer. */
  declare private lookedUpName: string | null;
  declare private lookedUpValue: string | null;
  /** Whether `raw` is in byte form (a tokenizer with `byteInput`): names and values are then too. */
  declare readonly byteForm: boolean;
  /** The attribute boundaries recorded by the tokenizer that emitted the tag (see decode/scanned-attributes.ts), or null. */
  declare private readonly scanned: ScannedAttributes | null;

  /**
   * @param source the tag's raw text, or (with `offset` and `length`) a string it lies in
   * @param start the raw text's offset in the whole input
   * @param scanned the emitting tokenizer's record of attribute boundaries
   */
  constructor(
    source: string,
    start: number,
    nameEnd: number,
    selfClosing: boolean,
    byteForm: boolean,
    offset: number,
    length: number,
    name: string | undefined,
    scanned: ScannedAttributes | null,
  ) {
    this.start = start;
    this.end = start + length;
    this.source = source;
    this.offset = offset;
    this.rawText = offset === 0 && length === source.length ? source : undefined;
    this.nameEnd = nameEnd;
    this.selfClosing = selfClosing;
    this.decodedName = name;
    this.decodedAttributes = undefined;
    this.lookedUpName = null;
    this.lookedUpValue = null;
    this.byteForm = byteForm;
    this.scanned = scanned;
  }

  protected abstract get nameStart(): number;

  /** The exact source text of the tag (sliced on first read). */
  get raw(): string {
    const raw = this.rawText;
    return raw !== undefined ? raw : (this.rawText = this.source.slice(this.offset, this.offset + this.end - this.start));
  }

  get name(): string {
    const name = this.decodedName;
    if (name !== undefined) return name;
    // Read where the tag lies (no slice of it is needed for a name seen before: see decodeName).
    const offset = this.offset;
    return (this.decodedName = decodeName(this.source, offset + this.nameStart, offset + this.nameEnd, this.byteForm));
  }

  /** Whether nothing follows the name but `>` or `/>`: the tag has no attributes (`<p>`, `<br/>`). */
  private get bare(): boolean {
    const rest = this.end - this.start - this.nameEnd;
    return rest === 1 || (rest === 2 && this.selfClosing);
  }

  get attributes(): readonly Attribute[] {
    const attributes = this.decodedAttributes;
    if (attributes !== undefined) return attributes;
    if (this.bare) return (this.decodedAttributes = EMPTY);
    const raw = this.raw;
    // The tag just emitted: from the boundaries the scanner recorded.
    const live = liveAttributes(this.scanned, this.start, raw, -this.start, this.byteForm);
    if (live !== undefined) return (this.decodedAttributes = live);
    return (this.decodedAttributes = decodeAttributes(raw, this.nameEnd, raw.length - 1, undefined, this.byteForm));
  }

  /**
   * The decoded value of the attribute `name` (lowercase, as attribute names are decoded), or null when
   * the tag has none: `attributes`' entry, found without decoding the other attributes when they have not
   * been decoded yet (a selector or a handler asking for one attribute of a tag with many).
   */
  attributeValue(name: string): string | null {
    const attributes = this.decodedAttributes;
    if (attributes === undefined) {
      if (this.bare) return null;
      // The last answer is kept: a selector's `[href]` and then its handler's `getAttribute('href')`
      // ask the same question of the same tag.
      if (name === this.lookedUpName) return this.lookedUpValue;
      // Read where the tag lies, without slicing it (the value found is sliced): the tag just emitted
      // from the boundaries the scanner recorded, any other by walking its attributes.
      const offset = this.offset;
      let value = this.byteForm && !isAscii(name) ? undefined : liveAttributeValue(this.scanned, this.start, this.source, offset - this.start, name, this.byteForm);
      if (value === undefined) value = attributeValueOf(this.source, offset + this.nameEnd, offset + this.end - this.start - 1, name, this.byteForm);
      this.lookedUpName = name;
      this.lookedUpValue = value;
      return value;
    }
    for (let i = 0; i < attributes.length; i++) if (attributes[i].name === name) return attributes[i].value;
    return null;
  }

  /**
   * Whether the tag has attribute text that `attributes` has not decoded yet. (A consumer that can keep
   * `raw` and decode later with `attributesOfRawTag` may then skip decoding now.)
   */
  get attributesUndecoded(): boolean {
    return this.decodedAttributes === undefined && !this.bare;
  }

  collectErrors(report: TokenErrorSink): void {
    reportInputStreamErrors(this.raw, false, report);
    this.decodedAttributes = decodeAttributes(this.raw, this.nameEnd, this.raw.length - 1, report, this.byteForm);
  }

  /** The public fields (what `JSON.stringify` and Node's `console.log` show). */
  toJSON(): StartTagToken | EndTagToken {
    const type = this instanceof StartTag ? 'startTag' : 'endTag';
    const attributes = this.attributes.map((a) => ({ name: a.name, value: a.value }));
    return { type, name: this.name, attributes, selfClosing: this.selfClosing, raw: this.raw, start: this.start };
  }
  [INSPECT](): StartTagToken | EndTagToken {
    return this.toJSON();
  }
}

const EMPTY: readonly Attribute[] = Object.freeze([]);

/** A start tag (§13.2.5.6–8, .32–40). */
export class StartTag extends Tag implements StartTagToken {
  declare readonly type: 'startTag';
  /** See `Tag`'s constructor (`name`: the name, when the caller has decoded it already; `scanned`: from a tokenizer). */
  constructor(
    source: string,
    start: number,
    nameEnd: number,
    selfClosing: boolean,
    byteForm = false,
    offset = 0,
    length = source.length,
    name?: string,
    scanned: ScannedAttributes | null = null,
  ) {
    super(source, start, nameEnd, selfClosing, byteForm, offset, length, name, scanned);
    this.type = 'startTag';
  }

  /**
   * The start tag whose exact source text is `raw` (`<` to `>`), at `start`; `selfClosing` as the
   * tokenizer found it (`<a b=c/>` is not: its value is `c/`). For re-reading a tag's text in another
   * form (see `TokenizerOptions.byteInput`).
   */
  static fromRaw(raw: string, start: number, selfClosing: boolean): StartTag {
    return new StartTag(raw, start, nameEndOfRawTag(raw), selfClosing);
  }
  protected get nameStart(): number {
    return 1;
  }
}

/** An end tag (§13.2.5.7–8, .11, .14, .17, .25, .32–40). */
export class EndTag extends Tag implements EndTagToken {
  declare readonly type: 'endTag';
  /** See `Tag`'s constructor (`name`: the name, when the caller has decoded it already; `scanned`: from a tokenizer). */
  constructor(
    source: string,
    start: number,
    nameEnd: number,
    selfClosing: boolean,
    byteForm = false,
    offset = 0,
    length = source.length,
    name?: string,
    scanned: ScannedAttributes | null = null,
  ) {
    super(source, start, nameEnd, selfClosing, byteForm, offset, length, name, scanned);
    this.type = 'endTag';
  }
  protected get nameStart(): number {
    return 2;
  }
}

/** A comment (§13.2.5.41–52): its data is `raw[dataStart, dataEnd)`, newlines and NULs handled. */
export class Comment implements CommentToken, TokenErrors {
  declare readonly type: 'comment';
  declare readonly raw: string;
  declare readonly start: number;
  declare private readonly dataStart: number;
  declare private readonly dataEnd: number;
  declare private decoded: string | undefined;
  /** Whether `raw` is in byte form (a tokenizer with `byteInput`): `data` is then too. */
  declare readonly byteForm: boolean;

  constructor(raw: string, start: number, dataStart: number, dataEnd: number, byteForm = false) {
    this.type = 'comment';
    this.raw = raw;
    this.start = start;
    this.dataStart = dataStart;
    this.dataEnd = dataEnd;
    this.decoded = undefined;
    this.byteForm = byteForm;
  }

  get data(): string {
    const decoded = this.decoded;
    return decoded !== undefined
      ? decoded
      : (this.decoded = normalizeNewlines(this.raw.slice(this.dataStart, this.dataEnd), true, this.byteForm));
  }

  collectErrors(report: TokenErrorSink): void {
    reportInputStreamErrors(this.raw, false, report);
  }

  /** The public fields (what `JSON.stringify` and Node's `console.log` show). */
  toJSON(): CommentToken {
    return { type: this.type, data: this.data, raw: this.raw, start: this.start };
  }
  [INSPECT](): CommentToken {
    return this.toJSON();
  }
}

/**
 * A DOCTYPE (§13.2.5.53–68). The scanner records where the name and identifiers lie in `raw`
 * (`-1` when missing) and whether force-quirks was set.
 */
export class Doctype implements DoctypeToken, TokenErrors {
  declare readonly type: 'doctype';
  declare readonly raw: string;
  declare readonly start: number;
  declare readonly forceQuirks: boolean;
  declare private readonly offsets: Int32Array;
  /** Whether `raw` is in byte form (a tokenizer with `byteInput`): the name and identifiers are then too. */
  declare readonly byteForm: boolean;

  constructor(raw: string, start: number, offsets: Int32Array, forceQuirks: boolean, byteForm = false) {
    this.type = 'doctype';
    this.raw = raw;
    this.start = start;
    this.offsets = offsets;
    this.forceQuirks = forceQuirks;
    this.byteForm = byteForm;
  }

  get name(): string | null {
    const o = this.offsets;
    return o[0] < 0 ? null : lowercaseName(this.raw.slice(o[0], o[1]), this.byteForm);
  }

  get publicId(): string | null {
    const o = this.offsets;
    return o[2] < 0 ? null : normalizeNewlines(this.raw.slice(o[2], o[3]), true, this.byteForm);
  }

  get systemId(): string | null {
    const o = this.offsets;
    return o[4] < 0 ? null : normalizeNewlines(this.raw.slice(o[4], o[5]), true, this.byteForm);
  }

  collectErrors(report: TokenErrorSink): void {
    reportInputStreamErrors(this.raw, false, report);
  }

  /** The public fields (what `JSON.stringify` and Node's `console.log` show). */
  toJSON(): DoctypeToken {
    const { type, name, publicId, systemId, forceQuirks, raw, start } = this;
    return { type, name, publicId, systemId, forceQuirks, raw, start };
  }
  [INSPECT](): DoctypeToken {
    return this.toJSON();
  }
}

/** Source text the standard consumes without emitting a token (`</>`, `<![CDATA[`, a tag cut by EOF). */
export class Discarded implements DiscardedToken, TokenErrors {
  declare readonly type: 'discarded';
  declare readonly raw: string;
  declare readonly start: number;
  /** For a tag cut by EOF, where its name ends in `raw` (its attributes still have errors); else -1. */
  declare private readonly attributesFrom: number;

  constructor(raw: string, start: number, attributesFrom: number) {
    this.type = 'discarded';
    this.raw = raw;
    this.start = start;
    this.attributesFrom = attributesFrom;
  }

  collectErrors(report: TokenErrorSink): void {
    reportInputStreamErrors(this.raw, false, report);
    if (this.attributesFrom >= 0) decodeAttributes(this.raw, this.attributesFrom, this.raw.length, report);
  }

  /** The public fields (what `JSON.stringify` and Node's `console.log` show). */
  toJSON(): DiscardedToken {
    return { type: this.type, raw: this.raw, start: this.start };
  }
  [INSPECT](): DiscardedToken {
    return this.toJSON();
  }
}
