/**
 * `<selectedcontent>` mirroring (HTML §4.10.10 "The option element", §4.10.7 "The select element"):
 * "When an option element is popped off the stack of open elements of an HTML parser, the user agent
 * must run maybe clone an option into selectedcontent given the option element." `DomTreeSink` runs
 * this from `elementPopped`.
 *
 * sluice's DOM has no form-control state, so an option's selectedness is derived when it is needed. For
 * a tree built by the parser (options inserted in tree order, none changed by a user or a script), the
 * selectedness setting algorithm, run as each option was inserted, leaves exactly this option selected:
 * the last option in the select's list of options that has a `selected` attribute; failing that, for a
 * select whose display size is 1, the first option that is not disabled.
 */
import { NS } from '@sluice/tree-builder';
import type { Element } from './element.js';
import { type Node, NodeType, nextInSubtree, nextSkippingChildren } from './node.js';

function isHtml(node: Node | null, localName: string): node is Element {
  return (
    node !== null &&
    node.nodeType === NodeType.ELEMENT_NODE &&
    (node as Element).localName === localName &&
    (node as Element).namespaceURI === NS.HTML
  );
}

/** HTML §4.10.10 "option element nearest ancestor select". */
export function nearestAncestorSelect(option: Element): Element | null {
  let sawOptgroup = false;
  for (let a = option._parent; a !== null; a = a._parent) {
    if (isHtml(a, 'datalist') || isHtml(a, 'hr') || isHtml(a, 'option')) return null;
    if (isHtml(a, 'optgroup')) {
      if (sawOptgroup) return null;
      sawOptgroup = true;
    }
    if (isHtml(a, 'select')) return a;
  }
  return null;
}

/** HTML §4.10.10: disabled if it has a `disabled` attribute or is a child of a disabled optgroup. */
function isDisabled(option: Element): boolean {
  return option.hasAttribute('disabled') || (isHtml(option._parent, 'optgroup') && option._parent.hasAttribute('disabled'));
}

/** HTML §4.10.7 "display size": the `size` attribute as a non-negative integer, else 4 with `multiple`, else 1. */
function displaySize(select: Element): number {
  const size = select.getAttribute('size');
  const m = size === null ? null : /^[\t\n\f\r ]*\+?([0-9]+)/.exec(size);
  if (m !== null) return Number(m[1]);
  return select.hasAttribute('multiple') ? 4 : 1;
}

function isListedOption(node: Node, select: Element): boolean {
  return isHtml(node, 'option') && nearestAncestorSelect(node) === select;
}

/** The option's selectedness in a parser-built tree (see the module comment). */
export function parsedSelectedness(option: Element, select: Element): boolean {
  // A later option of the list with a `selected` attribute wins. (An option's own descendants are not
  // in the list: their nearest ancestor select is null.)
  for (let n = nextSkippingChildren(option, select); n !== null; n = nextInSubtree(n, select)) {
    if (isListedOption(n, select) && (n as Element).hasAttribute('selected')) return false;
  }
  if (option.hasAttribute('selected')) return true;
  if (displaySize(select) !== 1 || isDisabled(option)) return false;
  // Selected by default only if no earlier option is selected or could be selected by default.
  for (let n = select._first; n !== null && n !== option; n = nextInSubtree(n, select)) {
    if (isListedOption(n, select) && ((n as Element).hasAttribute('selected') || !isDisabled(n as Element))) return false;
  }
  return true;
}

/** HTML §4.10.7 "get a select's enabled selectedcontent". */
export function enabledSelectedcontent(select: Element): Element | null {
  if (select.hasAttribute('multiple')) return null;
  let found: Element | null = null;
  for (let n = select._first; n !== null; n = nextInSubtree(n, select)) {
    if (isHtml(n, 'selectedcontent')) {
      found = n;
      break;
    }
  }
  if (found === null) return null;
  // Its disabled state (the selectedcontent post-connection steps): set when an ancestor is an option, a
  // selectedcontent, or a second select.
  let selects = 0;
  for (let a = found._parent; a !== null; a = a._parent) {
    if (isHtml(a, 'select') && ++selects > 1) return null;
    if (isHtml(a, 'option') || isHtml(a, 'selectedcontent')) return null;
  }
  return found;
}

/**
 * HTML §4.10.10 "maybe clone an option into selectedcontent": if the option is its select's selected
 * option and the select has an enabled `<selectedcontent>`, replace that element's children with deep
 * clones of the option's children.
 */
export function maybeCloneOptionIntoSelectedcontent(option: Element): void {
  const select = nearestAncestorSelect(option);
  if (select === null) return;
  const selectedcontent = enabledSelectedcontent(select);
  if (selectedcontent === null || !parsedSelectedness(option, select)) return;
  // "Clone an option into a selectedcontent": replace all with clones of the option's children.
  while (selectedcontent._last !== null) selectedcontent._removeChild(selectedcontent._last);
  for (let c = option._first; c !== null; c = c._next) selectedcontent._insertBefore(c.cloneNode(true), null);
}
