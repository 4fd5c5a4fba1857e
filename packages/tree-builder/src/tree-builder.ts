/**
 * The tree builder (WHATWG HTML §13.2.6, "Tree construction").
 *
 * It consumes the tokenizer's raw tokens, drives the tokenizer's feedback (text modes, CDATA), runs the
 * tree-construction rules and emits DOM mutation events to a `TreeSink`. It never builds a tree itself:
 * every node is a handle the sink returned.
 *
 * This file holds the parser state (§13.2.4) and the algorithms the insertion modes share (§13.2.6.1–3);
 * the rules of each insertion mode live in `insertion-modes/`, one file per mode.
 */
import {
  EndTagClass,
  StartTagClass,
  TextTokenClass,
  type Attribute,
  type EndTagToken,
  type ParseError,
  type TextMode,
  type Token,
} from '@sluice/tokenizer';
import { type ActiveFormattingListener, ActiveFormattingElements, type FormattingEntry, MARKER } from './active-formatting-elements.js';
import { appropriatePlace } from './appropriate-place.js';
import { foreignContent } from './foreign-content.js';
import { foreignAttributes, htmlAttributes } from './foreign-adjustments.js';
import { LineCounter } from './parse-errors.js';
import { INSERTION_MODE_NAMES, MODE, type InsertionMode, type InsertionModeName } from './insertion-mode.js';
import { afterAfterBody } from './insertion-modes/after-after-body.js';
import { afterAfterFrameset } from './insertion-modes/after-after-frameset.js';
import { afterBody } from './insertion-modes/after-body.js';
import { afterFrameset } from './insertion-modes/after-frameset.js';
import { afterHead } from './insertion-modes/after-head.js';
import { beforeHead } from './insertion-modes/before-head.js';
import { beforeHtml } from './insertion-modes/before-html.js';
import { bodyCharacters, bodyEndTag, bodyStartTag, endTagClosesCurrentNode, inBody } from './insertion-modes/in-body.js';
import { inCaption } from './insertion-modes/in-caption.js';
import { inCell } from './insertion-modes/in-cell.js';
import { inColumnGroup } from './insertion-modes/in-column-group.js';
import { inFrameset } from './insertion-modes/in-frameset.js';
import { inHead } from './insertion-modes/in-head.js';
import { inHeadNoscript } from './insertion-modes/in-head-noscript.js';
import { inRow } from './insertion-modes/in-row.js';
import { inTable } from './insertion-modes/in-table.js';
import { inTableBody } from './insertion-modes/in-table-body.js';
import { inTableText } from './insertion-modes/in-table-text.js';
import { inTemplate } from './insertion-modes/in-template.js';
import { initial } from './insertion-modes/initial.js';
import { text } from './insertion-modes/text.js';
import {
  NS,
  type DocumentMode,
  type ElementAttribute,
  type ElementNamespace,
  type SourceLocation,
  type TreeSink,
  type CopyReason,
} from './sink.js';
import { ElementRecord, StackOfOpenElements, type OpenElement, type PopListener } from './stack-of-open-elements.js';
import {
  HTML_INTEGRATION_POINT,
  HTML_NS,
  MATHML_TEXT_INTEGRATION_POINT,
  T,
  foreignElementFlags,
  htmlElementFlags,
  isAllWhitespace,
  isAllWhitespaceOrNul,
  isFormattingTag,
  tagIdOf,
} from './tag-sets.js';
import {
  CHARACTERS,
  COMMENT,
  DOCTYPE,
  END_TAG,
  EOF,
  START_TAG,
  ReusableTag,
  characters,
  type CommentTreeToken,
  type TagToken,
  type TreeToken,
} from './tree-tokens.js';

/** The context element of the HTML fragment parsing algorithm (§13.2.8). */
export interface FragmentContext {
  /** The context element's local name, e.g. `'div'`, `'tbody'`, `'path'`. */
  localName: string;
  namespace: ElementNamespace;
  /** Its attributes; they matter for integration points (`annotation-xml encoding="text/html"`). */
  attributes?: readonly ElementAttribute[];
  /** The mode of the context element's document: quirks affects `<table>` in `<p>`. Default no-quirks. */
  documentMode?: DocumentMode;
}

/** Options of the tree builder. */
export interface TreeBuilderOptions<N> {
  /** The scripting flag (§13.2.4.5): `<noscript>` is raw text when true, markup when false. Default true. */
  scripting?: boolean;
  /** Parse a fragment (§13.2.8) in this context instead of a document. */
  fragmentContext?: FragmentContext;
  /**
   * Tree-construction parse errors (§13.2.6), as `ParseError`s: code (see `TreeConstructionErrorCode`),
   * offset, 1-based line and column. Never thrown. A `TreeBuilder` you drive yourself reports only these;
   * give the same function to the `Tokenizer`'s `onParseError` and the two merge in the order the
   * standard raises them (a token's tokenizer errors, then its tree-construction errors). `Parser` does
   * that for you. Absent: no error bookkeeping at all.
   */
  onParseError?: (error: ParseError) => void;
  /**
   * §13.2.6.4.8 "text" insertion mode, `</script>`: called after the script element is popped. The hook may
   * change the DOM through its own means and call `control.write(markup)` to insert markup at the insertion
   * point (document.write): it is tokenized before the rest of the input. Also called for an SVG `<script>`
   * when it ends. Never called when parsing a fragment: the fragment parser's scripts do not run.
   */
  onScript?: (script: N, control: { write(markup: string): void }) => void;
}

/** The tokenizer feedback the tree builder needs: text modes (§13.2.6) and document.write. */
export interface TokenizerFeedback {
  setTextMode(mode: TextMode): void;
  insert(text: string): void;
}

const NO_ATTRIBUTES: readonly [] = Object.freeze([]) as readonly [];
/** `activeFormattingTail` when nothing would be reconstructed (shared: callers do not change it). */
const NO_TAIL: readonly never[] = Object.freeze([]) as readonly never[];

/**
 * What the `onScript` hook gets: `write` inserts markup at the insertion point (document.write).
 *
 * A class, not an object literal, on purpose. V8 may allocate the objects of an object literal directly
 * in the old generation ("pretenuring", decided per literal) once it sees them survive; this object lives
 * as long as its tree builder, so it would be, and after the parse it would stay behind as old garbage
 * pointing, through the tokenizer, at the tree just built, which every young-generation GC until the next
 * full one would then copy. The smaller of the two such paths found (the other: `Parser`'s `BuilderLink`);
 * on its own it was worth about 4% of `bench:parse`.
 */
class ScriptControl {
  /** A bound function (the hook may call it detached from the object). */
  declare readonly write: (markup: string) => void;
  constructor(tokenizer: TokenizerFeedback) {
    this.write = (markup: string) => tokenizer.insert(markup);
  }
}

/** The location of a tag token, or null for a tag the parser made up. */
function locationOf(t: { start: number; end: number }): SourceLocation | null {
  return t.end > t.start ? { start: t.start, end: t.end } : null;
}

/** The tag ids "reset the insertion mode appropriately" (§13.2.4.1) names. */
const RESET_MODE_IDS: readonly number[] = [
  T.TD, T.TH, T.TR, T.TBODY, T.THEAD, T.TFOOT, T.CAPTION, T.COLGROUP, T.TABLE, T.TEMPLATE, T.HEAD, T.BODY,
  T.FRAMESET, T.HTML,
];

/**
 * §13.2.6 The tree construction dispatcher, for an adjusted current node that is not in the HTML
 * namespace: whether a token of `kind` (`START_TAG`, `END_TAG`, `CHARACTERS`; `name`: a start tag's) is
 * still processed by the insertion mode's rules there — at a MathML text integration point, at an
 * `annotation-xml` for an `<svg>`, at an HTML integration point — rather than the rules for foreign
 * content.
 */
function insertionModeRulesApply<N>(node: ElementRecord<N>, kind: number, name: string): boolean {
  const flags = node.flags;
  if (flags & MATHML_TEXT_INTEGRATION_POINT) {
    if (kind === CHARACTERS) return true;
    if (kind === START_TAG && name !== 'mglyph' && name !== 'malignmark') return true;
  }
  if (kind === START_TAG && name === 'svg' && node.namespace === NS.MATHML && node.localName === 'annotation-xml') return true;
  return (flags & HTML_INTEGRATION_POINT) !== 0 && (kind === START_TAG || kind === CHARACTERS);
}

/**
 * The streaming tree builder. Feed it the tokenizer's tokens with `processToken` (from the tokenizer's
 * emit callback, synchronously: it switches the tokenizer's text mode before the next character is read),
 * then call `processEnd` once at the end of the input.
 */
export class TreeBuilder<N> {
  /** @internal */ readonly sink: TreeSink<N>;
  /** @internal */ readonly tokenizer: TokenizerFeedback;
  /** @internal */ readonly document: N;
  /** @internal The stack of open elements (§13.2.4.2). */
  readonly stack: StackOfOpenElements<N>;
  /** @internal The list of active formatting elements (§13.2.4.3). */
  readonly afe = new ActiveFormattingElements<N>();
  /** @internal */ mode: InsertionMode = MODE.INITIAL;
  /** @internal */ originalMode: InsertionMode = MODE.INITIAL;
  /** @internal The stack of template insertion modes (§13.2.4.1). */
  readonly templateModes: InsertionMode[] = [];
  /** @internal The head element pointer (§13.2.4.4). */
  headElement: ElementRecord<N> | null = null;
  /** @internal The form element pointer (§13.2.4.4). */
  formElement: ElementRecord<N> | null = null;
  /** @internal The frameset-ok flag (§13.2.4.5). */
  framesetOk = true;
  /** @internal Set while "in table" anything-else processes a token with foster parenting (§13.2.6.1). */
  fosterParenting = false;
  /** @internal The scripting flag. */
  readonly scripting: boolean;
  /** @internal The fragment parsing context element, or null when parsing a document. */
  readonly context: ElementRecord<N> | null;
  /** @internal The document's mode. */
  documentMode: DocumentMode = 'no-quirks';
  /** @internal "in table text": the pending table character tokens. */
  pendingTableText: string[] = [];
  /** @internal Whether a pending table character is not whitespace. */
  pendingTableTextDirty = false;
  /** @internal Span of the pending table character tokens. */
  pendingTableTextStart = 0;
  /** @internal */ pendingTableTextEnd = 0;
  /** @internal With errors wanted: the line and column of `pendingTableTextStart`. */
  pendingTableTextPosition: { line: number; col: number } | null = null;
  /** @internal The `</body>` end tag seen "in body", reported when the body is popped at the end. */
  bodyEndLocation: SourceLocation | null = null;
  /** @internal The `</html>` end tag seen "after body" / "after frameset", likewise. */
  htmlEndLocation: SourceLocation | null = null;
  /** @internal After `<pre>`, `<listing>`, `<textarea>`: drop a LF that comes next. */
  skipNextNewline = false;
  /** @internal Result of `appropriatePlace`: the parent … */
  placeParent!: N;
  /** @internal … and the child to insert before (null: append). */
  placeBefore: N | null = null;
  private stopped = false;
  /** The tag tokens `processToken` fills in (see `ReusableTag`). */
  private readonly startTag = new ReusableTag(START_TAG);
  private readonly endTag = new ReusableTag(END_TAG);
  /**
   * @internal Offset of the token being processed (the end of input in `processEnd`): where parse errors
   * are, and `elementPopped`'s `at`.
   */
  tokenOffset = 0;
  private readonly onParseError: ((error: ParseError) => void) | null;
  /** Lines of the tokens seen, for the errors' positions; null when errors are not wanted. */
  private readonly lines: LineCounter | null;
  private readonly onScript: ((script: N, control: { write(markup: string): void }) => void) | null;
  private readonly scriptControl: ScriptControl;
  /** Whether the sink takes whole text tokens (`TreeSink.insertTextToken`). */
  private readonly textTokens: boolean;

  /**
   * @param sink receives the DOM mutation events.
   * @param tokenizer receives the feedback: `setTextMode` after start tags that need it, `insert` for
   *   document.write.
   */
  constructor(sink: TreeSink<N>, tokenizer: TokenizerFeedback, options: TreeBuilderOptions<N> = {}) {
    this.sink = sink;
    this.tokenizer = tokenizer;
    this.document = sink.document;
    this.scripting = options.scripting ?? true;
    const onParseError = options.onParseError;
    if (onParseError !== undefined && typeof onParseError !== 'function') {
      throw new TypeError('TreeBuilder: options.onParseError must be a function');
    }
    if ((options as { onError?: unknown }).onError !== undefined) {
      throw new TypeError('TreeBuilder: options.onError is now options.onParseError (one channel for every parse error, in the ParseError shape)');
    }
    this.onParseError = onParseError ?? null;
    this.lines = onParseError === undefined ? null : new LineCounter();
    this.onScript = options.onScript ?? null;
    this.scriptControl = new ScriptControl(tokenizer);
    this.textTokens = sink.insertTextToken !== undefined;
    this.stack = new StackOfOpenElements<N>(sink.elementPopped === undefined ? null : (sink as PopListener<N>), this);
    if (sink.activeFormattingElementDropped !== undefined) {
      this.afe.onNoahsArk = (record) => sink.activeFormattingElementDropped!(record.node, 'noahs-ark');
    }
    const fragment = options.fragmentContext;
    if (fragment === undefined) {
      this.context = null;
      return;
    }
    // §13.2.8 The HTML fragment parsing algorithm.
    if (fragment.namespace !== NS.HTML && fragment.namespace !== NS.SVG && fragment.namespace !== NS.MATHML) {
      throw new Error(`TreeBuilder: fragmentContext.namespace must be the HTML, SVG or MathML namespace, not ${String(fragment.namespace)}`);
    }
    if (typeof fragment.localName !== 'string' || fragment.localName === '') {
      throw new Error('TreeBuilder: fragmentContext.localName must be a non-empty string');
    }
    const attributes = fragment.attributes ?? [];
    const isHtml = fragment.namespace === NS.HTML;
    const id = isHtml ? tagIdOf(fragment.localName) : 0;
    this.context = new ElementRecord<N>(
      undefined as N,
      fragment.localName,
      fragment.namespace,
      id,
      isHtml ? htmlElementFlags(id) : foreignElementFlags(fragment.localName, fragment.namespace, attributes),
      attributes,
      null,
    );
    this.documentMode = fragment.documentMode ?? 'no-quirks';
    if (this.documentMode !== 'no-quirks') sink.setDocumentMode(this.documentMode);
    // The root: an html element, child of the Document, on the stack.
    const root = this.createElement('html', NS.HTML, T.HTML, [], null);
    sink.insertBefore(this.document, root.node, null);
    this.stack.push(root);
    if (this.context.is(T.TEMPLATE)) this.templateModes.push(MODE.IN_TEMPLATE);
    this.resetInsertionMode();
    // The form element pointer: the context element itself when it is a form (it has no ancestors here).
    if (this.context.is(T.FORM)) this.formElement = this.context;
  }

  // --- Public API ----------------------------------------------------------------------------------

  /**
   * Process one token from the tokenizer. Call it from the tokenizer's emit callback, synchronously: a
   * start tag may switch the tokenizer's text mode before it reads on. Throws after `processEnd()`.
   */
  processToken(token: Token): void {
    if (this.lines !== null && !(token instanceof TextTokenClass || token instanceof StartTagClass || token instanceof EndTagClass)) {
      this.lines.next(token.raw, token.start, token.type === 'text');
    }
    // The tokenizer's own token classes are told apart by prototype (`instanceof`) rather than by reading
    // `type`: with six token classes that one read would be megamorphic (V8 keeps at most four shapes per
    // property access), and each branch below then reads the fields of one class only.
    if (token instanceof TextTokenClass) this.processTextToken(token);
    else if (token instanceof StartTagClass) this.processStartTagToken(token);
    else if (token instanceof EndTagClass) this.processEndTagToken(token);
    else {
      this.checkRunning();
      switch (token.type) {
        case 'text':
          this.processText(token.value, token.start, token.start + token.raw.length);
          return;
        case 'startTag':
          this.processStartTag(token.name, token.attributes, null, token.selfClosing, token.start, token.start + token.raw.length);
          return;
        case 'endTag':
          this.processEndTag(token, token.start + token.raw.length);
          return;
        case 'comment':
          this.process({ kind: COMMENT, data: token.data, start: token.start, end: token.start + token.raw.length });
          return;
        case 'doctype':
          this.process({
            kind: DOCTYPE,
            name: token.name,
            publicId: token.publicId,
            systemId: token.systemId,
            forceQuirks: token.forceQuirks,
            start: token.start,
            end: token.start + token.raw.length,
          });
          return;
        default:
        // 'discarded': source text the standard consumes without a token. Not a token: it must not
        // end "in table text" or cancel the newline skip after <pre>.
      }
    }
  }

  /** Throws once parsing has stopped: no token may come after `processEnd()`. */
  private checkRunning(): void {
    if (this.stopped) throw new Error('TreeBuilder.processToken(): parsing has stopped; no token can come after processEnd()');
  }

  /**
   * @internal `processToken` for a caller that has already told the token classes apart (the rewriter's
   * transformer branches on them anyway): one of the tokenizer's text tokens.
   */
  processTextToken(token: TextTokenClass): void {
    this.checkRunning();
    if (this.lines !== null) this.lines.next(token.raw, token.start, true);
    if (this.textTokens && this.insertTextToken(token)) return;
    this.processText(token.value, token.start, token.end);
  }

  /** @internal `processToken` for one of the tokenizer's start tag tokens (see `processTextToken`). */
  processStartTagToken(token: StartTagClass): void {
    this.checkRunning();
    if (this.lines !== null) this.lines.next(token.raw, token.start, false);
    // Attributes decoded only if a rule reads them, or the sink wants them (see `createHtmlElementFor`).
    this.processStartTag(token.name, null, token, token.selfClosing, token.start, token.end);
  }

  /** @internal `processToken` for one of the tokenizer's end tag tokens (see `processTextToken`). */
  processEndTagToken(token: EndTagClass): void {
    this.checkRunning();
    if (this.lines !== null) this.lines.next(token.raw, token.start, false);
    this.processEndTag(token, token.end);
  }

  /**
   * For a sink with `insertTextToken`: the common cases of `processText` (text "in body", in the modes
   * whose rules for text are "in body"'s, and in the "text" insertion mode; whitespace "in head" and
   * "after head"; in HTML content, going whole to the current node) without decoding the token's
   * characters. False when the token needs the general rules.
   */
  private insertTextToken(token: TextTokenClass): boolean {
    if (!this.textGoesToCurrentNode()) return false;
    const mode = this.mode;
    // "in cell" (§13.2.6.4.15), "in caption" (.11) and "in template" (.18) process character tokens
    // using the rules for "in body".
    if (mode === MODE.IN_BODY || mode === MODE.IN_CELL || mode === MODE.IN_CAPTION || mode === MODE.IN_TEMPLATE) {
      // §13.2.6.4.7 "in body", character tokens: each U+0000 is a parse error and is dropped, which the
      // sink does (see `insertTextToken`). Only NULs alone would change what happens here: nothing is
      // inserted and nothing reconstructed. A token that starts with one takes the general rules, as
      // does every token when errors are wanted. (Looking for a NUL in every text would cost more than
      // the whole of this path.)
      if (token.source.charCodeAt(token.offset) === 0 || (this.onParseError !== null && token.raw.indexOf('\0') >= 0)) return false;
      this.tokenOffset = token.start;
      this.reconstructActiveFormattingElements();
      this.sink.insertTextToken!(this.currentInsertionParent(), token);
      // Only until the first text that is not whitespace: the characters are decoded for this check.
      if (this.framesetOk && !isAllWhitespaceOrNul(token.value)) this.framesetOk = false;
      return true;
    }
    if (mode === MODE.TEXT) {
      // §13.2.6.4.8 "text": insert the characters.
      this.sink.insertTextToken!(this.currentInsertionParent(), token);
      return true;
    }
    if ((mode === MODE.IN_HEAD || mode === MODE.AFTER_HEAD) && isAllWhitespace(token.raw)) {
      // §13.2.6.4.4 "in head", §13.2.6.4.6 "after head": whitespace is inserted (the whitespace between
      // the head's tags). Whitespace is the same characters raw and decoded (a CR aside, which the sink
      // takes from the token's value).
      this.sink.insertTextToken!(this.currentInsertionParent(), token);
      return true;
    }
    return false;
  }

  /**
   * Whether text goes straight to the end of the current node, as far as the insertion mode's rules
   * allow (no newline to skip after `<pre>`, no foster parenting, HTML content): the fast paths'
   * precondition.
   */
  private textGoesToCurrentNode(): boolean {
    return !this.skipNextNewline && !this.fosterParenting && this.stack.length > 0 && (this.adjustedCurrentNode.flags & HTML_NS) !== 0;
  }

  /** Where text goes without foster parenting: the current node, or its template contents. */
  private currentInsertionParent(): N {
    const current = this.stack.current;
    return current.id === T.TEMPLATE && current.flags & HTML_NS ? this.sink.templateContents(current.node) : current.node;
  }

  /** A text token's characters, `[start, end)` in the input. */
  private processText(value: string, start: number, end: number): void {
    if (value.length === 0) return;
    // The common cases without a token object: text in "in body" and in the "text" insertion mode,
    // in HTML content (the dispatcher would pick the insertion mode's rules).
    if (this.textGoesToCurrentNode()) {
      if (this.mode === MODE.IN_BODY) {
        this.tokenOffset = start;
        bodyCharacters(this, value, start, end);
        return;
      }
      if (this.mode === MODE.TEXT) {
        this.insertCharacters(value, start, end);
        return;
      }
    }
    this.process(characters(value, start, end));
  }

  private processStartTag(
    name: string,
    attributes: readonly Attribute[] | null,
    source: StartTagClass | null,
    selfClosing: boolean,
    start: number,
    end: number,
  ): void {
    const t = this.startTag.set(name, tagIdOf(name), attributes, source, selfClosing, start, end);
    if (this.mode === MODE.IN_BODY && !this.skipNextNewline && this.adjustedCurrentNode.flags & HTML_NS) {
      // The common case, straight to the "in body" rules (what the dispatcher would do).
      this.tokenOffset = start;
      bodyStartTag(this, t);
      if (t.selfClosing && !t.acknowledged) this.error('non-void-html-element-start-tag-with-trailing-solidus', start);
      return;
    }
    this.process(t);
  }

  private processEndTag(token: EndTagToken, end: number): void {
    const name = token.name;
    const start = token.start;
    // An end tag's attributes are never used (`</br>` acts as `<br>` without them): they stay undecoded.
    // An end tag with attributes or `/>` is the tokenizer's error (§13.2.5, "when an end tag token is
    // emitted"), reported there: not again here.
    const t = this.endTag.set(name, tagIdOf(name), NO_ATTRIBUTES, null, token.selfClosing, start, end);
    if (this.mode === MODE.IN_BODY && !this.skipNextNewline && this.adjustedCurrentNode.flags & HTML_NS) {
      this.tokenOffset = start;
      if (!endTagClosesCurrentNode(this, t)) bodyEndTag(this, t);
      return;
    }
    this.process(t);
  }

  /** Any token off the fast paths: the newline skip after `<pre>`, then the dispatcher. */
  private process(t: TreeToken): void {
    this.tokenOffset = t.start;
    if (this.skipNextNewline) {
      // §13.2.6.4.7 <pre>, <listing>, <textarea>: "If the next token is a U+000A LINE FEED (LF) character
      // token, then ignore that token". Character tokens are one character each in the standard; ours
      // are runs, so drop the run's first character.
      this.skipNextNewline = false;
      if (t.kind === CHARACTERS && t.data.charCodeAt(0) === 0x0a) {
        if (t.data.length === 1) return;
        t = characters(t.data.slice(1), t.start, t.end);
      }
    }
    this.dispatch(t);
    if (t.kind === START_TAG && t.selfClosing && !t.acknowledged) {
      this.error('non-void-html-element-start-tag-with-trailing-solidus', t.start);
    }
  }

  /**
   * End of input: the end-of-file rules of the current insertion mode, then "stop parsing" (§13.2.7): every
   * open element is popped (`elementPopped`). Call it once, after the tokenizer's `end()`. `endOffset`:
   * where the input ends (its length, in UTF-16 code units), which `elementPopped` gets as `at` for the
   * elements open at the end and parse errors as their offset; `Parser` passes it. Without it, the end
   * of the last token when errors are wanted, else 0.
   */
  processEnd(endOffset?: number): void {
    if (this.stopped) throw new Error('TreeBuilder.processEnd(): parsing has already stopped; processEnd() was called twice');
    if (endOffset !== undefined && !(Number.isInteger(endOffset) && endOffset >= 0)) {
      throw new TypeError(`TreeBuilder.processEnd(): endOffset must be a non-negative integer, not ${String(endOffset)}`);
    }
    // The end of input: as given (Parser counts the input), else where the last token ended when errors
    // are wanted (it is their offset), else 0.
    const at = endOffset ?? (this.lines === null ? 0 : this.lines.end);
    const eof = { kind: EOF, start: at, end: at } as const;
    this.tokenOffset = at;
    // The end-of-file rules end by stopping parsing, or (closing a template) by asking for the token to be
    // reprocessed: dispatch it again until parsing has stopped.
    while (!this.stopped) this.dispatch(eof);
  }

  /**
   * After `processEnd`: let go of the nodes and tokens the tree builder still points at (the head and
   * form element pointers, the last place of insertion, the last tags processed, the list of active
   * formatting elements, which parsing leaves as it is when it stops), for a caller that keeps the tree
   * builder after its document (the rewriter's transformer does: it keeps nothing of the tree). A
   * finished document's objects were measured to survive young-generation collections long after its
   * end while anything of it kept them reachable (bench/rewrite-gc.mjs, docs/rewriter.md "Benchmarks");
   * a token reached this way keeps the whole input chunk it was sliced from.
   */
  releaseDocument(): void {
    if (!this.stopped) throw new Error('TreeBuilder.releaseDocument(): the document has not ended; call processEnd() first');
    this.headElement = null;
    this.formElement = null;
    this.placeParent = this.document;
    this.placeBefore = null;
    this.startTag.release();
    this.endTag.release();
    this.afe.release();
  }

  /**
   * Whether the tokenizer may treat `<![CDATA[` as a CDATA section (§13.2.5.42): the adjusted current node
   * exists and is not an element in the HTML namespace.
   */
  cdataAllowed(): boolean {
    const node = this.adjustedCurrentNode;
    return node != null && node.namespace !== NS.HTML;
  }

  /**
   * The stack of open elements, read-only: index 0 is the root `html` element, the last item is the current
   * node. Each item gives the sink's node handle, local name and namespace. A snapshot: each read makes a
   * new array, O(depth) (the stack is a linked list, see stack-of-open-elements.ts).
   */
  get openElements(): readonly OpenElement<N>[] {
    return this.stack.items;
  }

  /** The current insertion mode, by its name in the standard (e.g. `'in table body'`). */
  get insertionMode(): InsertionModeName {
    return INSERTION_MODE_NAMES[this.mode];
  }

  /**
   * Whether character tokens are being held as "pending table character tokens" (§13.2.6.4.10, "in
   * table text"): where they go — the table, or foster parenting — is decided at the next other token.
   */
  get holdsTableText(): boolean {
    return this.mode === MODE.IN_TABLE_TEXT;
  }

  /**
   * While `holdsTableText`: the input offset where the held characters begin (the start of the first
   * held character token; a run whose leading part went elsewhere keeps its own start).
   */
  get heldTableTextStart(): number {
    return this.pendingTableTextStart;
  }

  /** Whether parsing has stopped (after `processEnd`). */
  get isStopped(): boolean {
    return this.stopped;
  }

  // --- §13.2.6 The tree construction dispatcher -----------------------------------------------------

  /** @internal The adjusted current node (§13.2.4.2). */
  get adjustedCurrentNode(): ElementRecord<N> {
    const stack = this.stack;
    if (this.context !== null && stack.length === 1) return this.context;
    return stack.current;
  }

  /** @internal The tree construction dispatcher: HTML content rules or foreign content rules. */
  dispatch(t: TreeToken): void {
    if (this.stack.length === 0 || t.kind === EOF) return this.processInMode(this.mode, t);
    const node = this.adjustedCurrentNode;
    if (node.flags & HTML_NS || insertionModeRulesApply(node, t.kind, t.kind === START_TAG ? t.name : '')) return this.processInMode(this.mode, t);
    foreignContent(this, t);
  }

  /**
   * @internal Before a start tag (`kind` `'start'`), an end tag (`'end'`) or text (`'text'`) named `name`
   * is processed: the open elements from the current node down, each with whether the dispatcher would
   * process the token by the insertion mode's rules were that element the adjusted current node (else by
   * the rules for foreign content, §13.2.6), while `visit` returns true. (The rewriter: an element its
   * output leaves out makes a browser's dispatcher look at the element below it.)
   */
  forEachDispatchFromTop(kind: 'start' | 'end' | 'text', name: string, visit: (node: N, insertionMode: boolean) => boolean): void {
    const k = kind === 'start' ? START_TAG : kind === 'end' ? END_TAG : CHARACTERS;
    for (let r: ElementRecord<N> | null = this.stack.length > 0 ? this.stack.current : null; r !== null; r = r.below) {
      if (!visit(r.node, (r.flags & HTML_NS) !== 0 || insertionModeRulesApply(r, k, name))) return;
    }
  }

  /** @internal Whether the adjusted current node is an element in the HTML namespace (or there is none). */
  adjustedCurrentNodeIsHtml(): boolean {
    return this.stack.length === 0 || (this.adjustedCurrentNode.flags & HTML_NS) !== 0;
  }

  /** @internal Process `t` "using the rules for" `mode` (the insertion mode does not change). */
  processInMode(mode: InsertionMode, t: TreeToken): void {
    switch (mode) {
      case MODE.INITIAL: return initial(this, t);
      case MODE.BEFORE_HTML: return beforeHtml(this, t);
      case MODE.BEFORE_HEAD: return beforeHead(this, t);
      case MODE.IN_HEAD: return inHead(this, t);
      case MODE.IN_HEAD_NOSCRIPT: return inHeadNoscript(this, t);
      case MODE.AFTER_HEAD: return afterHead(this, t);
      case MODE.IN_BODY: return inBody(this, t);
      case MODE.TEXT: return text(this, t);
      case MODE.IN_TABLE: return inTable(this, t);
      case MODE.IN_TABLE_TEXT: return inTableText(this, t);
      case MODE.IN_CAPTION: return inCaption(this, t);
      case MODE.IN_COLUMN_GROUP: return inColumnGroup(this, t);
      case MODE.IN_TABLE_BODY: return inTableBody(this, t);
      case MODE.IN_ROW: return inRow(this, t);
      case MODE.IN_CELL: return inCell(this, t);
      case MODE.IN_TEMPLATE: return inTemplate(this, t);
      case MODE.AFTER_BODY: return afterBody(this, t);
      case MODE.IN_FRAMESET: return inFrameset(this, t);
      case MODE.AFTER_FRAMESET: return afterFrameset(this, t);
      case MODE.AFTER_AFTER_BODY: return afterAfterBody(this, t);
      case MODE.AFTER_AFTER_FRAMESET: return afterAfterFrameset(this, t);
    }
  }

  /** @internal Switch to `mode` and reprocess the token (through the dispatcher). */
  reprocess(mode: InsertionMode, t: TreeToken): void {
    this.mode = mode;
    this.dispatch(t);
  }

  /**
   * @internal With errors wanted: no later error can be before this offset — the end of the last token
   * processed, or the start of the table text still pending (its `foster-parenting` error comes later).
   */
  get errorsFrom(): number {
    const end = this.lines === null ? 0 : this.lines.end;
    return this.mode === MODE.IN_TABLE_TEXT ? Math.min(end, this.pendingTableTextStart) : end;
  }

  /** @internal Whether parse errors are wanted (`options.onParseError`). */
  get reportsErrors(): boolean {
    return this.onParseError !== null;
  }

  /** @internal Report a tree-construction parse error. */
  error(code: string, offset: number = this.tokenOffset): void {
    const report = this.onParseError;
    if (report === null) return;
    // A NUL is an error of its own wherever it is (`nullCharacterErrors`); any other error about text is
    // one per run of text, however many tokens the chunking cut it into.
    if (code !== 'unexpected-null-character' && !this.lines!.firstInRun(code)) return;
    const { line, col } = this.lines!.position(offset);
    report({ code, offset, line, col });
  }

  /** @internal The line and column of `offset` (in or after the token being processed); errors wanted only. */
  positionOf(offset: number): { line: number; col: number } {
    return this.lines!.position(offset);
  }

  /** @internal Report an error at an offset before the current token, whose position was taken earlier. */
  errorAt(code: string, offset: number, position: { line: number; col: number } | null): void {
    const report = this.onParseError;
    if (report === null) return;
    const { line, col } = position ?? this.lines!.position(offset);
    report({ code, offset, line, col });
  }

  /**
   * @internal `unexpected-null-character` for each U+0000 in the token being processed from `from` on
   * (tree construction drops or replaces them: one error each, at each NUL, as the standard raises it per
   * character token; the tokenizer raised its own there already).
   */
  nullCharacterErrors(from: number): void {
    if (this.onParseError === null) return;
    const lines = this.lines!;
    const raw = lines.currentRaw;
    const start = lines.currentStart;
    for (let i = raw.indexOf('\0', Math.max(0, from - start)); i >= 0; i = raw.indexOf('\0', i + 1)) {
      this.error('unexpected-null-character', start + i);
    }
  }

  /** @internal Whether this is the fragment case. */
  get isFragment(): boolean {
    return this.context !== null;
  }

  // --- §13.2.6.1 Creating and inserting nodes -----------------------------------------------------

  /** @internal Create an element (the sink's node plus our record). */
  createElement(
    localName: string,
    namespace: ElementNamespace,
    id: number,
    attributes: readonly ElementAttribute[],
    location: SourceLocation | null,
  ): ElementRecord<N> {
    const node = this.sink.createElement(localName, namespace, attributes, location);
    const flags = namespace === NS.HTML ? htmlElementFlags(id) : foreignElementFlags(localName, namespace, attributes);
    return new ElementRecord(node, localName, namespace, namespace === NS.HTML ? id : 0, flags, attributes, location);
  }

  /**
   * @internal "Create an element for the token for which `old` was created" (§13.2.4.3, §13.2.6.4.7): a
   * copy of a formatting element. The sink is told which element it copies (`TreeSink.createElementCopy`).
   */
  createCopy(old: ElementRecord<N>, reason: CopyReason): ElementRecord<N> {
    const attributes = old.attributes;
    const location = old.location;
    const sink = this.sink;
    const node =
      sink.createElementCopy !== undefined
        ? sink.createElementCopy(old.node, old.localName, NS.HTML, attributes, location, reason)
        : sink.createElement(old.localName, NS.HTML, attributes, location);
    return new ElementRecord(node, old.localName, NS.HTML, old.id, htmlElementFlags(old.id), attributes, location);
  }

  /**
   * @internal "create an element for a token" in the HTML namespace. When the sink takes raw attributes and
   * nothing has read this tag's attributes, they stay undecoded: the sink gets the raw tag. The record of
   * a formatting element keeps the tag's token (its attributes may be read later: Noah's Ark,
   * reconstruction, the adoption agency); any other record keeps none, as nothing reads them.
   */
  createHtmlElementFor(t: TagToken): ElementRecord<N> {
    const id = t.id;
    const sink = this.sink;
    if (sink.createElementForStartTag !== undefined || sink.createElementWithRawAttributes !== undefined) {
      const source = t.undecodedSource;
      if (source !== undefined && source !== null) {
        // Not a formatting element: nothing reads the record's attributes or location, and a sink that
        // takes the tag's span from the tag needs no location object either.
        if (sink.createElementFromStartTag !== undefined && !isFormattingTag(id) && t.start === source.start && t.end === source.end && t.end > t.start) {
          const node = sink.createElementFromStartTag(t.name, source);
          return new ElementRecord(node, t.name, NS.HTML, id, htmlElementFlags(id), NO_ATTRIBUTES, null);
        }
        const location = locationOf(t);
        const node =
          sink.createElementForStartTag !== undefined
            ? sink.createElementForStartTag(t.name, source, location)
            : sink.createElementWithRawAttributes!(t.name, source.raw, location);
        return isFormattingTag(id)
          ? new ElementRecord(node, t.name, NS.HTML, id, htmlElementFlags(id), null, location, source)
          : new ElementRecord(node, t.name, NS.HTML, id, htmlElementFlags(id), NO_ATTRIBUTES, null);
      }
    }
    return this.createElement(t.name, NS.HTML, id, htmlAttributes(t.attributes), locationOf(t));
  }

  /** @internal Insert `record` at the appropriate place for inserting a node and push it (§13.2.6.1). */
  insertRecord(record: ElementRecord<N>): ElementRecord<N> {
    appropriatePlace(this, null);
    this.sink.insertBefore(this.placeParent, record.node, this.placeBefore);
    this.stack.push(record);
    return record;
  }

  /** @internal "insert an HTML element" for a tag token. */
  insertHtmlElement(t: TagToken): ElementRecord<N> {
    appropriatePlace(this, null);
    const parent = this.placeParent;
    const before = this.placeBefore;
    const record = this.createHtmlElementFor(t);
    this.sink.insertBefore(parent, record.node, before);
    this.stack.push(record);
    return record;
  }

  /** @internal "insert an HTML element" for a start tag the parser makes up (no attributes, no location). */
  insertHtmlElementNamed(name: string, id: number): ElementRecord<N> {
    appropriatePlace(this, null);
    const parent = this.placeParent;
    const before = this.placeBefore;
    const record = this.createElement(name, NS.HTML, id, [], null);
    this.sink.insertBefore(parent, record.node, before);
    this.stack.push(record);
    return record;
  }

  /**
   * @internal "insert a foreign element" for a tag token: `localName` already case-adjusted; attributes
   * adjusted (MathML or SVG, then foreign).
   */
  insertForeignElement(t: TagToken, localName: string, namespace: typeof NS.SVG | typeof NS.MATHML): ElementRecord<N> {
    appropriatePlace(this, null);
    const parent = this.placeParent;
    const before = this.placeBefore;
    const record = this.createElement(localName, namespace, 0, foreignAttributes(t.attributes, namespace), locationOf(t));
    this.sink.insertBefore(parent, record.node, before);
    this.stack.push(record);
    return record;
  }

  /** @internal "insert a character" for a run of characters (§13.2.6.1). */
  insertCharacters(data: string, start: number, end: number): void {
    if (data.length === 0) return;
    let parent: N;
    let before: N | null;
    if (this.fosterParenting) {
      appropriatePlace(this, null);
      parent = this.placeParent;
      before = this.placeBefore;
      if (parent === this.document) return;
    } else {
      // The common case, without the general algorithm: inside the current node, after its last child.
      parent = this.currentInsertionParent();
      before = null;
    }
    this.sink.insertText(parent, data, before, { start, end });
  }

  /** @internal "insert a comment" at the appropriate place, or as the last child of `parent`. */
  insertComment(t: CommentTreeToken, parent: N | null = null): void {
    const node = this.sink.createComment(t.data, { start: t.start, end: t.end });
    if (parent !== null) {
      this.sink.insertBefore(parent, node, null);
      return;
    }
    appropriatePlace(this, null);
    this.sink.insertBefore(this.placeParent, node, this.placeBefore);
  }

  /**
   * @internal The open elements from the current node down, while `visit` returns true (no allocation).
   * (The rewriter: where a walk of the rules over the stack stops, §13.2.6.4.7 "li", "dd, dt".)
   */
  forEachOpenElementFromTop(visit: (node: N) => boolean): void {
    for (let r: ElementRecord<N> | null = this.stack.length > 0 ? this.stack.current : null; r !== null; r = r.below) {
      if (!visit(r.node)) return;
    }
  }

  /**
   * @internal Whether the insertion mode is "after body" or "after after body" (§13.2.6.4.19, .21): a
   * start tag there takes the parser back into the body. (The rewriter: an element whose tags it leaves
   * out must not be the one that does.)
   */
  afterTheBody(): boolean {
    return this.mode === MODE.AFTER_BODY || this.mode === MODE.AFTER_AFTER_BODY;
  }

  /**
   * @internal Called with each element pushed onto the list of active formatting elements, before Noah's
   * Ark (§13.2.4.3 step 2) runs; `activeFormattingSinceMarker` then gives the list it looks at.
   */
  onActiveFormattingPush(fn: ((node: N) => void) | null): void {
    this.afe.onPush = fn === null ? null : (record) => fn(record.node);
  }

  /**
   * @internal Tell `listener` of every change to the list of active formatting elements from now on
   * (null: stop). Its state now: `forEachActiveFormattingEntry`.
   */
  activeFormattingListener(listener: ActiveFormattingListener<N> | null): void {
    this.afe.listener = listener;
  }

  /** @internal Every entry of the list of active formatting elements, in list order: the node (null: a marker) and the entry's seq. */
  forEachActiveFormattingEntry(visit: (node: N | null, seq: number) => void): void {
    this.afe.forEachEntry(visit);
  }

  /** @internal The number of entries (markers included) in the list of active formatting elements. */
  activeFormattingLength(): number {
    return this.afe.length;
  }

  /** @internal Whether at least `k` entries follow the last marker of the list of active formatting elements (O(k)). */
  activeFormattingAtLeast(k: number): boolean {
    return this.afe.atLeastSinceMarker(k);
  }

  /** @internal The element Noah's Ark (§13.2.4.3 "push", step 2) removed from the list in the last push; null when it removed none. */
  noahsArkDropped(): N | null {
    const dropped = this.afe.dropped;
    return dropped === null ? null : dropped.node;
  }

  /**
   * @internal The elements of the list of active formatting elements after its last marker, in list
   * order; null when there are fewer than `atLeast` (found without making the array).
   */
  activeFormattingSinceMarker(atLeast: number): N[] | null {
    let entry = this.afe.last;
    if (entry === null || entry.element === MARKER) return atLeast > 0 ? null : [];
    let n = 1;
    while (entry.prev !== null && entry.prev.element !== MARKER) {
      entry = entry.prev;
      n++;
    }
    if (n < atLeast) return null;
    const out: N[] = [];
    for (let e: typeof entry | null = entry; e !== null; e = e.next) out.push(e.element!.node);
    return out;
  }

  /**
   * @internal The element of the entry that ends `activeFormattingTail` from before: the open element
   * right before the tail (null when a marker or the start of the list ends it). (The rewriter, before a
   * token: where a reconstruction by a parser reading its output would stop.)
   */
  activeFormattingTailBoundary(): N | null {
    const last = this.afe.last;
    if (last === null || last.element === MARKER) return null;
    if (last.element.open) return last.element.node;
    // (The tail is remembered between tokens: `ActiveFormattingElements.tailStart`.)
    const before = this.afe.tailStart()!.prev;
    return before === null || before.element === MARKER ? null : before.element.node;
  }

  /**
   * @internal `activeFormattingTail`, continued across markers: the not-open entries at the end of the
   * list as segments, the last (after the last marker) first, each in list order; stops at an open
   * entry. (At the end of the input every element is closed but the markers stay, which a parser
   * reading explicit end tags for the cells would clear: the rewriter.)
   */
  activeFormattingSegments(): N[][] {
    const segments: N[][] = [[]];
    for (let e = this.afe.last; e !== null; e = e.prev) {
      if (e.element === MARKER) {
        segments.push([]);
        continue;
      }
      if (e.element.open) break;
      segments[segments.length - 1]!.push(e.element.node);
    }
    // (Gathered from the end, then turned round: `unshift` per entry made a long list quadratic.)
    for (const segment of segments) segment.reverse();
    return segments;
  }

  // --- §13.2.4.3 Reconstruct the active formatting elements ---------------------------------------

  /**
   * @internal The elements "reconstruct the active formatting elements" would copy if it ran now: the
   * entries at the end of the list (after the last marker) whose elements are not open, in list order.
   * Usually none, found in O(1). (The rewriter: what a parser reading its output would reconstruct.)
   */
  activeFormattingTail(): N[] {
    // (Remembered between tokens while it holds: `ActiveFormattingElements.tailNodes`.)
    return this.afe.tailNodes() ?? (NO_TAIL as unknown as N[]);
  }

  /** @internal */
  reconstructActiveFormattingElements(): void {
    const last = this.afe.last;
    if (last === null) return;
    const element = last.element;
    if (element === MARKER || element.open) return;
    this.reconstructFrom(last);
  }

  /**
   * The steps of `reconstructActiveFormattingElements` after its first checks (the last entry is an
   * element not on the stack). Apart because those checks run for every text and most start tags, and
   * alone they are small enough to be inlined into their callers. O(entries reconstructed).
   */
  private reconstructFrom(last: FormattingEntry<N>): void {
    // Rewind to the entry after the last one that is a marker or on the stack.
    let entry = last;
    for (;;) {
      const previous = entry.prev;
      if (previous === null || previous.element === MARKER || previous.element.open) break;
      entry = previous;
    }
    // Advance and create.
    for (let e: FormattingEntry<N> | null = entry; e !== null; e = e.next) {
      const old = e.element!;
      const record = this.createCopy(old, 'reconstruction');
      this.insertRecord(record);
      this.afe.replaceElement(old, record);
    }
  }

  // --- §13.2.6.3 Closing elements that have implied end tags ---------------------------------------

  /** @internal "close a p element". */
  closePElement(endLocation: SourceLocation | null = null): void {
    this.stack.generateImpliedEndTags(T.P);
    if (!this.stack.current.is(T.P)) this.error('end-tag-without-matching-open-element');
    this.stack.popUntilTag(T.P, endLocation);
  }

  /** @internal "If the stack of open elements has a p element in button scope, then close a p element." */
  closePInButtonScope(): void {
    if (this.stack.hasInButtonScope(T.P)) this.closePElement();
  }

  // --- §13.2.4.1 Reset the insertion mode appropriately --------------------------------------------

  /** @internal */
  resetInsertionMode(): void {
    // The standard walks down from the current node to the first node the steps name. That walk is
    // O(depth) and runs for every `</table>`, `</select>`, `</template>`: under 100,000 open <div>s,
    // 100,000 `<table></table>` would take 10^10 steps. The first node named is the topmost open HTML
    // element with one of the named tag ids, which the stack answers in O(1) per id. (Only the bottommost
    // node is "last"; there td, th and head do not count and the context element stands in for it.)
    const bottom = this.stack.first;
    if (bottom === null) {
      this.mode = MODE.IN_BODY;
      return;
    }
    {
      let node = this.stack.topmostOf(RESET_MODE_IDS) ?? bottom;
      const last = node === bottom;
      if (last && this.context !== null) node = this.context;
      if (node.flags & HTML_NS) {
        switch (node.id) {
          case T.TD:
          case T.TH:
            if (!last) {
              this.mode = MODE.IN_CELL;
              return;
            }
            break;
          case T.TR: this.mode = MODE.IN_ROW; return;
          case T.TBODY: case T.THEAD: case T.TFOOT: this.mode = MODE.IN_TABLE_BODY; return;
          case T.CAPTION: this.mode = MODE.IN_CAPTION; return;
          case T.COLGROUP: this.mode = MODE.IN_COLUMN_GROUP; return;
          case T.TABLE: this.mode = MODE.IN_TABLE; return;
          case T.TEMPLATE: this.mode = this.templateModes[this.templateModes.length - 1]; return;
          case T.HEAD:
            if (!last) {
              this.mode = MODE.IN_HEAD;
              return;
            }
            break;
          case T.BODY: this.mode = MODE.IN_BODY; return;
          case T.FRAMESET: this.mode = MODE.IN_FRAMESET; return;
          case T.HTML:
            this.mode = this.headElement === null ? MODE.BEFORE_HEAD : MODE.AFTER_HEAD;
            return;
        }
      }
    }
    this.mode = MODE.IN_BODY;
  }

  // --- §13.2.6.2 Parsing elements that contain only text ---------------------------------------------

  /** @internal The generic raw text / RCDATA element parsing algorithm. */
  parseTextElement(t: TagToken, textMode: 'rcdata' | 'rawtext'): void {
    this.insertHtmlElement(t);
    this.tokenizer.setTextMode(textMode);
    this.originalMode = this.mode;
    this.mode = MODE.TEXT;
  }

  // --- Scripts ------------------------------------------------------------------------------------------

  /**
   * @internal A script element's end: hand it to the `onScript` hook (document.write goes to the
   * tokenizer). Not in the fragment case: scripts the fragment parser creates are "already started"
   * (§13.2.6.4.4, script start tag step 4) and never run.
   */
  runScript(script: N): void {
    if (this.onScript !== null && this.context === null) this.onScript(script, this.scriptControl);
  }

  // --- §13.2.7 The end --------------------------------------------------------------------------------

  /** @internal "stop parsing": pop all the nodes off the stack of open elements. */
  stopParsing(): void {
    this.stopped = true;
    const stack = this.stack;
    while (stack.length > 0) {
      const current = stack.current;
      // body and html are never popped by their end tags; report those end tags here.
      const location = current.is(T.BODY) ? this.bodyEndLocation : current.is(T.HTML) ? this.htmlEndLocation : null;
      stack.pop(location);
    }
  }

  // --- Helpers the rules share ---------------------------------------------------------------------------

  /** @internal Tell the sink an end tag was accepted for an element that stays open (`TreeSink.endTagKeptOpen`). */
  endTagKeptOpen(record: ElementRecord<N> | null, location: SourceLocation | null): void {
    if (record !== null && this.sink.endTagKeptOpen !== undefined) this.sink.endTagKeptOpen(record.node, location);
  }

  /** @internal The location of a token, for `elementPopped`. */
  endLocation(t: TagToken): SourceLocation | null {
    return locationOf(t);
  }
}

