/**
 * §13.2.6.1 "the appropriate place for inserting a node", foster parenting included.
 *
 * The result goes into `tb.placeParent` / `tb.placeBefore` (no allocation on the hot path).
 */
import type { ElementRecord } from './stack-of-open-elements.js';
import { HTML_NS, T } from './tag-sets.js';
import type { TreeBuilder } from './tree-builder.js';

/** Whether `record` is a table, tbody, tfoot, thead or tr element: where foster parenting applies. */
function isFosterTarget<N>(record: ElementRecord<N>): boolean {
  if (!(record.flags & HTML_NS)) return false;
  const id = record.id;
  return id === T.TABLE || id === T.TBODY || id === T.TFOOT || id === T.THEAD || id === T.TR;
}

export function appropriatePlace<N>(tb: TreeBuilder<N>, overrideTarget: ElementRecord<N> | null): void {
  const items = tb.stack.items;
  // 1. The target: the override target, or the current node.
  const target = overrideTarget ?? items[items.length - 1];
  // 2. Foster parenting (apart: this runs for every element inserted, and a small function is inlined).
  const parent = tb.fosterParenting && isFosterTarget(target) ? fosterParent(tb, items) : target;
  if (parent === null) return;
  // 3. Inside a template element: inside its template contents instead.
  tb.placeParent = parent.id === T.TEMPLATE && parent.flags & HTML_NS ? tb.sink.templateContents(parent.node) : parent.node;
  tb.placeBefore = null;
}

/**
 * §13.2.6.1 step 2, foster parenting: the element to insert into (then step 3 applies), or null when
 * the place is already decided (a template's contents, or just before the table).
 */
function fosterParent<N>(tb: TreeBuilder<N>, items: readonly ElementRecord<N>[]): ElementRecord<N> | null {
  let lastTemplate = -1;
  let lastTable = -1;
  for (let i = items.length - 1; i >= 0 && (lastTemplate < 0 || lastTable < 0); i--) {
    const record = items[i];
    if (!(record.flags & HTML_NS)) continue;
    if (record.id === T.TEMPLATE && lastTemplate < 0) lastTemplate = i;
    else if (record.id === T.TABLE && lastTable < 0) lastTable = i;
  }
  if (lastTemplate >= 0 && (lastTable < 0 || lastTemplate > lastTable)) {
    // Inside the last template's contents, after its last child.
    tb.placeParent = tb.sink.templateContents(items[lastTemplate].node);
    tb.placeBefore = null;
    return null;
  }
  // Fragment case: inside the first element (html), after its last child.
  if (lastTable < 0) return items[0];
  const table = items[lastTable];
  const tableParent = tb.sink.parentNode(table.node);
  if (tableParent === null) return items[lastTable - 1];
  tb.placeParent = tableParent;
  tb.placeBefore = table.node;
  return null;
}
