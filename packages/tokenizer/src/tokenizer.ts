/**
 * The public tokenizer (HTML §13.2.5): a push automaton fed string chunks, emitting raw tokens
 * synchronously. See `Machine` for how it works.
 */

import { DoctypeField, Machine } from './machine.js';
import { snapshotsEqual, type TokenizerSnapshot } from './snapshot.js';
import { debugState, type TokenizerDebugState } from './debug-state.js';
import { State, stateName } from './states/state.js';
import type { ParseError, TextMode, TokenSink } from './tokens.js';

export { snapshotsEqual, type TokenizerSnapshot };

/** Options of a {@link Tokenizer}. */
export interface TokenizerOptions {
  /**
   * Parse errors go here, with the standard's code and position, in input order, each just before the
   * token it belongs to is emitted. Never thrown. When absent, the tokenizer does no error bookkeeping
   * at all. When present, every token's fields are decoded as it is emitted (decoding finds errors too).
   * The same option, with the same `ParseError` shape, as on `Parser`, `TreeBuilder`, `parse` and the
   * streams.
   */
  onParseError?: (error: ParseError) => void;
  /** @deprecated The old name of {@link TokenizerOptions.onParseError}; give one or the other. */
  onError?: (error: ParseError) => void;
  /**
   * Standalone default (true): after a start tag the tokenizer itself switches text mode as if every
   * element were HTML: title/textarea → RCDATA; style/xmp/iframe/noembed/noframes → RAWTEXT; noscript →
   * RAWTEXT when `scripting`; script → script data; plaintext → PLAINTEXT. A tree builder passes false
   * and calls {@link Tokenizer.setTextMode} itself.
   */
  autoTextMode?: boolean;
  /** Whether scripting is enabled (default true); only matters for `autoTextMode` (`<noscript>`). */
  scripting?: boolean;
  /**
   * Asked when `<![CDATA[` is seen in a markup declaration (§13.2.5.42): true if the adjusted current
   * node is not in the HTML namespace. Default: always false (the section is a bogus comment).
   */
  cdataAllowed?: () => boolean;
  /** Initial state, for tests and fragment parsing (default `'data'`). */
  initialState?: TextMode | 'cdataSection';
  /** The last start tag name, which decides the "appropriate end tag" in RCDATA, RAWTEXT and script data. */
  lastStartTag?: string;
  /**
   * The input is UTF-8 in *byte form*: each chunk a string of the bytes themselves, one character per
   * byte (what Node's `buffer.latin1Slice()` gives; valid UTF-8, chunks cut between characters). Default
   * false. Tokenizing the bytes skips decoding them: every character the tokenizer decides on is ASCII,
   * and no byte of a multi-byte UTF-8 sequence is, so the tokens are the same, with `raw` and offsets
   * counted in bytes. Decoded fields (names, attribute values, text values, comment data, DOCTYPE fields)
   * are in byte form too (a character reference becomes the UTF-8 bytes of its characters, NUL's U+FFFD
   * its three bytes), so they compare as the characters would; `fromByteForm` turns one into text. Not
   * with `onParseError` (input stream errors are about characters, not bytes).
   */
  byteInput?: boolean;
  /**
   * A byte order mark at the very start of the input (U+FEFF; in byte form the three characters
   * `\xEF\xBB\xBF`) is emitted as a `'discarded'` token instead of text, whatever the chunking (empty
   * chunks before it included). Default false: the tokenizer tokenizes what it is given, and a leading
   * U+FEFF is text (html5lib: "leading U+FEFF must pass through"). Stripping the BOM is the decoder's job
   * (HTML §13.2.3.1, Encoding Standard "decode"); set this when the text was decoded with the BOM kept
   * (`TextDecoder`'s `ignoreBOM`, Node's `toString('utf8')`) and a tree builder reads the tokens, as
   * `Parser` and the rewriter do. `raw` still round-trips and offsets still count the BOM. In byte form,
   * chunks are cut between characters, so the three bytes come in one chunk.
   */
  discardByteOrderMark?: boolean;
}

const INITIAL_STATES: readonly string[] = ['data', 'rcdata', 'rawtext', 'scriptData', 'plaintext', 'cdataSection'];
const TEXT_MODES: readonly string[] = ['data', 'rcdata', 'rawtext', 'scriptData', 'plaintext'];

const STATE_BY_NAME = new Map<string, number>(Object.entries(State));

/**
 * A chunk-resumable HTML tokenizer (WHATWG HTML §13.2.5) whose tokens carry their exact source text.
 *
 * ```ts
 * const tokenizer = new Tokenizer();
 * tokenizer.write('<p class=a>Hello, ', (token) => console.log(token.type, token.raw));
 * tokenizer.write('world</p>', emit);
 * tokenizer.end(emit);
 * ```
 *
 * For any input and any chunking, the `raw` texts of the emitted tokens concatenate to the input, and
 * the tokens are the same except that text may be split differently. Text is emitted as soon as it is
 * known to be text; only what may still change meaning is held back (`&am`, a final CR, `<`, `</tit`
 * in RCDATA).
 */
export class Tokenizer {
  private readonly m: Machine;
  /** An exception escaped from `emit`: the state is no longer consistent. */
  private failed: unknown = undefined;

  constructor(options: TokenizerOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError('sluice Tokenizer: options must be an object');
    }
    if (options.onError !== undefined && typeof options.onError !== 'function') {
      throw new TypeError('sluice Tokenizer: options.onError must be a function');
    }
    if (options.onParseError !== undefined && typeof options.onParseError !== 'function') {
      throw new TypeError('sluice Tokenizer: options.onParseError must be a function');
    }
    if (options.onParseError !== undefined && options.onError !== undefined) {
      throw new TypeError('sluice Tokenizer: give options.onParseError or its old name options.onError, not both');
    }
    const onError = options.onParseError ?? options.onError;
    if (options.cdataAllowed !== undefined && typeof options.cdataAllowed !== 'function') {
      throw new TypeError('sluice Tokenizer: options.cdataAllowed must be a function');
    }
    const initial = options.initialState ?? 'data';
    if (!INITIAL_STATES.includes(initial)) {
      throw new RangeError(
        `sluice Tokenizer: options.initialState must be one of ${INITIAL_STATES.join(', ')}; got ${String(initial)}`,
      );
    }
    if (options.lastStartTag !== undefined && typeof options.lastStartTag !== 'string') {
      throw new TypeError('sluice Tokenizer: options.lastStartTag must be a string');
    }
    if (options.byteInput !== undefined && typeof options.byteInput !== 'boolean') {
      throw new TypeError('sluice Tokenizer: options.byteInput must be a boolean');
    }
    if (options.discardByteOrderMark !== undefined && typeof options.discardByteOrderMark !== 'boolean') {
      throw new TypeError('sluice Tokenizer: options.discardByteOrderMark must be a boolean');
    }
    if (options.byteInput === true && onError !== undefined) {
      throw new Error('sluice Tokenizer: options.byteInput and options.onParseError cannot be combined (parse errors are about characters; decode the bytes to report them)');
    }
    const m = (this.m = new Machine({
      onError,
      autoTextMode: options.autoTextMode ?? true,
      scripting: options.scripting ?? true,
      cdataAllowed: options.cdataAllowed ?? (() => false),
      byteInput: options.byteInput ?? false,
      discardByteOrderMark: options.discardByteOrderMark ?? false,
    }));
    m.lastStartTagName = options.lastStartTag ?? null;
    if (initial === 'cdataSection') {
      m.state = State.CDATA_SECTION;
      m.textKind = 'cdata';
    } else {
      m.setTextMode(initial);
    }
  }

  /**
   * Tokenizes a chunk. Tokens are emitted synchronously, one `emit` call each, inside this call.
   * @throws Error after {@link end}, or when called from inside `emit` (use {@link insert} there).
   */
  write(chunk: string, emit: TokenSink): void {
    const m = this.m;
    this.checkUsable('write');
    if (typeof chunk !== 'string') throw new TypeError('sluice Tokenizer.write: chunk must be a string');
    if (typeof emit !== 'function') throw new TypeError('sluice Tokenizer.write: emit must be a function');
    if (chunk.length === 0 && m.queue.length === 0) return;
    m.queue.unshift(chunk);
    this.drive(emit, false);
  }

  /**
   * End of input: reads what is still queued, flushes what was held back and runs the standard's
   * end-of-file rules (an unfinished tag is dropped, an unfinished comment or DOCTYPE is emitted, …).
   * @throws Error when called twice, or from inside `emit`.
   */
  end(emit: TokenSink): void {
    this.checkUsable('end');
    if (typeof emit !== 'function') throw new TypeError('sluice Tokenizer.end: emit must be a function');
    this.drive(emit, true);
    // Ended: the last start tag's name stays (snapshots, the debug state read it), its token does not —
    // it slices the input chunk it came from, which the tokenizer would keep alive as long as itself.
    const m = this.m;
    const last = m.lastStartTag;
    if (last !== null) {
      m.lastStartTagName = last.name;
      m.lastStartTag = null;
    }
  }

  /**
   * Switches the text mode (§13.2.5.1–5), as the tree builder does right after a start tag: call it from
   * inside `emit` for that start tag. It takes effect from the next character. The appropriate end tag
   * (for RCDATA, RAWTEXT and script data) is the last start tag's name.
   * @throws Error when the tokenizer is in the middle of a token or of undecided text (e.g. a `<` at the
   * end of a chunk), or after `end()`.
   */
  setTextMode(mode: TextMode): void {
    const m = this.m;
    if (!TEXT_MODES.includes(mode)) {
      throw new RangeError(`sluice Tokenizer.setTextMode: mode must be one of ${TEXT_MODES.join(', ')}; got ${String(mode)}`);
    }
    if (m.ended) throw new Error('sluice Tokenizer.setTextMode: called after end()');
    if (m.pendingStart !== m.offset) {
      throw new Error(
        `sluice Tokenizer.setTextMode: the tokenizer is in the middle of ${JSON.stringify(this.unflushedText())} ` +
          `(state ${stateName(m.state)}); call it from emit, right after the start tag that switches the mode`,
      );
    }
    m.setTextMode(mode);
  }

  /**
   * document.write support (§13.2.6.4.8, the "insertion point"): `text` is read next, before the rest of
   * the input not yet read. Called from inside `emit` (typically for a `</script>` end tag), it goes
   * right after the characters read so far; several calls insert one after the other.
   * @throws Error after `end()`, or once the end of input has been reached.
   */
  insert(text: string): void {
    const m = this.m;
    if (typeof text !== 'string') throw new TypeError('sluice Tokenizer.insert: text must be a string');
    if (m.ended || m.atEof) throw new Error('sluice Tokenizer.insert: called after the end of input');
    if (text.length === 0) return;
    m.insert(text);
  }

  /** The whole state as plain data: the automaton state plus the unflushed and queued text. */
  snapshot(): TokenizerSnapshot {
    const m = this.m;
    const d = m.doctype;
    const queued: string[] = [];
    if (m.pos < m.input.length) queued.push(m.input.slice(m.pos));
    for (let i = m.queue.length - 1; i >= 0; i--) queued.push(m.queue[i]);
    return {
      state: stateName(m.state),
      returnState: stateName(m.returnState),
      textKind: m.textKind,
      offset: m.offset,
      unflushedStart: m.pendingStart,
      unflushed: this.unflushedText(),
      queued,
      registers: {
        mark: m.mark,
        tagIsEnd: m.tagIsEnd,
        tagHasAttributes: m.tagHasAttributes,
        nameEnd: m.nameEnd,
        endTagName: m.endTagName,
        matchIndex: m.matchIndex,
        tempIndex: m.tempIndex,
        referenceNode: m.referenceNode,
        referenceMatched: m.referenceMatched,
        declaration: m.declaration,
        declarationIndex: m.declarationIndex,
        commentDataStart: m.commentDataStart,
        doctypeNameStart: d[DoctypeField.NAME_START],
        doctypeNameEnd: d[DoctypeField.NAME_END],
        doctypePublicStart: d[DoctypeField.PUBLIC_START],
        doctypePublicEnd: d[DoctypeField.PUBLIC_END],
        doctypeSystemStart: d[DoctypeField.SYSTEM_START],
        doctypeSystemEnd: d[DoctypeField.SYSTEM_END],
        forceQuirks: m.forceQuirks,
        keyword: m.keyword,
        keywordIndex: m.keywordIndex,
        keywordStart: m.keywordStart,
        insertOpen: m.insertOpen,
      },
      lastStartTag: m.lastStartTagNameNow(),
      ended: m.ended,
      errors: m.errors === null ? null : m.errors.state(),
    };
  }

  /**
   * For debugging tools: the state in the standard's words — the state's name and section, the held
   * text, the token it is becoming (see `debugState`). Reads a snapshot; not for hot paths.
   */
  debugState(): TokenizerDebugState {
    return debugState(this.snapshot());
  }

  /**
   * Resumes from a snapshot of this or another tokenizer made with the same options.
   * @throws Error when called from inside `emit`, or when the snapshot is malformed or was taken with
   * error reporting on and this tokenizer has it off (or the reverse).
   */
  restore(snapshot: TokenizerSnapshot): void {
    const m = this.m;
    if (m.busy) throw new Error('sluice Tokenizer.restore: called from inside emit');
    const state = STATE_BY_NAME.get(snapshot?.state);
    const returnState = STATE_BY_NAME.get(snapshot?.returnState);
    if (state === undefined || returnState === undefined) {
      throw new Error(`sluice Tokenizer.restore: not a tokenizer snapshot (state ${String(snapshot?.state)})`);
    }
    if ((snapshot.errors === null) !== (m.errors === null)) {
      throw new Error('sluice Tokenizer.restore: the snapshot and this tokenizer differ in error reporting (onParseError)');
    }
    const r = snapshot.registers;
    m.state = state;
    m.returnState = returnState;
    m.textKind = snapshot.textKind;
    m.input = '';
    m.pos = 0;
    m.base = snapshot.offset;
    m.pendingStart = snapshot.unflushedStart;
    m.attributeSpans.restored(m.pendingStart);
    m.held.take();
    m.held.push(snapshot.unflushed);
    m.queue = snapshot.queued.slice().reverse();
    m.nextLessThan = m.nextAmpersand = -1;
    m.mark = r.mark as number;
    m.tagIsEnd = r.tagIsEnd as boolean;
    m.tagHasAttributes = r.tagHasAttributes as boolean;
    m.nameEnd = r.nameEnd as number;
    m.endTagName = r.endTagName as string | null;
    m.matchIndex = r.matchIndex as number;
    m.tempIndex = r.tempIndex as number;
    m.referenceNode = r.referenceNode as number;
    m.referenceMatched = r.referenceMatched as boolean;
    m.declaration = r.declaration as number;
    m.declarationIndex = r.declarationIndex as number;
    m.commentDataStart = r.commentDataStart as number;
    const d = m.doctype;
    d[DoctypeField.NAME_START] = r.doctypeNameStart as number;
    d[DoctypeField.NAME_END] = r.doctypeNameEnd as number;
    d[DoctypeField.PUBLIC_START] = r.doctypePublicStart as number;
    d[DoctypeField.PUBLIC_END] = r.doctypePublicEnd as number;
    d[DoctypeField.SYSTEM_START] = r.doctypeSystemStart as number;
    d[DoctypeField.SYSTEM_END] = r.doctypeSystemEnd as number;
    m.forceQuirks = r.forceQuirks as boolean;
    m.keyword = r.keyword as number;
    m.keywordIndex = r.keywordIndex as number;
    m.keywordStart = r.keywordStart as number;
    m.insertOpen = r.insertOpen as boolean;
    m.lastStartTag = null;
    m.lastStartTagName = snapshot.lastStartTag;
    m.ended = snapshot.ended;
    m.atEof = snapshot.ended;
    if (m.errors !== null && snapshot.errors !== null) m.errors.restore(snapshot.errors);
  }

  /** The text read but not yet emitted. */
  private unflushedText(): string {
    const m = this.m;
    const held = m.held.peek();
    const from = Math.max(m.pendingStart - m.base, 0);
    return m.pos > from ? held + m.input.slice(from, m.pos) : held;
  }

  private checkUsable(method: string): void {
    const m = this.m;
    if (m.busy) {
      throw new Error(
        `sluice Tokenizer.${method}: called from inside emit (tokens are emitted synchronously inside write()/end()); ` +
          'use insert() to add input at the current position',
      );
    }
    if (m.ended) throw new Error(`sluice Tokenizer.${method}: called after end()`);
    if (this.failed !== undefined) {
      throw new Error(`sluice Tokenizer.${method}: an earlier write()/end() threw (from emit?); this tokenizer cannot go on`, {
        cause: this.failed,
      });
    }
  }

  private drive(emit: TokenSink, atEnd: boolean): void {
    const m = this.m;
    m.busy = true;
    m.sink = emit;
    try {
      m.run();
      if (atEnd) {
        m.endOfFile();
        m.ended = true;
      }
    } catch (error) {
      this.failed = error;
      throw error;
    } finally {
      m.busy = false;
      m.sink = idle;
    }
  }
}

function idle(): void {
  throw new Error('sluice tokenizer: internal error, a token was emitted outside write()/end()');
}
