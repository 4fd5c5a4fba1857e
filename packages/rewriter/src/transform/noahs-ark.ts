/**
 * Noah's Ark, as a parser reading the output runs it (HTML §13.2.4.3 "push onto the list of active
 * formatting elements", step 2): pushing an element, a parser removes the earliest of three elements
 * after the last marker that are equal to it — same name, same attributes. The input's parser compares
 * the source's tags; a browser reading the output compares the tags as written (renamed, attributes
 * changed, left out). Where they would remove different entries, the trees part ways, and the rewrite
 * is refused (`Executor.checkNoahsArk`).
 *
 * The check asks, at each push: which entries since the last marker have the pushed element's tag as
 * written. Looking at every entry costs O(list) per push, and the list can be as long as the document (n
 * unclosed `<font color=cN>` after one link given `rel`: quadratic, 61 s at n = 10,000). This file keeps
 * an index of the list instead:
 *
 * - `NoahsArkIndex` holds a copy of the list (a `Slot` per entry: its creation order `seq`, the entry it
 *   was inserted after), kept in the order the ops run (`ListEvents` turns each change the tree builder
 *   reports into an op): an op queued behind an async handler or a hold sees the list as it was when
 *   its token was parsed, as the check needs.
 * - The entries are filed by the tag the output has for them (`theirs`, a signature string), each key's
 *   filings in list order. Keys are made lazily, when a check runs, and again when a chain of copies'
 *   output tag may have changed (`CopyChain.noahIndex`); an entry whose key is no longer its own is
 *   dropped from a key's filings when a check meets it.
 * - A check reads the filings of one key from the end back to the last marker. A browser's own Noah's
 *   Ark keeps three of a kind at most there, so that is O(1) besides the stale filings it removes (each
 *   once).
 *
 * While the list is short (fewer than `NOAHS_ARK_LONG` entries after its last marker), the check walks
 * it instead (`noahsArkByWalk`): most pages never have more than a few entries, and the index costs an
 * op per change to the list.
 *
 * List order: entries are made in increasing `seq`, except that the adoption agency's bookmark
 * insertion (§13.2.6.4.7 step 4.18) gives the new entry the seq of the entry it follows. Such ties are
 * ordered by the insertion tree: an inserted entry right after its anchor, the later of two inserted
 * after the same anchor first.
 */
import type { ElementRecord } from '../view/records.js';
import { chainOf } from '../view/records.js';

/** An entry of the index's copy of the list of active formatting elements. */
export class Slot {
  /** The element the entry is for now (a copy takes its original's entry); null once the entry is removed. */
  el: ElementRecord | null;
  /** The entry's position: `FormattingEntry.seq` (see the file comment for ties). */
  readonly seq: number;
  /** The entry it was inserted right after, when it shares that entry's seq; else null. */
  readonly anchor: Slot | null;
  /** Creation order among slots: of two inserted after the same anchor, the later comes first. */
  readonly created: number;
  /** Where it is filed now (null: not filed, or its key is pending). */
  filing: Filing | null = null;
  /** Whether it waits in `pending` to be filed. */
  queued = false;

  /** The `NoahsArkIndex` generation it belongs to. */
  readonly generation: number;

  constructor(el: ElementRecord, seq: number, anchor: Slot | null, created: number, generation = 0) {
    this.el = el;
    this.seq = seq;
    this.anchor = anchor;
    this.created = created;
    this.generation = generation;
  }
}

/** A slot filed under a key; stale once the slot's `filing` is another. */
class Filing {
  constructor(
    readonly slot: Slot,
    readonly key: string,
  ) {}
}

/** Whether slot `a` comes before slot `b` in the list. */
export function precedes(a: Slot, b: Slot): boolean {
  if (a.seq !== b.seq) return a.seq < b.seq;
  if (a === b) return false;
  const pa = pathOf(a);
  const pb = pathOf(b);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  if (i === pa.length) return true; // (a is b's anchor, or its anchor's …)
  if (i === pb.length) return false;
  return pa[i]!.created > pb[i]!.created;
}

function pathOf(slot: Slot): Slot[] {
  const path: Slot[] = [];
  for (let s: Slot | null = slot; s !== null; s = s.anchor) path.push(s);
  return path.reverse();
}

/** A change to the list, as an op (`OP_LIST`): what `ListEvents` saw, applied by `NoahsArkIndex.apply`. */
export const LIST_PUSHED = 0;
export const LIST_INSERTED = 1;
export const LIST_REPLACED = 2;
export const LIST_REMOVED = 3;
export const LIST_MARKER_PUSHED = 4;
export const LIST_MARKER_CLEARED = 5;

export interface ListChange {
  readonly e: number;
  /** The element pushed, inserted, removed, or the copy that took `other`'s entry. */
  readonly el: ElementRecord | null;
  /** The entry inserted after (`LIST_INSERTED`), or the element replaced (`LIST_REPLACED`). */
  readonly other: ElementRecord | null;
  readonly seq: number;
}

/** The list as it is when the index starts (`OP_LIST_LOAD`). */
export interface ListLoad {
  /** Every entry in list order: its element, or null for a marker. */
  readonly nodes: readonly (ElementRecord | null)[];
  readonly seqs: readonly number[];
}

/** What a push is checked by: the entry each parser removes (null: none). */
export interface NoahsArkOutcome {
  /** The entry the input's parser removes, where a parser reading the output has it in its list. */
  readonly want: ElementRecord | null;
  /** The entry a parser reading the output removes, comparing the tags as written. */
  readonly got: ElementRecord | null;
}

/**
 * When the index is kept: from a push with `LONG` entries or more after the last marker (below that,
 * the check walks the list: most pages never have more than a few entries, and keeping the index costs
 * an op per change to the list), until the list is shorter than `SHORT` again at a push while ops run
 * as they come.
 */
export const NOAHS_ARK_LONG = 16;
export const NOAHS_ARK_SHORT = 8;

export class NoahsArkIndex {
  /** Whether the transformer keeps the index: its `load` was asked for (an op: it may wait behind others), the list's changes follow it. */
  started = false;
  /** The thresholds (`noahsArkThresholds`). */
  readonly long: number;
  readonly short: number;
  /** Bumped by `reset`: slots and members of an earlier generation are not this index's. */
  private generation = 0;
  /** The seqs of the markers in the list, first to last. */
  private markers: number[] = [];
  /** Each key's filings, in list order (stale ones among them). */
  private byKey = new Map<string, Filing[]>();
  /** Slots whose key is to be made again. */
  private pending: Slot[] = [];
  private created = 0;
  /** Filings made since the last sweep, and live slots: a sweep drops stale filings once they dominate. */
  private filings = 0;
  private live = 0;

  /**
   * @param theirs The signature of the tag the output has for an element in the output parser's list
   *   (null: not in that list, or not written).
   */
  constructor(private readonly theirs: (el: ElementRecord) => string | null) {
    const { long, short } = noahsArkThresholds();
    this.long = long;
    this.short = short;
  }

  // --- The copy of the list ----------------------------------------------------------------------

  /** Start from the list as it is (`OP_LIST_LOAD`). */
  load(list: ListLoad): void {
    let prev: Slot | null = null;
    for (let i = 0; i < list.nodes.length; i++) {
      const el = list.nodes[i]!;
      const seq = list.seqs[i]!;
      if (el === null) {
        this.markers.push(seq);
        prev = null;
        continue;
      }
      // (Entries that share a seq are in list order: each is taken as inserted after the one before.)
      prev = this.add(el, seq, prev !== null && prev.seq === seq ? prev : null);
    }
  }

  /** Forget everything (the transformer stopped keeping the index, with no op waiting). */
  reset(): void {
    this.generation++;
    this.markers = [];
    this.byKey = new Map();
    this.pending = [];
    this.filings = 0;
    this.live = 0;
  }

  private slotOf(el: ElementRecord): Slot | null {
    const chain = el.chain;
    if (chain === null) return null;
    const slot = chain.noahSlot as Slot | null;
    return slot !== null && slot.generation === this.generation ? slot : null;
  }

  /** The members of `original`'s chain of copies that have slots (made on first use). */
  private membersOf(original: ElementRecord): ElementRecord[] {
    const chain = chainOf(original);
    if (chain.noahIndex !== this || chain.noahGeneration !== this.generation) {
      chain.noahIndex = this;
      chain.noahGeneration = this.generation;
      chain.noahMembers = [];
    }
    return chain.noahMembers!;
  }

  private add(el: ElementRecord, seq: number, anchor: Slot | null): Slot {
    const slot = new Slot(el, seq, anchor, this.created++, this.generation);
    chainOf(el).noahSlot = slot;
    this.took(slot, el);
    return slot;
  }

  /** `el` has `slot`'s entry now. */
  private took(slot: Slot, el: ElementRecord): void {
    slot.el = el;
    chainOf(el).noahSlot = slot;
    this.live++;
    this.membersOf(el.copyOf ?? el).push(el);
    this.queue(slot);
  }

  private remove(el: ElementRecord): Slot | null {
    const slot = this.slotOf(el);
    if (slot === null || slot.el !== el) return null;
    slot.el = null;
    this.live--;
    const members = this.membersOf(el.copyOf ?? el);
    const i = members.lastIndexOf(el);
    if (i >= 0) members.splice(i, 1);
    return slot;
  }

  /** A change to the list (`OP_LIST`), in op order. */
  apply(change: ListChange): void {
    switch (change.e) {
      case LIST_PUSHED:
        this.add(change.el!, change.seq, null);
        return;
      case LIST_INSERTED: {
        const after = this.slotOf(change.other!);
        this.add(change.el!, change.seq, after !== null && after.seq === change.seq ? after : null);
        return;
      }
      case LIST_REPLACED: {
        // (The copy takes the entry: the same place in the list.)
        const slot = this.remove(change.other!);
        if (slot !== null) this.took(slot, change.el!);
        return;
      }
      case LIST_REMOVED:
        this.remove(change.el!);
        return;
      case LIST_MARKER_PUSHED:
        this.markers.push(change.seq);
        return;
      case LIST_MARKER_CLEARED:
        this.markers.pop();
        return;
    }
  }

  /** A member of `original`'s chain of copies may have another output tag now: its key is made again. */
  chainChanged(original: ElementRecord): void {
    const chain = original.chain;
    if (chain === null || chain.noahGeneration !== this.generation || chain.noahMembers === null) return;
    for (const el of chain.noahMembers) {
      const slot = this.slotOf(el);
      if (slot !== null && slot.el === el) this.queue(slot);
    }
  }

  private queue(slot: Slot): void {
    if (slot.queued) return;
    slot.queued = true;
    this.pending.push(slot);
    // (Keys are made when a check runs; where none does for long, the queue is not let grow.)
    if (this.pending.length > 4096 + 2 * this.live) this.fileAll();
  }

  // --- Filing by output tag ----------------------------------------------------------------------

  /** Make the keys of the slots queued (O(1) each, but for an insertion in the middle of a key's filings). */
  private fileAll(): void {
    const pending = this.pending;
    this.pending = [];
    for (const slot of pending) {
      slot.queued = false;
      const el = slot.el;
      if (el === null) continue;
      const key = this.theirs(el);
      if (key === (slot.filing === null ? null : slot.filing.key)) continue;
      slot.filing = key === null ? null : this.file(key, slot);
    }
  }

  private file(key: string, slot: Slot): Filing {
    const filing = new Filing(slot, key);
    let list = this.byKey.get(key);
    if (list === undefined) {
      list = [];
      this.byKey.set(key, list);
    }
    // (Usually the last: a push. A copy takes an older entry's place: found by bisection.)
    if (list.length === 0 || precedes(list[list.length - 1]!.slot, slot)) list.push(filing);
    else {
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (precedes(list[mid]!.slot, slot)) lo = mid + 1;
        else hi = mid;
      }
      list.splice(lo, 0, filing);
    }
    if (++this.filings > 4096 + 4 * this.live) this.sweep();
    return filing;
  }

  /** Drop every stale filing (amortized: run once they outnumber the live ones). */
  private sweep(): void {
    let n = 0;
    for (const [key, list] of this.byKey) {
      const kept = list.filter((f) => f.slot.filing === f && f.slot.el !== null);
      if (kept.length === 0) this.byKey.delete(key);
      else this.byKey.set(key, kept);
      n += kept.length;
    }
    this.filings = n;
  }

  // --- The check ---------------------------------------------------------------------------------

  /**
   * Pushing `el`, for which the input's parser removed `dropped` (null: none): the entry each parser
   * removes. The index must be at the op of `el`'s push (after it, and after `dropped`'s removal).
   */
  outcome(el: ElementRecord, dropped: ElementRecord | null): NoahsArkOutcome {
    const want = dropped !== null && this.theirs(dropped) !== null ? dropped : null;
    const key = this.theirs(el);
    if (key === null) return { want, got: null };
    this.fileAll();
    const droppedSlot = dropped === null ? null : this.slotOf(dropped);
    const marker = this.markers.length > 0 ? this.markers[this.markers.length - 1]! : -Infinity;
    let earliest: Slot | null = null;
    let count = 0;
    const list = this.byKey.get(key);
    if (list !== undefined) {
      for (let i = list.length - 1; i >= 0; i--) {
        const filing = list[i]!;
        const slot = filing.slot;
        if (slot.seq <= marker) break;
        if (slot === droppedSlot) continue;
        const x = slot.el;
        if (slot.filing !== filing || x === null) {
          list.splice(i, 1);
          if (slot.filing === filing) slot.filing = null;
          continue;
        }
        if (x === el) continue;
        // (A key changes without a chain's version moving only to null: the element left the output
        // parser's list — removed, unwrapped, detached.)
        if (this.theirs(x) !== key) {
          list.splice(i, 1);
          slot.filing = null;
          this.queue(slot);
          continue;
        }
        count++;
        earliest = slot;
      }
    }
    if (droppedSlot !== null && dropped !== null && this.theirs(dropped) === key) {
      count++;
      if (earliest === null || precedes(droppedSlot, earliest)) earliest = droppedSlot;
    }
    const got = count >= 3 ? (earliest === droppedSlot ? dropped : earliest!.el) : null;
    return { want, got };
  }
}

/**
 * The check by walking the list: `before`, the entries after the last marker before the push, each
 * compared — the definition the index must agree with, O(list) per push (`verifyNoahsArk`).
 */
export function noahsArkByWalk(
  el: ElementRecord,
  before: readonly ElementRecord[],
  mine: (x: ElementRecord) => string,
  theirs: (x: ElementRecord) => string | null,
): NoahsArkOutcome {
  const earliestOfThree = (sig: string | null, of: (x: ElementRecord) => string | null): ElementRecord | null => {
    if (sig === null) return null;
    let first: ElementRecord | null = null;
    let n = 0;
    for (const x of before) {
      if (of(x) !== sig) continue;
      first ??= x;
      n++;
    }
    return n >= 3 ? first : null;
  };
  const dropped = earliestOfThree(mine(el), mine);
  return { want: dropped !== null && theirs(dropped) !== null ? dropped : null, got: earliestOfThree(theirs(el), theirs) };
}

let verifying = false;

/** What `verifyNoahsArk` compared: checks, and checks where a parser removes an entry (for tests). */
export const verified = { checks: 0, removals: 0 };

/**
 * For tests: check every push both ways, through the index and by walking the list, and throw where
 * they differ (the transformer then keeps the list before every push: O(list) per push).
 */
export function verifyNoahsArk(on: boolean): void {
  verifying = on;
}

/** The thresholds a new index has: low while `verifyNoahsArk` is on, so that most checks go through it (and it starts and stops often). */
export function noahsArkThresholds(): { readonly long: number; readonly short: number } {
  return verifying ? { long: 3, short: 2 } : { long: NOAHS_ARK_LONG, short: NOAHS_ARK_SHORT };
}

/** Whether `verifyNoahsArk` is on. */
export function verifyingNoahsArk(): boolean {
  return verifying;
}

/**
 * The tree builder's listener (`ActiveFormattingListener`): each change to its list of active
 * formatting elements becomes an op (`OP_LIST`), so that the index sees it in op order.
 */
export class ListEvents {
  constructor(private readonly change: (e: number, el: ElementRecord | null, other: ElementRecord | null, seq: number) => void) {}
  pushed(node: unknown, seq: number): void {
    this.change(LIST_PUSHED, node as ElementRecord, null, seq);
  }
  inserted(node: unknown, after: unknown, seq: number): void {
    this.change(LIST_INSERTED, node as ElementRecord, after as ElementRecord, seq);
  }
  replaced(old: unknown, node: unknown): void {
    this.change(LIST_REPLACED, node as ElementRecord, old as ElementRecord, -1);
  }
  removed(node: unknown): void {
    this.change(LIST_REMOVED, node as ElementRecord, null, -1);
  }
  markerPushed(seq: number): void {
    this.change(LIST_MARKER_PUSHED, null, null, seq);
  }
  markerCleared(): void {
    this.change(LIST_MARKER_CLEARED, null, null, -1);
  }
}
