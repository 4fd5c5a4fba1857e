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
  // 1. The target: the override target, or the current node.
  const target = overrideTarget ?? tb.stack.current;
  // 2. Foster parenting (apart: this runs for every element inserted, and a small function is inlined).
  const parent = tb.fosterParenting && isFosterTarget(target) ? fosterParent(tb) : target;
  if (parent === null) return;
  // 3. Inside a template element: inside its template contents instead.
  tb.placeParent = parent.id === T.TEMPLATE && parent.flags & HTML_NS ? tb.sink.templateContents(parent.node) : parent.node;
  tb.placeBefore = null;
}

/**
 * §13.2.6.1 step 2, foster parenting: the element to insert into (then step 3 applies), or null when
 * the place is already decided (a template's contents, or just before the table).
 */
function fosterParent<N>(tb: TreeBuilder<N>): ElementRecord<N> | null {
  // The last template and the last table, from the stack's per-name tops: O(1) whatever the depth (a
  // walk down would pass every open element when no template is open, for each foster-parented node).
  const stack = tb.stack;
  const template = stack.topmost(T.TEMPLATE);
  const table = stack.topmost(T.TABLE);
  if (template !== null && (table === null || template.order > table.order)) {
    // Inside the last template's contents, after its last child.
    tb.placeParent = tb.sink.templateContents(template.node);
    tb.placeBefore = null;
    return null;
  }
  // Fragment case: inside the first element (html), after its last child.
  if (table === null) return stack.first;
  const tableParent = tb.sink.parentNode(table.node);
  // The element above which the table is (in the standard's words): the one below it in the stack.
  if (tableParent === null) return table.below;
  tb.placeParent = tableParent;
  tb.placeBefore = table.node;
  return null;
}
