/**
 * Phase B of a rewrite (see transformer.ts): executes ops in order — runs the handlers on rewritable
 * units and writes what they decided — waiting, with later ops queued behind, whenever a handler returns
 * a promise. Owns the output buffer, the content being dropped (removed elements), and the failure.
 */
import { type EndTagToken, StartTagClass, type StartTagToken, fromByteForm } from '@sluice/tokenizer';
import { textCommentOf, textDoctypeOf, textStartTagOf } from './byte-form-units.js';
import { CommentUnit } from '../rewritable-units/comment.js';
import { type ContentContext, contentContextOf, contextOfTextKind } from '../rewritable-units/content.js';
import { DoctypeUnit } from '../rewritable-units/doctype.js';
import { DocumentEndUnit } from '../rewritable-units/document-end.js';
import { ElementUnit } from '../rewritable-units/element.js';
import { EndTagUnit } from '../rewritable-units/end-tag.js';
import { joined } from '../rewritable-units/mutations.js';
import { afterSource } from '../rewritable-units/boundaries.js';
import { TextChunkUnit } from '../rewritable-units/text-chunk.js';
import { ElementRecord, type NodeRecord, type ParentRecord, chainOf, OUT_ABSENT, OUT_CLOSED, OUT_ENDED_OPEN, OUT_CONTENT_ABSENT, OUT_EXPLICIT, OUT_FOSTERED, OUT_FOSTERED_BEFORE, OUT_OUTLIVED, OUT_RECLASSED, OUT_REOPENS_BODY, OUT_TAG_ADOPTS, OUT_UNWRAPPED, TAG_NOT_WRITTEN, containerOf, type WrittenTag } from '../view/records.js';
import { ViewSink } from '../view/view-sink.js';
import { type AlignPoint, EFFECT_POP, IGNORED_END_TAG, NO_ALIGN, OutputAlignment, TABLE_TEXT_PARENTS, type TokenEffects, alignmentError, contentImplies, startTagText } from './alignment.js';
import { checkCopy, checkCopyEnd, sameTag, tagOfUnit } from './copies.js';
import { checkRename, checkUnwrap, isPreLike, renameLeavesList, specialChanged } from './tag-classes.js';
import { checkMovedContent, checkMovedEnd, noteContentChange } from './moved-content.js';
import type { CompiledHandlers, Fn, HandlerResult } from './handlers.js';
import type { Output, SourceSpan } from './output.js';
import { OP_COMMENT, OP_COPY, OP_DOC_END, OP_DOCTYPE, OP_DOCUMENT_LEVEL, OP_DROPPED, OP_END, OP_END_GUARD, OP_EOF_TAG, OP_FORMATTING, OP_HELD_START, OP_IGNORED, OP_RAW, OP_START, OP_TEXT, OP_WALK, OP_FRAMESET, OP_EFFECTS, OP_PLAINTEXT, OP_CLOSER, OP_OUTLIVED, OP_OUTLIVED_END, OP_REOPENED, OP_NOAHS_ARK, OP_PRE_START, OP_LIST, OP_LIST_LOAD, OP_PAST_THREE, OP_DISPATCH, OP_HELD_TEXT, OP_HELD_END_RUN, OP_HELD_COMMENT, type Op, sizeOf } from './ops.js';
import { NoahsArkIndex, noahsArkByWalk, verified, type ListLoad } from './noahs-ark.js';
import { type EndGuard, guardContent } from './end-of-input.js';
import { DROPPED_COPY_CLOSED } from './alignment.js';

/** A comment op, its handlers decided (`OP_COMMENT`) or decided when it runs (`OP_HELD_COMMENT`). */
type CommentOp = Extract<Op, { k: typeof OP_COMMENT | typeof OP_HELD_COMMENT }>;

/** How much source before inserted content the boundary check reads (boundaries.ts), in characters and in pieces. */
const TAIL_CHARS = 40;
const TAIL_PIECES = 40;

function isThenable(x: unknown): x is PromiseLike<void> {
  return x !== null && typeof x === 'object' && typeof (x as { then?: unknown }).then === 'function';
}

/**
 * What the output has first where an element's start tag was, past content before it: this may make the
 * output's parser imply `<html>`, `<head>` and `<body>` itself (alignment.ts `impliesBody`). An implied
 * element's start tag is written only where a handler changed it: `<a></p>` with the a unwrapped and
 * content after the p writes `</p>` first, which implies nothing, so the body is written explicitly.
 */
function startWritten(unit: ElementUnit): string {
  if (unit._removed || unit._keepContent) return joined(unit._prepend);
  if (unit.implied && unit._attrs === null && !unit._nameChanged) return unit._inner ?? joined(unit._prepend);
  return unit._startTagText();
}

/** Runs ops; see the file comment. */
/** What keeps output left out for an element that outlived a removed element around it (`Executor.suppress`). */
class OutlivedMark {
  constructor(readonly el: ElementRecord) {}
}

export class Executor {
  private queue: (Op | undefined)[] = [];
  private queueHead = 0;
  /** Input held by queued ops (for `maxBufferedBytes`). */
  queuedSize = 0;
  private waiting: Promise<void> | null = null;
  /**
   * Whether ops queue instead of running: a handler's promise is pending (`waiting`), or output is held
   * while the adoption agency algorithm may still move elements (`holding`, held-moves.ts).
   */
  private blocked = false;
  /**
   * The held ops (`holding`): behind the queue, run only when the hold releases them (`releaseHeld`),
   * whatever the async handlers do meanwhile. `heldBase` counts the ops released from before `held[0]`.
   */
  private holding = false;
  private held: (Op | undefined)[] = [];
  private heldHead = 0;
  private heldBase = 0;
  /** Input held by held ops (part of `queuedSize`). */
  heldSize = 0;
  /** The element handlers of a list of matched registrations (`ElementOps.handlersFor`), for held starts. */
  handlersFor: (matched: readonly number[]) => readonly Fn<ElementUnit>[] | null = () => null;
  /** The `text` and `comments` handlers for content in an element (handler-lists.ts), for held text and comments. */
  textHandlersFor: (el: ElementRecord | null) => readonly Fn<TextChunkUnit>[] = () => [];
  commentHandlersFor: (el: ElementRecord | null) => readonly Fn<CommentUnit>[] = () => [];
  /** The text node whose held chunks (`OP_HELD_TEXT`) are being run: its handlers, context and parent; null when none is. */
  private heldRunHandlers: readonly Fn<TextChunkUnit>[] | null = null;
  private heldRunContext: ContentContext = 'data';
  private heldRunParent: ParentRecord | null = null;
  /**
   * Set by the transformer while it processes the chunk `write()` was given, synchronously: only then
   * may source text be copied as a run of that chunk (see output.ts). Work done later — queued ops, the
   * rest of an async handler's unit — writes source text as strings: by then the caller may have moved
   * on, and reused the chunk's bytes.
   */
  synchronous = false;
  /**
   * Elements whose content is being dropped (removed, replaced, inner content set), and the marks of
   * elements that outlived a removed element around them (`OP_OUTLIVED`): output is left out while any
   * is here.
   */
  private readonly suppress: (ElementRecord | OutlivedMark)[] = [];
  /** The mark in `suppress` of each element that outlived removed content around it, until it ends (`OP_OUTLIVED_END`). */
  private readonly outlivedMarks = new Map<ElementRecord, OutlivedMark>();
  /** Whether the rewrite has failed; `failure` is the error. */
  failed = false;
  failure: unknown = undefined;

  /**
   * @param config the document handlers (doctype, end) come from here
   * @param scripting the scripting flag (how content in `<noscript>` is escaped)
   * @param output assembles the output and passes it on, in order
   * @param byteForm the tokens are in byte form (bytes in): handlers get their text (byte-form-units.ts)
   */
  constructor(
    private readonly config: CompiledHandlers,
    private readonly scripting: boolean,
    private readonly output: Output,
    private readonly byteForm = false,
  ) {
    this.align = new OutputAlignment(
      (markup) => this.emit(markup),
      (el) => this.explicitTagOf(el),
    );
  }

  /**
   * What the parser reading the output has, where it differs from the input's parser, and the markup
   * that keeps the two in step when handlers change content (alignment.ts).
   */
  readonly align: OutputAlignment;

  /** Record the failure (the first one wins) and drop what was queued. */
  fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.failure = err;
    this.queue.length = 0;
    this.queueHead = 0;
    this.held.length = 0;
    this.heldHead = 0;
  }

  /** Copy source text (`raw`, the input at `start`): at once while nothing waits (the fast path of passthrough), else queued. */
  raw(raw: string, start: number): void {
    if (!this.blocked) {
      if (this.suppress.length === 0) {
        if (this.preEnd >= 0 || this.dropLF >= 0) return this.emitSource(raw, start);
        if (this.align.pendingToken) this.align.source(start, raw);
        this.align.sourceReached = start + raw.length;
        if (raw.length > 0) {
          if (start !== this.sourceEnd && this.joinsAcrossGap(raw, start, 'data')) return;
          this.sourceEnd = start + raw.length;
        }
        this.output.source(raw, start);
        this.noteSource(raw);
      }
    } else this.push({ k: OP_RAW, raw, start });
  }

  /** `raw` for a token that knows its span: its text is read only when it has to be (see `Output.sourceSpan`). */
  rawSpan(span: SourceSpan): void {
    if (!this.blocked) {
      if (this.suppress.length === 0) {
        if (this.preEnd >= 0 || this.dropLF >= 0) return this.emitSource(span.raw, span.start);
        if (this.align.pendingToken) this.align.source(span.start, span.raw);
        this.align.sourceReached = span.end;
        if (span.start !== this.sourceEnd && this.joinsAcrossGap(span.raw, span.start, 'data')) return;
        this.sourceEnd = span.end;
        this.output.sourceSpan(span);
        this.noteSource(span);
      }
    } else this.push({ k: OP_RAW, raw: span.raw, start: span.start });
  }

  /** Where the last source written ends in the input: source written next from elsewhere follows a gap. */
  private sourceEnd = 0;

  /**
   * A parser ignores a line feed that comes right after a `<pre>`, `<listing>` or `<textarea>` start tag
   * (§13.2.6.4.7; CR LF and CR are line feeds by then, §13.2.3.5). `preEnd`: where such a start tag the
   * output has ends in the input, while nothing has been written after it. What comes next decides:
   * the source from there (the input's next token) reads alike; a line feed the input kept — source
   * after a gap (a comment or element left out between), or content a handler wrote — gets a line feed
   * written before it, which the output's parser ignores instead; and where content comes first, a line
   * feed the input ignored at `preEnd` (`dropLF`) is left out of the source when it is written, or the
   * output's parser would keep it after the content (`<pre>\n\nA` with `[` prepended: `<pre>[\nA`).
   */
  private preEnd = -1;
  private dropLF = -1;

  /** Source `raw` at `start` is about to be written with `preEnd` or `dropLF` set: how many of its characters to leave out. */
  private afterPreStart(raw: string, start: number): number {
    const c = raw.charCodeAt(0);
    const lineFeed = c === 0x0a || c === 0x0d;
    if (this.preEnd >= 0) {
      const gap = start !== this.preEnd;
      this.preEnd = -1;
      if (gap && lineFeed) {
        this.output.text('\n', true);
        this.recentCount = 0;
      }
      return 0;
    }
    const drop = start === this.dropLF && lineFeed;
    this.dropLF = -1;
    if (!drop) return 0;
    return c === 0x0d && raw.charCodeAt(1) === 0x0a ? 2 : 1;
  }

  /** `el`'s start tag `token` is in the output: for a `<pre>`, `<listing>` or `<textarea>`, `preEnd`. */
  private startTagWritten(el: ElementRecord, token: StartTagToken): void {
    if (isPreLike(el)) this.preEnd = token.start + token.raw.length;
  }

  /** A `<pre>`, `<listing>` or `<textarea>` start tag with no handlers ending at `end` was copied (or is, in order): `preEnd`. */
  preStarted(end: number): void {
    if (this.blocked) this.push({ k: OP_PRE_START, end });
    else if (this.suppress.length === 0) this.preEnd = end;
  }

  /**
   * Source text `raw` (at `start`) is written after a gap: source left out (removed, unwrapped, an
   * ignored tag dropped) with nothing written in its place. The source before and after the gap never
   * met in the input, and must not meet in the output either: `<` + `<b>` + `x` with the `<b>` left out
   * is the tag `<x`, `&not` + … + `in;` the reference `&notin;`. Where the two would join, the first
   * character after the gap is written as its reference (boundaries.ts; in raw text, refused) and the
   * rest copied; true then. False: nothing joins, the caller copies `raw` as usual.
   */
  private joinsAcrossGap(raw: string, start: number, context: ContentContext): boolean {
    // (NUL and CR join nothing, and their references read otherwise: `&#0;` is U+FFFD where a raw NUL in
    // text is dropped, `&#13;` stays CR where a raw CR becomes LF, §13.2.3.5.)
    const c = raw.length === 0 ? -1 : raw.charCodeAt(0);
    if (this.recentCount === 0 || c < 0 || c >= 0x80 || c === 0 || c === 0x0d) return false;
    const { tail, truncated } = this.sourceTail();
    const first = afterSource(tail, raw.charAt(0), context, 'HTMLRewriter', truncated);
    if (first.length === 1) return false;
    this.output.text(first, true);
    this.recentCount = 0;
    this.sourceEnd = start + raw.length;
    const rest = raw.slice(1);
    this.noteSource(rest);
    if (this.synchronous) this.output.source(rest, start + 1);
    else if (rest.length > 0) this.output.sourceText(rest);
    return true;
  }

  /**
   * The source pieces written since the last content, the newest at `recentCount - 1` (mod their
   * length): what inserted text must not continue (boundaries.ts). The source before inserted content may
   * be cut into several tokens where the chunks cut it (`&0` + `0`), and the check must read the same
   * tail however it was cut (`sourceTail`). Tokens are kept, not their text: read only when content
   * follows. None (`recentCount` 0): content came last, or nothing.
   */
  private readonly recent: (string | SourceSpan)[] = new Array<string | SourceSpan>(TAIL_PIECES);
  private recentCount = 0;

  /** After the document's end (transformer.ts `releaseDocument`): let go of the tail's tokens. */
  releaseDocument(): void {
    this.recent.fill(undefined as unknown as string);
    this.recentCount = 0;
    this.align.releaseDocument();
  }

  /** `source` was written (copied): one more piece of the tail. */
  private noteSource(source: string | SourceSpan): void {
    if (typeof source === 'string' ? source.length === 0 : source.end <= source.start) return; // nothing written: the source before stays last
    this.recent[this.recentCount++ % TAIL_PIECES] = source;
  }

  /**
   * The last `TAIL_CHARS` characters of the source written since the last content, however the chunks
   * cut it into tokens (each piece holds at least one character, so `TAIL_PIECES` pieces are enough);
   * `truncated` when more source came before them.
   */
  private sourceTail(): { tail: string; truncated: boolean } {
    let tail = '';
    let k = this.recentCount;
    const oldest = Math.max(0, this.recentCount - TAIL_PIECES);
    while (k > oldest && tail.length < TAIL_CHARS) {
      const piece = this.recent[--k % TAIL_PIECES]!;
      tail = (typeof piece === 'string' ? piece : piece.raw) + tail;
    }
    if (tail.length > TAIL_CHARS) return { tail: tail.slice(-TAIL_CHARS), truncated: true };
    return { tail, truncated: k > 0 };
  }

  /**
   * The start tag of a formatting element no handler matched: copied like any token, and noted when it
   * is not written (inside removed content), since the parser may copy the element later (copies.ts).
   */
  formattingStart(token: StartTagClass, el: ElementRecord): void {
    if (this.blocked) this.push({ k: OP_FORMATTING, token, el });
    else if (this.suppress.length > 0) {
      el.writtenTag = TAG_NOT_WRITTEN;
      this.align.leaveOut(el, OUT_ABSENT);
    } else this.rawSpan(token);
  }

  /**
   * A copy of a formatting element that no handler matched (made at `at`): the output's parser makes
   * it too, or it is written explicitly (alignment.ts), or — a copy the adoption agency made — checked
   * against what the output makes (copies.ts). Now, or in order.
   */
  copy(el: ElementRecord, offset: number, at: AlignPoint): void {
    if (this.blocked) this.push({ k: OP_COPY, el, offset, at });
    else this.unhandledCopy(el, offset, at);
  }

  private unhandledCopy(el: ElementRecord, offset: number, at: AlignPoint): void {
    if (this.suppress.length > 0) {
      this.copyInsideRemoved(el, offset);
      return;
    }
    // Unchanged, it has its source's attributes; the output's parser copies what it has of the original.
    if (el.reconstructed && this.align.copy(el, at, this.outputTagDiffers(el, null))) return;
    if (!el.reconstructed) this.checkAdoptionCopy(el, offset);
    checkCopy(el, offset, null, () => this.sourceTagOf(el), this.outputTagOf(el.copiedFrom!));
  }

  /**
   * A copy made while the output drops content (a removed element's): out of the output, like the
   * content — unless the adoption agency algorithm made it in a furthest block it moved out of the
   * removed element (the copy then is in the tree outside it: `<i><section></i>` with the `i` removed
   * leaves the section), which the output cannot have without the removed element's tags: refused.
   */
  private copyInsideRemoved(el: ElementRecord, offset: number): void {
    if (!el.reconstructed && this.align.present(el)) {
      throw alignmentError(
        `removing the <${el.localName}> whose end tag at offset ${offset} runs the adoption agency algorithm`,
        'the algorithm moves content out of it (HTML §13.2.6.4.7), which the removal would take with it',
      );
    }
    this.align.leaveOut(el, OUT_ABSENT);
  }

  /**
   * A copy the adoption agency algorithm made of an element renamed to a name of another class: a
   * browser reading the output does not run the algorithm for it (tag-classes.ts): refused.
   */
  private checkAdoptionCopy(el: ElementRecord, offset: number): void {
    // (What the walk found is remembered: a chain of copies can be as long as the document, `CopyChain`.)
    const from = el.copiedFrom;
    if (from === null) return;
    const version = chainOf(el.copyOf ?? el).reclassVersion;
    for (let x: ElementRecord | null = from; x !== null; x = x.copiedFrom) {
      if ((x.out & OUT_RECLASSED) === 0) {
        if (x.chain !== null && x.chain.cleanVersion === version) break;
        continue;
      }
      throw alignmentError(
        `the <${el.localName}> renamed <${x.outputName}>`,
        `the adoption agency algorithm (HTML §13.2.6.4.7) copies and moves it at offset ${offset}, which a browser reading the output does not do for a <${x.outputName}>`,
      );
    }
    chainOf(from).cleanVersion = version;
  }

  /**
   * Whether a reconstructed copy, with its handlers' changes (`unit`; null: none), differs from what the
   * output's parser makes when it reconstructs: a copy of the tag it has for the entry the copy was made
   * from (the original's written tag, or an explicit copy's).
   */
  private outputTagDiffers(el: ElementRecord, unit: ElementUnit | null): boolean {
    const theirs = this.outputTagOf(el.copiedFrom!);
    if (theirs === TAG_NOT_WRITTEN) return true;
    if (unit === null || (unit._attrs === null && !unit._nameChanged)) {
      return theirs !== null && !sameTag(this.sourceTagOf(el), theirs);
    }
    return !sameTag(tagOfUnit(unit), theirs ?? this.sourceTagOf(el));
  }

  /** The tag the output has for an element a reconstruction copies: null when it is the source's. */
  private outputTagOf(el: ElementRecord): WrittenTag | null {
    // (What the walk found is remembered: a chain of copies can be as long as the document, `CopyChain`.)
    const version = chainOf(el.copyOf ?? el).version;
    let tag: WrittenTag | null = null;
    for (let x: ElementRecord | null = el; x !== null; x = x.copiedFrom) {
      const known = x.chain;
      if (known !== null && known.tagVersion === version) {
        tag = known.tag;
        break;
      }
      if (x.writtenTag !== null) {
        tag = x.writtenTag;
        break;
      }
      if ((x.out & OUT_EXPLICIT) !== 0) break;
    }
    const chain = chainOf(el);
    chain.tag = tag;
    chain.tagVersion = version;
    return tag;
  }

  /** The start tag an element made explicit by the alignment is written with (alignment.ts). */
  private explicitTagOf(el: ElementRecord): string {
    const tag = el.writtenTag ?? (el.copiedFrom !== null ? this.sourceTagOf(el) : { name: el.localName, attributes: [] });
    if (el.copiedFrom !== null) el.writtenTag = tag;
    return startTagText(tag.name, tag.attributes);
  }

  /** The tag a copy has from the tree builder (its original's source tag), as a unit shows it. */
  private sourceTagOf(el: ElementRecord): { name: string; attributes: (readonly [string, string])[] } {
    const attributes = el.attributes.map((a) => [this.byteForm ? fromByteForm(a.name) : a.name, this.byteForm ? fromByteForm(a.value) : a.value] as const);
    return { name: el.localName, attributes };
  }

  /** The start of an element whose handlers are decided when the hold releases it (`OP_HELD_START`). */
  heldStart(token: StartTagToken, el: ElementRecord, at: AlignPoint): void {
    this.push({ k: OP_HELD_START, token, el, at });
  }

  /** Run the element handlers of a start tag now, or queue them behind a pending handler. */
  startTag(token: StartTagToken, el: ElementRecord, handlers: readonly Fn<ElementUnit>[], at: AlignPoint): void {
    if (this.blocked) {
      this.push({ k: OP_START, token, el, handlers, at });
      return;
    }
    const r = this.runStart(token, el, handlers, at);
    if (r !== undefined) this.wait(r);
  }

  /** The end of an element whose handlers ran: now, or queued behind a pending handler. */
  endTag(el: ElementRecord, token: EndTagToken | null, atDocumentEnd: boolean, at: AlignPoint): void {
    if (this.blocked) {
      this.push({ k: OP_END, el, token, atDocumentEnd, at });
      return;
    }
    const r = this.runEnd(el, token, atDocumentEnd, at);
    if (r !== undefined) this.wait(r);
  }

  /**
   * Run text handlers on a chunk (`raw`, the input at `start`; or the empty last chunk) of a text node in
   * `parent` now, or queue them.
   */
  text(raw: string, start: number, last: boolean, handlers: readonly Fn<TextChunkUnit>[], context: ContentContext, parent: ParentRecord | null, at: AlignPoint): void {
    if (this.blocked) {
      this.push({ k: OP_TEXT, raw, start, last, handlers, context, parent, at });
      return;
    }
    const r = this.textHandlers(this.textChunk(raw, last, context), start, handlers, 0, at, parent);
    if (r !== undefined) this.wait(r);
  }

  /**
   * `token` made the tree builder drop `el`'s entry from its list without closing it (`reason`): it is
   * copied, unless the output's parser must not read it (alignment.ts `dropped`). Now, or in order.
   */
  dropped(el: ElementRecord, reason: string, token: EndTagToken | null, listAfter: readonly ElementRecord[] | null = null, placedWhitespace = false): void {
    this.push({ k: OP_DROPPED, el, reason, token, listAfter, placedWhitespace });
  }

  /**
   * A tag the tree builder ignored: copied, unless the output's parser would not ignore it (alignment.ts).
   * `list`: for an end tag, the list of active formatting elements after its last marker then (null:
   * not taken, too long). `placedWhitespace`: it placed whitespace held "in table text" in the table
   * (`leftOut`).
   */
  ignored(token: StartTagToken | EndTagToken, isEndTag: boolean, list: readonly ElementRecord[] | null = null, placedWhitespace = false): void {
    this.push({ k: OP_IGNORED, token, isEndTag, list, placedWhitespace });
  }

  /**
   * A start tag that made no element and only closed `closes` (and what was open in it): see `OP_CLOSER`.
   * Now, or in order.
   */
  closer(token: StartTagToken, closes: ElementRecord, at: AlignPoint): void {
    this.push({ k: OP_CLOSER, token, closes, at });
  }

  /** The element around `child` is ending while `child` stays open in it; `OP_OUTLIVED`. Now, or in order. */
  outlived(child: ElementRecord): void {
    this.push({ k: OP_OUTLIVED, child });
  }

  /** An element that outlived the one around it ended, its end tag written or left out: `OP_OUTLIVED_END`. */
  outlivedEnded(el: ElementRecord): void {
    this.push({ k: OP_OUTLIVED_END, el });
  }

  /** An end tag after the body, which took the parser back into it, is at `[start, end)`: `OP_REOPENED`. */
  reopenedBody(start: number, end: number): void {
    this.push({ k: OP_REOPENED, start, end });
  }

  /**
   * One thing the tree builder did for a token besides its own element (`effects`, at `index`): inside
   * removed content, where the output lacks the token, it must not touch what the output has
   * (alignment.ts `insideRemoved`). Now, or in order.
   */
  effect(effects: TokenEffects, index: number): void {
    if (this.blocked) this.push({ k: OP_EFFECTS, effects, index });
    else if (this.suppress.length > 0) this.align.insideRemoved(effects, index);
  }

  /** A `<plaintext>` start tag: what follows it is text (alignment.ts `plaintext`). In order. */
  plaintextStarted(): void {
    this.push({ k: OP_PLAINTEXT });
  }

  /** The tree builder took a `<frameset>` in place of the body (alignment.ts `framesetTaken`). Now, or in order. */
  framesetTaken(offset: number): void {
    this.push({ k: OP_FRAMESET, offset });
  }

  /** A start tag whose rule looked at `seen` on the stack (alignment.ts `checkWalk`). Now, or in order. */
  walked(kind: number, seen: readonly ElementRecord[], offset: number): void {
    this.push({ k: OP_WALK, kind, seen, offset });
  }

  /**
   * The adoption agency algorithm of the token at `offset` took `el` off the list and the stack past its
   * inner loop's third iteration, after visiting the first `count` of `passed`
   * (`TreeSink.adoptionAgencyDroppedPastThree`): checked in order (alignment.ts `checkPastThree`).
   */
  droppedPastThree(el: ElementRecord, passed: readonly ElementRecord[], count: number, offset: number): void {
    this.push({ k: OP_PAST_THREE, el, passed, count, offset });
  }

  /**
   * The tag `tag` at `offset` was read while the adjusted current node was not an HTML element: `seen`,
   * `modes`, `popped` as `OP_DISPATCH` says (ops.ts); checked in order (alignment.ts `checkDispatch`).
   */
  dispatched(seen: readonly ElementRecord[], modes: readonly boolean[], popped: readonly boolean[], tag: string, offset: number): void {
    this.push({ k: OP_DISPATCH, seen, modes, popped, tag, offset });
  }

  /**
   * Source that acts on the document, `<html>` or `<body>` (`target`; null: the document): a `<html>` or
   * `<body>` start tag whose attributes are added to that element, `</body>`, `</html>`, a comment the
   * tree builder puts in the document or the html element. Written even inside removed content (its
   * effect is not in that content), unless its target is removed itself.
   */
  documentLevel(raw: string, start: number, target: ElementRecord | null): void {
    this.push({ k: OP_DOCUMENT_LEVEL, raw, start, target });
  }

  /** Whether ops run as they are pushed (no handler is pending and nothing is held): the flags of `align` are up to date. */
  get idle(): boolean {
    return !this.blocked;
  }

  /** Run `op` now, or queue it behind a pending handler. */
  push(op: Op): void {
    if (this.blocked) {
      const size = sizeOf(op);
      this.queuedSize += size;
      if (this.holding) {
        this.held.push(op);
        this.heldSize += size;
      } else this.queue.push(op);
      return;
    }
    const r = this.run(op);
    if (r !== undefined) this.wait(r);
  }

  private wait(p: Promise<void>): void {
    this.flushOutput();
    this.blocked = true;
    this.waiting = p.then(() => this.pump());
    // The rejection is reported through write()/end(); this keeps it from also being "unhandled".
    this.waiting.catch(() => {});
  }

  /** Run queued ops until the queue is empty or a handler makes us wait again. */
  private pump(): void | Promise<void> {
    while (this.queueHead < this.queue.length) {
      if (this.failed) throw this.failure;
      const op = this.queue[this.queueHead]!;
      this.queue[this.queueHead++] = undefined;
      this.queuedSize -= sizeOf(op);
      const r = this.run(op);
      if (r !== undefined) {
        this.flushOutput();
        return r.then(() => this.pump());
      }
    }
    this.queue.length = 0;
    this.queueHead = 0;
    this.waiting = null;
    this.blocked = this.holding;
  }

  /**
   * A hold begins (held-moves.ts): every op from now on waits in `held` until `releaseHeld` lets it
   * go. The output decided before it is released at the end of the write, as usual.
   */
  beginHold(): void {
    this.holding = true;
    this.blocked = true;
  }

  /** Ops held since the hold began (released ones included): where a later release may stop. */
  get heldCount(): number {
    return this.heldBase + this.held.length;
  }

  /**
   * Let the held ops before `upTo` (a `heldCount`; Infinity: all, and the hold ends) run: now, in order,
   * when no handler is pending (until one returns a promise: the rest then queue behind it), else
   * behind the queue.
   */
  releaseHeld(upTo: number): void {
    if (!this.holding) return;
    const held = this.held;
    const end = upTo === Infinity ? held.length : Math.min(held.length, upTo - this.heldBase);
    let i = this.heldHead;
    if (upTo === Infinity) {
      this.holding = false;
      this.blocked = this.waiting !== null;
      this.held = [];
      this.heldBase += held.length;
      this.heldHead = 0;
    }
    for (; i < end; i++) {
      const op = held[i]!;
      held[i] = undefined;
      const size = sizeOf(op);
      this.heldSize -= size;
      if (this.waiting !== null) {
        this.queue.push(op);
        continue;
      }
      this.queuedSize -= size;
      const r = this.run(op);
      if (r !== undefined) {
        // (`wait` sets `blocked`: what is released after this op queues behind it.)
        this.wait(r);
      }
    }
    if (upTo === Infinity) return;
    this.heldHead = end;
    // Compact what was released, so that a long hold with many releases stays bounded.
    if (end > 1024 && end * 2 > held.length) {
      this.held = held.slice(end);
      this.heldBase += end;
      this.heldHead = 0;
    }
  }

  /** After write()/end(): release output, or hand back the promise to wait for (rejecting with the failure). */
  settle(): void | Promise<void> {
    if (this.failed) throw this.failure;
    if (this.waiting === null) {
      this.flushOutput();
      return;
    }
    return this.waiting.then(
      () => {
        if (this.failed) throw this.failure;
        this.flushOutput();
      },
      (err: unknown) => {
        this.fail(err);
        throw this.failure;
      },
    );
  }

  /** Pass the output decided so far to `onOutput`. */
  flushOutput(): void {
    this.output.flush();
  }

  /**
   * Document-level source is written inside removed content: what the token before that content did
   * is written first (alignment.ts `settleInsideRemoved`), the content being dropped aside meanwhile.
   */
  private settleInsideRemoved(next: string): void {
    const suppress = this.suppress.splice(0);
    const align = this.align;
    const suppressed = align.suppressed;
    align.suppressed = false;
    try {
      align.settleInsideRemoved(next);
    } finally {
      this.suppress.push(...suppress);
      align.suppressed = suppressed;
    }
  }

  /**
   * Write content a handler decided (or a rewritten tag), inserted where `context` says (the content of
   * a raw text element, or ordinary content): kept from joining the source before it (boundaries.ts).
   */
  private emit(s: string, context: ContentContext = 'data'): void {
    if (s.length > 0 && this.suppress.length === 0) {
      if (this.preEnd >= 0) {
        // Content right after a <pre>, <listing> or <textarea> start tag: see `preEnd`.
        if (s.charCodeAt(0) === 0x0a || s.charCodeAt(0) === 0x0d) this.output.text('\n', true);
        this.dropLF = this.preEnd;
        this.preEnd = -1;
      }
      if (this.endGuard !== null || this.eofTag !== null) s = this.afterEndOfInput(s);
      // (Content starting with `<` continues nothing: every rewritten tag takes this way.)
      if (this.recentCount > 0 && s.charCodeAt(0) !== 0x3c) {
        const { tail, truncated } = this.sourceTail();
        s = afterSource(tail, s, context, 'HTMLRewriter', truncated);
      }
      this.recentCount = 0;
      this.output.text(s, context === 'data');
    }
  }

  /**
   * Text written where a foster-parented element was (its replacement, what follows it) goes into the
   * output parser's pending table text (§13.2.6.4.10), which would take in the whitespace the table
   * keeps after it and foster-parent it too: `IGNORED_END_TAG` ends the run (as alignment.ts
   * `beforeContent` does for held whitespace).
   */
  private endFosteredText(el: ElementRecord, content: string): void {
    if ((el.out & OUT_FOSTERED) === 0 || this.suppress.length > 0 || content.length === 0 || content.endsWith('>')) return;
    this.emit(IGNORED_END_TAG);
  }

  /**
   * A token the input's parser read is left out of the output. Where it placed whitespace held "in table
   * text" (§13.2.6.4.10) in the table, the output's parser still holds it, and would join the text that
   * follows to it (`<table><a><table> </a>x` with the `a` removed: " x", all foster-parented):
   * `IGNORED_END_TAG` places it, as the token did (alignment.ts `settle` does it for a token with effects).
   */
  private leftOut(placedWhitespace: boolean): void {
    if (placedWhitespace && this.suppress.length === 0) this.emit(IGNORED_END_TAG);
  }

  /** What content written after the end of the input needs first (end-of-input.ts); null: nothing. */
  private endGuard: EndGuard | null = null;
  /** An unfinished tag the input ended inside, not written yet. */
  private eofTag: { readonly raw: string; readonly start: number } | null = null;
  /** Whether the last comment was written from its handler's changes, not copied (then it is closed). */
  private commentRewritten = false;
  /** Whether the comment the input ends inside was closed for its own `after` content. */
  private eofCommentClosed = false;

  /** The first content after the end of the input: the unfinished tag goes, the guard applies. */
  private afterEndOfInput(s: string): string {
    this.eofTag = null;
    const guard = this.endGuard;
    if (guard === null) return s;
    this.endGuard = null;
    return guardContent(guard, s, this.commentRewritten);
  }

  /** The end of the input: install its guard (end-of-input.ts) in order. */
  endOfInput(guard: EndGuard): void {
    this.push({ k: OP_END_GUARD, guard });
  }

  /** An unfinished tag at the end of the input: kept back until it is known whether content follows. */
  unfinishedTag(raw: string, start: number): void {
    this.push({ k: OP_EOF_TAG, raw, start });
  }

  /** Copy source text: as a run of the chunk while `synchronous`, else as a string. */
  private emitSource(raw: string, start: number, evenInsideRemoved = false, context: ContentContext = 'data'): void {
    if (this.suppress.length > 0 && !evenInsideRemoved) return;
    if ((this.preEnd >= 0 || this.dropLF >= 0) && raw.length > 0) {
      const skip = this.afterPreStart(raw, start);
      if (skip > 0) {
        raw = raw.slice(skip);
        start += skip;
      }
    }
    if (raw.length > 0) {
      if (this.align.pendingToken) this.align.source(start, raw);
      this.align.sourceReached = start + raw.length;
      if (start !== this.sourceEnd && this.joinsAcrossGap(raw, start, context)) return;
      this.sourceEnd = start + raw.length;
    }
    this.noteSource(raw);
    if (this.synchronous) this.output.source(raw, start);
    else if (raw.length > 0) this.output.sourceText(raw);
  }

  /** `emitSource` for a tokenizer token, whose text is read only if it cannot extend the run (see `Output.sourceSpan`). */
  private emitSourceSpan(span: SourceSpan): void {
    if (this.suppress.length > 0) return;
    if (this.preEnd >= 0 || this.dropLF >= 0) return this.emitSource(span.raw, span.start);
    if (this.align.pendingToken) this.align.source(span.start, span.raw);
    this.align.sourceReached = span.end;
    if (span.start !== this.sourceEnd && this.joinsAcrossGap(span.raw, span.start, 'data')) return;
    this.sourceEnd = span.end;
    this.noteSource(span);
    if (this.synchronous) this.output.sourceSpan(span);
    else this.output.sourceText(span.raw);
  }

  /** A text chunk unit for source text `raw` (its text decoded when `raw` is in byte form). */
  private textChunk(raw: string, last: boolean, context: ContentContext): TextChunkUnit {
    return new TextChunkUnit(this.byteForm ? fromByteForm(raw) : raw, last, context, raw);
  }

  private run(op: Op): void | Promise<void> {
    switch (op.k) {
      case OP_RAW:
        this.emitSource(op.raw, op.start);
        return;
      case OP_START:
        return this.runStart(op.token, op.el, op.handlers, op.at);
      case OP_END:
        return this.runEnd(op.el, op.token, op.atDocumentEnd, op.at);
      case OP_TEXT:
        return this.textHandlers(this.textChunk(op.raw, op.last, op.context), op.start, op.handlers, 0, op.at, op.parent);
      case OP_COMMENT:
        return this.runComment(op, op.handlers, op.documentLevel);
      case OP_HELD_TEXT: {
        // Decided now, from where the text is once the moves it waited for are done (ops.ts).
        const parent = op.parent instanceof ElementRecord ? op.parent : null;
        const handlers = this.textHandlersFor(parent);
        if (handlers.length === 0) {
          this.emitSource(op.raw, op.start);
          return;
        }
        const context = contextOfTextKind(op.kind, parent === null ? null : parent.localName);
        this.heldRunHandlers = handlers;
        this.heldRunContext = context;
        this.heldRunParent = op.parent;
        return this.textHandlers(this.textChunk(op.raw, false, context), op.start, handlers, 0, op.at, op.parent);
      }
      case OP_HELD_END_RUN: {
        const handlers = this.heldRunHandlers;
        if (handlers === null) return;
        this.heldRunHandlers = null;
        const parent = this.heldRunParent;
        this.heldRunParent = null;
        // (As `TextPlacement.endRun`: the last chunk of a node begun in CDATA is escaped as data.)
        const context = this.heldRunContext === 'cdata' ? 'data' : this.heldRunContext;
        return this.textHandlers(this.textChunk('', true, context), 0, handlers, 0, op.at, parent);
      }
      case OP_HELD_COMMENT: {
        const handlers = this.commentHandlersFor(op.parent instanceof ElementRecord ? op.parent : null);
        if (handlers.length === 0) {
          this.emitSource(op.token.raw, op.token.start);
          return;
        }
        return this.runComment(op, handlers, false);
      }
      case OP_DOCTYPE: {
        const unit = new DoctypeUnit(this.byteForm ? textDoctypeOf(op.token) : op.token);
        return this.callAll(this.config.docDoctype, unit, () => {
          unit._active = false;
          if (!unit._removed) this.emitSource(op.token.raw, op.token.start);
        });
      }
      case OP_FORMATTING:
        if (this.suppress.length === 0) this.emitSourceSpan(op.token as StartTagClass);
        else {
          op.el.writtenTag = TAG_NOT_WRITTEN;
          this.align.leaveOut(op.el, OUT_ABSENT);
        }
        return;
      case OP_COPY:
        this.unhandledCopy(op.el, op.offset, op.at);
        return;
      case OP_HELD_START: {
        // Held while the adoption agency algorithm could move it: its matches are decided now.
        const el = op.el;
        const handlers = el.matched === null ? null : this.handlersFor(el.matched);
        if (handlers !== null) return this.runStart(op.token, el, handlers, op.at);
        if (el.fromStartTag) {
          // As an unmatched start tag: copied (noted when not written, for a formatting element's copies).
          if (this.suppress.length === 0) {
            this.emitSourceSpan(op.token as StartTagClass);
            this.startTagWritten(el, op.token);
          } else {
            el.writtenTag = TAG_NOT_WRITTEN;
            this.align.leaveOut(el, OUT_ABSENT);
          }
        } else if (el.copyOf !== null) this.unhandledCopy(el, op.token.start, op.at);
        return;
      }
      case OP_DROPPED:
        // (A copy closed by its own end tag: only inside removed content is there anything to write — and
        // not for a copy written whose own content is left out, `setInnerContent()` on it: its end tag,
        // written, takes it off, `<a><b><a></b><b>` with every `b`'s content set.)
        if (op.reason === DROPPED_COPY_CLOSED && (this.suppress.length === 0 || this.align.present(op.el))) {
          // A copy left out (removed, or in removed content that has ended) that an `<a>` or `<nobr>`
          // start tag's adoption agency algorithm closed and took off the list: the output's parser has
          // its original's entry instead, not open, and would copy it again for anything the token's
          // reconstruction writes before the token (`<div><i><a></i><i><a href=1>` with the copy of the
          // first a removed: the copy of the i, written explicitly). Its end tag takes the entry off first.
          if (this.suppress.length === 0 && op.token === null && !this.align.present(op.el)) {
            const tag = this.align.droppedInsideRemoved(op.el, op.reason);
            if (tag !== null) this.emit(tag);
          }
          return;
        }
        if (this.suppress.length > 0) {
          // (Inside removed content: the output's parser must still take the entry off, alignment.ts.)
          // What the token before the removed content did comes first: its end tags may take the entry
          // off already (`<p><em><dd></em>` with the dd removed: the dd's `</em></p>`, then no `</em>`).
          if (this.align.pendingToken && this.align.inOutputList(this.align.entryOf(op.el))) this.settleInsideRemoved('');
          this.emitPastSuppress(this.align.droppedInsideRemoved(op.el, op.reason));
          return;
        }
        if (op.token !== null) this.align.settleEarlier(op.token.start, op.token.raw);
        if (op.token !== null && op.reason === 'not-open' && this.align.renamedInOutputList(op.el)) this.emit(this.align.renamedDropTag(op.el, op.listAfter));
        else if (!this.align.dropped(op.el, op.reason, op.token !== null)) {
          if (op.token !== null) this.emitSource(op.token.raw, op.token.start);
        } else this.leftOut(op.placedWhitespace);
        return;
      case OP_IGNORED:
        if (!this.align.ignoredTag(op.token.name, op.isEndTag, op.list)) this.emitSource(op.token.raw, op.token.start);
        else this.leftOut(op.placedWhitespace);
        return;
      case OP_CLOSER:
        if (this.suppress.length > 0) return;
        // The output's parser closes the element with the tag only where it has it, under its name;
        // elsewhere the tag would make one. Left out, what the token closed that the output has is
        // closed explicitly before what is written next (alignment.ts, a token not written).
        // (Closed explicitly already — content at its end came first, `<select><select>` with `after()`
        // on the first — the tag would make a new one.)
        if (this.align.present(op.closes) && op.closes.outputName === null && (op.closes.out & OUT_CLOSED) === 0) this.emitSource(op.token.raw, op.token.start);
        else this.enterOp(op.at, () => '');
        return;
      case OP_OUTLIVED:
        // (Before the end of the element around it, which takes that one off `suppress`.) The child stays
        // inside removed content to its end — its content, the content a handler puts at its end, its end
        // tag and what goes after it — whatever its own handlers do: a mark of its own, not the child's
        // entry, which its end takes off (`<a><i><table><a>` with the `a`s removed and `append()` on the
        // `i`: the `<a>` takes the first a off the stack, the i stays open in it).
        if (this.suppress.length > 0 && !this.outlivedMarks.has(op.child) && this.align.insideRemovedMemo(op.child.parent)) {
          const mark = new OutlivedMark(op.child);
          this.outlivedMarks.set(op.child, mark);
          this.suppress.push(mark);
        }
        return;
      case OP_OUTLIVED_END: {
        const mark = this.outlivedMarks.get(op.el);
        if (mark !== undefined) {
          this.outlivedMarks.delete(op.el);
          const i = this.suppress.lastIndexOf(mark);
          if (i >= 0) this.suppress.splice(i, 1);
          this.align.suppressed = this.suppress.length > 0;
        }
        return;
      }
      case OP_NOAHS_ARK:
        // (Inside removed content the element is not in the output: the entries it drops are checked as dropped, alignment.ts.)
        if (this.suppress.length === 0) this.checkNoahsArk(op.el, op.dropped, op.before, op.viaIndex, op.offset);
        return;
      case OP_LIST:
        this.noahs.apply(op);
        return;
      case OP_LIST_LOAD:
        this.noahs.load(op);
        return;
      case OP_PRE_START:
        if (this.suppress.length === 0) this.preEnd = op.end;
        return;
      case OP_REOPENED:
        // The end tag's source is not in the output: `IGNORED_END_TAG` takes the output's parser back into
        // the body and does nothing else. (Where the tag was written renamed, or text went before it, that
        // parser is in the body already, and ignores it.)
        if (this.suppress.length === 0 && this.align.sourceReached < op.end && this.rewrittenTagAt !== op.start) this.emit(IGNORED_END_TAG);
        return;
      case OP_EFFECTS:
        if (this.suppress.length > 0) this.align.insideRemoved(op.effects, op.index);
        return;
      case OP_PLAINTEXT:
        if (this.suppress.length === 0) this.align.plaintext = true;
        return;
      case OP_FRAMESET:
        this.align.framesetTaken(op.offset);
        return;
      case OP_WALK:
        // (A start tag inside removed content is not in the output: nothing to compare.)
        if (this.suppress.length === 0) this.align.checkWalk(op.kind, op.seen, op.offset);
        return;
      case OP_DISPATCH:
        // A tag inside removed content is not in the output — unless it closes what is removed (the
        // elements that hold it back are among those it closed): then a browser reads it there.
        if (this.suppress.every((s) => s instanceof ElementRecord && op.seen.some((el, i) => el === s && op.popped[i]))) this.align.checkDispatch(op.seen, op.modes, op.tag, op.offset);
        return;
      case OP_PAST_THREE:
        // (A token inside removed content is not in the output: its parser runs no algorithm for it.)
        if (this.suppress.length === 0) this.align.checkPastThree(op.el, op.passed, op.count, op.offset);
        return;
      case OP_DOCUMENT_LEVEL:
        if (this.suppress.length === 0 || op.target === null || this.align.present(op.target)) {
          if (this.suppress.length > 0) this.settleInsideRemoved(op.raw);
          this.emitSource(op.raw, op.start, true);
        }
        return;
      case OP_END_GUARD:
        // (A comment closed already by its own `after` content needs no closer.)
        this.endGuard = op.guard.forComment && this.eofCommentClosed ? null : op.guard;
        return;
      case OP_EOF_TAG:
        if (this.suppress.length === 0) this.eofTag = { raw: op.raw, start: op.start };
        return;
      case OP_DOC_END: {
        this.suppress.length = 0;
        this.align.suppressed = false;
        // What the last tokens did that the output has not had (a token left out at the very end).
        this.align.finish();
        const unit = new DocumentEndUnit(op.context);
        return this.callAll(this.config.docEnd, unit, () => {
          unit._active = false;
          this.emit(joined(unit._append), op.context);
          // No content followed the unfinished tag: it is written as it came.
          const tag = this.eofTag;
          this.eofTag = null;
          if (tag !== null) this.emitSource(tag.raw, tag.start);
        });
      }
    }
  }

  /** Run a comment's handlers, then write what they decided. */
  private runComment(op: CommentOp, handlers: readonly Fn<CommentUnit>[], documentLevel: boolean): void | Promise<void> {
    const unit = new CommentUnit(this.byteForm ? textCommentOf(op.token) : op.token);
    return this.callAll(handlers, unit, () => {
      // A comment in the document or the html element is not inside removed content (see `documentLevel`).
      const inside = documentLevel && this.suppress.length > 0 ? this.suppress.splice(0) : null;
      try {
        this.writeComment(op, unit);
      } finally {
        if (inside !== null) this.suppress.push(...inside);
      }
    });
  }

  /** A comment's handlers are done: write what they decided. */
  private writeComment(op: CommentOp, unit: CommentUnit): void {
    unit._active = false;
    this.commentRewritten = unit._replacement !== null || unit._removed || unit._text !== null;
    this.enterOp(op.at, () => joined(unit._before) || (unit._replacement ?? (unit._removed ? '' : op.token.raw)));
    // (Checked against the comment's parent: text a parser cannot put there, in a table say, is refused.)
    const into = op.parent;
    if (unit._before !== null || unit._replacement !== null) this.contentAt(op.at, null, unit._before !== null ? joined(unit._before) : unit._replacement!, 'data', into);
    this.emit(joined(unit._before));
    if (unit._replacement !== null) this.emit(unit._replacement);
    else if (!unit._removed) {
      if (unit._text === null) {
        this.emitSource(op.token.raw, op.token.start);
        // The comment the input ends inside, copied, with content of its own after it: closed
        // first (end-of-input.ts), and then no more.
        if (op.closer !== null && unit._after !== null && this.suppress.length === 0) {
          this.output.text(op.closer);
          this.eofCommentClosed = true;
        }
      } else this.emit(unit._outputText());
    }
    if (unit._after !== null) this.contentAt(op.at, null, joined(unit._after), 'data', into);
    this.emit(joined(unit._after));
    // A comment in a table ends the text a parser holds there ("in table text", §13.2.6.4.10): without
    // it, whitespace before it and text after it would be one run, foster-parented together (`<table>
    // <!--c-->x` with the comment removed). An end tag every table insertion mode ignores ends it instead.
    if ((unit._replacement !== null || unit._removed || unit._after !== null) && into instanceof ElementRecord && into.isHtml && TABLE_TEXT_PARENTS.has(into.localName)) this.emit(IGNORED_END_TAG);
  }

  /** Call the handlers in order, waiting for each promise; then `done`. */
  private callAll<T>(handlers: readonly Fn<T>[], unit: T, done: () => void, from = 0): void | Promise<void> {
    for (let i = from; i < handlers.length; i++) {
      const r: HandlerResult = handlers[i]!(unit);
      if (isThenable(r)) return Promise.resolve(r).then(() => this.callAll(handlers, unit, done, i + 1));
    }
    done();
  }

  /** `callAll` for text handlers, without a closure per chunk; then write what they decided. */
  private textHandlers(unit: TextChunkUnit, start: number, handlers: readonly Fn<TextChunkUnit>[], from: number, at: AlignPoint, parent: ParentRecord | null): void | Promise<void> {
    for (let i = from; i < handlers.length; i++) {
      const r: HandlerResult = handlers[i]!(unit);
      if (r !== undefined && isThenable(r)) return Promise.resolve(r).then(() => this.textHandlers(unit, start, handlers, i + 1, at, parent));
    }
    unit._active = false;
    const context = unit._context;
    if (start < at.effects.start && this.align.pendingToken && this.suppress.length === 0 && unit._before === null && unit._replacement === null && !unit._removed) {
      // Text held "in table text" (§13.2.6.4.10), written as it was: its op runs at the token that
      // placed it, but its own token (what it closed, say a <colgroup>) the output's parser reads in it,
      // before that one — not left unwritten.
      this.align.source(start, unit._source);
    }
    this.enterOp(at, () => joined(unit._before) || (unit._replacement ?? (unit._removed ? '' : unit._source)));
    // (Checked against the text's parent: text a parser cannot put there, in a table say, is refused.)
    if (unit._before !== null || unit._replacement !== null) this.contentAt(at, null, unit._before !== null ? joined(unit._before) : unit._replacement!, context, parent);
    if (unit._removed && this.suppress.length === 0) this.align.framesetOkLoose = true;
    if (unit._before !== null) this.emit(joined(unit._before), context);
    if (unit._replacement !== null) this.emit(unit._replacement, context);
    else if (!unit._removed) {
      this.emitSource(unit._source, start, false, context);
      // Text from before its token (held "in table text"): the output's parser makes its copies itself.
      if (start < at.effects.start && unit._source.length > 0 && this.suppress.length === 0) this.align.heldTextWritten(at);
    } else if (start < at.effects.start && unit._source.length > 0 && this.suppress.length === 0) {
      // Held text left out: the copies the input's parser made for it the output's parser will not make.
      this.align.flush(at.effects, at.upTo);
    }
    if (unit._after !== null) {
      this.contentAt(at, null, joined(unit._after), context, parent);
      this.emit(joined(unit._after), context);
    }
  }

  /**
   * Content is written next, at op `at`: the output's parser is brought where the input's parser put
   * the op's node first (alignment.ts `beforeContent`). `closeToo`: an element closed implicitly right
   * there, which the content comes after. Nothing while content is dropped (inside removed content).
   */
  /**
   * An op of the token of `at` writes now: what an earlier token did that the output has not had is
   * written first (alignment.ts `enter`); `first` is what the op writes first (read only then).
   */
  private enterOp(at: AlignPoint, first: () => string): void {
    if (this.suppress.length > 0) return;
    const align = this.align;
    if (align.pendingToken) align.settleBefore(at.effects, first());
    align.enter(at.effects);
  }

  private contentAt(at: AlignPoint, closeToo: ElementRecord | null, content: string, context: ContentContext = 'data', into: NodeRecord | null = null): void {
    if (this.suppress.length > 0 || content.length === 0) return;
    this.align.beforeContent(at, closeToo, content, context === 'data' || context === 'cdata', into);
  }

  private runStart(token: StartTagToken, el: ElementRecord, handlers: readonly Fn<ElementUnit>[], at: AlignPoint): void | Promise<void> {
    // (In byte form the local name only serves to look names up in sets of ASCII names: as good as text.)
    const unit = new ElementUnit(token, el.localName, el.namespace, this.scripting, this.byteForm ? textStartTagOf : null);
    el.unit = unit;
    return this.startHandlers(token, el, unit, handlers, 0, at);
  }

  /**
   * The entries whose elements were not open that an `<a>` or `<nobr>` start tag's adoption agency
   * algorithm took off the list of active formatting elements (HTML §13.2.6.4.7; the transformer sets
   * them, `finishStart` reads them where the tag is changed; weak, so the rest need no cleanup).
   */
  readonly tagDrops = new WeakMap<ElementRecord, readonly ElementRecord[]>();

  /**
   * Refuse to leave out or rename an `<a>` or `<nobr>` start tag whose adoption agency algorithm did
   * what the output's parser, without that tag, would not: moved elements out of an earlier element of
   * its name (`OUT_TAG_ADOPTS`: `<a><p>x<a>`), or took an earlier one, closed, off the list while the
   * output's parser has it there (`<p><a>x</p><a>y</a>z`: it would copy that a for the z).
   */
  private checkTagAdopts(el: ElementRecord, unit: ElementUnit, offset: number): void {
    // (The tag is written as it is, the usual case: nothing to look up.)
    if (!unit._nameChanged && !unit._removed && unit._replacement === null) return;
    const drops = this.tagDrops.get(el);
    const what = unit._nameChanged
      ? `renaming the <${el.localName}> at offset ${offset} to <${unit._name}>`
      : `${unit._replacement !== null ? 'replacing' : unit._keepContent ? 'removeAndKeepContent() on' : 'removing'} the <${el.localName}> at offset ${offset}`;
    if ((el.out & OUT_TAG_ADOPTS) !== 0) {
      throw alignmentError(what, `its start tag made the adoption agency algorithm (HTML §13.2.6.4.7) move elements out of an earlier <${el.localName}>, which a browser does not do without that tag`);
    }
    if (drops !== undefined && drops.some((d) => this.align.inOutputList(d))) {
      throw alignmentError(
        what,
        `its start tag made the adoption agency algorithm (HTML §13.2.6.4.7) take an earlier <${el.localName}>, closed, off the list of active formatting elements; without that tag a browser keeps it there and copies it into what follows`,
      );
    }
  }

  /** `callAll` for element handlers, without a closure per element (this runs for every match). */
  private startHandlers(
    token: StartTagToken,
    el: ElementRecord,
    unit: ElementUnit,
    handlers: readonly Fn<ElementUnit>[],
    from: number,
    at: AlignPoint,
  ): void | Promise<void> {
    for (let i = from; i < handlers.length; i++) {
      const r: HandlerResult = handlers[i]!(unit);
      if (r !== undefined && isThenable(r)) return Promise.resolve(r).then(() => this.startHandlers(token, el, unit, handlers, i + 1, at));
    }
    this.finishStart(token, el, unit, at);
  }

  /** The handlers are done: write what they decided. */
  private finishStart(token: StartTagToken, el: ElementRecord, unit: ElementUnit, at: AlignPoint): void {
    unit._active = false;
    const align = this.align;
    this.enterOp(at, () => joined(unit._before) || (unit._replacement ?? startWritten(unit)));
    const suppressed = this.suppress.length > 0;
    if (!suppressed && el.copyOf === null) this.checkTagAdopts(el, unit, token.start);
    let explicitCopy = false;
    if (el.copyOf !== null) {
      if (suppressed) {
        this.copyInsideRemoved(el, token.start);
        el.unit = null;
        el.handled = false;
        return;
      }
      // A reconstructed copy that the output's parser would not make as it is (its original is not in
      // that parser's list, or the copy's handlers made it differ or gave it content) is written as an
      // explicit start tag (alignment.ts); any other copy writes nothing of its own: a browser makes it
      // from what it has of the original (copies.ts).
      if (el.reconstructed && unit._keepContent) {
        // Left out, its content kept: the output's parser must not make it either. (Not one a table
        // foster-parented, as for any element: its content would be read as the table's —
        // `<table><i><a href=1></i>x</i><!--c-->` with the copy of the a unwrapped puts the comment in
        // the table.)
        checkUnwrap(el, token.start);
        align.unwrapCopy(el, at);
        if (unit._prepend !== null || unit._inner !== null) this.contentAt(at, null, unit._inner ?? joined(unit._prepend));
        if (unit._prepend !== null) this.emit(joined(unit._prepend));
        if (unit._inner !== null) {
          this.emit(unit._inner);
          this.suppress.push(el);
          this.align.suppressed = true;
          this.align.framesetOkLoose = true;
        }
        return;
      }
      explicitCopy = el.reconstructed && (copyHasContent(unit) || this.outputTagDiffers(el, unit) || (el.out & OUT_EXPLICIT) !== 0 || !this.align.inOutputList(this.align.entryOf(el.copiedFrom!)));
      if (!explicitCopy) {
        if (!el.reconstructed) this.checkAdoptionCopy(el, token.start);
        checkCopy(el, token.start, unit, () => this.sourceTagOf(el), this.outputTagOf(el.copiedFrom!));
        // What it is, for an explicit start tag if one is needed later (alignment.ts `materialize`).
        if (unit._attrs !== null || unit._nameChanged) el.writtenTag = tagOfUnit(unit);
        // The output's parser makes it under the name its original was written with: an end tag the
        // alignment writes for it uses that name (`<div><dd><font><dd><b>` with the font renamed `u`, closed
        // for content after the div: `</u>`, which `</font>` is not to that parser).
        if (unit._nameChanged) align.rename(el, unit._name);
        if (unit._endHandlers === null && !unit._nameChanged) {
          el.unit = null;
          el.handled = false;
        }
        return;
      }
    }
    // An element the adoption agency algorithm moved while held: no content change it cannot express;
    // one not held: what a later move would make wrong is noted (moved-content.ts).
    if (el.watchFlags !== 0) checkMovedContent(el, token.start, unit);
    noteContentChange(el, unit);
    if (el.fromStartTag && ViewSink.isFormatting(el.localName)) this.noteWrittenTag(el, unit);
    if (unit._before !== null) {
      // (An explicit copy: the output's parser must not make it itself for the content before it.)
      if (explicitCopy && !suppressed) {
        align.flush(at.effects, at.upTo);
        align.detachCopyOriginals(at.effects, at.upTo);
      }
      this.contentAt(at, null, joined(unit._before), 'data', el.parent);
      this.emit(joined(unit._before));
    }
    if ((el.out & OUT_REOPENS_BODY) !== 0 && !suppressed && (unit._removed || unit._replacement !== null)) {
      throw alignmentError(
        `${unit._keepContent ? 'removeAndKeepContent() on' : 'removing'} the <${el.localName}> at offset ${token.start}`,
        'its start tag takes the parser back into the body after </body> or </html> (HTML §13.2.6.4.19), and what follows it would stay after the body without it',
      );
    }
    if (unit._replacement !== null || (unit._removed && !unit._keepContent)) {
      // The element goes with its content; what its token did besides is written before the next output
      // (alignment.ts: the token is not written).
      this.align.leaveOut(el, OUT_ABSENT);
      if (unit._replacement !== null) {
        this.contentAt(at, null, unit._replacement, 'data', el.parent);
        this.emit(unit._replacement);
        this.endFosteredText(el, unit._replacement);
      }
      this.suppress.push(el);
      this.align.suppressed = true;
      this.align.framesetOkLoose = true;
    } else {
      if (unit._keepContent) {
        // Its tag is left out: what its token did besides is written before the next output (alignment.ts:
        // the token is not written); its content must read the same without it.
        if (!suppressed) {
          checkUnwrap(el, token.start);
          align.openUnwrapped++;
          align.framesetOkLoose = true;
          // A formatting element without its tags is not in the output parser's list: its copies are
          // written explicitly (alignment.ts).
          if (renameLeavesList(el)) align.markDetached(el);
        }
        align.leaveOut(el, OUT_UNWRAPPED);
      } else {
        this.writeStartTag(token, el, unit, at, explicitCopy, suppressed);
        if (!suppressed) this.startTagWritten(el, token);
      }
      if (unit._prepend !== null || unit._inner !== null) {
        // Content at the start: nothing the output's parser would reconstruct may take it in.
        const content = unit._inner ?? joined(unit._prepend);
        if (!suppressed && !unit._keepContent && unit.implied && !explicitCopy && (el.out & OUT_EXPLICIT) === 0 && content.length > 0) {
          // An implied element exists for the output's parser only once it reads the token: made
          // explicit — unless the content makes the output's parser make it the same way.
          if (!contentImplies(el.localName, content)) {
            align.flush(at.effects, at.upTo);
            align.materialize(el, at.effects, at.upTo);
          }
          // (Either way the output's parser has it now: made explicitly, or by reading the content.)
          align.impliedWritten(at.effects, at.upTo);
        }
        this.contentAt(at, null, content, 'data', unit._keepContent ? el.parent : el);
      }
      if (unit._prepend !== null) this.emit(joined(unit._prepend));
      if (unit._inner !== null) {
        this.emit(unit._inner);
        this.align.leaveOut(el, OUT_CONTENT_ABSENT);
        this.suppress.push(el);
        this.align.suppressed = true;
        this.align.framesetOkLoose = true;
      }
    }
    // Nothing left for the element's end (the usual handler only reads): the end tag is then copied
    // like any other, without a trip through `runEnd`.
    // (A table with content before it: its end checks what was foster-parented in front of it, `finishEnd`.)
    if (unit._leavesNothingForEnd && !explicitCopy && !(unit._before !== null && el.isHtml && el.localName === 'table')) {
      el.unit = null;
      el.handled = false;
    }
  }

  /** The element's start tag: the source's, a rewritten one, or (made up by the parser) none or an explicit one. */
  private writeStartTag(token: StartTagToken, el: ElementRecord, unit: ElementUnit, at: AlignPoint, explicitCopy: boolean, suppressed: boolean): void {
    const align = this.align;
    if (explicitCopy) {
      el.writtenTag = unit._attrs === null && !unit._nameChanged ? this.sourceTagOf(el) : tagOfUnit(unit);
      if (unit._nameChanged) {
        align.rename(el, unit._name);
        // Written under a name that is not a formatting element's: not in the output parser's list, so
        // the copies made of it later are written explicitly too.
        if (!ViewSink.isFormatting(unit._name)) align.markDetached(el);
        // While it is open, end tags of its new name the input's parser ignored are left out, as for any
        // renamed element (`<a><i></a>x</span>` with the i and its copy renamed `span`: that `</span>`
        // would close the copy). Its end (`finishEnd`) counts it closed again.
        if (unit.canHaveContent) align.renamedOpened(unit._name);
      }
      align.copy(el, at, true);
      return;
    }
    if (unit._attrs === null && !unit._nameChanged) {
      if (token instanceof StartTagClass) this.emitSourceSpan(token);
      else this.emitSource(token.raw, token.start);
      return;
    }
    if (suppressed) return;
    const text = unit._startTagText();
    if (unit._nameChanged) {
      // The output's parser reads another name: what the token closed before making the element (a
      // foreign element it broke out of, say) is closed first, and the two names must be read alike
      // from here on (tag-classes.ts).
      const rename = checkRename(el, unit._name, token.start);
      align.beforeRenamedTag(at.effects, at.upTo, text, rename.reconstruction);
      align.framesetOkLoose = true;
      if (rename.crossClass) {
        el.addChainFlags(OUT_RECLASSED);
        // A formatting element under a name that is not one: not in the output parser's list.
        if (renameLeavesList(el)) align.markDetached(el);
        if (unit.canHaveContent) align.openUnwrapped++;
      }
      align.rename(el, unit._name);
      // While it is open, end tags of its new name in the input mean something else to the output's parser.
      if (unit.canHaveContent) align.renamedOpened(unit._name);
      this.rewrittenTagAt = token.start;
      this.emit(text);
      if (!unit.implied) align.written(at.effects);
      else el.addChainFlags(OUT_EXPLICIT);
      return;
    } else if (!unit.implied || (el.localName === 'br' && el.isHtml)) {
      // The same name: the output's parser reads the token as the input's did. (The only implied <br> is
      // the one a `</br>` makes, whose tag this replaces: a `<br>` start tag does all that end tag did —
      // HTML §13.2.6.4.7 "An end tag whose tag name is "br"", and it breaks out of foreign content
      // alike, §13.2.6.5.)
      align.written(at.effects);
    } else if (el.copyOf === null) {
      // At the end of the input, what it closed first is closed explicitly: it may be a text element
      // (`<title>`, `<style>`, `<script>`), inside which the tag would be text — or, with `</title>` in
      // an attribute value, markup of the value's (tests/rewriter/attacker.test.ts).
      if (at.effects.atEnd && at.effects.done < at.upTo && at.effects.kinds[at.effects.done] === EFFECT_POP) {
        const top = at.effects.nodes[at.effects.done]!;
        const rcdata = top.isHtml && (top.localName === 'title' || top.localName === 'textarea');
        if (rcdata || contentContextOf(top.localName, top.namespace, this.scripting) !== 'data') align.flush(at.effects, at.effects.done + 1);
      }
      align.impliedWritten(at.effects, at.upTo);
    }
    if (unit.implied) el.addChainFlags(OUT_EXPLICIT);
    if (unit.implied && el.localName === 'body') align.framesetOkDiverged = true;
    this.rewrittenTagAt = token.start;
    this.emit(text);
  }

  /**
   * The offset of the last token whose tag was written rewritten (renamed, attributes changed, or the
   * `<br>` that replaces a `</br>`): a tag the output's parser reads in its place (`OP_REOPENED`).
   */
  private rewrittenTagAt = -1;

  /** How a formatting element's start tag went to the output, for the copies the parser may make of it. */
  private noteWrittenTag(el: ElementRecord, unit: ElementUnit): void {
    if (this.suppress.length > 0 || unit._replacement !== null || unit._removed) el.writtenTag = TAG_NOT_WRITTEN;
    else if (unit._attrs !== null || unit._nameChanged) el.writtenTag = tagOfUnit(unit);
    if (el.writtenTag !== null) this.align.formattingDiffers = true;
  }

  /**
   * Noah's Ark (§13.2.4.3 "push onto the list of active formatting elements", step 2): pushing `el`, a
   * parser drops the earliest of three elements after the last marker equal to it — same name, same
   * attributes. The output's parser compares the tags as the output has them (renamed, attributes
   * changed, left out): refused where it would drop another entry than the input's parser, or one where
   * that parser dropped none (`<p><b><b><b><b></p>x` with the first b given an attribute: a browser keeps
   * it, and copies it before x). `dropped`: the entry the input's parser removed. The entries the output's
   * parser compares come from `noahs`, an index of the list by output tag (noahs-ark.ts: O(1) per push,
   * where looking at every entry since the last marker made n pushes quadratic).
   */
  private checkNoahsArk(el: ElementRecord, dropped: ElementRecord | null, before: readonly ElementRecord[] | null, viaIndex: boolean, offset: number): void {
    // (Every tag as the source has it, every entry in the output's list: both parsers drop the same.)
    if (!this.align.formattingDiffers) return;
    const mine = (x: ElementRecord) => this.sourceSignature(x);
    const theirs = (x: ElementRecord) => this.outputSignature(x);
    const { got, want } = viaIndex ? this.noahs.outcome(el, dropped) : noahsArkByWalk(el, before!, mine, theirs);
    if (viaIndex && before !== null) {
      // (`verifyNoahsArk`: the index against a walk of the list as it was before the push.)
      const walked = noahsArkByWalk(el, before, mine, theirs);
      if (walked.got !== got || walked.want !== want) {
        const name = (x: ElementRecord | null) => (x === null ? 'none' : `<${x.localName}>`);
        throw new Error(`NoahsArkIndex: at offset ${offset}, the index has ${name(want)}/${name(got)}, the walk ${name(walked.want)}/${name(walked.got)} (want/got)`);
      }
      verified.checks++;
      if (got !== null || want !== null) verified.removals++;
    }
    if (got === want) return;
    const which = (x: ElementRecord) => `<${x.localName}>${x.outputName !== null ? ` (renamed <${x.outputName}>)` : ''}`;
    throw alignmentError(
      `the <${el.localName}> at offset ${offset}`,
      `pushing it onto the list of active formatting elements, the parser drops ${want === null ? 'no entry' : `the earliest of three equal ${which(want)}`} (Noah's Ark, HTML §13.2.4.3), ` +
        `and a browser reading the output, which compares the tags as written, would drop ${got === null ? 'none' : `a ${which(got)}`}`,
    );
  }

  /** The Noah's Ark signature of `x`'s source tag (made once: a source tag does not change). */
  private sourceSignature(x: ElementRecord): string {
    const chain = chainOf(x);
    return (chain.sourceSignature ??= signatureOf(x.localName, this.sourceTagOf(x).attributes));
  }

  /** The Noah's Ark signature of `x`'s tag as the output has it; null when the output parser's list does not have `x`. */
  private outputSignature(x: ElementRecord): string | null {
    if (!this.align.inOutputList(x)) return null;
    const tag = this.outputTagOf(x);
    if (tag === TAG_NOT_WRITTEN) return null;
    return tag === null ? this.sourceSignature(x) : signatureOf(tag.name, tag.attributes);
  }

  /** The list of active formatting elements by the tags the output has (noahs-ark.ts). */
  readonly noahs = new NoahsArkIndex((x) => this.outputSignature(x));

  /** A formatting element pushed onto the list, and the entry the input's parser removed (`OP_NOAHS_ARK`). Now, or in order. */
  noahsArk(el: ElementRecord, dropped: ElementRecord | null, before: readonly ElementRecord[] | null, viaIndex: boolean, offset: number): void {
    this.push({ k: OP_NOAHS_ARK, el, dropped, before, viaIndex, offset });
  }

  /** A change to the list of active formatting elements, for `noahs` (`OP_LIST`). Now, or in order. */
  listChange(e: number, el: ElementRecord | null, other: ElementRecord | null, seq: number): void {
    this.push({ k: OP_LIST, e, el, other, seq });
  }

  /** The list as it is when `noahs` starts (`OP_LIST_LOAD`). Now, or in order. */
  listLoad(load: ListLoad): void {
    this.push({ k: OP_LIST_LOAD, nodes: load.nodes, seqs: load.seqs });
  }

  private runEnd(el: ElementRecord, token: EndTagToken | null, atDocumentEnd: boolean, at: AlignPoint): void | Promise<void> {
    const unit = el.unit;
    el.unit = null;
    if (unit === null) {
      if (token !== null) this.emitSource(token.raw, token.start);
      return;
    }
    const handlers = unit._endHandlers;
    if (handlers === null) {
      this.finishEnd(el, unit, token, null, atDocumentEnd, at);
      return;
    }
    const end = new EndTagUnit(token, unit._name, contentContextOf(el.localName, el.namespace, this.scripting));
    end._nameChanged = unit._nameChanged;
    return this.callAll(handlers, end, () => this.finishEnd(el, unit, token, end, atDocumentEnd, at));
  }

  /** `el`'s content is over: what follows is written again, unless something around it is left out too. */
  private unsuppress(el: ElementRecord): void {
    const i = this.suppress.lastIndexOf(el);
    if (i >= 0) this.suppress.splice(i, 1);
    this.align.suppressed = this.suppress.length > 0;
  }

  /** Write `markup` (if any) while output is suppressed inside removed content: for the output's parser. */
  private emitPastSuppress(markup: string | null): void {
    if (markup === null) return;
    const inside = this.suppress.splice(0);
    try {
      this.emit(markup);
    } finally {
      this.suppress.push(...inside);
    }
  }

  private finishEnd(el: ElementRecord, unit: ElementUnit, token: EndTagToken | null, end: EndTagUnit | null, atDocumentEnd: boolean, at: AlignPoint): void {
    if (end !== null) end._active = false;
    this.enterOp(at, () => '');
    // (A copy removed or replaced is left out, not made by the output's parser: its end, below, ends the
    // suppression its start began. One unwrapped is not made either: its end tag is left out below, and
    // what that tag did besides closing it is written — `<p><a>1</p><font>2</a>x` with the copy of the a
    // the font is in unwrapped: the `</a>` closes the font, and a browser reading it without that copy
    // would not.)
    if (el.copyOf !== null && (el.out & (OUT_EXPLICIT | OUT_ABSENT | OUT_UNWRAPPED)) === 0) {
      // A copy's end is the parser's: its end tag (if it has one) is copied, renamed as the original's.
      if (end !== null) checkCopyEnd(el, token === null ? -1 : token.start, end, end._name !== unit._name);
      if (token !== null && this.suppress.length === 0) {
        if (unit._nameChanged) this.emit(`</${unit._name}>`);
        else this.emitSource(token.raw, token.start);
      }
      return;
    }
    if (el.watchFlags !== 0) checkMovedEnd(el, token === null ? -1 : token.start, unit, end);
    this.unsuppress(el);
    if ((el.out & OUT_FOSTERED_BEFORE) !== 0 && this.suppress.length === 0 && joined(unit._before) !== '') {
      // What the parser foster-parented while the table was open went in right before it, after the
      // content written before its start tag: a browser has that content before the foster-parented
      // nodes, the tree with the change applied has it after them (`<table>x` with `before()` on the
      // table). Markup written before `<table>` cannot come later than what the table's content puts there.
      throw alignmentError(
        `content before the <${el.localName}>${token === null ? '' : ` that ends at offset ${token.start}`}`,
        `the parser foster-parented content in front of the <${el.localName}> after its start tag (HTML §13.2.6.1), between the content written before the tag and the <${el.localName}>`,
      );
    }
    if (unit._replacement !== null || (unit._removed && !unit._keepContent)) {
      // The element is gone with its end tag; what was put after it stays, where the element was.
      if ((end !== null && end._after !== null) || unit._after !== null) this.contentAt(at, null, joined(end === null ? null : end._after) + joined(unit._after), 'data', el.parent);
      if (end !== null) this.emit(joined(end._after));
      this.emit(joined(unit._after));
      this.endFosteredText(el, joined(unit._after) || joined(end === null ? null : end._after));
      return;
    }
    const inside = unit._insideContext;
    const endBefore = end !== null && (end._before !== null || end._replacement !== null);
    if (this.suppress.length === 0 && token === null && at.effects.written && poppedBy(at.effects, el) && (unit._append !== null || endBefore || unit._after !== null || (end !== null && end._after !== null))) {
      // Closed by a token the output has already (an end tag whose adoption agency algorithm went round
      // again and closed it, §13.2.6.4.7): where its content ended is behind the output's parser.
      throw alignmentError(
        `content at the end of the <${el.localName}>`,
        'the parser closed it while reading a tag the output already has (the adoption agency algorithm, HTML §13.2.6.4.7), so no markup can follow its content there',
      );
    }
    if ((unit._append !== null || endBefore) && (el.out & OUT_ENDED_OPEN) !== 0 && this.suppress.length === 0) {
      throw alignmentError(
        `content at the end of the <${el.localName}>`,
        'the parser took it off the stack of open elements while an element inside it stayed open (HTML §13.2.6.4.7), so no markup ends its content there',
      );
    }
    if (unit._append !== null || endBefore) {
      // Content at the end of the element: after everything still open inside it.
      this.contentAt(at, null, joined(unit._append) + joined(end === null ? null : end._before) + (end === null ? '' : (end._replacement ?? '')), inside, unit._keepContent ? el.parent : el);
    }
    this.emit(joined(unit._append), inside);
    // The end tag written: the source's (renamed if the element or the end tag was); none where the
    // element closes implicitly, unless it was renamed — then a new one, which ends it there as the
    // tree builder did. The `</br>` that made an implied `<br>` is that element's only tag: a rewritten
    // start tag replaces it.
    let write = !unit._keepContent && (end === null || !end._removed);
    if (write) {
      // (Not at the end of the document, which closes every element: an end tag there could land
      // inside what the document ends in — `<span><noscript>`'s raw text.)
      // (A name of the same class closes where the old one did — tag-classes.ts — so the token that closed
      // it closes it in the output too: no end tag is written, which could also change what that token
      // does, e.g. leave a foreign element as the current node for it.)
      // Another class: the output's parser does not close it where the input's did; an end tag of its new
      // name closing it: that tag would close it, not what the input's parser closed with it.
      if (token === null) write = unit._nameChanged && unit.canHaveContent && !atDocumentEnd && ((el.out & OUT_RECLASSED) !== 0 || at.effects.endTagName === unit._name);
      else if (unit.implied && !unit.canHaveContent) write = unit._attrs === null && !unit._nameChanged;
    }
    if (write && token === null && (el.out & OUT_RECLASSED) !== 0 && this.suppress.length === 0 && at.effects.written && poppedBy(at.effects, el) && specialChanged(el.localName, unit._name)) {
      // The adoption agency algorithm went round again and closed it (its second pass finds a furthest
      // block, or none, among what the first moved, §13.2.6.4.7): the tag is written already, and the
      // output's parser, to which the new name is special where the old one was not (or the reverse),
      // went round otherwise — `<b><div><span></b>` with the span renamed `div`.
      throw alignmentError(
        `the <${el.localName}> renamed <${unit._name}>`,
        'the adoption agency algorithm (HTML §13.2.6.4.7) closes it on a later pass, and a browser reading the output finds another furthest block there under the new name',
      );
    }
    if (unit._keepContent && (el.out & (OUT_UNWRAPPED | OUT_OUTLIVED)) === (OUT_UNWRAPPED | OUT_OUTLIVED) && this.suppress.length === 0) checkOutlivedUnwrap(el, at);
    if (((unit._keepContent && (el.out & OUT_UNWRAPPED) !== 0 && el.copyOf === null) || (el.out & OUT_RECLASSED) !== 0) && this.align.openUnwrapped > 0 && this.suppress.length === 0) {
      this.align.openUnwrapped--;
    }
    if (el.outputName !== null && unit.canHaveContent) this.align.renamedClosed(el.outputName);
    let closed = false;
    if (end !== null) {
      this.emit(joined(end._before), inside);
      if (end._replacement !== null) this.emit(end._replacement, inside);
      else if (write) closed = this.writeEndTag(el, token, end._nameChanged || token === null ? end._name : null, at);
    } else if (write) closed = this.writeEndTag(el, token, unit._nameChanged || token === null ? unit._name : null, at);
    const after = (end !== null && end._after !== null) || unit._after !== null;
    if (after && (el.out & OUT_OUTLIVED) !== 0 && this.suppress.length === 0) checkOutlivedAfter(el, at);
    if (after) {
      // After the element: it is closed first where nothing wrote its end tag (an implicit end).
      this.contentAt(at, closed || token !== null || unit._keepContent || (el.out & OUT_UNWRAPPED) !== 0 ? null : el, joined(end === null ? null : end._after) + joined(unit._after), 'data', el.parent);
    }
    if (end !== null) this.emit(joined(end._after));
    this.emit(joined(unit._after));
    this.endFosteredText(el, joined(unit._after) || joined(end === null ? null : end._after));
  }

  /**
   * Write the element's end tag: the source's (`name` null), or `</name>`. Returns whether it was written.
   * A new end tag closes the element for the output's parser where the input's closed it: what the token
   * closed inside it first (alignment.ts).
   */
  private writeEndTag(el: ElementRecord, token: EndTagToken | null, name: string | null, at: AlignPoint): boolean {
    if (name === null) {
      // (`</body>` and `</html>` switch the insertion mode for what follows: written even inside removed
      // content, unless the element itself is removed.)
      const documentLevel = el.isHtml && (el.localName === 'body' || el.localName === 'html') && this.align.present(el);
      this.emitSource(token!.raw, token!.start, documentLevel);
      return true;
    }
    if (this.suppress.length === 0) {
      this.align.flush(at.effects, at.upTo);
      if (token === null && name === this.align.nameOf(el)) {
        // Closed implicitly by the input's parser: closed here explicitly, as any such element (a
        // formatting element's entry then leaves the output parser's list: alignment.ts `close`).
        const effects = at.effects;
        if (effects.nodes[at.upTo] === el && effects.done === at.upTo) effects.done++;
        this.align.close(el, effects);
        return true;
      }
      el.out |= OUT_CLOSED;
    }
    if (token !== null) this.rewrittenTagAt = token.start;
    this.emit(`</${name}>`);
    return true;
  }
}

/** Whether `el` is one of the elements the token of `effects` closed besides its own. */
function poppedBy(effects: TokenEffects, el: ElementRecord): boolean {
  for (let i = 0; i < effects.length; i++) if (effects.nodes[i] === el && effects.kinds[i] === EFFECT_POP) return true;
  return false;
}

/** Whether a copy's handlers gave it content of its own, or removed it (what only an explicit copy can have). */
function copyHasContent(unit: ElementUnit): boolean {
  return (
    unit._before !== null ||
    unit._prepend !== null ||
    unit._append !== null ||
    unit._after !== null ||
    unit._inner !== null ||
    unit._replacement !== null ||
    (unit._removed && !unit._keepContent)
  );
}

/**
 * An element left without its tags (`removeAndKeepContent()`) that stayed open when the parser took the
 * element around it off the stack (HTML §13.2.6.4.7: `<a>` inside an `a`): what the parser put in it
 * since belongs, without it, to that element — which the output's parser no longer has open either, so
 * it would put the same content elsewhere. Refused unless the nearest element with its tags written
 * is not one taken off that way (then the output's parser has it open as the input's had).
 */
function checkOutlivedUnwrap(el: ElementRecord, at: AlignPoint): void {
  let x = el.parent;
  while (x instanceof ElementRecord && (x.out & OUT_UNWRAPPED) !== 0) x = containerOf(x);
  if (!(x instanceof ElementRecord) || (x.out & OUT_ENDED_OPEN) === 0) return;
  throw alignmentError(
    `removeAndKeepContent() on the <${el.localName}> that ends at offset ${at.effects.start}`,
    `the parser took the <${x.localName}> around it off the stack of open elements while it stayed open (HTML §13.2.6.4.7): without its tags, what the parser put in it afterwards would land outside the <${x.localName}>`,
  );
}

/**
 * Content after an element that outlived the one around it (`OUT_OUTLIVED`: `<a><table><a>` takes the
 * first a off the stack while the table stays open in it, §13.2.6.4.7): after it is inside that element
 * in the tree, which the parser no longer has open, so no markup puts content there. Refused (unless
 * the element around it is unwrapped down to one still open, as `checkOutlivedUnwrap` looks).
 */
function checkOutlivedAfter(el: ElementRecord, at: AlignPoint): void {
  let x = el.parent;
  while (x instanceof ElementRecord && (x.out & OUT_UNWRAPPED) !== 0) x = containerOf(x);
  if (!(x instanceof ElementRecord) || (x.out & OUT_ENDED_OPEN) === 0) return;
  throw alignmentError(
    `content after the <${el.localName}> that ends at offset ${at.effects.start}`,
    `the parser took the <${x.localName}> around it off the stack of open elements while it stayed open (HTML §13.2.6.4.7), so content after it cannot be written inside the <${x.localName}>`,
  );
}

/** Noah's Ark's key for a tag (§13.2.4.3: same tag name, namespace and attributes, in any order). */
function signatureOf(name: string, attributes: readonly (readonly [string, string])[]): string {
  const parts = attributes.map(([n, v]) => `${n.toLowerCase()}\u0000${v}`).sort();
  return `${name.toLowerCase()}\u0001${parts.join('\u0001')}`;
}

