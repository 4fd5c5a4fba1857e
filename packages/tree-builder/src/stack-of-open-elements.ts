/**
 * The stack of open elements (WHATWG HTML §13.2.4.2) and the element records it holds.
 *
 * The standard's stack grows "downwards": the current node is the bottommost node. Here it is an array
 * whose last item is the current node. Each record keeps the sink's node handle plus what the rules ask
 * about an element (local name, namespace, tag id, set flags), so no rule ever has to ask the sink.
 *
 * Every question the rules ask of the stack is answered in O(1), whatever its depth — a deep stack must
 * not make each token cost O(depth) (100,000 nested elements would take 10^10 steps):
 * - each record knows, from the moment it is pushed, the nearest element at or below it that bounds the
 *   default scope, the nearest special element, and the nearest HTML element (the list item, button and
 *   table scopes only add elements the per-name chains below find at once: ol, ul, button; html, table,
 *   template);
 * - for each tag name, the topmost open element of that name is kept, each record linking to the next one
 *   of the same name below it;
 * - records carry an `order` that increases up the stack, so "is A above B" is one comparison.
 * "Has an X element in scope" is then: the topmost X is at or above the nearest scope boundary.
 *
 * Elements leave the stack from the top (pops), except in the adoption agency, `</form>`, `<a>` inside
 * `<a>` and head content after the head, which remove or insert in the middle. Scope boundaries are never
 * among those (they are all special elements, and the adoption agency only moves non-special ones), so
 * the boundary links stay valid; links to removed special or HTML elements are followed past them (each
 * record also links to the one below it), and the adoption agency's inserted elements fix up the links
 * of the foreign elements right above them.
 */
import type { DecodedAttribute, StartTagClass } from '@sluice/tokenizer';
import type { ElementAttribute, ElementNamespace, SourceLocation } from './sink.js';
import {
  HTML_NS,
  IMPLIED_END,
  IMPLIED_END_THOROUGH,
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
  /** The attributes, once decoded (see `attributes`); null while they are `sourceTag`'s text. */
  declare private decodedAttributes: readonly ElementAttribute[] | null;
  /**
   * The start tag token, while its attributes are not decoded: the token decodes them as its tokenizer
   * reads (byte form included, see `TokenizerOptions.byteInput`), and keeps them.
   */
  declare private sourceTag: StartTagClass | null;
  /** The location of the token it was created for. */
  declare readonly location: SourceLocation | null;
  /** Whether the record is currently on the stack of open elements. */
  declare open: boolean;
  /** The element's entry in the list of active formatting elements, when it has one. */
  declare formatting: unknown;
  // --- Stack bookkeeping, set when pushed (see the file comment). ---
  /** Increases up the stack. */
  declare order: number;
  /** The next open element below with the same name (key), or a removed one to skip. */
  declare sameBelow: ElementRecord<N> | null;
  /**
   * Nearest element at or below that bounds "has an element in scope". (The other scopes add elements the
   * per-name chains know: ol, ul, button; table scope is html, table, template.)
   */
  declare scopeBoundary: ElementRecord<N>;
  /** Nearest special element at or below, and the one strictly below (to skip removed ones). */
  declare special: ElementRecord<N> | null;
  declare specialBelow: ElementRecord<N> | null;
  /** Nearest special element other than address, div, p at or below (where `<li>`/`<dd>`/`<dt>` stop looking). */
  declare listStop: ElementRecord<N> | null;
  declare listStopBelow: ElementRecord<N> | null;
  /** Nearest HTML element at or below, and the one strictly below. */
  declare html: ElementRecord<N> | null;
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
    this.decodedAttributes = attributes;
    this.sourceTag = sourceTag;
    this.location = location;
    this.open = false;
    this.formatting = null;
    this.order = 0;
    this.sameBelow = null;
    this.scopeBoundary = this;
    this.special = null;
    this.specialBelow = null;
    this.listStop = null;
    this.listStopBelow = null;
    this.html = null;
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
    const decoded = this.decodedAttributes;
    if (decoded !== null) return decoded;
    // A tokenizer's attributes are `DecodedAttribute`s: HTML element attributes (null namespace and prefix).
    const list = this.sourceTag!.attributes as readonly DecodedAttribute[];
    this.sourceTag = null;
    return (this.decodedAttributes = list);
  }

  /** Whether this is the HTML element with tag id `id`. */
  is(id: number): boolean {
    return this.id === id && (this.flags & HTML_NS) !== 0;
  }
}

/**
 * What is told of every element that leaves the stack: the sink, when it has `elementPopped`. (Called
 * as the sink's method, not through a closure per tree builder: one call site, one target class.)
 */
export interface PopListener<N> {
  elementPopped(node: N, endLocation: SourceLocation | null): void;
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
function openSame<N>(record: ElementRecord<N> | null): ElementRecord<N> | null {
  if (record === null || record.open) return record;
  let found = record.sameBelow;
  while (found !== null && !found.open) found = found.sameBelow;
  while (record !== null && record !== found) {
    const next: ElementRecord<N> | null = record.sameBelow;
    record.sameBelow = found;
    record = next;
  }
  return found;
}

export class StackOfOpenElements<N> {
  /** Bottom (html) first, current node last. */
  readonly items: ElementRecord<N>[] = [];
  /** The topmost open HTML element of each known tag id. */
  private readonly topById: (ElementRecord<N> | null)[] = new Array<ElementRecord<N> | null>(TAG_ID_COUNT).fill(null);
  /** The topmost open HTML element of each name the rules do not know (custom elements, …). */
  private readonly topByName = new Map<string, ElementRecord<N>>();
  /** The topmost open SVG/MathML element of each ASCII-lowercased name. */
  private readonly topByForeignName = new Map<string, ElementRecord<N>>();

  constructor(private readonly onPop: PopListener<N> | null) {}

  get length(): number {
    return this.items.length;
  }

  /** The current node (§13.2.4.2), or undefined when the stack is empty. */
  get current(): ElementRecord<N> {
    return this.items[this.items.length - 1];
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
      record.specialBelow = below.special;
      record.listStopBelow = below.listStop;
      record.htmlBelow = below.html;
    }
    this.linkSelf(record);
    // The per-name chain.
    if (flags & HTML_NS && record.id !== 0) {
      record.sameBelow = this.topById[record.id];
      this.topById[record.id] = record;
    } else {
      record.sameBelow = this.topOf(record) ?? null;
      this.setTop(record, record);
    }
  }

  /** The links that point at the record itself when it has the property. */
  private linkSelf(record: ElementRecord<N>): void {
    const flags = record.flags;
    if (flags & SPECIAL) {
      record.special = record;
      const addressDivP = flags & HTML_NS && (record.id === T.ADDRESS || record.id === T.DIV || record.id === T.P);
      record.listStop = addressDivP ? record.listStopBelow : record;
    } else {
      record.special = record.specialBelow;
      record.listStop = record.listStopBelow;
    }
    record.html = flags & HTML_NS ? record : record.htmlBelow;
  }

  /** `record` left the stack: it is no longer the top of its name's chain. */
  private unlink(record: ElementRecord<N>, endLocation: SourceLocation | null): void {
    record.open = false;
    if (record.flags & HTML_NS && record.id !== 0) {
      if (this.topById[record.id] === record) this.topById[record.id] = openSame(record.sameBelow);
    } else if (this.topOf(record) === record) {
      this.setTop(record, openSame(record.sameBelow));
    }
    if (this.onPop !== null) this.onPop.elementPopped(record.node, endLocation);
  }

  // --- Pushing and popping ------------------------------------------------------------------------

  push(record: ElementRecord<N>): void {
    const items = this.items;
    this.linkOnTop(record, items[items.length - 1]);
    items.push(record);
  }

  /** Pop the current node. `endLocation`: the end tag that closed it, if one did. */
  pop(endLocation: SourceLocation | null = null): ElementRecord<N> {
    const record = this.items.pop()!;
    this.unlink(record, endLocation);
    return record;
  }

  /** Pop until an HTML element with tag id `id` has been popped; that one gets `endLocation`. */
  popUntilTag(id: number, endLocation: SourceLocation | null = null): void {
    while (this.items.length > 0) {
      if (this.current.is(id)) {
        this.pop(endLocation);
        return;
      }
      this.pop();
    }
  }

  /** Pop until one of h1–h6 (HTML) has been popped. */
  popUntilHeading(endLocation: SourceLocation | null): void {
    while (this.items.length > 0) {
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
    while (this.items.length > 0) {
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
    const index = this.items.lastIndexOf(record);
    if (index < 0) return;
    this.items.splice(index, 1);
    this.unlink(record, endLocation);
  }

  /**
   * Remove `record` without reporting it popped: for the head element, which "after head" puts back on the
   * stack for a moment to process head content (§13.2.6.4.6); it was reported popped when it first left.
   */
  removeSilently(record: ElementRecord<N>): void {
    if (!record.open) return;
    const index = this.items.lastIndexOf(record);
    if (index < 0) return;
    this.items.splice(index, 1);
    record.open = false;
    if (record.flags & HTML_NS && record.id !== 0) {
      if (this.topById[record.id] === record) this.topById[record.id] = openSame(record.sameBelow);
    } else if (this.topOf(record) === record) {
      this.setTop(record, openSame(record.sameBelow));
    }
  }

  /**
   * Insert `record` immediately above (after, in array order) `below` (adoption agency step 4.19). `record`
   * is an HTML formatting element: neither special nor a scope boundary.
   */
  insertAfter(below: ElementRecord<N>, record: ElementRecord<N>): void {
    const items = this.items;
    const index = items.lastIndexOf(below);
    if (index === items.length - 1) {
      this.push(record);
      return;
    }
    const above = items[index + 1];
    items.splice(index + 1, 0, record);
    record.open = true;
    record.scopeBoundary = below.scopeBoundary;
    record.specialBelow = below.special;
    record.listStopBelow = below.listStop;
    record.htmlBelow = below.html;
    this.linkSelf(record);
    record.order = (below.order + above.order) / 2;
    if (!(record.order > below.order && record.order < above.order)) this.renumber();
    this.linkIntoChain(record);
    this.fixHtmlLinksAbove(index + 1, record);
  }

  /** Replace `old` by `record`, an element for the same token, at the same position (adoption agency step 4.13.6). */
  replace(old: ElementRecord<N>, record: ElementRecord<N>): void {
    const items = this.items;
    const index = items.lastIndexOf(old);
    items[index] = record;
    record.open = true;
    record.order = old.order;
    record.scopeBoundary = old.scopeBoundary;
    record.specialBelow = old.specialBelow;
    record.listStopBelow = old.listStopBelow;
    record.htmlBelow = old.htmlBelow;
    this.linkSelf(record);
    // In the name chain, `record` takes `old`'s place: whatever links to `old` (now closed) reaches it.
    record.sameBelow = old.sameBelow;
    old.sameBelow = record;
    if (this.topOf(old) === old) this.setTop(old, record);
    this.unlink(old, null);
    this.fixHtmlLinksAbove(index, record);
  }

  /** Put `record` (an element in the middle) into its name chain, ordered by `order`. */
  private linkIntoChain(record: ElementRecord<N>): void {
    const first = openSame(this.topOf(record) ?? null);
    if (first === null || first.order < record.order) {
      record.sameBelow = first;
      this.setTop(record, record);
      return;
    }
    let top: ElementRecord<N> = first;
    for (;;) {
      const next: ElementRecord<N> | null = openSame(top.sameBelow);
      if (next === null || next.order < record.order) {
        record.sameBelow = next;
        top.sameBelow = record;
        return;
      }
      top = next;
    }
  }

  /**
   * Foreign elements right above a new HTML element at `index` now have it as their nearest HTML element.
   * (Defensive: the adoption agency's furthest block is always an HTML element — foreign special elements
   * are scope boundaries, which would have put the formatting element out of scope — so no foreign element
   * can sit between the new element and the HTML element their links already name.)
   */
  private fixHtmlLinksAbove(index: number, record: ElementRecord<N>): void {
    const items = this.items;
    for (let i = index + 1; i < items.length; i++) {
      const above = items[i];
      above.htmlBelow = record;
      if (above.flags & HTML_NS) return;
      above.html = record;
    }
  }

  /** Give every record a fresh integer order (when the adoption agency ran out of room between two). */
  private renumber(): void {
    const items = this.items;
    for (let i = 0; i < items.length; i++) items[i].order = i + 1;
  }

  /** Index of `record` in `items` (O(distance from the top)). */
  indexOf(record: ElementRecord<N>): number {
    return this.items.lastIndexOf(record);
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
    const special = openSpecial(this.current.special);
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
    const stop = openListStop(this.current.listStop);
    return stop === null || stop.order <= top.order ? top : null;
  }

  /**
   * §13.2.6.5 "any other end tag" in foreign content: the foreign element (matched ASCII
   * case-insensitively) to pop up to, when one is above the nearest HTML element; null otherwise (then the
   * token goes to the HTML rules).
   */
  foreignEndTagTarget(name: string): ElementRecord<N> | null {
    const top = openSame(this.topByForeignName.get(name) ?? null);
    if (top === null) return null;
    const html = openHtml(this.current.html);
    return html === null || html.order < top.order ? top : null;
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
