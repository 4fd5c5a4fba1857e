/**
 * The list of active formatting elements (WHATWG HTML §13.2.4.3).
 *
 * Entries are element records (which keep the token's name and attributes, for reconstruction) or
 * markers. Each record points back at its entry, so "is this element in the list" is O(1).
 *
 * Noah's Ark ("push onto the list of active formatting elements", step 2) needs the elements equal to the
 * new one since the last marker. A naive scan is O(list) per push — quadratic on 100,000 distinct
 * formatting elements — so the list counts entries by equality signature and only scans (backwards,
 * stopping at the third match) when three equal elements may exist.
 */
import type { ElementAttribute } from './sink.js';
import type { ElementRecord } from './stack-of-open-elements.js';

/** A marker (applet, object, marquee, template, td, th, caption). */
export const MARKER = null;

export class FormattingEntry<N> {
  constructor(
    public element: ElementRecord<N>,
    readonly signature: string,
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
  private readonly signatureCounts = new Map<string, number>();

  get length(): number {
    return this.items.length;
  }

  private counted(entry: FormattingEntry<N>, delta: number): void {
    const count = (this.signatureCounts.get(entry.signature) ?? 0) + delta;
    if (count === 0) this.signatureCounts.delete(entry.signature);
    else this.signatureCounts.set(entry.signature, count);
  }

  pushMarker(): void {
    this.items.push(MARKER);
  }

  /** §13.2.4.3 "push onto the list of active formatting elements", with Noah's Ark. */
  push(record: ElementRecord<N>): void {
    const signature = signatureOf(record);
    if ((this.signatureCounts.get(signature) ?? 0) >= 3) {
      // Find the earliest of three equal elements after the last marker, scanning backwards.
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
    const entry = new FormattingEntry(record, signature);
    record.formatting = entry;
    this.items.push(entry);
    this.counted(entry, 1);
  }

  private removeAt(index: number): void {
    const entry = this.items[index]!;
    this.items.splice(index, 1);
    if (entry.element.formatting === entry) entry.element.formatting = null;
    this.counted(entry, -1);
  }

  /** Remove `record`'s entry, if it has one. */
  remove(record: ElementRecord<N>): void {
    const entry = record.formatting as FormattingEntry<N> | null;
    if (entry === null) return;
    const index = this.items.lastIndexOf(entry);
    if (index >= 0) this.removeAt(index);
    else record.formatting = null;
  }

  /** Whether `record` is in the list. */
  contains(record: ElementRecord<N>): boolean {
    return record.formatting !== null;
  }

  indexOfRecord(record: ElementRecord<N>): number {
    const entry = record.formatting as FormattingEntry<N> | null;
    return entry === null ? -1 : this.items.lastIndexOf(entry);
  }

  /** Insert an entry for `record` at `index` (the adoption agency's bookmark). */
  insertAt(index: number, record: ElementRecord<N>): void {
    const entry = new FormattingEntry(record, signatureOf(record));
    record.formatting = entry;
    this.items.splice(index, 0, entry);
    this.counted(entry, 1);
  }

  /** Make the entry of `old` the entry of `record` (reconstruction step 9, adoption agency step 4.13.7). */
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
      if (item.element.formatting === item) item.element.formatting = null;
      this.counted(item, -1);
    }
  }
}
