/**
 * The stack of open elements (WHATWG HTML §13.2.4.2) and the element records it holds.
 *
 * The standard's stack grows "downwards": the current node is the bottommost node. Here it is a doubly
 * linked list of records (`below`/`above`) whose top is the current node: the adoption agency, `</form>`,
 * `<a>` in `<a>` and head content after the head remove or insert in the middle, which an array pays
 * for with a search and a shift of everything above (quadratic: 200,000 × `<a><b>` took 24 s); linked,
 * each is O(1). Each record keeps the sink's node handle plus what the rules ask
 * about an element (local name, namespace, tag id, set flags), so no rule ever has to ask the sink.
 *
 * Every question the rules ask of the stack is answered in O(1), whatever its depth — a deep stack must
 * not make each token cost O(depth) (100,000 nested elements would take 10^10 steps):
 * - each record knows, from the moment it is pushed, the nearest element at or below it that bounds the
 *   default scope, the nearest special element, and the nearest HTML element (the list item, button and
 *   table scopes only add elements the per-name chains below find at once: ol, ul, button; html, table,
 *   template);
 * - for each tag name, the topmost open element of that name is kept, each record linking to the next ones
 *   of the same name below and above it (doubly linked: removal anywhere is O(1));
 * - records carry an `order` that never decreases up the stack, so "is A above B" is one comparison (ties:
 *   see `insertAfter`).
 * "Has an X element in scope" is then: the topmost X is at or above the nearest scope boundary.
 *
 * Elements leave the stack from the top (pops), except in the adoption agency, `</form>`, `<a>` inside
 * `<a>` and head content after the head, which remove or insert in the middle. Scope boundaries are never
 * among those (they are all special elements, and the adoption agency only moves non-special ones), so
 * the boundary links stay valid; links to removed special or HTML elements are followed past them (each
 * record also links to the one below it), with path compression so that chains of removed elements
 * (`<form><span></form>` × n) are not walked again and again, and the adoption agency's inserted elements
 * fix up the links of the foreign elements right above them.
 */
import type { DecodedAttribute, StartTagClass } from '@sluice/tokenizer';
import type { ElementAttribute, ElementNamespace, SourceLocation } from './sink.js';
import {
  HTML_NS,
  IMPLIED_END,
  IMPLIED_END_THOROUGH,
  LIST_ITEM_STOP,
  SCOPE,
  SPECIAL,
  TABLE_BODY_CONTEXT,
  TABLE_CONTEXT,
  TABLE_ROW_CONTEXT,
  TAG_ID_COUNT,
  T,
  isHeading,
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

/**
 * Internal record of an element. `id` is the HTML tag id (0 for unknown names and for foreign elements).
 * Fields are declared and assigned in the constructor (one hidden class, no class-field initializer
 * pass): one record is made per element, on the hot path.
 */
export class ElementRecord<N> implements OpenElement<N> {
  declare readonly node: N;
  declare readonly localName: string;
  declare readonly namespace: ElementNamespace;
  declare readonly id: number;
  declare readonly flags: number;
  /**
   * The attributes once decoded (see `attributes`); until then, the start tag token: the token decodes
   * them as its tokenizer reads (byte form included, see `TokenizerOptions.byteInput`), and keeps them.
   * (One field for the two: one record is made per element.)
   */
  declare private attributeSource: readonly ElementAttribute[] | StartTagClass;
  /**
   * The location of the token it was created for: kept for formatting elements (their copies get it,
   * `TreeBuilder.createCopy`); null for others, whose location nothing reads.
   */
  declare readonly location: SourceLocation | null;
  /** Whether the record is currently on the stack of open elements. */
  declare open: boolean;
  /** The element's entry in the list of active formatting elements, when it has one. */
  declare formatting: unknown;
  // --- Stack bookkeeping, set when pushed (see the file comment). ---
  /** Increases up the stack. */
  declare order: number;
  /** The next open element below with the same name (key), and the next one above. */
  declare sameBelow: ElementRecord<N> | null;
  declare sameAbove: ElementRecord<N> | null;
  /**
   * The stack's neighbours: the record below and the one above (null at the bottom and at the top).
   * A record taken off the stack keeps `below` (the adoption agency's inner loop goes on from it).
   */
  declare below: ElementRecord<N> | null;
  declare above: ElementRecord<N> | null;
  /**
   * Nearest element at or below that bounds "has an element in scope". (The other scopes add elements the
   * per-name chains know: ol, ul, button; table scope is html, table, template.)
   */
  declare scopeBoundary: ElementRecord<N>;
  /**
   * Nearest special element strictly below (the nearest at or below is the record itself when it is
   * special: `specialAtOrBelow`); followed past removed ones.
   */
  declare specialBelow: ElementRecord<N> | null;
  /**
   * Nearest special element other than address, div, p strictly below (where `<li>`/`<dd>`/`<dt>` stop
   * looking; at or below: `listStopAtOrBelow`).
   */
  declare listStopBelow: ElementRecord<N> | null;
  /** Nearest HTML element strictly below (at or below: `htmlAtOrBelow`). */
  declare htmlBelow: ElementRecord<N> | null;

  constructor(
    node: N,
    localName: string,
    namespace: ElementNamespace,
    id: number,
    flags: number,
    attributes: readonly ElementAttribute[] | null,
    location: SourceLocation | null,
    sourceTag: StartTagClass | null = null,
  ) {
    this.node = node;
    this.localName = localName;
    this.namespace = namespace;
    this.id = id;
    this.flags = flags;
    this.attributeSource = attributes ?? sourceTag!;
    this.location = location;
    this.open = false;
    this.formatting = null;
    this.order = 0;
    this.sameBelow = null;
    this.sameAbove = null;
    this.below = null;
    this.above = null;
    this.scopeBoundary = this;
    this.specialBelow = null;
    this.listStopBelow = null;
    this.htmlBelow = null;
  }

  /**
   * The attributes it was created with: read for the "equal elements" test of Noah's Ark (only once a tag
   * has three entries in the list of active formatting elements), and when a formatting element is
   * copied (reconstruction, the adoption agency) — so only formatting elements' are ever read. A
   * formatting element whose sink took its attributes raw keeps its start tag and decodes it here, on
   * first read; any other such element has none recorded (`createHtmlElementFor`).
   */
  get attributes(): readonly ElementAttribute[] {
    const source = this.attributeSource;
    if (Array.isArray(source)) return source as readonly ElementAttribute[];
    // A tokenizer's attributes are `DecodedAttribute`s: HTML element attributes (null namespace and prefix).
    return (this.attributeSource = (source as StartTagClass).attributes as readonly DecodedAttribute[]);
  }

  /** Whether this is the HTML element with tag id `id`. */
  is(id: number): boolean {
    return this.id === id && (this.flags & HTML_NS) !== 0;
  }
}

/** The nearest special element at or below `record` (an open record). */
function specialAtOrBelow<N>(record: ElementRecord<N>): ElementRecord<N> | null {
  return record.flags & SPECIAL ? record : record.specialBelow;
}
/** The nearest special element other than address, div and p at or below `record` (an open record). */
function listStopAtOrBelow<N>(record: ElementRecord<N>): ElementRecord<N> | null {
  return record.flags & LIST_ITEM_STOP ? record : record.listStopBelow;
}
/** The nearest HTML element at or below `record` (an open record). */
function htmlAtOrBelow<N>(record: ElementRecord<N>): ElementRecord<N> | null {
  return record.flags & HTML_NS ? record : record.htmlBelow;
}

/**
 * What is told of every element that leaves the stack: the sink, when it has `elementPopped`. (Called
 * as the sink's method, not through a closure per tree builder: one call site, one target class.)
 */
export interface PopListener<N> {
  elementPopped(node: N, endLocation: SourceLocation | null, at: number, openAbove?: boolean): void;
  /** `elementPopped` with the end tag's span as two offsets (see `TreeSink.elementClosedByEndTag`). */
  elementClosedByEndTag?(node: N, endStart: number, endEnd: number, at: number): void;
}

/** Where the token being processed starts (the tree builder), for `elementPopped`'s `at`. */
export interface TokenPosition {
  readonly tokenOffset: number;
}

/** ASCII lowercase (foreign end tags match element names case-insensitively). */
function asciiLowercase(s: string): string {
  return /[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s;
}

/**
 * Follow a link past removed records, then point every removed record on the way at the result (path
 * compression). Removed special elements (`</form>`, §13.2.6.4.7) can chain: a form pushed over a stale
 * link to a removed form links to it, so `<form><span></form>` × n would make every later walk O(n);
 * with compression each removed record is passed over O(log n) times amortized.
 */
function openSpecial<N>(record: ElementRecord<N> | null): ElementRecord<N> | null {
  if (record === null || record.open) return record;
  let found = record.specialBelow;
  while (found !== null && !found.open) found = found.specialBelow;
  while (record !== null && record !== found) {
    const next: ElementRecord<N> | null = record.specialBelow;
    record.specialBelow = found;
    record = next;
  }
  return found;
}
function openListStop<N>(record: ElementRecord<N> | null): ElementRecord<N> | null {
  if (record === null || record.open) return record;
  let found = record.listStopBelow;
  while (found !== null && !found.open) found = found.listStopBelow;
  while (record !== null && record !== found) {
    const next: ElementRecord<N> | null = record.listStopBelow;
    record.listStopBelow = found;
    record = next;
  }
  return found;
}
function openHtml<N>(record: ElementRecord<N> | null): ElementRecord<N> | null {
  if (record === null || record.open) return record;
  let found = record.htmlBelow;
  while (found !== null && !found.open) found = found.htmlBelow;
  while (record !== null && record !== found) {
    const next: ElementRecord<N> | null = record.htmlBelow;
    record.htmlBelow = found;
    record = next;
  }
  return found;
}
export class StackOfOpenElements<N> {
  /** The current node (the top), the bottommost record (html), and how many records there are. */
  private top: ElementRecord<N> | null = null;
  private bottom: ElementRecord<N> | null = null;
  private size = 0;
  /** The topmost open HTML element of each known tag id. */
  private readonly topById: (ElementRecord<N> | null)[] = new Array<ElementRecord<N> | null>(TAG_ID_COUNT).fill(null);
  /** The topmost open HTML element of each name the rules do not know (custom elements, …). */
  private readonly topByName = new Map<string, ElementRecord<N>>();
  /** The topmost open SVG/MathML element of each ASCII-lowercased name. */
  private readonly topByForeignName = new Map<string, ElementRecord<N>>();

  constructor(
    private readonly onPop: PopListener<N> | null,
    private readonly position: TokenPosition | null = null,
  ) {}

  get length(): number {
    return this.size;
  }

  /** The current node (§13.2.4.2), or null when the stack is empty. */
  get current(): ElementRecord<N> {
    return this.top!;
  }

  /** The bottommost record (the html element), and the one above it (body, when there is one). */
  get first(): ElementRecord<N> | null {
    return this.bottom;
  }
  get second(): ElementRecord<N> | null {
    return this.bottom === null ? null : this.bottom.above;
  }

  /**
   * The records, bottom (html) first, current node last: a new array, O(depth) — for `openElements` and
   * tests, never per token. (The stack itself is a doubly linked list: §13.2.6.4.7, the adoption agency,
   * removes and inserts in the middle, which an array would pay for with a shift of everything above.)
   */
  get items(): ElementRecord<N>[] {
    const items = new Array<ElementRecord<N>>(this.size);
    let i = 0;
    for (let r = this.bottom; r !== null; r = r.above) items[i++] = r;
    return items;
  }

  // --- Per-name chains ----------------------------------------------------------------------------

  private topOf(record: ElementRecord<N>): ElementRecord<N> | null | undefined {
    if (record.flags & HTML_NS) return record.id !== 0 ? this.topById[record.id] : this.topByName.get(record.localName);
    return this.topByForeignName.get(asciiLowercase(record.localName));
  }

  private setTop(record: ElementRecord<N>, top: ElementRecord<N> | null): void {
    if (record.flags & HTML_NS) {
      if (record.id !== 0) this.topById[record.id] = top;
      else if (top === null) this.topByName.delete(record.localName);
      else this.topByName.set(record.localName, top);
    } else {
      const key = asciiLowercase(record.localName);
      if (top === null) this.topByForeignName.delete(key);
      else this.topByForeignName.set(key, top);
    }
  }

  /** Link `record` (just placed at the top) into the stack's bookkeeping. */
  private linkOnTop(record: ElementRecord<N>, below: ElementRecord<N> | undefined): void {
    const flags = record.flags;
    record.open = true;
    if (below === undefined) {
      record.order = 1;
      record.scopeBoundary = record;
      record.specialBelow = record.listStopBelow = record.htmlBelow = null;
    } else {
      record.order = below.order + 1;
      record.scopeBoundary = flags & SCOPE ? record : below.scopeBoundary;
      record.specialBelow = specialAtOrBelow(below);
      record.listStopBelow = listStopAtOrBelow(below);
      record.htmlBelow = htmlAtOrBelow(below);
    }
    // The per-name chain.
    record.sameAbove = null;
    let same: ElementRecord<N> | null;
    if (flags & HTML_NS && record.id !== 0) {
      same = this.topById[record.id];
      this.topById[record.id] = record;
    } else {
      same = this.topOf(record) ?? null;
      this.setTop(record, record);
    }
    record.sameBelow = same;
    if (same !== null) same.sameAbove = record;
  }

  /** `record` left the stack: it is no longer the top of its name's chain. */
  private unlink(record: ElementRecord<N>, endLocation: SourceLocation | null, openAbove = false): void {
    this.unlinkName(record);
    if (this.onPop !== null) this.onPop.elementPopped(record.node, endLocation, this.position === null ? -1 : this.position.tokenOffset, openAbove);
  }

  /** Take `record` out of its name chain (doubly linked: O(1) wherever it is). */
  private unlinkName(record: ElementRecord<N>): void {
    record.open = false;
    const below = record.sameBelow;
    const above = record.sameAbove;
    if (below !== null) below.sameAbove = above;
    if (above !== null) above.sameBelow = below;
    else if (record.flags & HTML_NS && record.id !== 0) this.topById[record.id] = below;
    else this.setTop(record, below);
  }

  /** Take `record` out of the list of records (O(1)). It keeps its `below`. */
  private detach(record: ElementRecord<N>): void {
    const below = record.below;
    const above = record.above;
    if (below !== null) below.above = above;
    else this.bottom = above;
    if (above !== null) above.below = below;
    else this.top = below;
    record.above = null;
    this.size--;
  }

  // --- Pushing and popping ------------------------------------------------------------------------

  push(record: ElementRecord<N>): void {
    const top = this.top;
    this.linkOnTop(record, top ?? undefined);
    record.below = top;
    record.above = null;
    if (top !== null) top.above = record;
    else this.bottom = record;
    this.top = record;
    this.size++;
  }

  /** Pop the current node. `endLocation`: the end tag that closed it, if one did. */
  pop(endLocation: SourceLocation | null = null): ElementRecord<N> {
    const record = this.takeTop();
    this.unlink(record, endLocation);
    return record;
  }

  /** Take the current node off the stack's links (its name chain and the listener are the caller's). */
  private takeTop(): ElementRecord<N> {
    const record = this.top!;
    const below = record.below;
    this.top = below;
    if (below !== null) below.above = null;
    else this.bottom = null;
    this.size--;
    return record;
  }

  /**
   * Pop the current node, which the end tag `[endStart, endEnd)` closed: `pop({ start: endStart, end:
   * endEnd })`, without making the location object when the listener takes the offsets.
   */
  popClosedByEndTag(endStart: number, endEnd: number): void {
    const record = this.takeTop();
    this.unlinkName(record);
    const onPop = this.onPop;
    if (onPop === null) return;
    const at = this.position === null ? -1 : this.position.tokenOffset;
    if (onPop.elementClosedByEndTag !== undefined) onPop.elementClosedByEndTag(record.node, endStart, endEnd, at);
    else onPop.elementPopped(record.node, { start: endStart, end: endEnd }, at);
  }

  /** Pop until an HTML element with tag id `id` has been popped; that one gets `endLocation`. */
  popUntilTag(id: number, endLocation: SourceLocation | null = null): void {
    while (this.size > 0) {
      if (this.current.is(id)) {
        this.pop(endLocation);
        return;
      }
      this.pop();
    }
  }

  /** Pop until one of h1–h6 (HTML) has been popped. */
  popUntilHeading(endLocation: SourceLocation | null): void {
    while (this.size > 0) {
      const record = this.current;
      if (isHeading(record.id) && record.flags & HTML_NS) {
        this.pop(endLocation);
        return;
      }
      this.pop();
    }
  }

  /** Pop until a td or th (HTML) has been popped. */
  popUntilCell(endLocation: SourceLocation | null): void {
    while (this.size > 0) {
      const record = this.current;
      if ((record.id === T.TD || record.id === T.TH) && record.flags & HTML_NS) {
        this.pop(endLocation);
        return;
      }
      this.pop();
    }
  }

  /** Pop until `record` has been popped. */
  popUntilRecord(record: ElementRecord<N>, endLocation: SourceLocation | null = null): void {
    if (!record.open) return;
    for (;;) {
      const top = this.current;
      this.pop(top === record ? endLocation : null);
      if (top === record) return;
    }
  }

  // --- Changes in the middle (adoption agency, </form>, <a> in <a>, head content after </head>) ---

  /** Remove `record` from wherever it is in the stack. */
  remove(record: ElementRecord<N>, endLocation: SourceLocation | null = null): void {
    // A record already off the stack (the `<a>` the adoption agency just closed, §13.2.6.4.7 "a" start
    // tag: "if not already removed") is answered without a search of the whole stack.
    if (!record.open) return;
    // (Taken from under open elements — the adoption agency's inner loop, `</form>` — the sink is told.)
    const openAbove = record !== this.top;
    this.detach(record);
    this.unlink(record, endLocation, openAbove);
  }

  /**
   * Remove `record` without reporting it popped: for the head element, which "after head" puts back on the
   * stack for a moment to process head content (§13.2.6.4.6); it was reported popped when it first left.
   */
  removeSilently(record: ElementRecord<N>): void {
    if (!record.open) return;
    this.detach(record);
    this.unlinkName(record);
  }

  /**
   * Insert `record` immediately above `below` (adoption agency step 4.19), in O(1). `record` is an HTML
   * formatting element (neither special nor a scope boundary) made for the same token as `sameName`, the
   * formatting element it replaces, which is still on the stack, below `below`.
   *
   * Order: `record` takes `below`'s order (a tie). The standard's furthest block `below` is special but
   * never a scope boundary (the formatting element below it is in scope), so the only records ever tied
   * are a furthest block and the formatting elements inserted right above it, each new one under the
   * earlier ones. No question the stack answers compares two of them except the name chains (kept in
   * stack order by links, not by order) and "is this special element above that element" for `</x>`
   * (`endTagTarget`: `<=`, which puts the tied formatting element above its furthest block, as it is).
   * So no renumbering ever: an insertion in the middle costs O(1), not O(depth).
   */
  insertAfter(below: ElementRecord<N>, record: ElementRecord<N>, sameName: ElementRecord<N>): void {
    if (below === this.top) {
      this.push(record);
      return;
    }
    const above = below.above!;
    record.below = below;
    record.above = above;
    below.above = record;
    above.below = record;
    this.size++;
    record.open = true;
    record.order = below.order;
    record.scopeBoundary = below.scopeBoundary;
    record.specialBelow = specialAtOrBelow(below);
    record.listStopBelow = listStopAtOrBelow(below);
    record.htmlBelow = htmlAtOrBelow(below);
    record.sameAbove = record.sameBelow = null;
    this.linkNameAfter(record, below, sameName);
    this.fixHtmlLinksAbove(record);
  }

  /**
   * Put `record` (just placed right above `below`) into its name chain. The records of its name between
   * `sameName` and `below` are the adoption agency's kept nodes (at most three, §13.2.6.4.7 step 4.13.4):
   * the walk up from `sameName` passes only those.
   */
  private linkNameAfter(record: ElementRecord<N>, below: ElementRecord<N>, sameName: ElementRecord<N>): void {
    let lower = sameName;
    let upper = sameName.sameAbove;
    while (upper !== null && upper.order < below.order) {
      lower = upper;
      upper = upper.sameAbove;
    }
    record.sameBelow = lower;
    lower.sameAbove = record;
    record.sameAbove = upper;
    if (upper !== null) upper.sameBelow = record;
    else this.topById[record.id] = record;
  }

  /** Replace `old` by `record`, an element for the same token, at the same position (adoption agency step 4.13.6). */
  replace(old: ElementRecord<N>, record: ElementRecord<N>): void {
    const below = old.below;
    const above = old.above;
    record.below = below;
    record.above = above;
    if (below !== null) below.above = record;
    else this.bottom = record;
    if (above !== null) above.below = record;
    else this.top = record;
    old.above = null;
    record.open = true;
    record.order = old.order;
    record.scopeBoundary = old.scopeBoundary;
    record.specialBelow = old.specialBelow;
    record.listStopBelow = old.listStopBelow;
    record.htmlBelow = old.htmlBelow;
    // In the name chain, `record` takes `old`'s place.
    const sameBelow = old.sameBelow;
    const sameAbove = old.sameAbove;
    record.sameBelow = sameBelow;
    record.sameAbove = sameAbove;
    if (sameBelow !== null) sameBelow.sameAbove = record;
    if (sameAbove !== null) sameAbove.sameBelow = record;
    else this.setTop(old, record);
    old.sameBelow = old.sameAbove = null;
    // Links to `old` (special, list stop, html) are followed past it: it points on to `record`'s.
    old.open = false;
    old.specialBelow = specialAtOrBelow(record);
    old.listStopBelow = listStopAtOrBelow(record);
    old.htmlBelow = htmlAtOrBelow(record);
    // Replaced by its copy (the adoption agency), not closed by any token: no `at`.
    if (this.onPop !== null) this.onPop.elementPopped(old.node, null, -1);
    this.fixHtmlLinksAbove(record);
  }

  /**
   * Foreign elements right above a new HTML element now have it as their nearest HTML element.
   * (Defensive: the adoption agency's furthest block is always an HTML element — foreign special elements
   * are scope boundaries, which would have put the formatting element out of scope — so no foreign element
   * can sit between the new element and the HTML element their links already name: the walk stops at the
   * first record above.)
   */
  private fixHtmlLinksAbove(record: ElementRecord<N>): void {
    for (let above = record.above; above !== null; above = above.above) {
      above.htmlBelow = record;
      if (above.flags & HTML_NS) return;
    }
  }

  // --- §13.2.4.2 "has an element in the specific scope" -------------------------------------------

  private topOfId(id: number): ElementRecord<N> | null {
    return this.topById[id];
  }

  /** The order of the nearest boundary of "in list item scope": the scope boundary, or an ol/ul above it. */
  private listItemBoundaryOrder(): number {
    let order = this.current.scopeBoundary.order;
    const ol = this.topById[T.OL];
    if (ol !== null && ol.order > order) order = ol.order;
    const ul = this.topById[T.UL];
    if (ul !== null && ul.order > order) order = ul.order;
    return order;
  }

  /** The order of the nearest boundary of "in button scope": the scope boundary, or a button above it. */
  private buttonBoundaryOrder(): number {
    const order = this.current.scopeBoundary.order;
    const button = this.topById[T.BUTTON];
    return button !== null && button.order > order ? button.order : order;
  }

  /** The order of the nearest boundary of "in table scope": html, table or template. */
  private tableBoundaryOrder(): number {
    const boundary = this.topOfIds(T.HTML, T.TABLE, T.TEMPLATE);
    return boundary === null ? 0 : boundary.order;
  }

  /** "has an element in scope" (HTML element with tag id `id`). */
  hasInScope(id: number): boolean {
    const top = this.topById[id];
    return top !== null && top.order >= this.current.scopeBoundary.order;
  }
  hasInListItemScope(id: number): boolean {
    const top = this.topById[id];
    return top !== null && top.order >= this.listItemBoundaryOrder();
  }
  hasInButtonScope(id: number): boolean {
    const top = this.topById[id];
    return top !== null && top.order >= this.buttonBoundaryOrder();
  }
  hasInTableScope(id: number): boolean {
    const top = this.topById[id];
    return top !== null && top.order >= this.tableBoundaryOrder();
  }

  /** "has an element in scope" for a particular element (the form element pointer, the adoption agency). */
  hasRecordInScope(target: ElementRecord<N>): boolean {
    return target.open && target.order >= this.current.scopeBoundary.order;
  }

  /** The topmost of several tag ids, or null. */
  private topOfIds(a: number, b: number, c = 0): ElementRecord<N> | null {
    let best = this.topById[a];
    const second = this.topById[b];
    if (second !== null && (best === null || second.order > best.order)) best = second;
    if (c !== 0) {
      const third = this.topById[c];
      if (third !== null && (best === null || third.order > best.order)) best = third;
    }
    return best;
  }

  /** "has an h1, h2, h3, h4, h5, or h6 element in scope". */
  hasHeadingInScope(): boolean {
    const boundary = this.current.scopeBoundary.order;
    for (let id = T.H1; id <= T.H6; id++) {
      const top = this.topOfId(id);
      if (top !== null && top.order >= boundary) return true;
    }
    return false;
  }

  /** "has a td or th element in table scope". */
  hasCellInTableScope(): boolean {
    const top = this.topOfIds(T.TD, T.TH);
    return top !== null && top.order >= this.tableBoundaryOrder();
  }

  /** "has a tbody, thead, or tfoot element in table scope". */
  hasTableBodyInTableScope(): boolean {
    const top = this.topOfIds(T.TBODY, T.THEAD, T.TFOOT);
    return top !== null && top.order >= this.tableBoundaryOrder();
  }

  /**
   * The topmost open HTML element with one of the tag ids `ids`, or null: O(ids), whatever the depth (for
   * "reset the insertion mode appropriately" and foster parenting, which would otherwise walk the stack).
   */
  topmostOf(ids: readonly number[]): ElementRecord<N> | null {
    let best: ElementRecord<N> | null = null;
    for (let i = 0; i < ids.length; i++) {
      const top = this.topById[ids[i]];
      if (top !== null && (best === null || top.order > best.order)) best = top;
    }
    return best;
  }

  /** The topmost open HTML element with tag id `id`, or null. */
  topmost(id: number): ElementRecord<N> | null {
    return this.topById[id];
  }

  /** Whether an HTML element with tag id `id` is open. */
  has(id: number): boolean {
    return this.topById[id] !== null;
  }

  // --- Searches of the "in body" and foreign content rules -----------------------------------------

  /**
   * §13.2.6.4.7 "any other end tag": the nearest open HTML element named `name`, if no special element is
   * above it; null when the token is to be ignored.
   */
  endTagTarget(name: string, id: number): ElementRecord<N> | null {
    const top = id !== 0 ? this.topById[id] : (this.topByName.get(name) ?? null);
    if (top === null) return null;
    const special = openSpecial(specialAtOrBelow(this.current));
    // The matching element itself may be special: it is found before the special check.
    return special === null || special.order <= top.order ? top : null;
  }

  /**
   * `<li>` (`dd`/`dt`): the nearest open li (dd or dt) with no special element other than address, div
   * and p above it, or null.
   */
  listItemToClose(ids: 'li' | 'dd-dt'): ElementRecord<N> | null {
    const top = ids === 'li' ? this.topById[T.LI] : this.topOfIds(T.DD, T.DT);
    if (top === null) return null;
    const stop = openListStop(listStopAtOrBelow(this.current));
    return stop === null || stop.order <= top.order ? top : null;
  }

  /**
   * §13.2.6.5 "any other end tag" in foreign content: the foreign element (matched ASCII
   * case-insensitively) to pop up to, when one is above the nearest HTML element; null otherwise (then the
   * token goes to the HTML rules).
   */
  foreignEndTagTarget(name: string): ElementRecord<N> | null {
    const top = this.topByForeignName.get(name) ?? null;
    if (top === null) return null;
    const html = openHtml(htmlAtOrBelow(this.current));
    return html === null || html.order < top.order ? top : null;
  }

  // --- §13.2.6.3 closing elements that have implied end tags -------------------------------------

  /** "generate implied end tags", except for HTML elements with tag id `exceptId` (0: no exception). */
  generateImpliedEndTags(exceptId = 0): void {
    for (;;) {
      const record = this.top;
      if (record === null || !(record.flags & IMPLIED_END) || record.id === exceptId) return;
      this.pop();
    }
  }

  /** "generate all implied end tags thoroughly". */
  generateImpliedEndTagsThoroughly(): void {
    for (;;) {
      const record = this.top;
      if (record === null || !(record.flags & IMPLIED_END_THOROUGH)) return;
      this.pop();
    }
  }

  // --- §13.2.6.4.9 clearing the stack back to a table context -------------------------------------

  clearBackToTableContext(): void {
    while (this.size > 0 && !(this.current.flags & TABLE_CONTEXT)) this.pop();
  }
  clearBackToTableBodyContext(): void {
    while (this.size > 0 && !(this.current.flags & TABLE_BODY_CONTEXT)) this.pop();
  }
  clearBackToTableRowContext(): void {
    while (this.size > 0 && !(this.current.flags & TABLE_ROW_CONTEXT)) this.pop();
  }
}
