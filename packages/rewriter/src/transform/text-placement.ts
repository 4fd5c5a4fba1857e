/**
 * Where text goes: the text the tokenizer emitted, turned into ops for the element the tree builder put
 * it in — streamed as text nodes for `text` handlers (each node's chunks, then an empty last chunk), or
 * copied as it is when no handler reaches it.
 *
 * Text the tree builder has not placed yet ("in table text", HTML §13.2.6.4.10: it decides at the next
 * non-text token whether the text is foster-parented) is *held* here until the tree builder's events
 * say where each part went; so are tokens that come behind it (a `discarded` token).
 */
import { type TextKind, TextTokenClass } from '@sluice/tokenizer';
import type { SourceLocation } from '@sluice/tree-builder';
import { type ContentContext, contextOfTextKind } from '../rewritable-units/content.js';
import type { TextChunkUnit } from '../rewritable-units/text-chunk.js';
import { ElementRecord, type ParentRecord } from '../view/records.js';
import type { Executor } from './executor.js';
import type { HandlerLists } from './handler-lists.js';
import type { Fn } from './handlers.js';
import { type Held, decodedLengthOf, rawLengthOf } from './held-text.js';
import type { ImpliedElements } from './implied-elements.js';
import type { SourceSpan } from './output.js';
import { type AlignPoint, NO_ALIGN } from './alignment.js';
import { type HeldTextOp, OP_HELD_END_RUN, OP_HELD_TEXT } from './ops.js';
import type { MoveWatch } from '../view/move-watch.js';

/** Text placement and text runs for one transformer; see the file comment. */
export class TextPlacement {
  private held: Held[] = [];
  private heldHead = 0;
  /** The text node being streamed to handlers: its handlers, its parent, its context. */
  private runHandlers: readonly Fn<TextChunkUnit>[] | null = null;
  private runParent: ParentRecord | null = null;
  private runContext: ContentContext = 'data';
  /** Set once the implied elements are known (they and the text runs refer to each other). */
  implied!: ImpliedElements;
  /** Where a text op made now stands among its token's effects (transformer.ts `at`). */
  at: () => AlignPoint = () => NO_ALIGN;

  /**
   * Text put into the tree while output is held for the adoption agency algorithm goes out as
   * `OP_HELD_TEXT`, its handlers decided when it runs (ops.ts): whether such a chunk was queued since
   * the last `OP_HELD_END_RUN`, and its parent (a chunk for another parent ends that run first).
   */
  private heldRunOpen = false;
  private heldRunParent: ParentRecord | null = null;

  constructor(
    private readonly exec: Executor,
    private readonly lists: HandlerLists,
    /** Whether any `text` handler exists (else text is only copied). */
    readonly textHandlersExist: boolean,
    /** What the adoption agency algorithm may still move (null: never holds; see held-moves.ts). */
    private readonly watch: MoveWatch | null = null,
  ) {}

  /** Whether text is held, waiting for the tree builder to place it. */
  get holding(): boolean {
    return this.heldHead < this.held.length;
  }

  /** Whether the held list is empty (its placed entries included). */
  get empty(): boolean {
    return this.held.length === 0;
  }

  /** Hold `piece` until the tree builder says where it goes. */
  hold(piece: Held): void {
    this.held.push(piece);
  }

  /** How much input is held (for `maxBufferedBytes`). */
  heldSize(): number {
    let size = 0;
    for (let h = this.heldHead; h < this.held.length; h++) {
      const p = this.held[h]!;
      size += p.kind === null ? p.raw.length : p.end - p.cursor;
    }
    return size;
  }

  /** Turn the held text the event covers into text ops for its parent (uncovered text before it: no parent). */
  place(parent: ParentRecord, location: SourceLocation | null, data: string, split: boolean): void {
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
        let n = rawLengthOf(p.raw, from - p.start, data.length);
        if (n < 0) n = decodedLengthOf(p.raw, from - p.start, data.length, p.kind, p.token instanceof TextTokenClass && p.token.byteForm, from);
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
        this.exec.raw(first.raw, first.start);
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
        if (this.implied.count > 0) this.implied.start();
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
  resolve(): void {
    const held = this.held;
    if (held.length > 0) {
      for (let h = this.heldHead; h < held.length; h++) {
        const p = held[h]!;
        if (p.kind === null) this.exec.raw(p.raw, p.start);
        else if (p.cursor < p.end) this.emitText(p, p.end, null);
      }
      held.length = 0;
      this.heldHead = 0;
    }
    if (this.implied.count > 0) this.implied.start();
  }

  /** Text ops for `piece` up to `to`, inserted into `parent` (null: the tree builder dropped it). */
  private emitText(piece: Held, to: number, parent: ParentRecord | null): void {
    const from = piece.cursor;
    const raw = piece.raw.slice(from - piece.start, to - piece.start);
    piece.cursor = to;
    this.emitRaw(raw, from, piece.kind!, parent);
  }

  /** `emitRaw` for a whole text token: without text handlers, its text is not even read (see `Output.sourceSpan`). */
  emitToken(token: SourceSpan & { readonly kind: TextKind }, parent: ParentRecord | null): void {
    if (this.textHandlersExist) this.emitRaw(token.raw, token.start, token.kind, parent);
    else this.exec.rawSpan(token);
  }

  /** Text ops for `raw` (the input at `start`), text of this kind inserted into `parent` (null: the tree builder dropped it). */
  emitRaw(raw: string, start: number, kind: TextKind, parent: ParentRecord | null): void {
    if (raw.length === 0) return;
    if (!this.textHandlersExist) {
      this.exec.raw(raw, start);
      return;
    }
    const watch = this.watch;
    if (watch !== null && watch.holding) {
      // Where it ends up is not settled yet: its handlers are decided when the hold releases it.
      if (this.runHandlers !== null) this.endRun();
      if (this.heldRunOpen && this.heldRunParent !== parent) this.endHeldRun();
      const op: HeldTextOp = { k: OP_HELD_TEXT, raw, start, kind, parent, at: this.at() };
      watch.heldContent(op);
      this.exec.push(op);
      this.heldRunOpen = true;
      this.heldRunParent = parent;
      return;
    }
    if (this.heldRunOpen) this.endHeldRun();
    if (this.runHandlers !== null && this.runParent !== parent) this.endRun();
    const parentEl = parent instanceof ElementRecord ? parent : null;
    const handlers = this.lists.textHandlersFor(parentEl);
    if (handlers.length === 0) {
      this.exec.raw(raw, start);
      return;
    }
    const context = contextOfTextKind(kind, parentEl === null ? null : parentEl.localName);
    this.runHandlers = handlers;
    this.runParent = parent;
    this.runContext = context;
    this.exec.text(raw, start, false, handlers, context, parent, this.at());
  }

  /**
   * `el` closes: the text node being streamed in it ends there (its last chunk's content goes inside it,
   * before whatever the token closing it does next: alignment.ts).
   */
  parentCloses(el: ParentRecord): void {
    if (this.heldRunOpen && this.heldRunParent === el) this.endHeldRun();
    if (this.runHandlers !== null && this.runParent === el) this.endRun();
  }

  /** The held chunks queued since the last `OP_HELD_END_RUN` are a text node that ends here. */
  private endHeldRun(): void {
    this.heldRunOpen = false;
    this.heldRunParent = null;
    this.exec.push({ k: OP_HELD_END_RUN, at: this.at() });
  }

  /** The text node being streamed has ended: its handlers get an empty last chunk. */
  endRun(): void {
    if (this.heldRunOpen) this.endHeldRun();
    const handlers = this.runHandlers;
    if (handlers === null) return;
    const parent = this.runParent;
    this.runHandlers = null;
    this.runParent = null;
    // A text node that began in a CDATA section (SVG, MathML) goes on after its `]]>`, so its last,
    // empty chunk may be written outside the section: its content is escaped as ordinary text (which
    // inside a section, too, stays text).
    this.exec.text('', 0, true, handlers, this.runContext === 'cdata' ? 'data' : this.runContext, parent, this.at());
  }
}
