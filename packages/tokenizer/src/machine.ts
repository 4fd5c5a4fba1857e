/**
 * The tokenizer's automaton and its input buffer: everything `Tokenizer` does, with every register a
 * plain field so the state scanners in `states/` can read and write it.
 *
 * Input. `input` is the string being scanned and `pos` the next character in it; `base` is the offset
 * of `input[0]` in the whole input. Strings still to be read (the rest of a chunk cut by `insert()`,
 * and inserted text) wait on `queue`, a stack whose top is read next.
 *
 * Unflushed text. Everything before `pendingStart` has been emitted. What lies between it and the read
 * position is the token being scanned (or text whose meaning is undecided, like `&am` or a final CR).
 * The part of it that came with earlier strings is kept in `held`; the scanner never reads it again.
 */

import { ErrorCode, ErrorPriority, ErrorQueue } from './errors.js';
import { HeldText } from './held-text.js';
import { decodeName } from './decode/names.js';
import { ScannedAttributes } from './decode/scanned-attributes.js';
import { Comment, Discarded, Doctype, EndTag, StartTag, Text, type TokenErrors } from './token-classes.js';
import type { ParseError, TextKind, TextMode, Token, TokenSink } from './tokens.js';
import { GROUP, Group, State } from './states/state.js';
import { scanText } from './states/text.js';
import { scanScriptData } from './states/script-data.js';
import { scanTag } from './states/tag.js';
import { scanMarkupDeclaration } from './states/markup-declaration.js';
import { scanDoctype } from './states/doctype.js';

/** Markup declaration open state (§13.2.5.42): which word is being matched. */
export const Declaration = { UNDECIDED: 0, COMMENT: 1, DOCTYPE: 2, CDATA: 3 } as const;

/** After DOCTYPE name state (§13.2.5.56): which keyword is being matched. */
export const Keyword = { NONE: 0, PUBLIC: 1, SYSTEM: 2 } as const;

/** Indexes into `Machine.doctype`. */
export const DoctypeField = { NAME_START: 0, NAME_END: 1, PUBLIC_START: 2, PUBLIC_END: 3, SYSTEM_START: 4, SYSTEM_END: 5 } as const;

export interface MachineOptions {
  onError?: ((error: ParseError) => void) | undefined;
  autoTextMode: boolean;
  scripting: boolean;
  cdataAllowed: () => boolean;
  /** The input is in byte form (see `TokenizerOptions.byteInput`): tokens are made to decode so. */
  byteInput: boolean;
  /** A leading byte order mark is emitted as a 'discarded' token (see `TokenizerOptions.discardByteOrderMark`). */
  discardByteOrderMark: boolean;
}

export class Machine {
  // Options.
  readonly errors: ErrorQueue | null;
  readonly autoTextMode: boolean;
  readonly scripting: boolean;
  readonly cdataAllowed: () => boolean;
  readonly byteInput: boolean;
  /** The byte order mark the input may start with ('' when it is not discarded): U+FEFF, or EF BB BF in byte form. */
  readonly byteOrderMark: string;

  // Input.
  input = '';
  pos = 0;
  base = 0;
  queue: string[] = [];
  /** The top of `queue` is text inserted at the current insertion point, not yet started. */
  insertOpen = false;
  /** Caches for the data state: the next `<` / `&` in `input` at or after `pos` (`input.length` if none). */
  nextLessThan = -1;
  nextAmpersand = -1;

  // Unflushed text.
  pendingStart = 0;
  held = new HeldText();

  // The automaton (§13.2.5).
  state: number = State.DATA;
  /** The return state of the character reference states (data or RCDATA; attribute values are decoded lazily). */
  returnState: number = State.DATA;
  /** The kind of the text being scanned. */
  textKind: TextKind = 'data';
  /** Start of the undecided part of the text: the `<` of a possible end tag, the `&` of a reference, `]` in CDATA. */
  mark = 0;
  /** Tag being scanned: an end tag? Has it attributes? Where does its name end? */
  tagIsEnd = false;
  tagHasAttributes = false;
  nameEnd = 0;
  /** The attribute boundaries of the tag being scanned, or of the last tag emitted (see decode/scanned-attributes.ts). */
  readonly attributeSpans = new ScannedAttributes();
  /** The name an appropriate end tag must have in RCDATA, RAWTEXT and script data, or null. */
  endTagName: string | null = null;
  /** Characters of `endTagName` matched so far (the temporary buffer, §13.2.5.11). */
  matchIndex = 0;
  /** Characters of `script` matched so far in the double escape states (§13.2.5.26, .31), -1 once it differs. */
  tempIndex = 0;
  /** Named character reference state: the trie node reached, and whether a whole name was matched. */
  referenceNode = 0;
  referenceMatched = false;
  /** Markup declaration open state: the word being matched and how much of it. */
  declaration: number = Declaration.UNDECIDED;
  declarationIndex = 0;
  /** Where the comment's data starts, relative to its `<`. */
  commentDataStart = 0;
  /** DOCTYPE: name, public and system identifier ranges (absolute offsets, -1 when missing). */
  doctype = new Int32Array(6);
  forceQuirks = false;
  keyword: number = Keyword.NONE;
  keywordIndex = 0;
  keywordStart = 0;
  /** The last start tag emitted (its name is decoded only if an appropriate end tag is needed). */
  lastStartTag: StartTag | null = null;
  /** The last start tag's name when the token itself is not at hand (option, or a restored snapshot). */
  lastStartTagName: string | null = null;

  // Lifecycle.
  sink: TokenSink = noSink;
  busy = false;
  ended = false;
  /** The end of input has been reached: EOF handling began. */
  atEof = false;

  constructor(options: MachineOptions) {
    this.errors = options.onError ? new ErrorQueue(options.onError) : null;
    this.autoTextMode = options.autoTextMode;
    this.scripting = options.scripting;
    this.cdataAllowed = options.cdataAllowed;
    this.byteInput = options.byteInput;
    this.byteOrderMark = !options.discardByteOrderMark ? '' : options.byteInput ? '\xef\xbb\xbf' : '\ufeff';
  }

  /** Absolute offset of the read position. */
  get offset(): number {
    return this.base + this.pos;
  }

  // ---- Errors -----------------------------------------------------------------------------------

  /** A parse error raised by a state at absolute offset `offset` (only called when errors are wanted). */
  error(code: string, offset: number): void {
    this.errors?.add(code, offset, ErrorPriority.STATE);
  }

  // ---- Driving ----------------------------------------------------------------------------------

  /** Reads everything queued, emitting tokens through `sink`. */
  run(): void {
    for (;;) {
      if (this.pos >= this.input.length) {
        this.endOfString();
        const next = this.queue.pop();
        if (next === undefined) return;
        this.input = next;
        this.pos = 0;
        this.nextLessThan = this.nextAmpersand = -1;
        this.insertOpen = false;
        // Nothing read yet (`base` stays 0 only while every string so far was empty): the first
        // character of the whole input, whatever the chunking. No register needed, so snapshots are unchanged.
        if (this.base === 0 && this.byteOrderMark !== '' && next.startsWith(this.byteOrderMark)) this.discardByteOrderMark();
        continue;
      }
      switch (GROUP[this.state]) {
        case Group.TEXT:
          scanText(this);
          break;
        case Group.SCRIPT:
          scanScriptData(this);
          break;
        case Group.TAG:
          scanTag(this);
          break;
        case Group.COMMENT:
          scanMarkupDeclaration(this);
          break;
        default:
          scanDoctype(this);
          break;
      }
    }
  }

  /**
   * The current string is read to its end: emit the text that can no longer change meaning, and keep
   * the rest of what is unflushed in `held`.
   */
  private endOfString(): void {
    const input = this.input;
    const length = input.length;
    if (length === 0) return;
    const end = this.base + length;
    const hold = this.holdFrom(end);
    if (hold > this.pendingStart) this.emitText(hold);
    const from = this.pendingStart - this.base;
    if (from < length) this.held.push(from <= 0 ? input : input.slice(from));
    this.base = end;
    this.input = '';
    this.pos = 0;
  }

  /**
   * Where the part of the unflushed text that may still change meaning starts, at the end of a string
   * ending at `end`; `pendingStart` (or less) when the whole unflushed text is one open token.
   */
  private holdFrom(end: number): number {
    switch (this.state) {
      case State.DATA:
      case State.RCDATA:
      case State.RAWTEXT:
      case State.SCRIPT_DATA:
      case State.PLAINTEXT:
      case State.AMBIGUOUS_AMPERSAND:
      case State.SCRIPT_DATA_ESCAPE_START:
      case State.SCRIPT_DATA_ESCAPE_START_DASH:
      case State.SCRIPT_DATA_ESCAPED:
      case State.SCRIPT_DATA_ESCAPED_DASH:
      case State.SCRIPT_DATA_ESCAPED_DASH_DASH:
      case State.SCRIPT_DATA_DOUBLE_ESCAPE_START:
      case State.SCRIPT_DATA_DOUBLE_ESCAPED:
      case State.SCRIPT_DATA_DOUBLE_ESCAPED_DASH:
      case State.SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH:
      case State.SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN:
      case State.SCRIPT_DATA_DOUBLE_ESCAPE_END:
      case State.CDATA_SECTION: {
        // A final CR may start a CRLF pair; a final high surrogate may start a surrogate pair.
        const last = this.input.charCodeAt(this.input.length - 1);
        return last === 0x0d || (last >= 0xd800 && last <= 0xdbff) ? end - 1 : end;
      }
      case State.TAG_OPEN:
      case State.END_TAG_OPEN:
      case State.RCDATA_LESS_THAN_SIGN:
      case State.RCDATA_END_TAG_OPEN:
      case State.RCDATA_END_TAG_NAME:
      case State.RAWTEXT_LESS_THAN_SIGN:
      case State.RAWTEXT_END_TAG_OPEN:
      case State.RAWTEXT_END_TAG_NAME:
      case State.SCRIPT_DATA_LESS_THAN_SIGN:
      case State.SCRIPT_DATA_END_TAG_OPEN:
      case State.SCRIPT_DATA_END_TAG_NAME:
      case State.SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN:
      case State.SCRIPT_DATA_ESCAPED_END_TAG_OPEN:
      case State.SCRIPT_DATA_ESCAPED_END_TAG_NAME:
      case State.CHARACTER_REFERENCE:
      case State.NAMED_CHARACTER_REFERENCE:
      case State.NUMERIC_CHARACTER_REFERENCE:
      case State.HEXADECIMAL_CHARACTER_REFERENCE_START:
      case State.DECIMAL_CHARACTER_REFERENCE_START:
      case State.HEXADECIMAL_CHARACTER_REFERENCE:
      case State.DECIMAL_CHARACTER_REFERENCE:
      case State.CDATA_SECTION_BRACKET:
      case State.CDATA_SECTION_END:
        return this.mark;
      default:
        return this.pendingStart; // an open tag, comment, DOCTYPE or markup declaration
    }
  }

  // ---- Emitting ---------------------------------------------------------------------------------

  /** The unflushed text from `pendingStart` to `to` (absolute), which then counts as flushed. */
  takeRaw(to: number): string {
    const base = this.base;
    const start = this.pendingStart;
    this.pendingStart = to;
    if (start >= base) return this.input.slice(start - base, to - base);
    const head = this.held.take();
    if (to >= base) return to === base ? head : head + this.input.slice(0, to - base);
    // The token ends inside the held text (`]` before `]]>` came in an earlier chunk).
    this.held.push(head.slice(to - start));
    return head.slice(0, to - start);
  }

  emit(token: Token & TokenErrors): void {
    const errors = this.errors;
    if (errors !== null) {
      const start = token.start;
      token.collectErrors((code, offset, priority) => errors.add(code, start + offset, priority));
      errors.release(token.raw, start, start + token.raw.length, this.atEof);
    }
    this.sink(token);
  }

  /** Emits the unflushed text up to `to` (absolute) as a text token, if there is any. */
  emitText(to: number): void {
    const start = this.pendingStart;
    if (to <= start) return;
    const base = this.base;
    if (start >= base) {
      // All of it in the string being read: the token points into it (no slice: see `Text.source`).
      this.pendingStart = to;
      this.emit(new Text(this.textKind, this.input, start, this.byteInput, start - base, to - start));
    } else this.emit(new Text(this.textKind, this.takeRaw(to), start, this.byteInput));
  }

  /**
   * Emits the tag being scanned, which ends with the `>` at `input[pos]` (§13.2.5.8 and others: "switch
   * to the data state; emit the current tag token"), then applies `autoTextMode`.
   */
  emitTag(pos: number, selfClosing: boolean): void {
    const to = this.base + pos + 1;
    if (this.tagIsEnd && this.errors !== null) {
      // §13.2.5 "When an end tag token is emitted with its self-closing flag set / with attributes".
      if (this.tagHasAttributes) this.error(ErrorCode.endTagWithAttributes, to - 1);
      if (selfClosing) this.error(ErrorCode.endTagWithTrailingSolidus, to - 1);
    }
    const start = this.pendingStart;
    const base = this.base;
    // All of it in the string being read (the usual case): the token points into it, unsliced (see
    // `Text.source`); else its text is put together from what was held.
    let source = this.input;
    let offset = start - base;
    if (start >= base) this.pendingStart = to;
    else {
      source = this.takeRaw(to);
      offset = 0;
    }
    this.pos = pos + 1;
    this.state = State.DATA;
    this.textKind = 'data';
    // The name is decoded now, from the string just scanned (every consumer reads it).
    const nameEnd = this.nameEnd - start;
    // The tag gets the attribute boundaries just scanned (see decode/scanned-attributes.ts).
    const spans = this.attributeSpans;
    if (this.tagIsEnd) {
      const name = decodeName(source, offset + 2, offset + nameEnd, this.byteInput);
      this.emit(new EndTag(source, start, nameEnd, selfClosing, this.byteInput, offset, to - start, name, spans));
    } else {
      const name = decodeName(source, offset + 1, offset + nameEnd, this.byteInput);
      const tag = new StartTag(source, start, nameEnd, selfClosing, this.byteInput, offset, to - start, name, spans);
      this.lastStartTag = tag;
      if (this.autoTextMode) this.switchTextModeFor(name);
      this.emit(tag);
    }
  }

  /** Emits the comment being scanned, ending at `to`, whose data ends at `dataEnd` (absolute offsets). */
  emitComment(to: number, dataEnd: number): void {
    const start = this.pendingStart;
    const raw = this.takeRaw(to);
    this.state = State.DATA;
    this.textKind = 'data';
    this.emit(new Comment(raw, start, this.commentDataStart, dataEnd - start, this.byteInput));
  }

  /** Emits the DOCTYPE being scanned, ending at `to`. */
  emitDoctype(to: number): void {
    const start = this.pendingStart;
    const raw = this.takeRaw(to);
    const offsets = new Int32Array(6);
    const d = this.doctype;
    for (let i = 0; i < 6; i += 2) {
      if (d[i] < 0) offsets[i] = offsets[i + 1] = -1;
      else {
        offsets[i] = d[i] - start;
        offsets[i + 1] = d[i + 1] - start;
      }
    }
    this.state = State.DATA;
    this.textKind = 'data';
    this.emit(new Doctype(raw, start, offsets, this.forceQuirks, this.byteInput));
  }

  /** Emits source text the standard consumes without a token, up to `to`. */
  emitDiscarded(to: number, attributesFrom: number): void {
    const start = this.pendingStart;
    this.emit(new Discarded(this.takeRaw(to), start, attributesFrom));
  }

  /**
   * The input starts with a byte order mark: emit it as a 'discarded' token and read on after it.
   * HTML §13.2.3.1 and the Encoding Standard's "decode" consume a leading BOM while decoding bytes, so
   * the tokenizer never sees it (and a "leading U+FEFF must pass through" a bare tokenizer: html5lib's
   * tokenizer tests). A tokenizer fed text whose decoding kept the BOM (`ignoreBOM`, to give the same
   * bytes back) is told to do the decoder's part; the BOM becomes a token only so that `raw` still
   * round-trips and offsets stay offsets into the input as given.
   */
  private discardByteOrderMark(): void {
    const length = this.byteOrderMark.length;
    this.pos = length;
    this.emitDiscarded(length, -1);
  }

  // ---- Text modes -------------------------------------------------------------------------------

  /** The name an appropriate end tag needs: the last start tag's (§13.2.5 "appropriate end tag token"). */
  lastStartTagNameNow(): string | null {
    return this.lastStartTag !== null ? this.lastStartTag.name : this.lastStartTagName;
  }

  /** Switches to a text mode's state (§13.2.5.1–5); the appropriate end tag is the last start tag's name. */
  setTextMode(mode: TextMode): void {
    this.enterTextMode(
      mode,
      mode === 'rcdata' || mode === 'rawtext' || mode === 'scriptData' ? this.lastStartTagNameNow() : null,
    );
  }

  private enterTextMode(mode: TextMode, endTagName: string | null): void {
    this.state = TEXT_MODE_STATE[mode];
    this.textKind = mode;
    this.endTagName = endTagName;
  }

  /**
   * `autoTextMode`: after a start tag named `name` (decoded), switch text mode as the tree builder would
   * for an HTML element (§13.2.6.4.7 "in body" and §13.2.6.4.4 "in head" rules). The names compared are
   * the cached, internalized ones `decodeName` gives, so each comparison with a literal is a pointer
   * comparison; the length picks the few candidates.
   */
  private switchTextModeFor(name: string): void {
    let mode: TextMode | null = null;
    switch (name.length) {
      case 3:
        if (name === 'xmp') mode = 'rawtext';
        break;
      case 5:
        if (name === 'title') mode = 'rcdata';
        else if (name === 'style') mode = 'rawtext';
        break;
      case 6:
        if (name === 'script') mode = 'scriptData';
        else if (name === 'iframe') mode = 'rawtext';
        break;
      case 7:
        if (name === 'noembed') mode = 'rawtext';
        break;
      case 8:
        if (name === 'textarea') mode = 'rcdata';
        else if (name === 'noframes' || (name === 'noscript' && this.scripting)) mode = 'rawtext';
        break;
      case 9:
        if (name === 'plaintext') mode = 'plaintext';
        break;
    }
    if (mode !== null) this.enterTextMode(mode, mode === 'plaintext' ? null : name);
  }

  // ---- End of input -----------------------------------------------------------------------------

  /** The end-of-file rules of the current state (each state's "EOF" entry in §13.2.5). */
  endOfFile(): void {
    this.atEof = true;
    const end = this.base;
    const state = this.state;
    switch (GROUP[state]) {
      case Group.TAG:
        // §13.2.5.8, .32–40: "This is an eof-in-tag parse error. Emit an end-of-file token." The tag is dropped.
        this.error(ErrorCode.eofInTag, end);
        this.emitDiscarded(end, state === State.TAG_NAME ? end - this.pendingStart : this.nameEnd - this.pendingStart);
        break;
      case Group.COMMENT:
        this.endOfFileInMarkupDeclaration(end);
        break;
      case Group.DOCTYPE:
        this.endOfFileInDoctype(end);
        break;
      default:
        switch (state) {
          case State.TAG_OPEN:
          case State.END_TAG_OPEN:
            this.error(ErrorCode.eofBeforeTagName, end);
            break;
          case State.SCRIPT_DATA_ESCAPED:
          case State.SCRIPT_DATA_ESCAPED_DASH:
          case State.SCRIPT_DATA_ESCAPED_DASH_DASH:
          case State.SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN:
          case State.SCRIPT_DATA_ESCAPED_END_TAG_OPEN:
          case State.SCRIPT_DATA_ESCAPED_END_TAG_NAME:
          case State.SCRIPT_DATA_DOUBLE_ESCAPE_START:
          case State.SCRIPT_DATA_DOUBLE_ESCAPED:
          case State.SCRIPT_DATA_DOUBLE_ESCAPED_DASH:
          case State.SCRIPT_DATA_DOUBLE_ESCAPED_DASH_DASH:
          case State.SCRIPT_DATA_DOUBLE_ESCAPED_LESS_THAN_SIGN:
          case State.SCRIPT_DATA_DOUBLE_ESCAPE_END:
            this.error(ErrorCode.eofInScriptHtmlCommentLikeText, end);
            break;
        }
        this.emitText(end);
    }
    this.errors?.releaseAll();
  }

  private endOfFileInMarkupDeclaration(end: number): void {
    let dataEnd = end;
    switch (this.state) {
      case State.MARKUP_DECLARATION_OPEN:
        // The lookahead failed: §13.2.5.42 "anything else".
        this.error(ErrorCode.incorrectlyOpenedComment, this.pendingStart + 2);
        this.commentDataStart = 2;
        break;
      case State.BOGUS_COMMENT:
        break;
      case State.CDATA_SECTION:
      case State.CDATA_SECTION_BRACKET:
      case State.CDATA_SECTION_END:
        this.error(ErrorCode.eofInCdata, end);
        this.emitText(end);
        return;
      case State.COMMENT_START:
      case State.COMMENT_START_DASH:
        dataEnd = this.pendingStart + this.commentDataStart;
        this.error(ErrorCode.eofInComment, end);
        break;
      case State.COMMENT_LESS_THAN_SIGN_BANG_DASH:
      case State.COMMENT_END_DASH:
        dataEnd = end - 1;
        this.error(ErrorCode.eofInComment, end);
        break;
      case State.COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH:
      case State.COMMENT_END:
        dataEnd = end - 2;
        this.error(ErrorCode.eofInComment, end);
        break;
      case State.COMMENT_END_BANG:
        dataEnd = end - 3;
        this.error(ErrorCode.eofInComment, end);
        break;
      default: // comment, comment less-than sign, comment less-than sign bang
        this.error(ErrorCode.eofInComment, end);
    }
    this.emitComment(end, dataEnd);
  }

  private endOfFileInDoctype(end: number): void {
    const d = this.doctype;
    switch (this.state) {
      case State.BOGUS_DOCTYPE:
        break; // §13.2.5.68: no error
      case State.AFTER_DOCTYPE_NAME:
        if (this.keywordIndex > 0) {
          // A keyword cut by EOF: §13.2.5.56 "anything else", then the bogus DOCTYPE state.
          this.error(ErrorCode.invalidCharacterSequenceAfterDoctypeName, this.keywordStart);
          this.forceQuirks = true;
          break;
        }
        this.error(ErrorCode.eofInDoctype, end);
        this.forceQuirks = true;
        break;
      default:
        if (this.state === State.DOCTYPE_NAME) d[DoctypeField.NAME_END] = end;
        else if (
          this.state === State.DOCTYPE_PUBLIC_IDENTIFIER_DOUBLE_QUOTED ||
          this.state === State.DOCTYPE_PUBLIC_IDENTIFIER_SINGLE_QUOTED
        ) {
          d[DoctypeField.PUBLIC_END] = end;
        } else if (
          this.state === State.DOCTYPE_SYSTEM_IDENTIFIER_DOUBLE_QUOTED ||
          this.state === State.DOCTYPE_SYSTEM_IDENTIFIER_SINGLE_QUOTED
        ) {
          d[DoctypeField.SYSTEM_END] = end;
        }
        this.error(ErrorCode.eofInDoctype, end);
        this.forceQuirks = true;
    }
    this.emitDoctype(end);
  }

  // ---- insert() ---------------------------------------------------------------------------------

  /** §13.2.6.4.8 / document.write: `text` is read next, before the rest of the input not yet read. */
  insert(text: string): void {
    if (this.insertOpen) {
      this.queue[this.queue.length - 1] += text;
      return;
    }
    if (this.busy && this.pos < this.input.length) {
      // Cut the string being read at the read position: the scanner stops there (it returns to the
      // driver after every emitted token), then reads `text`, then the rest.
      this.queue.push(this.input.slice(this.pos));
      this.input = this.input.slice(0, this.pos);
      this.nextLessThan = this.nextAmpersand = -1;
    }
    this.queue.push(text);
    this.insertOpen = true;
  }
}

/** The state each text mode switches to. */
export const TEXT_MODE_STATE: Readonly<Record<TextMode, number>> = {
  data: State.DATA,
  rcdata: State.RCDATA,
  rawtext: State.RAWTEXT,
  scriptData: State.SCRIPT_DATA,
  plaintext: State.PLAINTEXT,
};

function noSink(): void {
  throw new Error('sluice tokenizer: internal error, a token was emitted outside write()/end()');
}
