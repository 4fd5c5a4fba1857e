/**
 * The stack of open elements (WHATWG HTML §13.2.4.2) and the element records it holds.
 *
 * The standard's stack grows "downwards": the current node is the bottommost node. Here it is an array
 * whose last item is the current node. Each record keeps the sink's node handle plus what the rules ask
 * about an element (local name, namespace, tag id, set flags), so no rule ever has to ask the sink.
 */
import type { ElementAttribute, ElementNamespace, SourceLocation } from './sink.js';
import {
  BUTTON_SCOPE, HTML_NS, IMPLIED_END, IMPLIED_END_THOROUGH, LIST_ITEM_SCOPE, SCOPE, TABLE_BODY_CONTEXT,
  TABLE_CONTEXT, TABLE_ROW_CONTEXT, TABLE_SCOPE, TAG_ID_COUNT, T, isHeading,
} from './tag-sets.js';

/**
 * What the tree builder knows about an element it created: the read-only view the rewriter gets.
 */
export interface OpenElement<N> {
  /** The sink's handle. (For the fragment parsing context element, which the sink never created: `undefined`.) */
  readonly node: N;
  /** The element's local name, case-adjusted for SVG (`foreignObject`). */
  readonly localName: string;
  readonly namespace: ElementNamespace;
}

/** Internal record of an element. `id` is the HTML tag id (0 for unknown names and for foreign elements). */
export class ElementRecord<N> implements OpenElement<N> {
  /** Whether the record is currently on the stack of open elements. */
  open = false;
  /** The element's entry in the list of active formatting elements, when it has one. */
  formatting: unknown = null;
  constructor(
    readonly node: N,
    readonly localName: string,
    readonly namespace: ElementNamespace,
    readonly id: number,
    readonly flags: number,
    /** The attributes it was created with (for the "equal elements" test of Noah's Ark and for reconstruction). */
    readonly attributes: readonly ElementAttribute[],
    /** The location of the token it was created for. */
    readonly location: SourceLocation | null,
  ) {}

  /** Whether this is the HTML element with tag id `id`. */
  is(id: number): boolean {
    return this.id === id && (this.flags & HTML_NS) !== 0;
  }
}

/** Called for every element that leaves the stack (`TreeSink.elementPopped`). */
export type PopListener<N> = (node: N, endLocation: SourceLocation | null) => void;

export class StackOfOpenElements<N> {
  /** Bottom (html) first, current node last. */
  readonly items: ElementRecord<N>[] = [];
  /**
   * How many HTML elements of each tag id are on the stack: "has an element in scope" answers false at once
   * when there is none (without it, every `<div>` in a deep `<div>` nest would walk the whole stack looking
   * for a `<p>` in button scope).
   */
  private readonly counts = new Int32Array(TAG_ID_COUNT);

  constructor(private readonly onPop: PopListener<N> | null) {}

  get length(): number {
    return this.items.length;
  }

  /** The current node (§13.2.4.2), or undefined when the stack is empty. */
  get current(): ElementRecord<N> {
    return this.items[this.items.length - 1];
  }

  /** Number of HTML elements with tag id `id` on the stack. */
  count(id: number): number {
    return this.counts[id];
  }

  push(record: ElementRecord<N>): void {
    this.items.push(record);
    record.open = true;
    if (record.flags & HTML_NS) this.counts[record.id]++;
  }

  private left(record: ElementRecord<N>, endLocation: SourceLocation | null): void {
    record.open = false;
    if (record.flags & HTML_NS) this.counts[record.id]--;
    if (this.onPop !== null) this.onPop(record.node, endLocation);
  }

  /** Pop the current node. `endLocation`: the end tag that closed it, if one did. */
  pop(endLocation: SourceLocation | null = null): ElementRecord<N> {
    const record = this.items.pop()!;
    this.left(record, endLocation);
    return record;
  }

  /** Pop until an HTML element with tag id `id` has been popped; that one gets `endLocation`. */
  popUntilTag(id: number, endLocation: SourceLocation | null = null): void {
    while (this.items.length > 0) {
      const record = this.items[this.items.length - 1];
      if (record.is(id)) {
        this.pop(endLocation);
        return;
      }
      this.pop();
    }
  }

  /** Pop until one of h1–h6 (HTML) has been popped. */
  popUntilHeading(endLocation: SourceLocation | null): void {
    while (this.items.length > 0) {
      const record = this.items[this.items.length - 1];
      if (isHeading(record.id) && record.flags & HTML_NS) {
        this.pop(endLocation);
        return;
      }
      this.pop();
    }
  }

  /** Pop until a td or th (HTML) has been popped. */
  popUntilCell(endLocation: SourceLocation | null): void {
    while (this.items.length > 0) {
      const record = this.items[this.items.length - 1];
      if ((record.id === T.TD || record.id === T.TH) && record.flags & HTML_NS) {
        this.pop(endLocation);
        return;
      }
      this.pop();
    }
  }

  /** Pop until `record` has been popped. */
  popUntilRecord(record: ElementRecord<N>, endLocation: SourceLocation | null = null): void {
    while (this.items.length > 0) {
      const top = this.pop(this.items[this.items.length - 1] === record ? endLocation : null);
      if (top === record) return;
    }
  }

  /** Pop every node (§13.2.7 "stop parsing"). */
  popAll(): void {
    while (this.items.length > 0) this.pop();
  }

  /** Remove `record` from wherever it is in the stack. */
  remove(record: ElementRecord<N>, endLocation: SourceLocation | null = null): void {
    const index = this.items.lastIndexOf(record);
    if (index < 0) return;
    this.items.splice(index, 1);
    this.left(record, endLocation);
  }

  /**
   * Remove `record` without reporting it popped: for the head element, which "after head" puts back on the
   * stack for a moment to process head content (§13.2.6.4.6); it was reported popped when it first left.
   */
  removeSilently(record: ElementRecord<N>): void {
    const index = this.items.lastIndexOf(record);
    if (index < 0) return;
    this.items.splice(index, 1);
    record.open = false;
    if (record.flags & HTML_NS) this.counts[record.id]--;
  }

  /** Insert `record` immediately below (after, in array order) `below`. */
  insertAfter(below: ElementRecord<N>, record: ElementRecord<N>): void {
    const index = this.items.lastIndexOf(below);
    this.items.splice(index + 1, 0, record);
    record.open = true;
    if (record.flags & HTML_NS) this.counts[record.id]++;
  }

  /** Replace `old` by `record` at the same position (adoption agency step 4.13.7). */
  replace(old: ElementRecord<N>, record: ElementRecord<N>): void {
    const index = this.items.lastIndexOf(old);
    this.items[index] = record;
    this.left(old, null);
    record.open = true;
    if (record.flags & HTML_NS) this.counts[record.id]++;
  }

  indexOf(record: ElementRecord<N>): number {
    return this.items.lastIndexOf(record);
  }

  // --- §13.2.4.2 "has an element in the specific scope" -------------------------------------------

  private inScope(id: number, boundary: number): boolean {
    if (this.counts[id] === 0) return false;
    const items = this.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const record = items[i];
      if (record.id === id && record.flags & HTML_NS) return true;
      if (record.flags & boundary) return false;
    }
    return false;
  }

  /** "has an element in scope" (HTML element with tag id `id`). */
  hasInScope(id: number): boolean {
    return this.inScope(id, SCOPE);
  }
  hasInListItemScope(id: number): boolean {
    return this.inScope(id, LIST_ITEM_SCOPE);
  }
  hasInButtonScope(id: number): boolean {
    return this.inScope(id, BUTTON_SCOPE);
  }
  hasInTableScope(id: number): boolean {
    return this.inScope(id, TABLE_SCOPE);
  }

  /** "has an element in scope" for a particular element (the form element pointer, the adoption agency). */
  hasRecordInScope(target: ElementRecord<N>): boolean {
    if (!target.open) return false;
    const items = this.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const record = items[i];
      if (record === target) return true;
      if (record.flags & SCOPE) return false;
    }
    return false;
  }

  /** "has an h1, h2, h3, h4, h5, or h6 element in scope". */
  hasHeadingInScope(): boolean {
    const items = this.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const record = items[i];
      if (isHeading(record.id) && record.flags & HTML_NS) return true;
      if (record.flags & SCOPE) return false;
    }
    return false;
  }

  /** "has a td or th element in table scope". */
  hasCellInTableScope(): boolean {
    if (this.counts[T.TD] === 0 && this.counts[T.TH] === 0) return false;
    const items = this.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const record = items[i];
      if ((record.id === T.TD || record.id === T.TH) && record.flags & HTML_NS) return true;
      if (record.flags & TABLE_SCOPE) return false;
    }
    return false;
  }

  /** "has a tbody, thead, or tfoot element in table scope". */
  hasTableBodyInTableScope(): boolean {
    const items = this.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const record = items[i];
      if ((record.id === T.TBODY || record.id === T.THEAD || record.id === T.TFOOT) && record.flags & HTML_NS) {
        return true;
      }
      if (record.flags & TABLE_SCOPE) return false;
    }
    return false;
  }

  // --- §13.2.6.3 closing elements that have implied end tags -------------------------------------

  /** "generate implied end tags", except for HTML elements with tag id `exceptId` (0: no exception). */
  generateImpliedEndTags(exceptId = 0): void {
    const items = this.items;
    for (;;) {
      const record = items[items.length - 1];
      if (record === undefined || !(record.flags & IMPLIED_END) || record.id === exceptId) return;
      this.pop();
    }
  }

  /** "generate all implied end tags thoroughly". */
  generateImpliedEndTagsThoroughly(): void {
    const items = this.items;
    for (;;) {
      const record = items[items.length - 1];
      if (record === undefined || !(record.flags & IMPLIED_END_THOROUGH)) return;
      this.pop();
    }
  }

  // --- §13.2.6.4.9 clearing the stack back to a table context -------------------------------------

  clearBackToTableContext(): void {
    while (this.items.length > 0 && !(this.current.flags & TABLE_CONTEXT)) this.pop();
  }
  clearBackToTableBodyContext(): void {
    while (this.items.length > 0 && !(this.current.flags & TABLE_BODY_CONTEXT)) this.pop();
  }
  clearBackToTableRowContext(): void {
    while (this.items.length > 0 && !(this.current.flags & TABLE_ROW_CONTEXT)) this.pop();
  }
}
