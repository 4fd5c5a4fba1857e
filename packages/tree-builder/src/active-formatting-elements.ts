/**
 * The list of active formatting elements (WHATWG HTML §13.2.4.3).
 *
 * Entries are element records (which keep the token's name and attributes, for reconstruction) or
 * markers. Each record points back at its entry, so "is this element in the list" is O(1).
 *
 * Noah's Ark ("push onto the list of active formatting elements", step 2) needs the elements equal to the
 * new one since the last marker. A naive scan is O(list) per push — quadratic on 100,000 distinct
 * formatting elements — so the list counts its entries per tag name and, once a tag name has three
 * entries, counts that name's entries per equality signature (name + attributes): it only scans
 * (backwards, stopping at the third match) when three equal elements may exist, and builds no signature
 * at all for the common case of fewer than three entries of a name.
 */
import type { ElementRecord } from './stack-of-open-elements.js';
import { TAG_ID_COUNT } from './tag-sets.js';

/** A marker (applet, object, marquee, template, td, th, caption). */
export const MARKER = null;

export class FormattingEntry<N> {
  constructor(
    public element: ElementRecord<N>,
    /** The Noah's Ark key, computed only once the tag name has three entries (else null). */
    public signature: string | null,
  ) {}
}

export type ListItem<N> = FormattingEntry<N> | typeof MARKER;

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
  readonly items: ListItem<N>[] = [];
  /** Entries per tag id (formatting elements are always HTML elements with known ids). */
  private readonly idCounts = new Int32Array(TAG_ID_COUNT);
  /** Tag ids whose entries carry signatures (set once a tag id has had three entries at a time). */
  private readonly tracked = new Uint8Array(TAG_ID_COUNT);
  /** Entries per signature, for the tracked tag ids. */
  private readonly signatureCounts = new Map<string, number>();

  get length(): number {
    return this.items.length;
  }

  private countSignature(signature: string, delta: number): void {
    const count = (this.signatureCounts.get(signature) ?? 0) + delta;
    if (count === 0) this.signatureCounts.delete(signature);
    else this.signatureCounts.set(signature, count);
  }

  /** A new entry for `record`, counted. */
  private entryFor(record: ElementRecord<N>): FormattingEntry<N> {
    const id = record.id;
    let signature: string | null = null;
    if (this.tracked[id] === 0 && this.idCounts[id] >= 2) {
      // The third entry of this name: from now on its entries carry signatures.
      this.tracked[id] = 1;
      for (const item of this.items) {
        if (item !== MARKER && item.element.id === id) {
          item.signature = signatureOf(item.element);
          this.countSignature(item.signature, 1);
        }
      }
    }
    if (this.tracked[id] !== 0) {
      signature = signatureOf(record);
      this.countSignature(signature, 1);
    }
    this.idCounts[id]++;
    const entry = new FormattingEntry(record, signature);
    record.formatting = entry;
    return entry;
  }

  private uncount(entry: FormattingEntry<N>): void {
    this.idCounts[entry.element.id]--;
    if (entry.signature !== null) this.countSignature(entry.signature, -1);
    if (entry.element.formatting === entry) entry.element.formatting = null;
  }

  pushMarker(): void {
    this.items.push(MARKER);
  }

  /** §13.2.4.3 "push onto the list of active formatting elements", with Noah's Ark. */
  push(record: ElementRecord<N>): void {
    const entry = this.entryFor(record);
    const signature = entry.signature;
    if (signature !== null && this.signatureCounts.get(signature)! > 3) {
      // Three equal elements already: remove the earliest of them since the last marker, if there are
      // three since the marker (scanning backwards, stopping at the third match).
      let found = 0;
      for (let i = this.items.length - 1; i >= 0; i--) {
        const item = this.items[i];
        if (item === MARKER) break;
        if (item.signature === signature && ++found === 3) {
          this.removeAt(i);
          break;
        }
      }
    }
    this.items.push(entry);
  }

  private removeAt(index: number): void {
    const entry = this.items[index]!;
    this.items.splice(index, 1);
    this.uncount(entry);
  }

  /** Remove `record`'s entry, if it has one. */
  remove(record: ElementRecord<N>): void {
    const entry = record.formatting as FormattingEntry<N> | null;
    if (entry === null) return;
    const index = this.items.lastIndexOf(entry);
    if (index >= 0) this.removeAt(index);
    else record.formatting = null;
  }

  /** Whether `record`'s entry is the list's last item. */
  isLast(record: ElementRecord<N>): boolean {
    const items = this.items;
    const entry = record.formatting;
    return entry !== null && items.length > 0 && items[items.length - 1] === entry;
  }

  /** Remove the list's last item, an element's entry (see `isLast`). */
  removeLast(): void {
    this.uncount(this.items.pop() as FormattingEntry<N>);
  }

  /** Whether `record` is in the list. */
  contains(record: ElementRecord<N>): boolean {
    return record.formatting !== null;
  }

  indexOfRecord(record: ElementRecord<N>): number {
    const entry = record.formatting as FormattingEntry<N> | null;
    return entry === null ? -1 : this.items.lastIndexOf(entry);
  }

  /** Insert an entry for `record` right after `after`'s (the adoption agency's bookmark). */
  insertAfter(after: ElementRecord<N>, record: ElementRecord<N>): void {
    const index = this.items.lastIndexOf(after.formatting as FormattingEntry<N>);
    this.items.splice(index + 1, 0, this.entryFor(record));
  }

  /**
   * Make the entry of `old` the entry of `record` (reconstruction step 9, adoption agency step 4.13.7):
   * `record` was created for the same token, so the signature stays.
   */
  replaceElement(old: ElementRecord<N>, record: ElementRecord<N>): void {
    const entry = old.formatting as FormattingEntry<N>;
    old.formatting = null;
    entry.element = record;
    record.formatting = entry;
  }

  /**
   * The last element with tag id `id` (HTML) between the end of the list and the last marker, or null.
   */
  lastBeforeMarker(id: number): ElementRecord<N> | null {
    if (this.idCounts[id] === 0) return null;
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = this.items[i];
      if (item === MARKER) return null;
      if (item.element.id === id) return item.element;
    }
    return null;
  }

  /** §13.2.4.3 "clear the list of active formatting elements up to the last marker". */
  clearToLastMarker(): void {
    while (this.items.length > 0) {
      const item = this.items.pop()!;
      if (item === MARKER) return;
      this.uncount(item);
    }
  }
}
