/**
 * `Transformer`: one rewrite of one document. Strings in, strings out, through the tokenizer, the tree
 * builder (into the rewriter's own view, `ViewSink`) and the handlers.
 *
 * Two phases run per token:
 * - A (synchronous, inside `Tokenizer.write`): the tree builder processes the token; the view records
 *   where it put things; the token becomes one or more *ops* (copy raw text, run element handlers, …)
 *   whose handler lists are decided now, from the tree as it stands at this token.
 * - B (executor.ts): ops are executed in order. While no handler has returned a promise this happens at once, inside
 *   phase A; when one has, later ops queue up until it settles (so order is kept), and `write()` returns a
 *   promise. Output is released at the end of every `write()` and before every wait.
 *
 * Everything a handler did not touch is copied from the tokens' `raw` text, so passthrough is exact.
 *
 * Elements the tree builder makes up (implied `<body>`, `<tbody>`, reconstructed formatting elements, …)
 * get their handlers too, at the point in the output where they were created: see `queueImplied`.
 */
import { EndTagClass, StartTagClass, TextTokenClass, Tokenizer, type Attribute, type CommentToken, type DoctypeToken, type TextKind, type TextToken, type Token } from '@sluice/tokenizer';
import { TreeBuilder, type InsertionModeName, type SourceLocation } from '@sluice/tree-builder';
import type { CommentUnit } from '../rewritable-units/comment.js';
import { type ContentContext, contentContextOf, contextOfTextKind } from '../rewritable-units/content.js';
import { type ElementUnit, ImpliedTag } from '../rewritable-units/element.js';
import type { TextChunkUnit } from '../rewritable-units/text-chunk.js';
import { ElementRecord, type NodeRecord, type ParentRecord } from '../view/records.js';
import { EV_COMMENT, EV_CREATE, EV_POP, EV_TEXT, ViewSink, WHOLE_TOKEN } from '../view/view-sink.js';
import { Executor } from './executor.js';
import { HandlerLists } from './handler-lists.js';
import type { CompiledHandlers, Fn } from './handlers.js';
import { type Held, rawLengthOf } from './held-text.js';
import { type Output, type SourceSpan, StringOutput } from './output.js';
import { OP_COMMENT, OP_DOC_END, OP_DOCTYPE } from './ops.js';

/**
 * What the callback a transformer hands its tokenizer (`cdataAllowed`) reaches the tree builder through;
 * `end()` cuts it. Measured: while such callbacks still reached a finished transformer, V8's
 * young-generation GCs kept it (and what it held) alive until the next full GC — the same effect
 * `Parser`'s `BuilderLink` in @sluice/tree-builder describes.
 */
class TransformerLink {
  builder: TreeBuilder<NodeRecord> | null = null;
}

/** The transformer whose `tokenize` is running (the innermost, when a handler runs a rewrite of its own). */
let tokenizing: Transformer | null = null;

/**
 * The tokenizer's emit callback, one function for every transformer (a closure per transformer would
 * make the tokenizer's call to it see a new target each document). An exception (a handler's) leaves
 * `Tokenizer.write` and is caught in `tokenize`.
 */
function receiveToken(token: Token): void {
  tokenizing!.receive(token);
}

/** Options of a rewrite. */
export interface RewriterOptions {
  /**
   * The most input the rewriter may hold at once, in the input's units (bytes for a byte input, UTF-16
   * code units for strings): an
   * unfinished token the tokenizer keeps, table text the tree builder has not placed yet, and output
   * waiting behind an async handler. Exceeding it errors the stream. Default 16 MiB.
   */
  maxBufferedBytes?: number;
  /** The scripting flag (`<noscript>` content is raw text when on). Default true, like browsers. */
  scripting?: boolean;
}

/** What the token whose events `applyEvents` reads is: a start tag, an end tag, or anything else. */
const OWN_NONE = 0;
const OWN_START = 1;
const OWN_END = 2;

/** Default for {@link RewriterOptions.maxBufferedBytes}. */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** `options.maxBufferedBytes`, checked. Throws when it is not a positive number. */
export function maxBufferedOf(options: RewriterOptions): number {
  const max = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  if (typeof max !== 'number' || !(max > 0)) {
    throw new Error(`HTMLRewriter: maxBufferedBytes must be a positive number, got ${String(max)}`);
  }
  return max;
}

/** One rewrite of one document. Create it through `HTMLRewriter`; feed it with `write` and `end`. */
export class Transformer {
  private readonly tokenizer: Tokenizer;
  private readonly builder: TreeBuilder<NodeRecord>;
  private readonly sink: ViewSink;
  private readonly maxBuffered: number;
  private readonly scripting: boolean;
  private readonly textHandlersExist: boolean;
  private readonly commentHandlersExist: boolean;
  /** Whether any registration has an element handler (else no start tag can change, nor any copy). */
  private readonly elementHandlersExist: boolean;

  private written = 0;
  /** The last token the tokenizer emitted: the tokenizer holds what comes after it. */
  private lastToken: Token | null = null;
  private endCalled = false;
  /** Phase B. */
  private readonly exec: Executor;
  private readonly output: Output;
  private readonly lists: HandlerLists;

  // Phase A state.
  private held: Held[] = [];
  private heldHead = 0;
  private runHandlers: readonly Fn<TextChunkUnit>[] | null = null;
  private runParent: ParentRecord | null = null;
  private runContext: ContentContext = 'data';

  /** What the tokenizer's callback reaches the tree builder through; cut by `end()` (see `TransformerLink`). */
  private readonly link: TransformerLink;

  /** @internal Token by token, from the tokenizer (through `receiveToken`). */
  receive(token: Token): void {
    if (!this.exec.failed) this.processToken(token);
  }

  /** Run the tokenizer over `chunk` (or to its end), recording a thrown error as the failure. */
  private tokenize(chunk: string | null): void {
    // The emit callback reaches this transformer through `tokenizing` (see `receiveToken`); a handler
    // may run another rewrite inside this one, so the one it replaces is put back.
    const outer = tokenizing;
    tokenizing = this;
    try {
      if (chunk === null) this.tokenizer.end(receiveToken);
      else this.tokenizer.write(chunk, receiveToken);
    } catch (err) {
      this.fail(err);
    } finally {
      tokenizing = outer;
    }
  }

  /**
   * @param config the rewriter's compiled handlers
   * @param options see {@link RewriterOptions}
   * @param onOutput receives each piece of output, in order, as soon as it is decided
   * @param output @internal what assembles the output instead (the byte transformer's); `onOutput` is then unused
   * @param byteInput @internal the chunks are UTF-8 in byte form (the byte transformer's; see
   *   `TokenizerOptions.byteInput`): offsets count bytes, and `config`'s selectors must be in byte form
   */
  constructor(
    private readonly config: CompiledHandlers,
    options: RewriterOptions,
    onOutput: (chunk: string) => void,
    output: Output = new StringOutput(onOutput),
    byteInput = false,
  ) {
    this.maxBuffered = maxBufferedOf(options);
    this.scripting = options.scripting ?? true;
    this.sink = new ViewSink(config.registry, config.registrations, config.byTag, config.anyTag);
    const link = new TransformerLink();
    this.link = link;
    // discardByteOrderMark: a leading BOM is not text to the tree (the decoder consumes it, HTML §13.2.3.1)
    // but comes as a 'discarded' token, which `afterOtherToken` copies to the output unchanged.
    this.tokenizer = new Tokenizer({ autoTextMode: false, cdataAllowed: () => link.builder !== null && link.builder.cdataAllowed(), byteInput, discardByteOrderMark: true });
    this.builder = new TreeBuilder<NodeRecord>(this.sink, this.tokenizer, { scripting: this.scripting });
    link.builder = this.builder;
    this.output = output;
    this.exec = new Executor(config, this.scripting, output, byteInput);
    this.lists = new HandlerLists(config, this.sink);
    this.textHandlersExist = config.docText.length > 0 || config.registrations.some((r) => r.text !== null);
    this.commentHandlersExist = config.docComments.length > 0 || config.registrations.some((r) => r.comments !== null);
    this.elementHandlersExist = config.registrations.some((r) => r.element !== null);
  }

  /**
   * Rewrite the next chunk. Returns nothing when every handler ran synchronously (the chunk's output has
   * been passed to `onOutput`), or a promise that settles when the async handlers it waits for have.
   * Throws (or rejects) with a handler's error, or an Error when `maxBufferedBytes` is exceeded.
   */
  write(chunk: string): void | Promise<void> {
    if (this.exec.failed) throw this.exec.failure;
    if (this.endCalled) throw new Error('HTMLRewriter: write() called after end()');
    if (typeof chunk !== 'string') throw new TypeError(`HTMLRewriter: expected a string chunk, got ${typeof chunk}`);
    this.output.setChunk(chunk, this.written);
    this.written += chunk.length;
    this.exec.synchronous = true;
    this.tokenize(chunk);
    this.exec.synchronous = false;
    if (!this.exec.failed) this.checkBound();
    return this.exec.settle();
  }

  /** End of input: flush what is held, close open elements, run document `end` handlers. */
  end(): void | Promise<void> {
    if (this.exec.failed) throw this.exec.failure;
    if (this.endCalled) throw new Error('HTMLRewriter: end() called twice');
    this.endCalled = true;
    const open = this.builder.openElements;
    const top = open.length > 0 ? open[open.length - 1]! : null;
    const context = top === null ? 'data' : contentContextOf(top.localName, top.namespace, this.scripting);
    // What the tokenizer still holds is written as text, not as a run of the last chunk (whose owner
    // may have reused its bytes since that write returned).
    this.output.setChunk('', this.written);
    this.tokenize(null);
    if (!this.exec.failed) {
      try {
        this.atDocumentEnd = true;
        this.builder.processEnd();
        this.applyEvents(OWN_NONE, this.written, null, true);
        this.resolveHeld();
        // Whatever the tree builder did not report popped is closed here, innermost first.
        const still = this.sink.open;
        for (let i = still.length - 1; i >= 0; i--) this.endElement(still[i]!, null);
        still.length = 0;
        this.endRun();
        this.exec.push({ k: OP_DOC_END, context });
      } catch (err) {
        this.fail(err);
      }
    }
    this.link.builder = null;
    return this.exec.settle();
  }

  // --- Phase A ----------------------------------------------------------------------------------------

  /**
   * One token through the tree builder and into ops. The token classes are told apart by prototype
   * (`instanceof`), not by reading `type`: with six token classes that read would be megamorphic, and
   * each branch then reads the fields of one class only and calls the tree builder's entry point for it.
   * The common outcomes of tags (one element made, one element closed, nothing) are read straight from
   * the sink's events, without the general loop of `applyEvents`.
   */
  private processToken(token: Token): void {
    this.lastToken = token;
    if (token instanceof TextTokenClass) {
      this.builder.processTextToken(token);
      this.afterText(token);
    } else if (token instanceof StartTagClass) {
      this.builder.processStartTagToken(token);
      this.afterStartTag(token);
    } else if (token instanceof EndTagClass) {
      // `</body>` and `</html>`: whether the tree builder accepted one shows in its insertion mode.
      const name = token.name;
      const modeBefore = name === 'body' || name === 'html' ? this.builder.insertionMode : null;
      this.builder.processEndTagToken(token);
      this.afterEndTag(token, modeBefore);
    } else {
      this.builder.processToken(token);
      this.afterOtherToken(token);
    }
  }

  private afterStartTag(token: StartTagClass): void {
    const sink = this.sink;
    if (sink.eventCount === 1 && this.held.length === 0 && sink.eventKind[0] === EV_CREATE) {
      // The common case: the token made one element, and nothing else happened.
      const loc = sink.eventLocation[0]!;
      if (loc !== null && loc.start === token.start) {
        const el = sink.eventNode[0] as ElementRecord;
        sink.clearEvents();
        el.fromStartTag = true;
        this.startElement(token, el);
        return;
      }
    }
    this.applyEvents(OWN_START, token.start, null, true);
    this.resolveHeld();
    const el = this.ownElement;
    if (el !== null) {
      this.startElement(token, el);
      if (this.ownPopped) this.endElement(el, null);
    } else {
      this.emitToken(token, true);
    }
  }

  private afterEndTag(token: EndTagClass, modeBefore: InsertionModeName | null): void {
    const sink = this.sink;
    if (modeBefore === null && this.held.length === 0) {
      // The common cases: the token closed its element and nothing else, or was ignored.
      const n = sink.eventCount;
      if (n === 0) {
        this.emitToken(token, true);
        return;
      }
      if (n === 1 && sink.eventKind[0] === EV_POP) {
        const loc = sink.eventLocation[0]!;
        if (loc !== null && loc.start === token.start) {
          const el = sink.eventNode[0] as ElementRecord;
          sink.clearEvents();
          this.endElement(el, token);
          return;
        }
      }
    }
    this.applyEvents(OWN_END, token.start, token, true);
    this.resolveHeld();
    if (!this.ownConsumed && !(modeBefore !== null && this.bodyOrHtmlEnd(token, modeBefore))) this.emitToken(token, true);
  }

  /** Comments, doctypes, discarded text, and tokens of classes other than the tokenizer's own. */
  private afterOtherToken(token: Token): void {
    switch (token.type) {
      case 'comment':
        this.applyEvents(OWN_NONE, token.start, null, true);
        this.resolveHeld();
        this.emitComment(token, this.ownCommentParent);
        return;
      case 'doctype':
        this.applyEvents(OWN_NONE, token.start, null, true);
        this.resolveHeld();
        this.emitDoctype(token);
        return;
      case 'discarded':
        // Not a token to the tree builder; in the DOM the text around it stays one node. Behind text the
        // tree builder has not placed yet, it waits with that text.
        if (this.heldHead < this.held.length) this.held.push({ raw: token.raw, start: token.start, end: -1, kind: null, token: null, cursor: 0 });
        else this.emitRaw(token.raw, token.start, false);
        return;
      default:
        // The transformer's own tokenizer makes its text and tag tokens with the classes above.
        throw new Error(`HTMLRewriter: internal error, a ${token.type} token not of the tokenizer's class`);
    }
  }

  private afterText(token: TextTokenClass): void {
    const sink = this.sink;
    if (this.heldHead === this.held.length) {
      // The common cases, without the general placement machinery: the whole token went to one
      // parent, or nowhere (and the tree builder is not keeping it as table text).
      const n = sink.eventCount;
      if (n === 1) {
        const loc = sink.eventLocation[0]!;
        if (
          sink.eventKind[0] === EV_TEXT &&
          (loc === WHOLE_TOKEN ||
            ((loc === null || (loc.start === token.start && loc.end === token.end)) && sink.eventData[0]!.length === token.value.length))
        ) {
          sink.clearEvents();
          this.emitTextToken(token, sink.eventNode[0]!);
          return;
        }
      } else if (n === 0 && (!this.textHandlersExist || this.builder.insertionMode !== 'in table text')) {
        // Table text ("in table text") waits for the tree builder to decide where it goes — but only
        // when a text handler needs to know; otherwise it is copied at once.
        this.emitTextToken(token, null);
        return;
      }
    }
    this.placeTextToken(token);
  }

  /** `emitTextRaw` for a whole text token: without text handlers, its text is not even read (see `Output.sourceSpan`). */
  private emitTextToken(token: TextTokenClass, parent: ParentRecord | null): void {
    if (this.textHandlersExist) this.emitTextRaw(token.raw, token.start, token.kind, parent);
    else this.exec.rawSpan(token);
  }

  /**
   * `afterText` off its fast paths: the token waits as held text until the tree builder's events say
   * where its parts went. (Apart so that the fast paths, run for every text token, stay small.)
   */
  private placeTextToken(token: TextToken): void {
    const raw = token.raw;
    const start = token.start;
    this.held.push({ raw, start, end: start + raw.length, kind: token.kind, token, cursor: start });
    this.applyEvents(OWN_NONE, start, null, false);
    // As above: table text waits only when a text handler needs to know where it goes (here the token
    // also did something else first, e.g. closed a <colgroup>).
    if (!this.textHandlersExist || this.builder.insertionMode !== 'in table text') this.resolveHeld();
    else if (this.impliedCount > 0 && this.heldHead >= this.held.length) this.startImplied();
  }


  /**
   * Turn the tree builder's events for one token into ops. For a tag token, finds the element created
   * for it (`create` with the token's own location), and whether the token itself closed an element.
   */
  private ownElement: ElementRecord | null = null;
  private ownPopped = false;
  private ownConsumed = false;
  private ownCommentParent: ParentRecord | null = null;

  /**
   * Turn the tree builder's events for one token (read from the sink, then cleared) into ops. For a tag
   * token (`own`, starting at `ownStart`; `endToken` for an end tag), finds the element created for it
   * (`create` with the token's own location), and whether the token itself closed an element; the
   * findings are left in the `own*` fields. `resolveOnPop`: held text is placed before a pop.
   */
  private applyEvents(own: number, ownStart: number, endToken: EndTagClass | null, resolveOnPop: boolean): void {
    const sink = this.sink;
    const n = sink.eventCount;
    let element: ElementRecord | null = null;
    let popped = false;
    let consumed = false;
    let commentParent: ParentRecord | null = null;
    let madeByEndTag: ElementRecord | null = null;
    for (let i = 0; i < n; i++) {
      const kind = sink.eventKind[i]!;
      const node = sink.eventNode[i]!;
      let location = sink.eventLocation[i]!;
      if (location === WHOLE_TOKEN) {
        // The text token being processed went whole into `node` (see `ViewSink.insertTextToken`).
        const token = this.lastToken as TextToken;
        location = { start: token.start, end: token.start + token.raw.length };
        sink.eventLocation[i] = location;
        sink.eventData[i] = token.value;
      }
      if (kind === EV_CREATE) {
        const el = node as ElementRecord;
        if (own === OWN_START && location !== null && location.start === ownStart) {
          element = el;
          element.fromStartTag = true;
        } else {
          // `</br>` makes a <br> with the end tag's location: that tag is the element's.
          if (own === OWN_END && location !== null && location.start === ownStart) madeByEndTag = el;
          // A copy of a formatting element carries its original's location (see copies.ts).
          const original = this.elementHandlersExist && location !== null && location.start < ownStart ? sink.originalOf(location) : null;
          if (original !== null) {
            el.copyOf = original;
            if (el.matched === null || this.elementHandlersFor(el.matched) === null) this.exec.copy(el, ownStart);
            else this.queueImplied(el, ownStart);
          } else if (el.matched !== null) this.queueImplied(el, ownStart);
        }
      } else if (kind === EV_TEXT) {
        // A run the tree builder split (whitespace here, the rest elsewhere) reports the same span for
        // each part; the part's own length says where the split falls.
        let split = false;
        for (let j = i + 1; j < n; j++) {
          if (sink.eventKind[j] !== EV_TEXT) continue;
          const next = sink.eventLocation[j]!;
          split = location !== null && next !== null && next.start === location.start && next.end === location.end;
          break;
        }
        this.placeText(node, location, sink.eventData[i]!, split);
      } else if (kind === EV_COMMENT) {
        this.resolveHeld();
        commentParent = node;
      } else if (kind === EV_POP) {
        // A tag's pops come after any pending table text was placed; a text token's pops (head closed
        // by text, say) fall inside the token, between its parts.
        if (resolveOnPop) this.resolveHeld();
        if (this.impliedCount > 0) this.startImplied();
        const el = node as ElementRecord;
        if (el === element) popped = true;
        else if (endToken !== null && !consumed && ((location !== null && location.start === ownStart) || el === madeByEndTag)) {
          this.endElement(el, endToken);
          consumed = true;
        } else this.endElement(el, null);
      }
    }
    sink.clearEvents();
    this.ownElement = element;
    this.ownPopped = popped;
    this.ownConsumed = consumed;
    this.ownCommentParent = commentParent;
  }

  /** Turn the held text the event covers into text ops for its parent (uncovered text before it: no parent). */
  private placeText(parent: ParentRecord, location: SourceLocation | null, data: string, split: boolean): void {
    const held = this.held;
    if (this.heldHead >= held.length) return;
    let first = held[this.heldHead]!;
    let start: number;
    let end: number;
    if (location === null) {
      start = first.cursor;
      end = first.end;
    } else {
      start = location.start;
      end = location.end;
    }
    if (split) {
      // Find the piece where this part starts and measure the part in its raw text.
      for (let h = this.heldHead; h < held.length; h++) {
        const p = held[h]!;
        if (p.kind === null || p.cursor >= p.end || Math.max(start, p.cursor) >= p.end) continue;
        const from = Math.max(start, p.cursor);
        const n = rawLengthOf(p.raw, from - p.start, data.length);
        if (n >= 0) end = from + n;
        break;
      }
    }
    if (!split && location !== null) {
      // The tree builder may have dropped the token's leading characters (whitespace before <html>,
      // the newline after <pre>) yet report the whole span: those stay unplaced.
      for (let h = this.heldHead; h < held.length; h++) {
        const p = held[h]!;
        if (p.kind === null) continue;
        if (p.start === start && p.end === end && p.cursor === p.start && p.token !== null && data.length < p.token.value.length && p.token.value.endsWith(data)) {
          const n = rawLengthOf(p.raw, 0, p.token.value.length - data.length);
          if (n > 0) start += n;
        }
        break;
      }
    }
    while (this.heldHead < held.length) {
      first = held[this.heldHead]!;
      if (first.kind === null) {
        this.emitRaw(first.raw, first.start, false);
        this.heldHead++;
        continue;
      }
      if (first.cursor >= first.end) {
        this.heldHead++;
        continue;
      }
      if (start >= first.end) {
        this.emitText(first, first.end, null);
        this.heldHead++;
        continue;
      }
      if (start > first.cursor) this.emitText(first, start, null);
      const e = Math.min(end, first.end);
      if (e > first.cursor) {
        // Elements created before this text start before it.
        if (this.impliedCount > 0) this.startImplied();
        this.emitText(first, e, parent);
      }
      if (first.cursor >= first.end) this.heldHead++;
      if (end <= first.end) break;
    }
    if (this.heldHead >= held.length) {
      held.length = 0;
      this.heldHead = 0;
    }
  }

  /** Everything held is decided: what no event placed is text without a parent. */
  private resolveHeld(): void {
    const held = this.held;
    if (held.length > 0) {
      for (let h = this.heldHead; h < held.length; h++) {
        const p = held[h]!;
        if (p.kind === null) this.emitRaw(p.raw, p.start, false);
        else if (p.cursor < p.end) this.emitText(p, p.end, null);
      }
      held.length = 0;
      this.heldHead = 0;
    }
    if (this.impliedCount > 0) this.startImplied();
  }

  /**
   * Implied elements with element handlers, created by the token being processed and not started yet
   * (`impliedCount` of them; the arrays keep stale handler lists beyond it): the element, its handlers,
   * and the tag it stands on (the offset of the token that created it, its attributes as they were then).
   */
  private impliedCount = 0;
  private readonly impliedElements: (ElementRecord | null)[] = [];
  private readonly impliedHandlers: (readonly Fn<ElementUnit>[])[] = [];
  private readonly impliedTags: (ImpliedTag | null)[] = [];

  /**
   * An element the tree builder made up (no start tag of its own) was created: if handlers match it, it
   * starts at the point in the output where it was created. That point is known only when the next
   * thing is output — text the tree builder placed after creating it (a text token it split, leading
   * characters it dropped), an element's end, or the token itself — so the start waits until then
   * (`startImplied`), in creation order.
   */
  private queueImplied(el: ElementRecord, offset: number): void {
    const handlers = this.elementHandlersFor(el.matched!);
    if (handlers === null) return;
    const i = this.impliedCount++;
    this.impliedElements[i] = el;
    this.impliedHandlers[i] = handlers;
    // Elements the tree builder makes up are HTML elements: their attributes are HTML attributes.
    this.impliedTags[i] = new ImpliedTag(el.localName, el.attributes as readonly Attribute[], offset);
  }

  /** Start the queued implied elements: their element handlers run (or are queued) here. */
  private startImplied(): void {
    const n = this.impliedCount;
    this.impliedCount = 0;
    for (let i = 0; i < n; i++) {
      const el = this.impliedElements[i]!;
      const tag = this.impliedTags[i]!;
      // (A finished subtree's records must not be kept from the collector.)
      this.impliedElements[i] = null;
      this.impliedTags[i] = null;
      el.handled = true;
      this.endRun();
      this.exec.startTag(tag, el, this.impliedHandlers[i]!);
    }
  }

  /** Ops for the end of an element: its end tag token, or an implicit end (`token` null). */
  private endElement(el: ElementRecord, token: EndTagClass | null): void {
    this.sink.close(el);
    if (el.ended) {
      if (token !== null) this.emitToken(token, true);
      return;
    }
    el.ended = true;
    if (!el.handled) {
      if (token !== null) this.emitToken(token, true);
      return;
    }
    this.endRun();
    this.exec.endTag(el, token, token === null && this.atDocumentEnd);
  }

  /**
   * Set once the input has ended (`end()`): elements closed from then on close at the end of the
   * document, where a parser reading the output closes them too — no end tag is written for them.
   */
  private atDocumentEnd = false;

  /**
   * `</body>` and `</html>` never pop their elements (the standard keeps them open to the end); when the
   * tree builder accepted one, it is that element's end tag for handlers.
   */
  private bodyOrHtmlEnd(token: EndTagClass, modeBefore: InsertionModeName): boolean {
    const mode = this.builder.insertionMode;
    const body = this.sink.body;
    const html = this.sink.root;
    if (token.name === 'body') {
      if (mode !== 'after body' || modeBefore === 'after body' || body === null || body.ended) return false;
      this.endElementKeepOpen(body, token);
      return true;
    }
    if ((mode !== 'after after body' && mode !== 'after after frameset') || mode === modeBefore) return false;
    if (body !== null && !body.ended) this.endElementKeepOpen(body, null);
    if (html === null || html.ended) return false;
    this.endElementKeepOpen(html, token);
    return true;
  }

  /** Like `endElement`, but the element stays open in the view (content may still go into it). */
  private endElementKeepOpen(el: ElementRecord, token: EndTagClass | null): void {
    el.ended = true;
    if (!el.handled) {
      if (token !== null) this.emitToken(token, true);
      return;
    }
    this.endRun();
    this.exec.endTag(el, token);
  }

  /** The element handlers of the registrations in `matched` (the last list is kept: elements of one name share theirs). */
  private elementHandlersFor(matched: readonly number[]): readonly Fn<ElementUnit>[] | null {
    if (matched === this.lastMatched) return this.lastHandlers;
    let handlers: Fn<ElementUnit>[] | null = null;
    const regs = this.config.registrations;
    for (let i = 0; i < matched.length; i++) {
      const h = regs[matched[i]!]!.element;
      if (h !== null) (handlers ??= []).push(h);
    }
    this.lastMatched = matched;
    this.lastHandlers = handlers;
    return handlers;
  }
  private lastMatched: readonly number[] | null = null;
  private lastHandlers: readonly Fn<ElementUnit>[] | null = null;

  private startElement(token: StartTagClass, el: ElementRecord): void {
    const matched = el.matched;
    const handlers = matched === null ? null : this.elementHandlersFor(matched);
    if (handlers === null) {
      // A formatting element the parser may copy later: whether its tag was written matters then.
      if (this.elementHandlersExist && ViewSink.isFormatting(el.localName)) {
        this.endRun();
        this.exec.formattingStart(token, el);
      } else this.emitToken(token, true);
      return;
    }
    el.handled = true;
    this.endRun();
    this.exec.startTag(token, el, handlers);
  }

  /** Text ops for `piece` up to `to`, inserted into `parent` (null: the tree builder dropped it). */
  private emitText(piece: Held, to: number, parent: ParentRecord | null): void {
    const from = piece.cursor;
    const raw = piece.raw.slice(from - piece.start, to - piece.start);
    piece.cursor = to;
    this.emitTextRaw(raw, from, piece.kind!, parent);
  }

  /** Text ops for `raw` (the input at `start`), text of this kind inserted into `parent` (null: the tree builder dropped it). */
  private emitTextRaw(raw: string, start: number, kind: TextKind, parent: ParentRecord | null): void {
    if (raw.length === 0) return;
    if (!this.textHandlersExist) {
      this.emitRaw(raw, start, false);
      return;
    }
    if (this.runHandlers !== null && this.runParent !== parent) this.endRun();
    const parentEl = parent instanceof ElementRecord ? parent : null;
    const handlers = this.lists.textHandlersFor(parentEl);
    if (handlers.length === 0) {
      this.emitRaw(raw, start, false);
      return;
    }
    const context = contextOfTextKind(kind, parentEl === null ? null : parentEl.localName);
    this.runHandlers = handlers;
    this.runParent = parent;
    this.runContext = context;
    this.exec.text(raw, start, false, handlers, context);
  }

  /** The text node being streamed has ended: its handlers get an empty last chunk. */
  private endRun(): void {
    const handlers = this.runHandlers;
    if (handlers === null) return;
    this.runHandlers = null;
    this.runParent = null;
    this.exec.text('', 0, true, handlers, this.runContext);
  }

  private emitComment(token: CommentToken, parent: ParentRecord | null): void {
    this.endRun();
    if (!this.commentHandlersExist) {
      this.emitRaw(token.raw, token.start, false);
      return;
    }
    const handlers = this.lists.commentHandlersFor(parent instanceof ElementRecord ? parent : null);
    if (handlers.length === 0) this.emitRaw(token.raw, token.start, false);
    else this.exec.push({ k: OP_COMMENT, token, handlers });
  }

  private emitDoctype(token: DoctypeToken): void {
    this.endRun();
    if (this.config.docDoctype.length === 0) this.emitRaw(token.raw, token.start, false);
    else this.exec.push({ k: OP_DOCTYPE, token });
  }

  /** `emitRaw` for the tokenizer's text and tag tokens, which know their span (see `Output.sourceSpan`). */
  private emitToken(token: SourceSpan, endsRun: boolean): void {
    if (endsRun) this.endRun();
    this.exec.rawSpan(token);
  }

  /** Copy source text (`raw`, the input at `start`); `endsRun` for tags, which end the text node being streamed. */
  private emitRaw(raw: string, start: number, endsRun: boolean): void {
    if (endsRun) this.endRun();
    this.exec.raw(raw, start);
  }

  private checkBound(): void {
    const last = this.lastToken;
    const tokenizerHeld = this.written - (last === null ? 0 : last.start + last.raw.length);
    let heldText = 0;
    for (let h = this.heldHead; h < this.held.length; h++) {
      const p = this.held[h]!;
      heldText += p.kind === null ? p.raw.length : p.end - p.cursor;
    }
    const total = tokenizerHeld + heldText + this.exec.queuedSize;
    if (total <= this.maxBuffered) return;
    const what =
      tokenizerHeld >= heldText && tokenizerHeld >= this.exec.queuedSize
        ? `the tokenizer holds ${tokenizerHeld} characters of a token that has not ended`
        : heldText >= this.exec.queuedSize
          ? `${heldText} characters of table text are waiting for the tree builder to place them`
          : `${this.exec.queuedSize} characters are waiting behind an async handler`;
    this.fail(new Error(`HTMLRewriter: maxBufferedBytes (${this.maxBuffered}) exceeded: ${what}`));
  }

  private fail(err: unknown): void {
    this.exec.fail(err);
  }
}
