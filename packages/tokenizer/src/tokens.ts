/**
 * Raw tokens (WHATWG HTML §13.2.5, "Tokenization").
 *
 * Every token carries `raw`, the exact source text it was scanned from, and `start`, the offset of
 * that text in the whole input (UTF-16 code units). Concatenating `raw` over all tokens gives back the
 * input, for any string and any chunking.
 *
 * Everything else (tag names, attributes, text values, comment data, doctype fields) is decoded lazily
 * on first access and cached: scanning copies nothing it does not have to.
 */

/** The kind of text a text token holds: which tokenizer state produced it. */
export type TextKind = 'data' | 'rcdata' | 'rawtext' | 'scriptData' | 'plaintext' | 'cdata';

/**
 * The tokenizer's text mode, set from outside (by the tree builder, §13.2.6) after a start tag:
 * the state the tokenizer switches to (§13.2.5.1 data, .2 RCDATA, .3 RAWTEXT, .4 script data, .5 PLAINTEXT).
 */
export type TextMode = 'data' | 'rcdata' | 'rawtext' | 'scriptData' | 'plaintext';

/** A decoded attribute of a tag token: name ASCII-lowercased, value with character references decoded. */
export interface Attribute {
  readonly name: string;
  readonly value: string;
  /**
   * The attributes this tokenizer decodes (instances of `DecodedAttribute`) also have the shape of an
   * attribute on an HTML element — `namespace` and `prefix` null, `localName` equal to `name` — so the
   * tree builder can put them on an element as they are, without a copy. (Additive: optional, so
   * attributes made elsewhere as `{ name, value }` are still `Attribute`s.)
   */
  readonly namespace?: null;
  readonly prefix?: null;
  readonly localName?: string;
}

interface TokenBase {
  /** The exact source text of this token. */
  readonly raw: string;
  /** Offset of `raw` in the whole input, in UTF-16 code units. */
  readonly start: number;
}

/** Character data. Adjacent text tokens of one kind may be split anywhere a chunk boundary fell. */
export interface TextToken extends TokenBase {
  readonly type: 'text';
  readonly kind: TextKind;
  /**
   * The characters the standard emits for this text: character references decoded where the kind
   * allows (data, RCDATA), CR and CRLF normalized to LF, NUL handled as the state for this kind says
   * (kept as U+0000 in data and CDATA; U+FFFD in RCDATA, RAWTEXT, script data and PLAINTEXT).
   */
  readonly value: string;
}

/** A start tag, `<name attr=value …>`. */
export interface StartTagToken extends TokenBase {
  readonly type: 'startTag';
  /** Tag name, ASCII-lowercased, NUL replaced by U+FFFD. */
  readonly name: string;
  /** Attributes in source order; names lowercased; a later duplicate of a name is dropped (§13.2.5.33). */
  readonly attributes: readonly Attribute[];
  /** Whether the tag ended with `/>`. */
  readonly selfClosing: boolean;
}

/** An end tag, `</name>`. Attributes and `/>` on an end tag are parse errors but still decoded. */
export interface EndTagToken extends TokenBase {
  readonly type: 'endTag';
  readonly name: string;
  readonly attributes: readonly Attribute[];
  readonly selfClosing: boolean;
}

/** A comment: `<!-- … -->`, and the bogus comments `<?…>`, `</ …>`, `<!…>` and CDATA in HTML content. */
export interface CommentToken extends TokenBase {
  readonly type: 'comment';
  /** The comment's data as the standard computes it (short, unclosed, `--!>` and EOF cases included). */
  readonly data: string;
}

/** A DOCTYPE, `<!DOCTYPE html …>`. */
export interface DoctypeToken extends TokenBase {
  readonly type: 'doctype';
  /** Lowercased name, or null when missing. */
  readonly name: string | null;
  readonly publicId: string | null;
  readonly systemId: string | null;
  readonly forceQuirks: boolean;
}

/** Source text the standard consumes without emitting anything, e.g. `</>`. Kept so `raw` round-trips. */
export interface DiscardedToken extends TokenBase {
  readonly type: 'discarded';
}

export type Token =
  | TextToken
  | StartTagToken
  | EndTagToken
  | CommentToken
  | DoctypeToken
  | DiscardedToken;

export type TokenType = Token['type'];

/** Receives tokens synchronously, inside `Tokenizer.write()` / `end()`. */
export type TokenSink = (token: Token) => void;

/**
 * A parse error (§13.2.2): the standard's error code and where it happened. Never thrown. The one shape
 * every sluice stage reports errors in (`onParseError` on the tokenizer, the tree builder, `Parser`,
 * `parse`/`parseFragment` and the streams): tokenization errors carry the standard's codes (§13.2.2's
 * table, `ErrorCode`); tree-construction errors, which the standard does not name, carry the tree
 * builder's names (`TreeConstructionErrorCode` in `@sluice/tree-builder`).
 */
export interface ParseError {
  /** The standard's code, e.g. `'eof-in-tag'`, `'missing-semicolon-after-character-reference'`. */
  readonly code: string;
  /** Offset in the whole input, in UTF-16 code units. */
  readonly offset: number;
  /**
   * 1-based line. CR, LF and CRLF each end a line (the input stream's newlines after normalization,
   * §13.2.3.5), as parse5 counts them.
   */
  readonly line: number;
  /** 1-based column, in UTF-16 code units. */
  readonly col: number;
  /**
   * Bytes in (`Parser` and the byte streams given `Uint8Array` chunks): the offset in the bytes, the
   * byte order mark included — given for UTF-8 (exact for well-formed UTF-8; each U+FFFD the decoder put
   * for a malformed sequence counts 3 bytes), UTF-16 and the single-byte encodings; absent for the
   * multi-byte legacy encodings (Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR, Big5, GBK, gb18030) and for text in.
   */
  readonly byteOffset?: number;
}
