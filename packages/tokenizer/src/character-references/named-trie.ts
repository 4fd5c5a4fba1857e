/**
 * The named character reference table (HTML §13.5) as a trie over UTF-16 code units, stepped one code
 * unit at a time by the tokenizer's named character reference state (§13.2.5.73).
 *
 * The generated strings in named-table.ts are decoded once, here, into typed arrays: nodes are numbered
 * breadth-first, so the children of node `n` are the consecutive nodes `childStart[n] .. childStart[n+1]-1`,
 * sorted by their edge label. The root, which has 52 children (A–Z, a–z), gets a dense lookup table.
 */

import { LABELS, SHAPE, VALUES } from './named-table.js';

/** See the generator: 0x30 + child count, + TERMINAL when the node ends a name. */
const SHAPE_BASE = 0x30;
const TERMINAL = 53;

const nodeCount = SHAPE.length;
/** First child of each node; `childStart[nodeCount]` closes the last range. */
const childStart = new Int32Array(nodeCount + 1);
/** The code unit on the edge into each node (unused for the root). */
const label = new Uint16Array(nodeCount);
/** Index into VALUES of the name ending at each node, or -1. */
const valueIndex = new Int16Array(nodeCount).fill(-1);
/** Child of the root for each ASCII code unit, or -1. */
const rootChild = new Int32Array(128).fill(-1);

{
  let next = 1;
  let names = 0;
  for (let node = 0; node < nodeCount; node++) {
    let shape = SHAPE.charCodeAt(node) - SHAPE_BASE;
    if (shape >= TERMINAL) {
      shape -= TERMINAL;
      valueIndex[node] = names++;
    }
    childStart[node] = next;
    next += shape;
  }
  childStart[nodeCount] = next;
  if (next !== nodeCount || names !== VALUES.length || LABELS.length !== nodeCount - 1) {
    throw new Error('named-table.ts is inconsistent: regenerate it');
  }
  for (let node = 1; node < nodeCount; node++) label[node] = LABELS.charCodeAt(node - 1);
  for (let child = childStart[0]; child < childStart[1]; child++) rootChild[label[child]] = child;
}

/** The trie's root node: the state after `&`, before any character of a name. */
export const NAMED_ROOT = 0;

/** The number of names in the table (2,231): each name with `;`, plus the legacy names without it. */
export const NAMED_REFERENCE_COUNT: number = VALUES.length;

/**
 * Steps the trie: the child of `node` along the UTF-16 code unit `code`, or -1 when no name continues
 * that way. `node` must be a node this module returned (or {@link NAMED_ROOT}).
 */
export function stepNamed(node: number, code: number): number {
  if (node === NAMED_ROOT) return code >= 0 && code < 128 ? rootChild[code] : -1;
  // Children are sorted by label: scan until the label passes `code`. Most nodes have one child.
  for (let child = childStart[node], end = childStart[node + 1]; child < end; child++) {
    const l = label[child];
    if (l === code) return child;
    if (l > code) break;
  }
  return -1;
}

/**
 * The replacement text of the name spelled by the path to `node` (one or two code points), or null if
 * that path is only a prefix of names. Names include their `;` where the list does; the 106 legacy
 * names (e.g. `amp`, `not`) are names without it too.
 */
export function namedValue(node: number): string | null {
  const index = valueIndex[node];
  return index >= 0 ? VALUES[index] : null;
}

/**
 * The longest name in the table that `text` spells from offset `from` on (§13.2.5.73: "consume the
 * maximum number of characters possible"), for the decoder. Returns -1 when there is none, else
 * `node * 64 + n`, where `n` is the name's length (at most 32) and `node` the trie node it ends at.
 * (Not part of the module's public API: the tokenizer steps the trie itself.)
 */
export function longestNamedMatch(text: string, from: number): number {
  const length = text.length;
  if (from >= length) return -1;
  const first = text.charCodeAt(from);
  let node = first < 128 ? rootChild[first] : -1;
  let match = -1;
  for (let i = from + 1; node >= 0; i++) {
    if (valueIndex[node] >= 0) match = node * 64 + (i - from);
    if (i === length) break;
    const code = text.charCodeAt(i);
    let child = childStart[node];
    const end = childStart[node + 1];
    node = -1;
    for (; child < end; child++) {
      const l = label[child];
      if (l >= code) {
        if (l === code) node = child;
        break;
      }
    }
  }
  return match;
}
