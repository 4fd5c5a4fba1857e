/**
 * `Transformer`: one rewrite of one document. Strings in, strings out, through the tokenizer, the tree
 * builder (into the rewriter's own view, `ViewSink`) and the handlers.
 *
 * Two phases run per token:
 * - A (synchronous, inside `Tokenizer.write`): the tree builder processes the token; the view records
 *   where it put things; the token becomes one or more *ops* (copy raw text, run element handlers, …)
 *   whose handler lists are decided now, from the tree as it stands at this token.
 * - B: ops are executed in order. While no handler has returned a promise this happens at once, inside
 *   phase A; when one has, later ops queue up until it settles (so order is kept), and `write()` returns a
 *   promise. Output is released at the end of every `write()` and before every wait.
 *
 * Everything a handler did not touch is copied from the tokens' `raw` text, so passthrough is exact.
 */
import { Tokenizer, type CommentToken, type DoctypeToken, type EndTagToken, type StartTagToken, type TextKind, type TextToken, type Token } from '@sluice/tokenizer';
import { TreeBuilder, type InsertionModeName, type SourceLocation } from '@sluice/tree-builder';
import { CommentUnit } from '../rewritable-units/comment.js';
import { type ContentContext, contentContextOf, contextOfTextKind } from '../rewritable-units/content.js';
import { DoctypeUnit } from '../rewritable-units/doctype.js';
import { DocumentEndUnit } from '../rewritable-units/document-end.js';
import { ElementUnit, canHaveContent } from '../rewritable-units/element.js';
import { EndTagUnit } from '../rewritable-units/end-tag.js';
import { joined } from '../rewritable-units/mutations.js';
import { TextChunkUnit } from '../rewritable-units/text-chunk.js';
import { ElementRecord, type NodeRecord, type ParentRecord } from '../view/records.js';
import { EV_COMMENT, EV_CREATE, EV_POP, EV_TEXT, ViewSink } from '../view/view-sink.js';
import type { CompiledHandlers, Fn, HandlerResult } from './handlers.js';

/** Options of a rewrite. */
export interface RewriterOptions {
  /**
   * The most input the rewriter may hold at once, in UTF-16 code units (≈ bytes for ASCII): an
   * unfinished token the tokenizer keeps, table text the tree builder has not placed yet, and output
   * waiting behind an async handler. Exceeding it errors the stream. Default 16 MiB.
   */
  maxBufferedBytes?: number;
  /** The scripting flag (`<noscript>` content is raw text when on). Default true, like browsers. */
  scripting?: boolean;
}

/** Default for {@link RewriterOptions.maxBufferedBytes}. */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

const OP_RAW = 0;
const OP_START = 1;
const OP_END = 2;
const OP_TEXT = 3;
const OP_COMMENT = 4;
const OP_DOCTYPE = 5;
const OP_DOC_END = 6;

type Op =
  | { readonly k: typeof OP_RAW; readonly raw: string }
  | { readonly k: typeof OP_START; readonly token: StartTagToken; readonly el: ElementRecord; readonly handlers: Fn<ElementUnit>[] }
  | { readonly k: typeof OP_END; readonly el: ElementRecord; readonly token: EndTagToken | null }
  | { readonly k: typeof OP_TEXT; readonly raw: string; readonly last: boolean; readonly handlers: readonly Fn<TextChunkUnit>[]; readonly context: ContentContext }
  | { readonly k: typeof OP_COMMENT; readonly token: CommentToken; readonly handlers: readonly Fn<CommentUnit>[] }
  | { readonly k: typeof OP_DOCTYPE; readonly token: DoctypeToken }
  | { readonly k: typeof OP_DOC_END; readonly context: ContentContext };

/** A piece of input the tree builder has not placed yet ("in table text"), or raw text queued behind it. */
interface Held {
  readonly raw: string;
  readonly start: number;
  readonly end: number;
  /** null for a token that is not text (copied as is when its turn comes). */
  readonly kind: TextKind | null;
  /** The token's decoded characters (null for a piece that is not a whole text token). */
  readonly value: string | null;
  /** Offset up to which the piece has been turned into ops. */
  cursor: number;
}

function sizeOf(op: Op): number {
  switch (op.k) {
    case OP_RAW:
    case OP_TEXT:
      return op.raw.length;
    case OP_START:
    case OP_COMMENT:
    case OP_DOCTYPE:
      return op.token.raw.length;
    case OP_END:
      return op.token === null ? 0 : op.token.raw.length;
    default:
      return 0;
  }
}

function isThenable(x: unknown): x is PromiseLike<void> {
  return x !== null && typeof x === 'object' && typeof (x as { then?: unknown }).then === 'function';
}

/**
 * How many code units of `raw`, from `from`, make `count` characters of decoded text — for splitting a
 * text token where the tree builder split its characters (always after leading whitespace, which is
 * written literally; CRLF counts as one character). -1 when a character reference is in the way.
 */
function rawLengthOf(raw: string, from: number, count: number): number {
  let i = from;
  for (let n = 0; n < count; n++) {
    if (i >= raw.length) return -1;
    const c = raw.charCodeAt(i);
    if (c === 0x26 /* & */) return -1;
    i += c === 0x0d && raw.charCodeAt(i + 1) === 0x0a ? 2 : 1;
  }
  return i - from;
}

const NO_TEXT_FNS: readonly Fn<TextChunkUnit>[] = [];

/** One rewrite of one document. Create it through `HTMLRewriter`; feed it with `write` and `end`. */
export class Transformer {
  private readonly tokenizer: Tokenizer;
  private readonly builder: TreeBuilder<NodeRecord>;
  private readonly sink: ViewSink;
  private readonly maxBuffered: number;
  private readonly scripting: boolean;
  private readonly textHandlersExist: boolean;
  private readonly commentHandlersExist: boolean;

  private written = 0;
  /** The last token the tokenizer emitted: the tokenizer holds what comes after it. */
  private lastToken: Token | null = null;
  private endCalled = false;
  private failed = false;
  private failure: unknown = undefined;

  // Phase A state.
  private held: Held[] = [];
  private heldHead = 0;
  private runHandlers: readonly Fn<TextChunkUnit>[] | null = null;
  private runParent: ParentRecord | null = null;
  private runContext: ContentContext = 'data';

  // Phase B state.
  private queue: (Op | undefined)[] = [];
  private queueHead = 0;
  private queuedSize = 0;
  private waiting: Promise<void> | null = null;
  private out = '';
  /** Elements whose content is being dropped (removed, replaced, inner content set). */
  private readonly suppress: ElementRecord[] = [];

  /** The tokenizer's emit callback. An exception (a handler's) leaves `Tokenizer.write` and is caught there. */
  private readonly onToken = (token: Token): void => {
    if (!this.failed) this.processToken(token);
  };

  /** Run the tokenizer over `chunk` (or to its end), recording a thrown error as the failure. */
  private tokenize(chunk: string | null): void {
    try {
      if (chunk === null) this.tokenizer.end(this.onToken);
      else this.tokenizer.write(chunk, this.onToken);
    } catch (err) {
      this.fail(err);
    }
  }

  /**
   * @param config the rewriter's compiled handlers
   * @param options see {@link RewriterOptions}
   * @param onOutput receives each piece of output, in order, as soon as it is decided
   */
  constructor(
    private readonly config: CompiledHandlers,
    options: RewriterOptions,
    private readonly onOutput: (chunk: string) => void,
  ) {
    const max = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    if (typeof max !== 'number' || !(max > 0)) {
      throw new Error(`HTMLRewriter: maxBufferedBytes must be a positive number, got ${String(max)}`);
    }
    this.maxBuffered = max;
    this.scripting = options.scripting ?? true;
    this.sink = new ViewSink(config.registry, config.registrations, config.byTag, config.anyTag);
    let builder: TreeBuilder<NodeRecord> | null = null;
    this.tokenizer = new Tokenizer({ autoTextMode: false, cdataAllowed: () => builder !== null && builder.cdataAllowed() });
    builder = new TreeBuilder<NodeRecord>(this.sink, this.tokenizer, { scripting: this.scripting });
    this.builder = builder;
    this.textHandlersExist = config.docText.length > 0 || config.registrations.some((r) => r.text !== null);
    this.commentHandlersExist = config.docComments.length > 0 || config.registrations.some((r) => r.comments !== null);
  }

  /**
   * Rewrite the next chunk. Returns nothing when every handler ran synchronously (the chunk's output has
   * been passed to `onOutput`), or a promise that settles when the async handlers it waits for have.
   * Throws (or rejects) with a handler's error, or an Error when `maxBufferedBytes` is exceeded.
   */
  write(chunk: string): void | Promise<void> {
    if (this.failed) throw this.failure;
    if (this.endCalled) throw new Error('HTMLRewriter: write() called after end()');
    if (typeof chunk !== 'string') throw new TypeError(`HTMLRewriter: expected a string chunk, got ${typeof chunk}`);
    this.written += chunk.length;
    this.tokenize(chunk);
    if (!this.failed) this.checkBound();
    return this.settle();
  }

  /** End of input: flush what is held, close open elements, run document `end` handlers. */
  end(): void | Promise<void> {
    if (this.failed) throw this.failure;
    if (this.endCalled) throw new Error('HTMLRewriter: end() called twice');
    this.endCalled = true;
    const open = this.builder.openElements;
    const top = open.length > 0 ? open[open.length - 1]! : null;
    const context = top === null ? 'data' : contentContextOf(top.localName, top.namespace, this.scripting);
    this.tokenize(null);
    if (!this.failed) {
      try {
        this.builder.processEnd();
        this.applyEvents(null, true);
        this.resolveHeld();
        // Whatever the tree builder did not report popped is closed here, innermost first.
        const still = this.sink.open;
        for (let i = still.length - 1; i >= 0; i--) this.endElement(still[i]!, null);
        still.length = 0;
        this.endRun();
        this.push({ k: OP_DOC_END, context });
      } catch (err) {
        this.fail(err);
      }
    }
    return this.settle();
  }

  // --- Phase A ----------------------------------------------------------------------------------------

  /**
   * One token through the tree builder and into ops. Branches on the type first so that each branch
   * reads the fields of one token class only (monomorphic property access: this runs per token).
   */
  private processToken(token: Token): void {
    this.lastToken = token;
    switch (token.type) {
      case 'text':
        this.builder.processToken(token);
        this.afterText(token);
        return;
      case 'startTag': {
        this.builder.processToken(token);
        this.applyEvents(token);
        this.resolveHeld();
        const el = this.ownElement;
        if (el !== null) {
          this.startElement(token, el);
          if (this.ownPopped) this.endElement(el, null);
        } else {
          this.emitRaw(token.raw, true);
        }
        return;
      }
      case 'endTag': {
        const name = token.name;
        const modeBefore = name === 'body' || name === 'html' ? this.builder.insertionMode : null;
        this.builder.processToken(token);
        this.applyEvents(token);
        this.resolveHeld();
        if (!this.ownConsumed && !(modeBefore !== null && this.bodyOrHtmlEnd(token, modeBefore))) this.emitRaw(token.raw, true);
        return;
      }
      case 'comment':
        this.builder.processToken(token);
        this.applyEvents(token);
        this.resolveHeld();
        this.emitComment(token, this.ownCommentParent);
        return;
      case 'doctype':
        this.builder.processToken(token);
        this.applyEvents(token);
        this.resolveHeld();
        this.emitDoctype(token);
        return;
      case 'discarded':
        // Not a token to the tree builder; in the DOM the text around it stays one node. Behind text the
        // tree builder has not placed yet, it waits with that text.
        if (this.heldHead < this.held.length) this.held.push({ raw: token.raw, start: -1, end: -1, kind: null, value: null, cursor: 0 });
        else this.emitRaw(token.raw, false);
        return;
    }
  }

  private afterText(token: TextToken): void {
    const sink = this.sink;
    const raw = token.raw;
    const start = token.start;
    if (this.heldHead === this.held.length) {
      // The common cases, without the general placement machinery: the whole token went to one
      // parent, or nowhere (and the tree builder is not keeping it as table text).
      const n = sink.eventCount;
      if (n === 1) {
        const loc = sink.eventLocation[0]!;
        if (
          sink.eventKind[0] === EV_TEXT &&
          (loc === null || (loc.start === start && loc.end === start + raw.length)) &&
          sink.eventData[0]!.length === token.value.length
        ) {
          sink.clearEvents();
          this.emitTextRaw(raw, token.kind, sink.eventNode[0]!);
          return;
        }
      } else if (n === 0 && this.builder.insertionMode !== 'in table text') {
        this.emitTextRaw(raw, token.kind, null);
        return;
      }
    }
    this.held.push({ raw, start, end: start + raw.length, kind: token.kind, value: token.value, cursor: start });
    this.applyEvents(null);
    if (this.builder.insertionMode !== 'in table text') this.resolveHeld();
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
   * token, finds the element created for it (`create` with the token's own location), and whether the
   * token itself closed an element; the findings are left in the `own*` fields.
   */
  private applyEvents(
    token: Exclude<Token, { type: 'text' } | { type: 'discarded' }> | null,
    resolveOnPop = token !== null,
  ): this {
    const sink = this.sink;
    const n = sink.eventCount;
    let element: ElementRecord | null = null;
    let popped = false;
    let consumed = false;
    let commentParent: ParentRecord | null = null;
    for (let i = 0; i < n; i++) {
      const kind = sink.eventKind[i]!;
      const node = sink.eventNode[i]!;
      const location = sink.eventLocation[i]!;
      if (kind === EV_CREATE) {
        if (token !== null && token.type === 'startTag' && location !== null && location.start === token.start) {
          element = node as ElementRecord;
          element.fromStartTag = true;
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
        const el = node as ElementRecord;
        if (el === element) popped = true;
        else if (token !== null && token.type === 'endTag' && !consumed && location !== null && location.start === token.start) {
          this.endElement(el, token);
          consumed = true;
        } else this.endElement(el, null);
      }
    }
    sink.clearEvents();
    this.ownElement = element;
    this.ownPopped = popped;
    this.ownConsumed = consumed;
    this.ownCommentParent = commentParent;
    return this;
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
        if (p.start === start && p.end === end && p.cursor === p.start && p.value !== null && data.length < p.value.length && p.value.endsWith(data)) {
          const n = rawLengthOf(p.raw, 0, p.value.length - data.length);
          if (n > 0) start += n;
        }
        break;
      }
    }
    while (this.heldHead < held.length) {
      first = held[this.heldHead]!;
      if (first.kind === null) {
        this.emitRaw(first.raw, false);
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
      if (e > first.cursor) this.emitText(first, e, parent);
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
    if (held.length === 0) return;
    for (let h = this.heldHead; h < held.length; h++) {
      const p = held[h]!;
      if (p.kind === null) this.emitRaw(p.raw, false);
      else if (p.cursor < p.end) this.emitText(p, p.end, null);
    }
    held.length = 0;
    this.heldHead = 0;
  }

  /** Ops for the end of an element: its end tag token, or an implicit end (`token` null). */
  private endElement(el: ElementRecord, token: EndTagToken | null): void {
    this.sink.close(el);
    if (el.ended) {
      if (token !== null) this.emitRaw(token.raw, true);
      return;
    }
    el.ended = true;
    if (!el.handled) {
      if (token !== null) this.emitRaw(token.raw, true);
      return;
    }
    this.endRun();
    this.push({ k: OP_END, el, token });
  }

  /**
   * `</body>` and `</html>` never pop their elements (the standard keeps them open to the end); when the
   * tree builder accepted one, it is that element's end tag for handlers.
   */
  private bodyOrHtmlEnd(token: EndTagToken, modeBefore: InsertionModeName): boolean {
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
  private endElementKeepOpen(el: ElementRecord, token: EndTagToken | null): void {
    el.ended = true;
    if (!el.handled) {
      if (token !== null) this.emitRaw(token.raw, true);
      return;
    }
    this.endRun();
    this.push({ k: OP_END, el, token });
  }

  private startElement(token: StartTagToken, el: ElementRecord): void {
    const matched = el.matched;
    let handlers: Fn<ElementUnit>[] | null = null;
    if (matched !== null) {
      const regs = this.config.registrations;
      for (let i = 0; i < matched.length; i++) {
        const h = regs[matched[i]!]!.element;
        if (h !== null) (handlers ??= []).push(h);
      }
    }
    if (handlers === null) {
      this.emitRaw(token.raw, true);
      return;
    }
    el.handled = true;
    this.endRun();
    this.push({ k: OP_START, token, el, handlers });
  }

  /** Text ops for `piece` up to `to`, inserted into `parent` (null: the tree builder dropped it). */
  private emitText(piece: Held, to: number, parent: ParentRecord | null): void {
    const raw = piece.raw.slice(piece.cursor - piece.start, to - piece.start);
    piece.cursor = to;
    this.emitTextRaw(raw, piece.kind!, parent);
  }

  /** Text ops for `raw`, text of this kind inserted into `parent` (null: the tree builder dropped it). */
  private emitTextRaw(raw: string, kind: TextKind, parent: ParentRecord | null): void {
    if (raw.length === 0) return;
    if (!this.textHandlersExist) {
      this.emitRaw(raw, false);
      return;
    }
    if (this.runHandlers !== null && this.runParent !== parent) this.endRun();
    const parentEl = parent instanceof ElementRecord ? parent : null;
    const handlers = this.textHandlersFor(parentEl);
    if (handlers.length === 0) {
      this.emitRaw(raw, false);
      return;
    }
    const context = contextOfTextKind(kind, parentEl === null ? null : parentEl.localName);
    this.runHandlers = handlers;
    this.runParent = parent;
    this.runContext = context;
    this.push({ k: OP_TEXT, raw, last: false, handlers, context });
  }

  /** The text node being streamed has ended: its handlers get an empty last chunk. */
  private endRun(): void {
    const handlers = this.runHandlers;
    if (handlers === null) return;
    this.runHandlers = null;
    this.runParent = null;
    this.push({ k: OP_TEXT, raw: '', last: true, handlers, context: this.runContext });
  }

  private emitComment(token: CommentToken, parent: ParentRecord | null): void {
    this.endRun();
    if (!this.commentHandlersExist) {
      this.emitRaw(token.raw, false);
      return;
    }
    const handlers = this.commentHandlersFor(parent instanceof ElementRecord ? parent : null);
    if (handlers.length === 0) this.emitRaw(token.raw, false);
    else this.push({ k: OP_COMMENT, token, handlers });
  }

  private emitDoctype(token: DoctypeToken): void {
    this.endRun();
    if (this.config.docDoctype.length === 0) this.emitRaw(token.raw, false);
    else this.push({ k: OP_DOCTYPE, token });
  }

  /** Copy source text; `endsRun` for tags, which end the text node being streamed. */
  private emitRaw(raw: string, endsRun: boolean): void {
    if (endsRun) this.endRun();
    if (this.waiting === null) {
      if (this.suppress.length === 0) this.out += raw;
    } else this.push({ k: OP_RAW, raw });
  }

  /** Registrations matching `el` or one of its ancestors (text and comments inside them reach their handlers). */
  private inheritedRegistrations(el: ElementRecord): readonly number[] {
    const generation = this.sink.generation;
    if (el.cacheGeneration === generation && el.inherited !== null) return el.inherited;
    // Walk up to the first ancestor with a valid cache, then fill caches downwards (no recursion).
    const chain: ElementRecord[] = [];
    let base: readonly number[] = [];
    for (let a: ElementRecord | null = el; a !== null; a = a.parentElement) {
      if (a.cacheGeneration === generation && a.inherited !== null) {
        base = a.inherited;
        break;
      }
      chain.push(a);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const a = chain[i]!;
      const own = a.matched;
      if (own !== null) {
        const merged = new Set(base);
        for (const r of own) merged.add(r);
        base = [...merged].sort((x, y) => x - y);
      }
      a.inherited = base;
      a.cacheGeneration = generation;
    }
    return base;
  }

  private readonly docTextCache = new Map<readonly number[], readonly Fn<TextChunkUnit>[]>();
  private readonly docCommentCache = new Map<readonly number[], readonly Fn<CommentUnit>[]>();

  private textHandlersFor(el: ElementRecord | null): readonly Fn<TextChunkUnit>[] {
    const regs = el === null ? [] : this.inheritedRegistrations(el);
    if (regs.length === 0) return this.config.docText.length === 0 ? NO_TEXT_FNS : this.config.docText;
    let fns = this.docTextCache.get(regs);
    if (fns === undefined) {
      const list: Fn<TextChunkUnit>[] = [];
      for (const r of regs) {
        const h = this.config.registrations[r]!.text;
        if (h !== null) list.push(h);
      }
      fns = list.concat(this.config.docText);
      this.docTextCache.set(regs, fns);
    }
    return fns;
  }

  private commentHandlersFor(el: ElementRecord | null): readonly Fn<CommentUnit>[] {
    const regs = el === null ? [] : this.inheritedRegistrations(el);
    if (regs.length === 0) return this.config.docComments;
    let fns = this.docCommentCache.get(regs);
    if (fns === undefined) {
      const list: Fn<CommentUnit>[] = [];
      for (const r of regs) {
        const h = this.config.registrations[r]!.comments;
        if (h !== null) list.push(h);
      }
      fns = list.concat(this.config.docComments);
      this.docCommentCache.set(regs, fns);
    }
    return fns;
  }

  private checkBound(): void {
    const last = this.lastToken;
    const tokenizerHeld = this.written - (last === null ? 0 : last.start + last.raw.length);
    let heldText = 0;
    for (let h = this.heldHead; h < this.held.length; h++) {
      const p = this.held[h]!;
      heldText += p.kind === null ? p.raw.length : p.end - p.cursor;
    }
    const total = tokenizerHeld + heldText + this.queuedSize;
    if (total <= this.maxBuffered) return;
    const what =
      tokenizerHeld >= heldText && tokenizerHeld >= this.queuedSize
        ? `the tokenizer holds ${tokenizerHeld} characters of a token that has not ended`
        : heldText >= this.queuedSize
          ? `${heldText} characters of table text are waiting for the tree builder to place them`
          : `${this.queuedSize} characters are waiting behind an async handler`;
    this.fail(new Error(`HTMLRewriter: maxBufferedBytes (${this.maxBuffered}) exceeded: ${what}`));
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.failure = err;
    this.queue.length = 0;
    this.queueHead = 0;
  }

  // --- Phase B ----------------------------------------------------------------------------------------

  private push(op: Op): void {
    if (this.waiting !== null) {
      this.queue.push(op);
      this.queuedSize += sizeOf(op);
      return;
    }
    const r = this.run(op);
    if (r !== undefined) this.wait(r);
  }

  private wait(p: Promise<void>): void {
    this.flushOutput();
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
  }

  /** After write()/end(): release output, or hand back the promise to wait for. */
  private settle(): void | Promise<void> {
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

  private flushOutput(): void {
    if (this.out.length === 0) return;
    const s = this.out;
    this.out = '';
    this.onOutput(s);
  }

  private emit(s: string): void {
    if (s.length > 0 && this.suppress.length === 0) this.out += s;
  }

  private run(op: Op): void | Promise<void> {
    switch (op.k) {
      case OP_RAW:
        this.emit(op.raw);
        return;
      case OP_START:
        return this.runStart(op.token, op.el, op.handlers);
      case OP_END:
        return this.runEnd(op.el, op.token);
      case OP_TEXT: {
        const unit = new TextChunkUnit(op.raw, op.last, op.context);
        return this.callAll(op.handlers, unit, () => {
          unit._active = false;
          this.emit(joined(unit._before));
          if (unit._replacement !== null) this.emit(unit._replacement);
          else if (!unit._removed) this.emit(op.raw);
          this.emit(joined(unit._after));
        });
      }
      case OP_COMMENT: {
        const unit = new CommentUnit(op.token);
        return this.callAll(op.handlers, unit, () => {
          unit._active = false;
          this.emit(joined(unit._before));
          if (unit._replacement !== null) this.emit(unit._replacement);
          else if (!unit._removed) this.emit(unit._outputText());
          this.emit(joined(unit._after));
        });
      }
      case OP_DOCTYPE: {
        const unit = new DoctypeUnit(op.token);
        return this.callAll(this.config.docDoctype, unit, () => {
          unit._active = false;
          if (!unit._removed) this.emit(op.token.raw);
        });
      }
      case OP_DOC_END: {
        this.suppress.length = 0;
        const unit = new DocumentEndUnit(op.context);
        return this.callAll(this.config.docEnd, unit, () => {
          unit._active = false;
          this.emit(joined(unit._append));
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

  private runStart(token: StartTagToken, el: ElementRecord, handlers: Fn<ElementUnit>[]): void | Promise<void> {
    const unit = new ElementUnit(
      token,
      el.namespace,
      canHaveContent(el.localName, el.namespace, token.selfClosing),
      contentContextOf(el.localName, el.namespace, this.scripting),
    );
    el.unit = unit;
    return this.callAll(handlers, unit, () => {
      unit._active = false;
      this.emit(joined(unit._before));
      if (unit._replacement !== null) {
        this.emit(unit._replacement);
        this.suppress.push(el);
      } else if (unit._removed && !unit._keepContent) {
        this.suppress.push(el);
      } else {
        if (!unit._keepContent) this.emit(unit._startTagText());
        this.emit(joined(unit._prepend));
        if (unit._inner !== null) {
          this.emit(unit._inner);
          this.suppress.push(el);
        }
      }
    });
  }

  private runEnd(el: ElementRecord, token: EndTagToken | null): void | Promise<void> {
    const unit = el.unit;
    el.unit = null;
    if (unit === null) {
      if (token !== null) this.emit(token.raw);
      return;
    }
    const handlers = unit._endHandlers;
    if (handlers === null) {
      this.finishEnd(el, unit, token, null);
      return;
    }
    const end = new EndTagUnit(token, unit._name, contentContextOf(el.localName, el.namespace, this.scripting));
    end._nameChanged = unit._nameChanged;
    return this.callAll(handlers, end, () => this.finishEnd(el, unit, token, end));
  }

  private finishEnd(el: ElementRecord, unit: ElementUnit, token: EndTagToken | null, end: EndTagUnit | null): void {
    if (end !== null) end._active = false;
    const i = this.suppress.lastIndexOf(el);
    if (i >= 0) this.suppress.splice(i, 1);
    if (unit._replacement !== null || (unit._removed && !unit._keepContent)) {
      // The element is gone with its end tag; what was put after it stays.
      if (end !== null) this.emit(joined(end._after));
      this.emit(joined(unit._after));
      return;
    }
    this.emit(joined(unit._append));
    if (end !== null) {
      this.emit(joined(end._before));
      if (end._replacement !== null) this.emit(end._replacement);
      else if (token !== null && !unit._keepContent && !end._removed) this.emit(end._nameChanged ? `</${end._name}>` : token.raw);
      this.emit(joined(end._after));
    } else if (token !== null && !unit._keepContent) {
      this.emit(unit._nameChanged ? `</${unit._name}>` : token.raw);
    }
    this.emit(joined(unit._after));
  }
}
