/**
 * The list of active formatting elements (WHATWG HTML §13.2.4.3).
 *
 * A doubly linked list of entries: element entries (which keep the element record, whose token name and
 * attributes reconstruction copies) and markers. Each record points back at its entry. Every operation
 * the rules run per token is O(1) whatever the list's length (100,000 entries must not make each token
 * cost O(list)):
 * - removal anywhere (the adoption agency, `<a>` in `<a>`, Noah's Ark) and insertion after an entry (the
 *   adoption agency's bookmark) are link changes;
 * - "the last element with this tag name after the last marker" (the adoption agency step 4.3, `<a>`,
 *   `<nobr>`): entries of each tag id are chained in list order, so the last one is known; each entry
 *   carries its level (the number of markers before it: markers are only pushed at the end and cleared
 *   from the end, so it never changes), and the last one is after the last marker iff its level is the
 *   list's;
 * - Noah's Ark ("push", step 2): once a tag id has had three entries at a time, its entries carry an
 *   equality signature (name + sorted attributes: O(a log a), never O(a²)) and are chained per
 *   signature in list order; the three equal ones since the last marker are the chain's last three, when
 *   their level is the list's.
 */
import type { ElementRecord } from './stack-of-open-elements.js';
import { TAG_ID_COUNT } from './tag-sets.js';

/** A marker (applet, object, marquee, template, td, th, caption): an entry with no element. */
export const MARKER = null;

/**
 * Told of every change to the list, in the order it happens (the rewriter keeps an index of the list by
 * the tags its output has, for Noah's Ark: see its transform/noahs-ark.ts). `seq` is the entry's
 * `FormattingEntry.seq`.
 */
export interface ActiveFormattingListener<N> {
  /** `node` was pushed: its entry is the list's last. */
  pushed(node: N, seq: number): void;
  /** `node`'s entry was inserted right after `after`'s (the adoption agency's bookmark); it has `after`'s seq. */
  inserted(node: N, after: N, seq: number): void;
  /** `old`'s entry is now `node`'s (a copy made by reconstruction or the adoption agency). */
  replaced(old: N, node: N): void;
  /** `node`'s entry was removed. */
  removed(node: N): void;
  /** A marker was pushed. */
  markerPushed(seq: number): void;
  /** The last marker was removed (the entries after it were removed first, each told). */
  markerCleared(): void;
}

export class FormattingEntry<N> {
  /** The element, or null for a marker. */
  declare element: ElementRecord<N> | null;
  /** The Noah's Ark key, computed only once the tag id has had three entries (else null). */
  declare signature: string | null;
  /** The number of markers before the entry. */
  declare level: number;
  /**
   * Creation order: increases along the list, except that an entry the adoption agency inserts after
   * another takes that one's (a tie, broken by a walk where it matters).
   */
  declare seq: number;
  declare prev: FormattingEntry<N> | null;
  declare next: FormattingEntry<N> | null;
  /** The previous and next entries of the same tag id, in list order. */
  declare prevSameId: FormattingEntry<N> | null;
  declare nextSameId: FormattingEntry<N> | null;
  /** The previous and next entries of the same signature, in list order (when it has one). */
  declare prevSameSignature: FormattingEntry<N> | null;
  declare nextSameSignature: FormattingEntry<N> | null;
  /** `ActiveFormattingElements.tailStart`'s stamp while the entry is in the tail it remembers; else older, or 0. */
  declare tailStamp: number;

  constructor(element: ElementRecord<N> | null, level: number, seq: number) {
    this.element = element;
    this.signature = null;
    this.level = level;
    this.seq = seq;
    this.prev = null;
    this.next = null;
    this.prevSameId = null;
    this.nextSameId = null;
    this.prevSameSignature = null;
    this.nextSameSignature = null;
    this.tailStamp = 0;
  }
}

/** The "same tag name, namespace and attributes" key of Noah's Ark. */
function signatureOf<N>(record: ElementRecord<N>): string {
  const attributes = record.attributes;
  if (attributes.length === 0) return record.localName;
  const parts: string[] = [];
  for (const attribute of attributes) parts.push(`${attribute.name}\u0000${attribute.value}`);
  parts.sort();
  return `${record.localName}\u0001${parts.join('\u0001')}`;
}

export class ActiveFormattingElements<N> {
  /** The first and last entries. */
  first: FormattingEntry<N> | null = null;
  last: FormattingEntry<N> | null = null;
  private size = 0;
  /** The number of markers in the list. */
  private level = 0;
  private seq = 0;
  /**
   * Called with the element whose entry Noah's Ark removes (step 2 of "push"), when someone needs to
   * know (`TreeSink.activeFormattingElementDropped`); null otherwise.
   */
  onNoahsArk: ((record: ElementRecord<N>) => void) | null = null;
  /**
   * Called with the element about to be pushed, before Noah's Ark looks at the list (the rewriter:
   * whether a parser reading its output, which may count other elements as equal, drops the same entry).
   */
  onPush: ((record: ElementRecord<N>) => void) | null = null;
  /** Told of every change to the list (null: nobody is). */
  listener: ActiveFormattingListener<N> | null = null;
  /** The element Noah's Ark removed in the last push (null: none). */
  dropped: ElementRecord<N> | null = null;
  /**
   * The tail `tailStart` found last: its first and last entries, whose entries carry `tailStamp`; and
   * the array of their nodes (`tailNodes`; null until made). `tailValid` is cleared when an entry of it
   * is removed, gets another element or has one inserted after it.
   */
  private tailStamp = 0;
  private tailFirst: FormattingEntry<N> | null = null;
  private tailLast: FormattingEntry<N> | null = null;
  private tailValid = false;
  private tailNodeArray: N[] | null = null;
  /**
   * Entries per tag id (formatting elements are always HTML elements with known ids). Plain arrays, not
   * typed ones: a typed array past 64 bytes gets a backing store of its own outside the heap, which
   * made up most of a tree builder's set-up cost (one per document: cachegrind, the rewriter's
   * per-document cost fell from 150,000 to 69,000 instructions with this and `ScannedAttributes.spans`).
   */
  private readonly idCounts: number[] = new Array<number>(TAG_ID_COUNT).fill(0);
  /** The last entry of each tag id. */
  private readonly lastById: (FormattingEntry<N> | null)[] = new Array<FormattingEntry<N> | null>(TAG_ID_COUNT).fill(null);
  /** Tag ids whose entries carry signatures (set once a tag id has had three entries at a time). */
  private readonly tracked: number[] = new Array<number>(TAG_ID_COUNT).fill(0);
  /** The last entry of each signature, for the tracked tag ids. */
  private readonly lastBySignature = new Map<string, FormattingEntry<N>>();

  /**
   * After the document (`TreeBuilder.releaseDocument`): the list emptied, with no listener told — the
   * document is done and nothing reads the list again. The standard leaves it as it is when parsing
   * stops; this only lets go of the elements.
   */
  release(): void {
    this.first = null;
    this.last = null;
    this.size = 0;
    this.level = 0;
    this.dropped = null;
    this.tailFirst = null;
    this.tailLast = null;
    this.tailValid = false;
    this.tailNodeArray = null;
    this.idCounts.fill(0);
    this.lastById.fill(null);
    this.tracked.fill(0);
    this.lastBySignature.clear();
  }

  get length(): number {
    return this.size;
  }

  /** The entries, first to last (markers as null): a new array, O(list) — for tests. */
  get items(): (ElementRecord<N> | null)[] {
    const items: (ElementRecord<N> | null)[] = [];
    for (let e = this.first; e !== null; e = e.next) items.push(e.element);
    return items;
  }

  // --- The list's links ----------------------------------------------------------------------------

  private linkAfter(entry: FormattingEntry<N>, after: FormattingEntry<N> | null): void {
    if (after !== null && after.tailStamp === this.tailStamp) this.tailValid = false;
    const next = after === null ? this.first : after.next;
    entry.prev = after;
    entry.next = next;
    if (after === null) this.first = entry;
    else after.next = entry;
    if (next === null) this.last = entry;
    else next.prev = entry;
    this.size++;
  }

  private unlinkEntry(entry: FormattingEntry<N>): void {
    if (entry.tailStamp === this.tailStamp) this.tailValid = false;
    const prev = entry.prev;
    const next = entry.next;
    if (prev === null) this.first = next;
    else prev.next = next;
    if (next === null) this.last = prev;
    else next.prev = prev;
    entry.prev = entry.next = null;
    this.size--;
  }

  // --- The per-id and per-signature chains ------------------------------------------------------------

  /**
   * Chain `entry` (just linked into the list) into its id and signature chains, right after `prevSameId`
   * (the entry of its id before it in the list, or null) — the signature chain likewise after
   * `prevSameSignature`.
   */
  private chain(entry: FormattingEntry<N>, prevSameId: FormattingEntry<N> | null, prevSameSignature: FormattingEntry<N> | null): void {
    const record = entry.element!;
    const id = record.id;
    const nextSameId = prevSameId === null ? this.firstOfId(id) : prevSameId.nextSameId;
    entry.prevSameId = prevSameId;
    entry.nextSameId = nextSameId;
    if (prevSameId !== null) prevSameId.nextSameId = entry;
    if (nextSameId !== null) nextSameId.prevSameId = entry;
    else this.lastById[id] = entry;
    this.idCounts[id]++;
    if (this.tracked[id] === 0 && this.idCounts[id] >= 3) {
      // The third entry of this id at a time: from now on its entries carry signatures, and are chained
      // per signature (O(entries of the id), once per id).
      this.tracked[id] = 1;
      let e = this.lastById[id];
      while (e !== null && e.prevSameId !== null) e = e.prevSameId;
      for (; e !== null; e = e.nextSameId) {
        e.signature = signatureOf(e.element!);
        const last = this.lastBySignature.get(e.signature) ?? null;
        e.prevSameSignature = last;
        e.nextSameSignature = null;
        if (last !== null) last.nextSameSignature = e;
        this.lastBySignature.set(e.signature, e);
      }
      return;
    }
    if (this.tracked[id] !== 0) {
      const signature = entry.signature ?? signatureOf(record);
      entry.signature = signature;
      const nextSig = prevSameSignature === null ? this.firstOfSignature(signature) : prevSameSignature.nextSameSignature;
      entry.prevSameSignature = prevSameSignature;
      entry.nextSameSignature = nextSig;
      if (prevSameSignature !== null) prevSameSignature.nextSameSignature = entry;
      if (nextSig !== null) nextSig.prevSameSignature = entry;
      else this.lastBySignature.set(signature, entry);
    }
  }

  private unchain(entry: FormattingEntry<N>): void {
    const record = entry.element!;
    const id = record.id;
    const p = entry.prevSameId;
    const n = entry.nextSameId;
    if (p !== null) p.nextSameId = n;
    if (n !== null) n.prevSameId = p;
    else this.lastById[id] = p;
    entry.prevSameId = entry.nextSameId = null;
    this.idCounts[id]--;
    const signature = entry.signature;
    if (signature !== null) {
      const ps = entry.prevSameSignature;
      const ns = entry.nextSameSignature;
      if (ps !== null) ps.nextSameSignature = ns;
      if (ns !== null) ns.prevSameSignature = ps;
      else if (ps !== null) this.lastBySignature.set(signature, ps);
      else this.lastBySignature.delete(signature);
      entry.prevSameSignature = entry.nextSameSignature = null;
    }
    if (record.formatting === entry) record.formatting = null;
    if (this.listener !== null) this.listener.removed(record.node);
  }

  /** The first entry of an id / a signature (only where an entry is chained first: rare, O(chain)). */
  private firstOfId(id: number): FormattingEntry<N> | null {
    let e = this.lastById[id];
    while (e !== null && e.prevSameId !== null) e = e.prevSameId;
    return e;
  }
  private firstOfSignature(signature: string): FormattingEntry<N> | null {
    let e = this.lastBySignature.get(signature) ?? null;
    while (e !== null && e.prevSameSignature !== null) e = e.prevSameSignature;
    return e;
  }

  // --- The operations of §13.2.4.3 and the adoption agency -------------------------------------------

  pushMarker(): void {
    const seq = this.seq++;
    this.linkAfter(new FormattingEntry<N>(MARKER, this.level, seq), this.last);
    this.level++;
    if (this.listener !== null) this.listener.markerPushed(seq);
  }

  /** §13.2.4.3 "push onto the list of active formatting elements", with Noah's Ark. */
  push(record: ElementRecord<N>): void {
    if (this.onPush !== null) this.onPush(record);
    this.dropped = null;
    const id = record.id;
    let signature: string | null = null;
    let prevSameSignature: FormattingEntry<N> | null = null;
    if (this.tracked[id] !== 0) {
      // Step 2: three elements equal to this one since the last marker: remove the earliest. This step
      // keeps the list at three such at most, so they are the last three of the signature's chain, all
      // after the last marker when the third from last is (levels never decrease along the list). (An
      // untracked id has at most two entries: nothing to remove.)
      signature = signatureOf(record);
      let third = this.lastBySignature.get(signature) ?? null;
      for (let k = 1; k < 3 && third !== null; k++) third = third.prevSameSignature;
      if (third !== null && third.level === this.level) {
        this.dropped = third.element;
        this.removeEntry(third);
        if (this.onNoahsArk !== null) this.onNoahsArk(third.element!);
      }
      prevSameSignature = this.lastBySignature.get(signature) ?? null;
    }
    const entry = new FormattingEntry<N>(record, this.level, this.seq++);
    entry.signature = signature;
    this.linkAfter(entry, this.last);
    record.formatting = entry;
    this.chain(entry, this.lastById[id], prevSameSignature);
    if (this.listener !== null) this.listener.pushed(record.node, entry.seq);
  }

  private removeEntry(entry: FormattingEntry<N>): void {
    this.unlinkEntry(entry);
    this.unchain(entry);
  }

  /** Remove `record`'s entry, if it has one. */
  remove(record: ElementRecord<N>): void {
    const entry = record.formatting as FormattingEntry<N> | null;
    if (entry === null) return;
    this.removeEntry(entry);
  }

  /** Whether `record`'s entry is the list's last item. */
  isLast(record: ElementRecord<N>): boolean {
    const entry = record.formatting;
    return entry !== null && this.last === entry;
  }

  /** Remove the list's last item, an element's entry (see `isLast`). */
  removeLast(): void {
    this.removeEntry(this.last!);
  }

  /** Whether `record` is in the list. */
  contains(record: ElementRecord<N>): boolean {
    return record.formatting !== null;
  }

  /**
   * Insert an entry for `record` right after `after`'s (the adoption agency's bookmark, step 4.18).
   * `record` is a new element for the token of `sameId`'s element (the formatting element), whose entry
   * is still in the list: the new entry's place in the id and signature chains is found from there. When
   * `after`'s entry comes later in the list (the usual case: `after` was opened after the formatting
   * element; told in O(1) by creation order), no entry of the id lies between (the formatting element is
   * the last of its id since the last marker), so the new entry follows the formatting element's in both
   * chains: O(1). Otherwise (the adoption agency has reordered elements before) the list is walked back
   * from `after`'s entry to the nearest entry of the id.
   */
  insertAfter(after: ElementRecord<N>, record: ElementRecord<N>, sameId: ElementRecord<N>): void {
    const afterEntry = after.formatting as FormattingEntry<N>;
    const sameEntry = sameId.formatting as FormattingEntry<N>;
    const signature = sameEntry.signature;
    const entry = new FormattingEntry<N>(record, afterEntry.level, afterEntry.seq);
    entry.signature = signature;
    let prevSameId: FormattingEntry<N> | null = sameEntry;
    let prevSameSignature: FormattingEntry<N> | null = signature !== null ? sameEntry : null;
    if (!(afterEntry.seq > sameEntry.seq && afterEntry.level === sameEntry.level)) {
      prevSameId = null;
      for (let e: FormattingEntry<N> | null = afterEntry; e !== null; e = e.prev) {
        if (e.element !== null && e.element.id === record.id) {
          prevSameId = e;
          break;
        }
      }
      prevSameSignature = null;
      if (signature !== null) {
        for (let e = prevSameId; e !== null; e = e.prevSameId) {
          if (e.signature === signature) {
            prevSameSignature = e;
            break;
          }
        }
      }
    }
    this.linkAfter(entry, afterEntry);
    record.formatting = entry;
    this.chain(entry, prevSameId, prevSameSignature);
    if (this.listener !== null) this.listener.inserted(record.node, after.node, entry.seq);
  }

  /**
   * Make the entry of `old` the entry of `record` (reconstruction step 9, adoption agency steps 4.13.6 and
   * 4.18): `record` was created for the same token, so the signature stays.
   */
  replaceElement(old: ElementRecord<N>, record: ElementRecord<N>): void {
    const entry = old.formatting as FormattingEntry<N>;
    if (entry.tailStamp === this.tailStamp) this.tailValid = false;
    old.formatting = null;
    entry.element = record;
    record.formatting = entry;
    if (this.listener !== null) this.listener.replaced(old.node, record.node);
  }

  /** The last element with tag id `id` (HTML) between the end of the list and the last marker, or null. */
  lastBeforeMarker(id: number): ElementRecord<N> | null {
    const entry = this.lastById[id];
    return entry !== null && entry.level === this.level ? entry.element : null;
  }

  /**
   * The first of the entries at the end of the list whose elements are not open, back to the last
   * marker or open element: what "reconstruct the active formatting elements" would copy now (null:
   * nothing, the usual case, told in O(1) by the last entry).
   *
   * The rewriter asks before every token. Such a tail can be as long as the document (distinct
   * attributes defeat Noah's Ark: `<i class=i1>`…`<i class=in>` closed by a `</p>`), and while no token
   * reconstructs it, it stays: so the last answer is kept, and found again in O(1) while it holds — its
   * entries untouched (`tailValid`), the same last entry, and the entry before its first still a marker
   * or open (else the tail grew backwards). Elements never reopen, so the entries in between stay closed.
   */
  tailStart(): FormattingEntry<N> | null {
    const last = this.last;
    if (last === null || last.element === MARKER || last.element.open) return null;
    if (this.tailValid && this.tailLast === last) {
      const first = this.tailFirst!;
      const before = first.prev;
      if (before === null || before.element === MARKER || before.element.open) return first;
    }
    let entry = last;
    for (let before = entry.prev; before !== null && before.element !== MARKER && !before.element.open; before = entry.prev) entry = before;
    const stamp = ++this.tailStamp;
    for (let e: FormattingEntry<N> | null = entry; e !== null; e = e.next) e.tailStamp = stamp;
    this.tailFirst = entry;
    this.tailLast = last;
    this.tailValid = true;
    this.tailNodeArray = null;
    return entry;
  }

  /**
   * The nodes of `tailStart`'s entries, in list order (null: no tail). Remembered with the tail while it
   * holds: the same array each time, which callers must not change.
   */
  tailNodes(): N[] | null {
    const first = this.tailStart();
    if (first === null) return null;
    let nodes = this.tailNodeArray;
    if (nodes === null) {
      nodes = [];
      for (let e: FormattingEntry<N> | null = first; e !== null; e = e.next) nodes.push(e.element!.node);
      this.tailNodeArray = nodes;
    }
    return nodes;
  }

  /** Whether at least `k` entries follow the last marker (O(k)). */
  atLeastSinceMarker(k: number): boolean {
    let e = this.last;
    for (let n = 0; n < k; n++, e = e.prev) if (e === null || e.element === MARKER) return false;
    return true;
  }

  /** Every entry in list order: the element's node, or null for a marker, and the entry's seq. */
  forEachEntry(visit: (node: N | null, seq: number) => void): void {
    for (let e = this.first; e !== null; e = e.next) visit(e.element === MARKER ? null : e.element.node, e.seq);
  }

  /** §13.2.4.3 "clear the list of active formatting elements up to the last marker". */
  clearToLastMarker(): void {
    while (this.last !== null) {
      const entry = this.last;
      this.unlinkEntry(entry);
      if (entry.element === null) {
        this.level--;
        if (this.listener !== null) this.listener.markerCleared();
        return;
      }
      this.unchain(entry);
    }
  }
}
