/**
 * Elements the tree builder makes up (implied `<html>`, `<head>`, `<body>`, `<tbody>`, copies of
 * formatting elements, the `<p>` of a stray `</p>`, …) that have element handlers: where in the output
 * they start.
 *
 * Such an element has no start tag; it starts at the point in the output where the tree builder
 * created it. That point is known only when the next thing is output — text the tree builder placed
 * after creating it (a text token it split, leading characters it dropped), an element's end, or the
 * token itself — so the start waits until then (`start`), in creation order.
 */
import type { Attribute } from '@sluice/tokenizer';
import { type ElementUnit, ImpliedTag } from '../rewritable-units/element.js';
import type { ElementRecord } from '../view/records.js';
import type { Executor } from './executor.js';
import type { Fn } from './handlers.js';
import type { AlignPoint } from './alignment.js';

/** The implied elements created by the token being processed and not started yet. */
export class ImpliedElements {
  /** How many are queued (the arrays keep stale entries beyond it, overwritten later). */
  count = 0;
  private readonly elements: (ElementRecord | null)[] = [];
  private readonly handlers: (readonly Fn<ElementUnit>[] | null)[] = [];
  /** Whether its handlers are decided when held output is released (`Executor.heldStart`). */
  private readonly deferred: boolean[] = [];
  /** The tag each stands on: the offset of the token that created it, its attributes as they were then. */
  private readonly tags: (ImpliedTag | null)[] = [];
  /** Where each stands among its token's effects (alignment.ts). */
  private readonly ats: (AlignPoint | null)[] = [];

  /**
   * @param exec where their handlers run
   * @param endRun ends the text node being streamed (an element's start ends it)
   */
  constructor(
    private readonly exec: Executor,
    private readonly endRun: () => void,
  ) {}

  /**
   * `el`, made up while the token at `offset` was processed, starts at the next output. `deferred`: the
   * output is held (held-moves.ts) and its handlers are decided when it is released; `handlers` are
   * then those it matches now (null: none — only a copy of a formatting element is queued so, for its
   * op: alignment.ts). `at`: where it stands among its token's effects.
   */
  queue(el: ElementRecord, offset: number, handlers: readonly Fn<ElementUnit>[] | null, at: AlignPoint, deferred = false): void {
    const i = this.count++;
    this.elements[i] = el;
    this.handlers[i] = handlers;
    this.deferred[i] = deferred;
    this.ats[i] = at;
    // Elements the tree builder makes up are HTML elements: their attributes are HTML attributes.
    this.tags[i] = new ImpliedTag(el.localName, el.attributes as readonly Attribute[], offset);
  }

  /** Start the queued elements here: their element handlers run (or are queued), in creation order. */
  start(): void {
    const n = this.count;
    this.count = 0;
    for (let i = 0; i < n; i++) {
      const el = this.elements[i]!;
      const tag = this.tags[i]!;
      // (A finished subtree's records must not be kept from the collector.)
      this.elements[i] = null;
      this.tags[i] = null;
      el.handled = true;
      const handlers = this.handlers[i];
      this.handlers[i] = null;
      const at = this.ats[i]!;
      this.ats[i] = null;
      if (this.deferred[i]) {
        // (An element no handler matches so far does not end the text node, as without a hold.)
        if (handlers !== null) this.endRun();
        this.exec.heldStart(tag, el, at);
      } else if (handlers === null) {
        // A copy no handler matched: the output's parser makes it, or it is written explicitly.
        el.handled = false;
        this.exec.copy(el, tag.start, at);
      } else {
        this.endRun();
        this.exec.startTag(tag, el, handlers, at);
      }
    }
  }
}
