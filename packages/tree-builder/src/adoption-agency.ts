/**
 * §13.2.6.4.7 The adoption agency algorithm (for end tags of formatting elements, and `<a>`/`<nobr>`
 * start tags that find one already open).
 */
import { appropriatePlace } from './appropriate-place.js';
import type { SourceLocation } from './sink.js';
import type { ElementRecord } from './stack-of-open-elements.js';
import { SPECIAL } from './tag-sets.js';
import type { TreeBuilder } from './tree-builder.js';

/**
 * Run the adoption agency algorithm for the tag id `subject` (an HTML formatting element name).
 * Returns false when the caller must "instead act as described in the 'any other end tag' entry".
 */
export function adoptionAgency<N>(
  tb: TreeBuilder<N>,
  subject: number,
  endLocation: SourceLocation | null,
): boolean {
  const stack = tb.stack;
  const afe = tb.afe;
  // 2. The current node is the subject and not in the list: just pop it.
  const current = stack.current;
  if (current.is(subject)) {
    if (!afe.contains(current)) {
      stack.pop(endLocation);
      return true;
    }
    // The usual `<b>…</b>`: the current node is the list's last entry. Then it is the formatting element
    // (4.3), on the stack and in scope (4.4–4.5), and no furthest block is above it (4.7): 4.8 pops it
    // and removes it from the list.
    if (afe.isLast(current)) {
      stack.pop(endLocation);
      afe.removeLast();
      return true;
    }
  }
  // 3–4. The outer loop, at most 8 times.
  for (let outer = 0; outer < 8; outer++) {
    // 4.3 The formatting element: the last element in the list, after the last marker, with this name.
    const formattingElement = afe.lastBeforeMarker(subject);
    if (formattingElement === null) return false;
    // 4.4 Not on the stack: remove it from the list.
    if (!formattingElement.open) {
      tb.error('adoption-agency-1.2');
      afe.remove(formattingElement);
      tb.sink.activeFormattingElementDropped?.(formattingElement.node, 'not-open');
      return true;
    }
    // 4.5 On the stack but not in scope.
    if (!stack.hasRecordInScope(formattingElement)) {
      tb.error('adoption-agency-4.4');
      return true;
    }
    // 4.6 (A parse error in each pass of the outer loop: html5lib's expectations count each too.)
    if (formattingElement !== stack.current) tb.error('adoption-agency-1.3');
    // 4.7 The furthest block: the topmost special element below the formatting element — the first
    // special one above it in the stack. The walk passes only non-special nodes, which the inner loop
    // below visits anyway (and removes, or keeps at most three of): O(1) amortized per outer iteration.
    let furthestBlock: ElementRecord<N> | null = formattingElement.above;
    while (furthestBlock !== null && !(furthestBlock.flags & SPECIAL)) furthestBlock = furthestBlock.above;
    // 4.8 No furthest block: pop up to and including the formatting element; drop it from the list.
    if (furthestBlock === null) {
      stack.popUntilRecord(formattingElement, endLocation);
      afe.remove(formattingElement);
      return true;
    }
    // 4.9 The common ancestor.
    const commonAncestor = formattingElement.below!;
    // 4.10 The bookmark: a position in the list — the formatting element's entry until step 4.13.7 puts
    // it right after a new element's entry (entries are linked: no index to keep up to date).
    let bookmarkAfter: ElementRecord<N> | null = null;
    // 4.11–4.13 The inner loop.
    let node: ElementRecord<N> = furthestBlock;
    let lastNode = furthestBlock;
    // The elements visited, for a sink told of 4.13.4 (`TreeSink.adoptionAgencyDroppedPastThree`): one
    // array a pass, only appended to, so that telling costs no copy (a pass may drop thousands).
    const passed: N[] | null = tb.sink.adoptionAgencyDroppedPastThree === undefined ? null : [];
    for (let inner = 1; ; inner++) {
      // 4.13.2 The element above node (or above where it was, if it was removed: a removed record keeps
      // its `below`).
      node = node.below!;
      // 4.13.3
      if (node === formattingElement) break;
      // 4.13.4 Past the third iteration, drop node from the list.
      if (inner > 3 && afe.contains(node)) {
        afe.remove(node);
        if (passed !== null) tb.sink.adoptionAgencyDroppedPastThree!(node.node, passed, passed.length);
      }
      if (passed !== null) passed.push(node.node);
      // 4.13.5 Not in the list: remove it from the stack, go on.
      if (!afe.contains(node)) {
        stack.remove(node);
        continue;
      }
      // 4.13.6 Replace node by a new element for the same token, in the list and on the stack.
      const replacement = tb.createCopy(node, 'adoption-agency');
      afe.replaceElement(node, replacement);
      stack.replace(node, replacement);
      node = replacement;
      // 4.13.7 The bookmark goes right after the new element.
      if (lastNode === furthestBlock) bookmarkAfter = node;
      // 4.13.8 Append last node to node.
      tb.sink.insertBefore(node.node, lastNode.node, null);
      // 4.13.9
      lastNode = node;
    }
    // 4.14 Insert last node at the appropriate place, the common ancestor being the override target.
    appropriatePlace(tb, commonAncestor);
    tb.sink.insertBefore(tb.placeParent, lastNode.node, tb.placeBefore);
    // 4.15 A new element for the formatting element's token.
    const element = tb.createCopy(formattingElement, 'adoption-agency');
    // 4.16–4.17 The furthest block's children move into it; it becomes the furthest block's child.
    tb.sink.moveChildren(furthestBlock.node, element.node);
    tb.sink.insertBefore(furthestBlock.node, element.node, null);
    // 4.18 In the list: the new element in at the bookmark, the formatting element out.
    if (bookmarkAfter === null) afe.replaceElement(formattingElement, element);
    else {
      afe.insertAfter(bookmarkAfter, element, formattingElement);
      afe.remove(formattingElement);
    }
    // 4.19 On the stack: the new element in right below the furthest block, the formatting element out.
    stack.insertAfter(furthestBlock, element, formattingElement);
    stack.remove(formattingElement, endLocation);
  }
  return true;
}
