/**
 * `ViewSink`: the rewriter's tree sink. It keeps `records.ts`'s lightweight view up to date with the
 * tree builder's mutations — real parents, foster parenting and adoption-agency moves included — has
 * the selectors matched (selectors/element-matcher.ts) when an element is first inserted, and records, for the transformer, the events of
 * the token being processed (where text went, which comments were inserted where, which elements were
 * popped).
 */
import {
  NS,
  type CopyReason,
  type DocumentMode,
  type ElementAttribute,
  type ElementNamespace,
  type SourceLocation,
  type TreeSink,
} from '@sluice/tree-builder';
import type { StartTagClass, TextToken } from '@sluice/tokenizer';
import { type SelectorNames, selectorNames } from '../selectors/names.js';
import { ElementMatcher, type SinkSelector } from '../selectors/element-matcher.js';
import type { SelectorRegistry } from '../selectors/registry.js';
import { WATCH_CONTENT_CHANGED, WATCH_LOST_MOVED, WATCH_MOVED, type MoveWatch } from './move-watch.js';
import { DocumentRecord, ElementRecord, allAncestorsChanged, insideRemovedContent, FORMATTING_NAMES, FragmentRecord, LeafRecord, type NodeRecord, OUT_ENDED_OPEN, OUT_FOSTERED, OUT_FOSTERED_BEFORE, OUT_NOAHS_DROPPED, ParentRecord, type Positions, voidAncestorMemosUnder } from './records.js';

/** Kinds of the events the sink records for the token being processed. */
export const EV_CREATE = 0;
export const EV_TEXT = 1;
export const EV_COMMENT = 2;
export const EV_POP = 3;
/** An end tag accepted for an element that stays open (`</body>`, `</html>`: `TreeSink.endTagKeptOpen`). */
export const EV_KEPT_OPEN = 4;
/**
 * A formatting element's entry left the list of active formatting elements without closing it
 * (`TreeSink.activeFormattingElementDropped`): `eventData` is the reason, `'not-open'` or `'noahs-ark'`.
 */
export const EV_DROPPED = 5;
/** Text foster-parented (§13.2.6.1: inserted before a table): `eventNode` the parent it went to. */
export const EV_FOSTERED_TEXT = 6;

/**
 * The `eventLocation` of an `EV_TEXT` event for text inserted as a whole token (`insertTextToken`): its
 * span and characters are the token's own, so neither was computed.
 */
export const WHOLE_TOKEN: SourceLocation = Object.freeze({ start: -1, end: -1 });

export type { SinkSelector } from '../selectors/element-matcher.js';



/** Union of two bit sets, reusing `a` when `b` adds nothing (arrays are shared and never mutated). */
function union(a: Uint8Array | null, b: Uint8Array | null): Uint8Array | null {
  if (b === null) return a;
  if (a === null) return b;
  let copy: Uint8Array | null = null;
  for (let i = 0; i < b.length; i++) {
    if (b[i] === 1 && a[i] !== 1) {
      copy ??= a.slice();
      copy[i] = 1;
    }
  }
  return copy ?? a;
}

/** The tree sink that maintains the rewriter's view. */
export class ViewSink implements TreeSink<NodeRecord> {
  readonly document: DocumentRecord;
  /**
   * Events of the token being processed, as parallel arrays (no object per event): the transformer reads
   * entries `[0, eventCount)` after the tree builder has processed a token, then calls `clearEvents`.
   * - `EV_CREATE`: `eventNode` the new element, `eventLocation` its location
   * - `EV_TEXT`: `eventNode` the parent, `eventLocation` the text's span, `eventData` the characters
   *   (or `WHOLE_TOKEN` and '': the whole text token being processed)
   * - `EV_COMMENT`: `eventNode` the parent
   * - `EV_POP`: `eventNode` the element, `eventLocation` the end tag's span or null
   * - `EV_KEPT_OPEN`: `eventNode` the body or html element whose end tag was accepted, `eventLocation` its span
   */
  eventCount = 0;
  readonly eventKind: number[] = [];
  readonly eventNode: ParentRecord[] = [];
  readonly eventLocation: (SourceLocation | null)[] = [];
  readonly eventData: string[] = [];

  private record(kind: number, node: ParentRecord, location: SourceLocation | null, data: string): void {
    const i = this.eventCount++;
    this.eventKind[i] = kind;
    this.eventNode[i] = node;
    this.eventLocation[i] = location;
    this.eventData[i] = data;
  }

  /** Forget the events read. (Stale entries stay in the arrays until overwritten: bounded by one token's events.) */
  clearEvents(): void {
    this.eventCount = 0;
  }

  /**
   * After the document's end (transformer.ts `releaseDocument`): let go of the records and tokens the
   * sink still points at — the html and body elements, and the stale entries of the event arrays (each
   * token's events overwrite the last one's, `clearEvents` only resets the count).
   */
  releaseDocument(): void {
    this.root = null;
    this.body = null;
    this.eventCount = 0;
    this.eventKind.length = 0;
    this.eventNode.length = 0;
    this.eventLocation.length = 0;
    this.eventData.length = 0;
  }
  /**
   * Open elements, in the order they were inserted (pushes at the end, pops anywhere); entries closed
   * out of order stay until they reach the end or are compacted away (`close`): read `el.open`.
   */
  readonly open: ElementRecord[] = [];
  /** The root element (the document's element child), once inserted. */
  root: ElementRecord | null = null;
  /** The `body` element child of the root, once inserted. */
  body: ElementRecord | null = null;
  /** Bumped whenever an element moves, so cached ancestor-derived data can be invalidated. */
  generation = 0;
  /**
   * Called (and expected to throw) when the adoption agency algorithm moves an element whose handlers
   * changed content at its start (transform/moved-content.ts).
   */
  onMovedAfterChange: (el: ElementRecord) => void = () => {};
  /**
   * Called (and expected to throw) when the adoption agency algorithm moves an element out of content a
   * handler removed (which the output therefore lacks: transform/alignment.ts); null: not watched.
   */
  onMovedOutOfRemoved: ((el: ElementRecord) => void) | null = null;
  /** Told when an element in the tree is moved (taken from its parent), or its children are: `OutputAlignment.moved`. */
  onMove: ((el: ElementRecord) => void) | null = null;
  /**
   * The parents the moves (`insertBefore` of a placed element) of the token being processed took
   * elements out of (`spansMoves`; the transformer also reads whether a start tag moved any).
   */
  readonly movedFrom: ParentRecord[] = [];

  /**
   * After a token that moved elements: the elements the moves took them out of are marked
   * `WATCH_LOST_MOVED` — the parent each moved element left and its ancestors up to the first still
   * open (the algorithm's common ancestor, or where foster parenting put the formatting element), which
   * the token has closed. Their content held the moved element when their handlers see their start:
   * removing it, or writing content at their end (which is that token), cannot be written
   * (moved-content.ts), however late those handlers run — an async one still pending, or one whose
   * start tag waits in a hold.
   */
  spansMoves(): void {
    const from = this.movedFrom;
    for (let i = 0; i < from.length; i++) {
      for (let a: ParentRecord | null = from[i]!; a instanceof ElementRecord && !a.open; a = a.parent) {
        if ((a.watchFlags & WATCH_LOST_MOVED) !== 0) break;
        a.watchFlags |= WATCH_LOST_MOVED;
      }
    }
    from.length = 0;
  }
  /**
   * Whether `node` or an element around it is left out of the output (records.ts `insideRemovedContent`):
   * the transformer's answers it from the alignment's memos (`OutputAlignment.insideRemovedMemo`), where a
   * walk at every move made `<script>` removed then `<b><div>x</b>` × n quadratic.
   */
  insideRemoved: (node: ParentRecord | null) => boolean = insideRemovedContent;

  /**
   * Whether anything was left out of the output yet (the transformer's answer): until then no element
   * is inside removed content, and the O(depth) walk up the ancestors is skipped — documents that nest
   * deep with a move per token (`<a><b><i><u><s><div>x</a>` × n) would make it quadratic.
   */
  removedSeen: () => boolean = () => true;

  /** Which registrations match an element: the selectors, evaluated against this view (selectors/element-matcher.ts). */
  private readonly matcher: ElementMatcher;
  /** Whether records keep sibling positions (some selector uses them). */
  private readonly positioned: boolean;
  private readonly needsTypeIndex: boolean;

  /**
   * @param registry sibling bits and `of S` slots of every selector
   * @param selectors the registrations' selectors, by registration index
   * @param byTag registration indices per lowercased rightmost type name
   * @param anyTag registration indices whose rightmost compound matches any name
   * @param watch what the adoption agency algorithm may still move (move-watch.ts); null when no
   *   element handler's selector can change with a move
   */
  constructor(
    registry: SelectorRegistry,
    selectors: readonly SinkSelector[],
    byTag: ReadonlyMap<string, readonly number[]>,
    anyTag: readonly number[],
    readonly watch: MoveWatch | null = null,
  ) {
    this.matcher = new ElementMatcher(registry, selectors, byTag, anyTag);
    this.names = selectorNames(selectors.map((s) => s.list));
    this.needsTypeIndex = registry.needsTypeIndex;
    this.positioned = this.matcher.positioned;
    this.document = new DocumentRecord(this.positioned);
  }

  createElement(
    localName: string,
    namespace: ElementNamespace,
    attributes: readonly ElementAttribute[],
    location: SourceLocation | null,
  ): NodeRecord {
    const el = new ElementRecord(localName, namespace, attributes, this.positioned);
    this.record(EV_CREATE, el, location, '');
    return el;
  }

  /**
   * A copy of a formatting element (reconstruction, the adoption agency: `TreeSink.createElementCopy`):
   * it remembers the element with a start tag of its own that it copies (a copy's copy, the same one),
   * since a browser makes it from that element's tag as written (transform/copies.ts).
   */
  createElementCopy(
    original: NodeRecord,
    localName: string,
    namespace: ElementNamespace,
    attributes: readonly ElementAttribute[],
    location: SourceLocation | null,
    reason?: CopyReason,
  ): NodeRecord {
    const el = new ElementRecord(localName, namespace, attributes, this.positioned);
    if (original instanceof ElementRecord) {
      el.copyOf = original.copyOf ?? original;
      el.copiedFrom = original;
    }
    el.reconstructed = reason === 'reconstruction';
    this.record(EV_CREATE, el, location, '');
    return el;
  }

  /**
   * An HTML element whose attributes stay in its start tag token until a selector or handler reads them
   * (see `TreeSink.createElementForStartTag`): most elements match no selector by name alone, and the
   * tag's text is not even sliced from the input.
   */
  createElementForStartTag(localName: string, tag: StartTagClass, location: SourceLocation | null): NodeRecord {
    const el = new ElementRecord(localName, NS.HTML, null, this.positioned, tag);
    this.record(EV_CREATE, el, location, '');
    return el;
  }

  /**
   * `createElementForStartTag` for an element that is not a formatting element, whose location is the
   * tag's span (`TreeSink.createElementFromStartTag`): the tag token, which has that span's `start` and
   * `end`, stands for its location in the event, and no location object is made.
   */
  createElementFromStartTag(localName: string, tag: StartTagClass): NodeRecord {
    const el = new ElementRecord(localName, NS.HTML, null, this.positioned, tag);
    this.record(EV_CREATE, el, tag, '');
    return el;
  }

  /** Whether an element of this name is a formatting element (one the tree builder may copy). */
  static isFormatting(localName: string): boolean {
    return FORMATTING_NAMES.has(localName);
  }

  createComment(): NodeRecord {
    return new LeafRecord('comment');
  }

  createDocumentType(): NodeRecord {
    return new LeafRecord('doctype');
  }

  insertText(parent: NodeRecord, data: string, before: NodeRecord | null, location: SourceLocation | null): void {
    if (!(parent instanceof ParentRecord)) return;
    this.record(EV_TEXT, parent, location, data);
    if (before !== null) {
      this.record(EV_FOSTERED_TEXT, parent, location, '');
      if (before instanceof ElementRecord) before.out |= OUT_FOSTERED_BEFORE;
    }
  }

  insertTextToken(parent: NodeRecord, _token: TextToken): void {
    if (parent instanceof ParentRecord) this.record(EV_TEXT, parent, WHOLE_TOKEN, '');
  }

  insertBefore(parent: NodeRecord, node: NodeRecord, before: NodeRecord | null): void {
    if (!(parent instanceof ParentRecord)) return;
    if (node instanceof LeafRecord) {
      node.parent = parent;
      if (node.kind === 'comment') this.record(EV_COMMENT, parent, null, '');
      return;
    }
    if (!(node instanceof ElementRecord)) return;
    if (node.parent !== null) {
      // Only the adoption agency algorithm inserts an element that is in the tree already (steps 13.8, 14).
      if (this.onMovedOutOfRemoved !== null && this.removedSeen() && this.insideRemoved(node.parent)) {
        // Into a new element of the chain the algorithm has not inserted yet (step 13.8): where it lands
        // is known when the chain is (checked below, `checkMovedFromRemoved`).
        if (parent instanceof ElementRecord && !parent.evaluated) this.movedFromRemoved.push(node);
        else if (!this.insideRemoved(parent)) this.onMovedOutOfRemoved(node);
      }
      const from = node.parent;
      this.movedFrom.push(from);
      this.takeFromParent(node, this.moveVoidsMemos(node, from, parent));
      this.movedFurthestBlock(node);
      if (this.watch !== null) this.watch.movedElement(node);
    }
    if (!node.evaluated && parent instanceof ElementRecord && !parent.evaluated) {
      // The adoption agency builds a chain of new elements before it inserts the chain's top into the
      // tree: an element appended to one of them is not in the document yet, and has no ancestors to
      // match against. It is matched when its parent is (see `connectDeferred`).
      this.attach(parent, node, null, false);
      this.deferred.push(node);
      return;
    }
    this.attach(parent, node, before instanceof ElementRecord && before.parent === parent ? before : null, true);
    if (this.movedFromRemoved.length > 0 && !(parent instanceof ElementRecord && !parent.evaluated)) this.checkMovedFromRemoved();
    // (Inserted before a node: only foster parenting does that to a new element, before the table.)
    if (before !== null && !node.evaluated) node.out |= OUT_FOSTERED;
    if (before instanceof ElementRecord) before.out |= OUT_FOSTERED_BEFORE;
    if (!node.evaluated) {
      this.firstInsertion(parent, node);
      if (this.deferred.length > 0) this.connectDeferred();
    } else if (node.open) parent.addOpenChild(node);
  }

  /** Elements moved out of removed content into the chain the adoption agency algorithm builds. */
  private readonly movedFromRemoved: ElementRecord[] = [];

  /** The chain is in the tree: those of `movedFromRemoved` that landed outside removed content are refused. */
  private checkMovedFromRemoved(): void {
    const moved = this.movedFromRemoved.splice(0);
    for (const el of moved) if (el.parent !== null && !this.insideRemoved(el.parent)) this.onMovedOutOfRemoved!(el);
  }

  /** The adoption agency algorithm moved `el` (or its children): noted for the checks of its content (moved-content.ts). */
  private movedFurthestBlock(el: ElementRecord): void {
    const flags = el.watchFlags;
    el.watchFlags = flags | WATCH_MOVED;
    if ((flags & WATCH_CONTENT_CHANGED) !== 0) this.onMovedAfterChange(el);
  }

  /** Elements inserted into a new element that was not in the tree yet (see `insertBefore`). */
  private readonly deferred: ElementRecord[] = [];

  /** An element enters the tree for the first time: its selectors are decided, it is open. */
  private firstInsertion(parent: ParentRecord, node: ElementRecord): void {
    node.evaluated = true;
    if (parent === this.document) this.root = node;
    else if (parent === this.root && node.localName === 'body' && node.isHtml) this.body = node;
    this.matcher.evaluate(node);
    node.open = true;
    this.open.push(node);
    parent.addOpenChild(node);
    if (this.watch !== null) this.watch.inserted(parent, node);
  }

  /**
   * Decide `el`'s matches again, on the view as it stands now: for an element the adoption agency
   * algorithm may have moved since its first insertion (transform/held-moves.ts).
   */
  matchAgain(el: ElementRecord): void {
    el.matched = null;
    this.matcher.evaluate(el);
  }

  /** Match the deferred elements whose parents are in the tree now, outermost first. */
  private connectDeferred(): void {
    const deferred = this.deferred;
    for (let progress = true; progress && deferred.length > 0; ) {
      progress = false;
      for (let i = 0; i < deferred.length; i++) {
        const node = deferred[i]!;
        const parent = node.parent;
        if (node.evaluated || parent === null) {
          deferred.splice(i--, 1);
          continue;
        }
        if (parent instanceof ElementRecord && !parent.evaluated) continue;
        deferred.splice(i--, 1);
        // Placed again, now that its ancestors are known (sibling bits and `of S` read them).
        this.detach(node);
        this.attach(parent, node, null, true);
        this.firstInsertion(parent, node);
        progress = true;
      }
    }
  }

  /** An element of the tree leaves its parent (a move or a removal): it is no longer an open child there, and its ancestors changed. */
  private takeFromParent(node: ElementRecord, voidsMemos = true): void {
    if (node.open) node.parent!.removeOpenChild(node);
    this.detach(node);
    this.shapeChanged(node, true, voidsMemos);
  }

  /** The element names the selectors name (see `moveVoidsMemos`). */
  private readonly names: SelectorNames;

  /**
   * Whether moving `node` from `from` to `to` may change what a descendant-combinator memo under it
   * says. Not when `to` is an ancestor of `from` (the adoption agency moves the furthest block up to the
   * common ancestor, HTML §13.2.6.4.7 step 4.14) and none of the ancestors the node leaves behind is
   * named by a selector, nor is the node itself where a child combinator looks at its parent: every
   * ancestor that could match is still there, and no new one came. (`<b>` + `<div>` × n + `</b>` × n
   * with `td b`: each move takes a div with all the later ones in it out of a `b`.)
   */
  private moveVoidsMemos(node: ElementRecord, from: ParentRecord, to: ParentRecord): boolean {
    if (!this.namesDecide || !(to instanceof ElementRecord) || !to.evaluated) return true;
    const any = this.names.any!;
    const children = this.names.children!;
    if (children.has(node.localName.toLowerCase())) return true;
    let x: ParentRecord | null = from;
    for (let steps = 0; x !== to; steps++) {
      if (!(x instanceof ElementRecord) || steps >= 16) return true;
      if (any.has(x.localName.toLowerCase())) return true;
      x = x.parent;
    }
    return false;
  }

  /**
   * Elements under `root` (with it, when `includeRoot`) got other ancestors: the view's `generation` moves
   * on, and — where the change may alter their answers (`voidsMemos`) — their descendant-combinator memos
   * are void (records.ts `voidAncestorMemosUnder`); every element's, once an element closed with open
   * children (`close`): a memo under it is out of the reach of the open-children links.
   */
  private shapeChanged(root: ParentRecord, includeRoot: boolean, voidsMemos: boolean): void {
    this.generation++;
    if (!voidsMemos) return;
    if (this.memosBySubtree) voidAncestorMemosUnder(root, includeRoot);
    else allAncestorsChanged();
  }

  /** Whether moves can keep memos at all: every selector's left sides name their types, and `memosBySubtree` holds. */
  private get namesDecide(): boolean {
    return this.names.any !== null && this.names.children !== null && this.memosBySubtree;
  }

  /** Whether every open element's parent is open (or the document, or a template's contents): see `shapeChanged`. */
  private memosBySubtree = true;

  remove(node: NodeRecord): void {
    if (node instanceof ElementRecord && node.parent !== null) this.takeFromParent(node);
    else if (node instanceof LeafRecord) node.parent = null;
  }

  moveChildren(from: NodeRecord, to: NodeRecord): void {
    if (!(from instanceof ParentRecord) || !(to instanceof ParentRecord)) return;
    // The adoption agency moves every child of the furthest block into a new element that has none
    // yet, so `to` simply takes over `from`'s sibling state.
    const f = from.pos;
    const t = to.pos;
    if (f !== null && t !== null) {
      t.childCount += f.childCount;
      t.typeCounts = f.typeCounts;
      t.lastChildBits = f.lastChildBits;
      t.anyChildBits = union(t.anyChildBits, f.anyChildBits);
      t.ofCounts = f.ofCounts;
      f.childCount = 0;
      f.typeCounts = null;
      f.lastChildBits = null;
      f.anyChildBits = null;
      f.ofCounts = null;
    }
    // (Their walks up now pass through `to`: memos made through `from` are void.)
    if (this.onMove !== null && from instanceof ElementRecord) this.onMove(from);
    // Only open children can still get content, so only their parent links matter from now on.
    const first = from.openChild;
    if (first !== null) {
      first.parent = to;
      to.addOpenChild(first);
      const more = from.moreOpenChildren;
      if (more !== null) for (const el of more) {
        el.parent = to;
        to.addOpenChild(el);
      }
      from.openChild = null;
      from.moreOpenChildren = null;
    }
    this.shapeChanged(to, false, this.childrenMoveVoidsMemos(from, to));
    if (from instanceof ElementRecord) this.movedFurthestBlock(from);
    // (The closed children the selectors may still ask about: the held ones, move-watch.ts.)
    if (this.watch !== null) this.watch.movedChildren(from, to);
  }

  /**
   * Whether the children of `from` moving into `to` (which the adoption agency then appends to `from`,
   * step 4.17) may change a descendant-combinator memo under them: not when no selector names `to` (a
   * new ancestor between them and `from`) nor, where a child combinator looks at the parent, a child.
   *
   * The children are the open ones (already `to`'s here) and the closed ones the watch holds, which it
   * gives `to` as parent right after (`MoveWatch.movedChildren`) and matches again at the release: a
   * closed child's memo made while `from` was its parent says what that parent said
   * (`<b><i><div><p><b></b><div></i>` with `div > p b`: the p, closed, goes from the div into the copy
   * of the i, §13.2.6.4.7 step 4.16, and is no `div > p` any more; its memo said it was, and the inner
   * b, matched again, read it). (The watch's list is walked once more only: it walks it itself and
   * then drops it, and `to`, a new copy, is never a furthest block.)
   */
  private childrenMoveVoidsMemos(from: ParentRecord, to: ParentRecord): boolean {
    if (!this.namesDecide || !(to instanceof ElementRecord) || !(from instanceof ElementRecord)) return true;
    const children = this.names.children!;
    if (this.names.any!.has(to.localName.toLowerCase())) return true;
    if (children.size === 0) return false;
    const first = to.openChild;
    if (first !== null && children.has(first.localName.toLowerCase())) return true;
    const more = to.moreOpenChildren;
    if (more !== null) for (const el of more) if (children.has(el.localName.toLowerCase())) return true;
    const closed = this.watch === null ? undefined : this.watch.closedChildrenOf(from);
    if (closed !== undefined) for (const el of closed) if (children.has(el.localName.toLowerCase())) return true;
    return false;
  }

  parentNode(node: NodeRecord): NodeRecord | null {
    return node.parent;
  }

  addMissingAttributes(element: NodeRecord, attributes: readonly ElementAttribute[]): void {
    if (!(element instanceof ElementRecord)) return;
    const merged = element.attributes.slice();
    for (const a of attributes) if (!merged.some((b) => b.name === a.name)) merged.push(a);
    element.attributes = merged;
  }

  setDocumentMode(mode: DocumentMode): void {
    // Quirks mode: `.class`/`#id` compare case-insensitively.
    this.matcher.quirks = mode === 'quirks';
  }

  templateContents(template: NodeRecord): NodeRecord {
    if (!(template instanceof ElementRecord)) throw new Error('ViewSink.templateContents: not an element');
    if (template.content === null) {
      template.content = new FragmentRecord(this.positioned);
      template.content.host = template;
    }
    return template.content;
  }

  /**
   * Told of step 4.13.4 of the adoption agency algorithm (`TreeSink.adoptionAgencyDroppedPastThree`):
   * the transformer checks it against what the output's parser counts (null: nobody asks).
   */
  onDroppedPastThree: ((el: ElementRecord, passed: readonly ElementRecord[], count: number) => void) | null = null;

  adoptionAgencyDroppedPastThree(element: NodeRecord, passed: readonly NodeRecord[], count: number): void {
    if (this.onDroppedPastThree !== null && element instanceof ElementRecord) this.onDroppedPastThree(element, passed as readonly ElementRecord[], count);
  }

  activeFormattingElementDropped(element: NodeRecord, reason: 'not-open' | 'noahs-ark'): void {
    if (!(element instanceof ElementRecord)) return;
    if (reason === 'noahs-ark') element.out |= OUT_NOAHS_DROPPED;
    this.record(EV_DROPPED, element, null, reason);
  }

  endTagKeptOpen(element: NodeRecord, location: SourceLocation | null): void {
    if (element instanceof ElementRecord) this.record(EV_KEPT_OPEN, element, location, '');
  }

  elementPopped(element: NodeRecord, endLocation: SourceLocation | null, _at?: number, openAbove?: boolean): void {
    if (!(element instanceof ElementRecord)) return;
    // (Content at its end cannot be written where it ends: transform/alignment.ts.)
    if (openAbove === true) element.out |= OUT_ENDED_OPEN;
    this.close(element);
    this.record(EV_POP, element, endLocation, '');
  }

  /** Take `el` off the list of open elements (the tree builder popped it, or the document ended). */
  close(el: ElementRecord): void {
    if (!el.open) return;
    el.open = false;
    // (`</form>` takes the form off the stack and leaves open what is in it: see `shapeChanged`.)
    if (el.openChild !== null || (el.moreOpenChildren !== null && el.moreOpenChildren.length > 0)) this.memosBySubtree = false;
    if (el.parent !== null) el.parent.removeOpenChild(el);
    if (this.watch !== null) this.watch.closed(el);
    // The list keeps closed entries until they reach its end, or until they are half of it: the
    // adoption agency closes elements from the middle, and searching for each one made a rewrite
    // quadratic (`bench:worst-case`).
    const open = this.open;
    if (open[open.length - 1] === el) {
      open.pop();
      while (open.length > 0 && !open[open.length - 1]!.open) {
        open.pop();
        this.closedInOpen--;
      }
    } else if (++this.closedInOpen > 32 && this.closedInOpen * 2 > open.length) {
      let w = 0;
      for (let r = 0; r < open.length; r++) if (open[r]!.open) open[w++] = open[r]!;
      open.length = w;
      this.closedInOpen = 0;
    }
  }
  /** Closed entries still in `open` (see `close`). */
  private closedInOpen = 0;

  /** Give `node` its place among `parent`'s element children: at the end, or just before `before`. */
  private attach(parent: ParentRecord, node: ElementRecord, before: ElementRecord | null, connected: boolean): void {
    node.parent = parent;
    // An element in the tree keeps its side of a template's contents when the adoption agency algorithm
    // moves it: the algorithm never crosses a template (its marker, §13.2.4.3), but it may first append
    // the element to a copy that is not in the tree yet (step 13.8), which would say "not in a template".
    if (!node.evaluated) node.inTemplate = parent.inTemplate;
    if (this.positioned) this.place(parent.pos!, node, node.pos!, before, connected);
  }

  /** `attach` for positions: the node's index among siblings, and what its later siblings will read. */
  private place(pp: Positions, node: ElementRecord, np: Positions, before: ElementRecord | null, connected: boolean): void {
    const typed = this.needsTypeIndex;
    const key = typed ? node.typeKey : '';
    const bp = before === null ? null : before.pos!;
    if (bp === null) {
      np.index = pp.childCount + 1;
      np.prevBits = pp.lastChildBits;
      np.anyPrevBits = pp.anyChildBits;
      if (typed) np.typeIndex = (pp.typeCounts?.get(key) ?? 0) + 1;
    } else {
      // Foster parenting: `before` is the table, the last element child of `parent` while it is open,
      // so what came before it is everything but itself.
      np.index = bp.index;
      np.prevBits = bp.prevBits;
      np.anyPrevBits = bp.anyPrevBits;
      if (typed) np.typeIndex = (pp.typeCounts?.get(key) ?? 0) + 1 - (before!.typeKey === key ? 1 : 0);
    }
    if (this.matcher.slotCount > 0 && !node.evaluated && connected) this.matcher.evaluateOf(pp, node, np, bp);
    if (this.matcher.bitCount > 0 && !node.evaluated && connected) this.matcher.evaluateBits(node, np);
    pp.childCount++;
    if (typed) (pp.typeCounts ??= new Map()).set(key, (pp.typeCounts.get(key) ?? 0) + 1);
    if (np.ofIndex !== null) {
      const slotCount = this.matcher.slotCount;
      const counts = (pp.ofCounts ??= new Int32Array(slotCount));
      for (let s = 0; s < slotCount; s++) if (np.ofIndex[s]! > 0) counts[s]!++;
    }
    if (bp === null) {
      pp.lastChildBits = np.bits;
    } else {
      bp.index++;
      if (typed && before!.typeKey === key) bp.typeIndex++;
      bp.prevBits = np.bits;
      bp.anyPrevBits = union(bp.anyPrevBits, np.bits);
      if (np.ofIndex !== null && bp.ofIndex !== null) {
        const shifted = bp.ofIndex.slice();
        for (let s = 0; s < this.matcher.slotCount; s++) if (np.ofIndex[s]! > 0 && shifted[s]! > 0) shifted[s]!++;
        bp.ofIndex = shifted;
      }
    }
    pp.anyChildBits = union(pp.anyChildBits, np.bits);
  }

  /** Undo `attach` as far as later siblings can tell (`anyChildBits` keeps what the node set). */
  private detach(node: ElementRecord): void {
    if (this.onMove !== null) this.onMove(node);
    const pp = node.parent!.pos;
    const np = node.pos;
    if (pp !== null && np !== null) {
      pp.childCount--;
      if (pp.typeCounts !== null) {
        const key = node.typeKey;
        pp.typeCounts.set(key, (pp.typeCounts.get(key) ?? 1) - 1);
      }
      if (pp.ofCounts !== null && np.ofIndex !== null) {
        for (let s = 0; s < this.matcher.slotCount; s++) if (np.ofIndex[s]! > 0) pp.ofCounts[s]!--;
      }
      if (pp.lastChildBits === np.bits) pp.lastChildBits = np.prevBits;
    }
    node.parent = null;
  }
}
