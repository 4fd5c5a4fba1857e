/**
 * Elements' starts and ends as ops: which element handlers an element gets, where it starts (its start
 * tag, or — made up by the tree builder — where it was made, `implied-elements.ts`), where it ends (its
 * end tag, an implicit end, the end of the document), and the copies of formatting elements
 * (`copies.ts`).
 */
import type { EndTagClass, StartTagClass } from '@sluice/tokenizer';
import type { ElementUnit } from '../rewritable-units/element.js';
import { WATCH_DEFERRED, type MoveWatch } from '../view/move-watch.js';
import { type ElementRecord, OUT_ENDED_OPEN, OUT_OUTLIVED } from '../view/records.js';
import { ViewSink } from '../view/view-sink.js';
import type { Executor } from './executor.js';
import { isPreLike } from './tag-classes.js';
import type { CompiledHandlers, Fn } from './handlers.js';
import type { ImpliedElements } from './implied-elements.js';
import type { SourceSpan } from './output.js';
import { type AlignPoint, DROPPED_COPY_CLOSED } from './alignment.js';
import type { TextPlacement } from './text-placement.js';

/** Element starts and ends for one transformer; see the file comment. */
export class ElementOps {
  /** Whether any registration has an element handler (else no start tag can change, nor any copy). */
  private readonly elementHandlersExist: boolean;
  /**
   * Set once the input has ended (`end()`): elements closed from then on close at the end of the
   * document, where a parser reading the output closes them too — no end tag is written for them.
   */
  atDocumentEnd = false;
  /** What the adoption agency algorithm may still move (null: no selector a move can change). */
  private readonly watch: MoveWatch | null;

  constructor(
    private readonly config: CompiledHandlers,
    private readonly sink: ViewSink,
    private readonly exec: Executor,
    private readonly text: TextPlacement,
    private readonly implied: ImpliedElements,
    /** Where an op made now stands among its token's effects (transformer.ts `at`). */
    private readonly at: () => AlignPoint,
  ) {
    this.elementHandlersExist = config.registrations.some((r) => r.element !== null);
    this.watch = sink.watch;
    exec.handlersFor = (matched) => this.handlersFor(matched);
  }

  /** The element handlers of the registrations in `matched` (the last list is kept: elements of one name share theirs). */
  handlersFor(matched: readonly number[]): readonly Fn<ElementUnit>[] | null {
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

  /**
   * Ops for the start tag `token` of `el`, the element made for it. `mayBeFormatting`: false when the
   * caller knows `el` is no formatting element (its name is then not looked up).
   */
  start(token: StartTagClass, el: ElementRecord, mayBeFormatting = true): void {
    const watch = this.watch;
    if (watch !== null && watch.holding) {
      // Output is held (held-moves.ts): the handlers are decided when it is released, on the tree after
      // any move. Its end goes through the queue whatever they turn out to be.
      el.handled = true;
      el.watchFlags |= WATCH_DEFERRED;
      this.text.endRun();
      this.exec.heldStart(token, el, this.at());
      return;
    }
    const matched = el.matched;
    const handlers = matched === null ? null : this.handlersFor(matched);
    if (handlers === null) {
      // A formatting element the parser may copy later: whether its tag was written matters then.
      if (this.elementHandlersExist && mayBeFormatting && ViewSink.isFormatting(el.localName)) {
        this.text.endRun();
        this.exec.formattingStart(token, el);
      } else {
        this.copyToken(token);
        // (A line feed right after it is ignored: what the output writes next is checked, executor.ts `preEnd`.)
        if (isPreLike(el)) this.exec.preStarted(token.end);
      }
      return;
    }
    el.handled = true;
    this.text.endRun();
    this.exec.startTag(token, el, handlers, this.at());
  }

  /**
   * `el` was made up by the tree builder while it processed the token at `offset`. A copy of a
   * formatting element (the tree builder said so: `copyOf`) is checked against what it copies
   * (copies.ts); any other is queued to start where the output reaches it, if handlers match it.
   */
  created(el: ElementRecord, offset: number): void {
    const watch = this.watch;
    if (watch !== null && watch.holding) {
      // Held (see `start`): queued whatever matches it now, decided when released.
      el.watchFlags |= WATCH_DEFERRED;
      this.implied.queue(el, offset, el.matched === null ? null : this.handlersFor(el.matched), this.at(), true);
      return;
    }
    if (el.copyOf !== null) {
      // Every copy gets an op, in creation order with the implied elements' starts: the output's parser
      // may have to be given it explicitly (alignment.ts), whatever matches it.
      const handlers = el.matched === null || !this.elementHandlersExist ? null : this.handlersFor(el.matched);
      this.implied.queue(el, offset, handlers, this.at());
      return;
    }
    if (el.matched === null) return;
    const handlers = this.handlersFor(el.matched);
    if (handlers !== null) this.implied.queue(el, offset, handlers, this.at());
  }

  /** Ops for the end of an element: its end tag token, or an implicit end (`token` null). */
  end(el: ElementRecord, token: EndTagClass | null): void {
    this.endOps(el, token);
    // Content the parser put in an element that outlived a removed one around it was left out up to
    // here, its end tag included (`OP_OUTLIVED_END`).
    if ((el.out & OUT_OUTLIVED) !== 0) this.exec.outlivedEnded(el);
  }

  private endOps(el: ElementRecord, token: EndTagClass | null): void {
    // (Closed with an element inside it still open: content at its end cannot be placed there.)
    if (el.openChild !== null) {
      el.out |= OUT_ENDED_OPEN;
      el.openChild.out |= OUT_OUTLIVED;
      // (Inside removed content, what goes into it later is removed too: `OP_OUTLIVED`.)
      this.exec.outlived(el.openChild);
    }
    this.sink.close(el);
    this.text.parentCloses(el);
    // (A copy closed by its own end tag leaves the list: alignment.ts, where it was made in removed content.)
    if (token !== null && el.reconstructed && token.name === el.localName) this.exec.dropped(el, DROPPED_COPY_CLOSED, null);
    if (el.ended) {
      if (token !== null) this.copyToken(token);
      return;
    }
    el.ended = true;
    if (!el.handled) {
      if (token !== null) this.copyToken(token);
      return;
    }
    if (token === null && (el.watchFlags & WATCH_DEFERRED) !== 0 && (el.matched === null || this.handlersFor(el.matched) === null)) {
      // A held element no handler matches so far: its implicit end, as for any such element, does not
      // end the text node being streamed (if a handler turns out to match it, its end is still run).
      this.exec.endTag(el, null, this.atDocumentEnd, this.at());
      return;
    }
    this.text.endRun();
    this.exec.endTag(el, token, token === null && this.atDocumentEnd, this.at());
  }

  /**
   * `</body>` and `</html>` never pop their elements (the standard keeps them open to the end); when the
   * tree builder accepted one (`TreeSink.endTagKeptOpen`), it is that element's end tag for handlers —
   * `</html>` ends the body first, if nothing did. Returns whether the token was taken so.
   */
  endTagKeptOpen(el: ElementRecord, token: EndTagClass): boolean {
    if (el.ended) {
      // Accepted again (text after the first took the parser back into the body, §13.2.6.4.19): it
      // switches the insertion mode again, so it is written even inside removed content
      // (`</html>x<p></html><!--c-->` with the p removed: the comment goes into the document).
      this.text.endRun();
      this.exec.documentLevel(token.raw, token.start, el);
      return true;
    }
    if (el === this.sink.root) {
      const body = this.sink.body;
      if (body !== null && !body.ended) this.endKeepOpen(body, null);
    }
    this.endKeepOpen(el, token);
    return true;
  }

  /** Like `end`, but the element stays open in the view (content may still go into it). */
  private endKeepOpen(el: ElementRecord, token: EndTagClass | null): void {
    el.ended = true;
    if (!el.handled) {
      if (token !== null) {
        // (It switches the insertion mode for what follows: written even inside removed content.)
        this.text.endRun();
        this.exec.documentLevel(token.raw, token.start, el);
      }
      return;
    }
    this.text.endRun();
    this.exec.endTag(el, token, false, this.at());
  }

  /** Copy a tag token as it is (it ends the text node being streamed). */
  copyToken(token: SourceSpan): void {
    this.text.endRun();
    this.exec.rawSpan(token);
  }
}
