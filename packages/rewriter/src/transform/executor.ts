/**
 * Phase B of a rewrite (see transformer.ts): executes ops in order — runs the handlers on rewritable
 * units and writes what they decided — waiting, with later ops queued behind, whenever a handler returns
 * a promise. Owns the output buffer, the content being dropped (removed elements), and the failure.
 */
import { type EndTagToken, StartTagClass, type StartTagToken, fromByteForm } from '@sluice/tokenizer';
import { textCommentOf, textDoctypeOf, textStartTagOf } from './byte-form-units.js';
import { CommentUnit } from '../rewritable-units/comment.js';
import { type ContentContext, contentContextOf } from '../rewritable-units/content.js';
import { DoctypeUnit } from '../rewritable-units/doctype.js';
import { DocumentEndUnit } from '../rewritable-units/document-end.js';
import { ElementUnit } from '../rewritable-units/element.js';
import { EndTagUnit } from '../rewritable-units/end-tag.js';
import { joined } from '../rewritable-units/mutations.js';
import { afterSource } from '../rewritable-units/boundaries.js';
import { TextChunkUnit } from '../rewritable-units/text-chunk.js';
import { type ElementRecord, TAG_NOT_WRITTEN } from '../view/records.js';
import { ViewSink } from '../view/view-sink.js';
import { checkCopy, checkCopyEnd, tagOfUnit } from './copies.js';
import { checkMovedContent, checkMovedEnd, noteContentChange } from './moved-content.js';
import type { CompiledHandlers, Fn, HandlerResult } from './handlers.js';
import type { Output, SourceSpan } from './output.js';
import { OP_COMMENT, OP_COPY, OP_DOC_END, OP_DOCTYPE, OP_END, OP_END_GUARD, OP_EOF_TAG, OP_FORMATTING, OP_HELD_START, OP_RAW, OP_START, OP_TEXT, type Op, sizeOf } from './ops.js';
import { type EndGuard, guardContent } from './end-of-input.js';

/** How much source before inserted content the boundary check reads (boundaries.ts), in characters and in pieces. */
const TAIL_CHARS = 40;
const TAIL_PIECES = 40;

function isThenable(x: unknown): x is PromiseLike<void> {
  return x !== null && typeof x === 'object' && typeof (x as { then?: unknown }).then === 'function';
}

/** Runs ops; see the file comment. */
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
  /**
   * Set by the transformer while it processes the chunk `write()` was given, synchronously: only then
   * may source text be copied as a run of that chunk (see output.ts). Work done later — queued ops, the
   * rest of an async handler's unit — writes source text as strings: by then the caller may have moved
   * on, and reused the chunk's bytes.
   */
  synchronous = false;
  /** Elements whose content is being dropped (removed, replaced, inner content set). */
  private readonly suppress: ElementRecord[] = [];
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
  ) {}

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
        this.output.source(raw, start);
        this.noteSource(raw);
      }
    } else this.push({ k: OP_RAW, raw, start });
  }

  /** `raw` for a token that knows its span: its text is read only when it has to be (see `Output.sourceSpan`). */
  rawSpan(span: SourceSpan): void {
    if (!this.blocked) {
      if (this.suppress.length === 0) {
        this.output.sourceSpan(span);
        this.noteSource(span);
      }
    } else this.push({ k: OP_RAW, raw: span.raw, start: span.start });
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
    else if (this.suppress.length > 0) el.writtenTag = TAG_NOT_WRITTEN;
    else this.rawSpan(token);
  }

  /** A copy of a formatting element that no handler matched: check it (copies.ts) now, or in order. */
  copy(el: ElementRecord, offset: number): void {
    if (this.blocked) this.push({ k: OP_COPY, el, offset });
    else this.checkUnhandledCopy(el, offset);
  }

  private checkUnhandledCopy(el: ElementRecord, offset: number): void {
    checkCopy(el, offset, null, () => this.sourceTagOf(el));
  }

  /** The tag a copy has from the tree builder (its original's source tag), as a unit shows it. */
  private sourceTagOf(el: ElementRecord): { name: string; attributes: (readonly [string, string])[] } {
    const attributes = el.attributes.map((a) => [this.byteForm ? fromByteForm(a.name) : a.name, this.byteForm ? fromByteForm(a.value) : a.value] as const);
    return { name: el.localName, attributes };
  }

  /** The start of an element whose handlers are decided when the hold releases it (`OP_HELD_START`). */
  heldStart(token: StartTagToken, el: ElementRecord): void {
    this.push({ k: OP_HELD_START, token, el });
  }

  /** Run the element handlers of a start tag now, or queue them behind a pending handler. */
  startTag(token: StartTagToken, el: ElementRecord, handlers: readonly Fn<ElementUnit>[]): void {
    if (this.blocked) {
      this.push({ k: OP_START, token, el, handlers });
      return;
    }
    const r = this.runStart(token, el, handlers);
    if (r !== undefined) this.wait(r);
  }

  /** The end of an element whose handlers ran: now, or queued behind a pending handler. */
  endTag(el: ElementRecord, token: EndTagToken | null, atDocumentEnd = false): void {
    if (this.blocked) {
      this.push({ k: OP_END, el, token, atDocumentEnd });
      return;
    }
    const r = this.runEnd(el, token, atDocumentEnd);
    if (r !== undefined) this.wait(r);
  }

  /** Run text handlers on a chunk (`raw`, the input at `start`; or the empty last chunk) now, or queue them. */
  text(raw: string, start: number, last: boolean, handlers: readonly Fn<TextChunkUnit>[], context: ContentContext): void {
    if (this.blocked) {
      this.push({ k: OP_TEXT, raw, start, last, handlers, context });
      return;
    }
    const r = this.textHandlers(this.textChunk(raw, last, context), start, handlers, 0);
    if (r !== undefined) this.wait(r);
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
   * Write content a handler decided (or a rewritten tag), inserted where `context` says (the content of
   * a raw text element, or ordinary content): kept from joining the source before it (boundaries.ts).
   */
  private emit(s: string, context: ContentContext = 'data'): void {
    if (s.length > 0 && this.suppress.length === 0) {
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
  private emitSource(raw: string, start: number): void {
    if (this.suppress.length > 0) return;
    this.noteSource(raw);
    if (this.synchronous) this.output.source(raw, start);
    else if (raw.length > 0) this.output.sourceText(raw);
  }

  /** `emitSource` for a tokenizer token, whose text is read only if it cannot extend the run (see `Output.sourceSpan`). */
  private emitSourceSpan(span: SourceSpan): void {
    if (this.suppress.length > 0) return;
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
        return this.runStart(op.token, op.el, op.handlers);
      case OP_END:
        return this.runEnd(op.el, op.token, op.atDocumentEnd);
      case OP_TEXT:
        return this.textHandlers(this.textChunk(op.raw, op.last, op.context), op.start, op.handlers, 0);
      case OP_COMMENT: {
        const unit = new CommentUnit(this.byteForm ? textCommentOf(op.token) : op.token);
        return this.callAll(op.handlers, unit, () => {
          unit._active = false;
          this.commentRewritten = unit._replacement !== null || unit._removed || unit._text !== null;
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
          this.emit(joined(unit._after));
        });
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
        else op.el.writtenTag = TAG_NOT_WRITTEN;
        return;
      case OP_COPY:
        this.checkUnhandledCopy(op.el, op.offset);
        return;
      case OP_HELD_START: {
        // Held while the adoption agency algorithm could move it: its matches are decided now.
        const el = op.el;
        const handlers = el.matched === null ? null : this.handlersFor(el.matched);
        if (handlers !== null) return this.runStart(op.token, el, handlers);
        if (el.fromStartTag) {
          // As an unmatched start tag: copied (noted when not written, for a formatting element's copies).
          if (this.suppress.length === 0) this.emitSourceSpan(op.token as StartTagClass);
          else el.writtenTag = TAG_NOT_WRITTEN;
        } else if (el.copyOf !== null) this.checkUnhandledCopy(el, op.token.start);
        return;
      }
      case OP_END_GUARD:
        // (A comment closed already by its own `after` content needs no closer.)
        this.endGuard = op.guard.forComment && this.eofCommentClosed ? null : op.guard;
        return;
      case OP_EOF_TAG:
        if (this.suppress.length === 0) this.eofTag = { raw: op.raw, start: op.start };
        return;
      case OP_DOC_END: {
        this.suppress.length = 0;
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

  /** Call the handlers in order, waiting for each promise; then `done`. */
  private callAll<T>(handlers: readonly Fn<T>[], unit: T, done: () => void, from = 0): void | Promise<void> {
    for (let i = from; i < handlers.length; i++) {
      const r: HandlerResult = handlers[i]!(unit);
      if (isThenable(r)) return Promise.resolve(r).then(() => this.callAll(handlers, unit, done, i + 1));
    }
    done();
  }

  /** `callAll` for text handlers, without a closure per chunk; then write what they decided. */
  private textHandlers(unit: TextChunkUnit, start: number, handlers: readonly Fn<TextChunkUnit>[], from: number): void | Promise<void> {
    for (let i = from; i < handlers.length; i++) {
      const r: HandlerResult = handlers[i]!(unit);
      if (r !== undefined && isThenable(r)) return Promise.resolve(r).then(() => this.textHandlers(unit, start, handlers, i + 1));
    }
    unit._active = false;
    const context = unit._context;
    if (unit._before !== null) this.emit(joined(unit._before), context);
    if (unit._replacement !== null) this.emit(unit._replacement, context);
    else if (!unit._removed) this.emitSource(unit._source, start);
    if (unit._after !== null) this.emit(joined(unit._after), context);
  }

  private runStart(token: StartTagToken, el: ElementRecord, handlers: readonly Fn<ElementUnit>[]): void | Promise<void> {
    // (In byte form the local name only serves to look names up in sets of ASCII names: as good as text.)
    const unit = new ElementUnit(token, el.localName, el.namespace, this.scripting, this.byteForm ? textStartTagOf : null);
    el.unit = unit;
    return this.startHandlers(token, el, unit, handlers, 0);
  }

  /** `callAll` for element handlers, without a closure per element (this runs for every match). */
  private startHandlers(
    token: StartTagToken,
    el: ElementRecord,
    unit: ElementUnit,
    handlers: readonly Fn<ElementUnit>[],
    from: number,
  ): void | Promise<void> {
    for (let i = from; i < handlers.length; i++) {
      const r: HandlerResult = handlers[i]!(unit);
      if (r !== undefined && isThenable(r)) return Promise.resolve(r).then(() => this.startHandlers(token, el, unit, handlers, i + 1));
    }
    this.finishStart(token, el, unit);
  }

  /** The handlers are done: write what they decided. */
  private finishStart(token: StartTagToken, el: ElementRecord, unit: ElementUnit): void {
    unit._active = false;
    if (el.copyOf !== null) {
      // A copy writes nothing of its own: a browser makes it from the original's written tag.
      checkCopy(el, token.start, unit, () => this.sourceTagOf(el));
      if (unit._endHandlers === null && !unit._nameChanged) {
        el.unit = null;
        el.handled = false;
      }
      return;
    }
    // An element the adoption agency algorithm moved while held: no content change it cannot express;
    // one not held: what a later move would make wrong is noted (moved-content.ts).
    if (el.watchFlags !== 0) checkMovedContent(el, token.start, unit);
    noteContentChange(el, unit);
    if (el.fromStartTag && ViewSink.isFormatting(el.localName)) this.noteWrittenTag(el, unit);
    if (unit._before !== null) this.emit(joined(unit._before));
    if (unit._replacement !== null) {
      this.emit(unit._replacement);
      this.suppress.push(el);
    } else if (unit._removed && !unit._keepContent) {
      this.suppress.push(el);
    } else {
      if (!unit._keepContent) {
        if (unit._attrs === null && !unit._nameChanged) {
          if (token instanceof StartTagClass) this.emitSourceSpan(token);
          else this.emitSource(token.raw, token.start);
        }
        else this.emit(unit._startTagText());
      }
      if (unit._prepend !== null) this.emit(joined(unit._prepend));
      if (unit._inner !== null) {
        this.emit(unit._inner);
        this.suppress.push(el);
      }
    }
    // Nothing left for the element's end (the usual handler only reads): the end tag is then copied
    // like any other, without a trip through `runEnd`.
    if (unit._leavesNothingForEnd) {
      el.unit = null;
      el.handled = false;
    }
  }

  /** How a formatting element's start tag went to the output, for the copies the parser may make of it. */
  private noteWrittenTag(el: ElementRecord, unit: ElementUnit): void {
    if (this.suppress.length > 0 || unit._replacement !== null || unit._removed) el.writtenTag = TAG_NOT_WRITTEN;
    else if (unit._attrs !== null || unit._nameChanged) el.writtenTag = tagOfUnit(unit);
  }

  private runEnd(el: ElementRecord, token: EndTagToken | null, atDocumentEnd: boolean): void | Promise<void> {
    const unit = el.unit;
    el.unit = null;
    if (unit === null) {
      if (token !== null) this.emitSource(token.raw, token.start);
      return;
    }
    const handlers = unit._endHandlers;
    if (handlers === null) {
      this.finishEnd(el, unit, token, null, atDocumentEnd);
      return;
    }
    const end = new EndTagUnit(token, unit._name, contentContextOf(el.localName, el.namespace, this.scripting));
    end._nameChanged = unit._nameChanged;
    return this.callAll(handlers, end, () => this.finishEnd(el, unit, token, end, atDocumentEnd));
  }

  private finishEnd(el: ElementRecord, unit: ElementUnit, token: EndTagToken | null, end: EndTagUnit | null, atDocumentEnd: boolean): void {
    if (end !== null) end._active = false;
    if (el.copyOf !== null) {
      // A copy's end is the parser's: its end tag (if it has one) is copied, renamed as the original's.
      if (end !== null) checkCopyEnd(el, token === null ? -1 : token.start, end, end._name !== unit._name);
      if (token !== null && this.suppress.length === 0) {
        if (unit._nameChanged) this.emit(`</${unit._name}>`);
        else this.emitSource(token.raw, token.start);
      }
      return;
    }
    if (el.watchFlags !== 0) checkMovedEnd(el, token === null ? -1 : token.start, unit, end);
    const i = this.suppress.lastIndexOf(el);
    if (i >= 0) this.suppress.splice(i, 1);
    if (unit._replacement !== null || (unit._removed && !unit._keepContent)) {
      // The element is gone with its end tag; what was put after it stays.
      if (end !== null) this.emit(joined(end._after));
      this.emit(joined(unit._after));
      return;
    }
    const inside = unit._insideContext;
    this.emit(joined(unit._append), inside);
    // The end tag written: the source's (renamed if the element or the end tag was); none where the
    // element closes implicitly, unless it was renamed — then a new one, which ends it there as the
    // tree builder did. The `</br>` that made an implied `<br>` is that element's only tag: a rewritten
    // start tag replaces it.
    let write = !unit._keepContent && (end === null || !end._removed);
    if (write) {
      // (Not at the end of the document, which closes every element: an end tag there could land
      // inside what the document ends in — `<span><noscript>`'s raw text.)
      if (token === null) write = unit._nameChanged && unit.canHaveContent && !atDocumentEnd;
      else if (unit.implied && !unit.canHaveContent) write = unit._attrs === null && !unit._nameChanged;
    }
    if (end !== null) {
      this.emit(joined(end._before), inside);
      if (end._replacement !== null) this.emit(end._replacement, inside);
      else if (write) {
        if (end._nameChanged || token === null) this.emit(`</${end._name}>`);
        else this.emitSource(token.raw, token.start);
      }
      this.emit(joined(end._after));
    } else if (write) {
      if (unit._nameChanged || token === null) this.emit(`</${unit._name}>`);
      else this.emitSource(token.raw, token.start);
    }
    this.emit(joined(unit._after));
  }
}
