/**
 * The rewriter's steps stay linear on the shapes where they were not (found 2026-11-28 by
 * bench:worst-case; docs/rewriter.md, Cost). Parsing each is linear; the rewriter's own bookkeeping was
 * not:
 *
 * - **Chains of copies.** A formatting element left open is copied again and again, each copy made from
 *   the one before: an unclosed `<b>` reconstructed in every paragraph that follows, or copied by the
 *   adoption agency algorithm at every `</b>` over nested blocks. The rewriter walks such a chain
 *   (`copiedFrom`) to learn what the output's parser has for a copy and whether a rename forbids it;
 *   walked afresh for every copy, a page of 40,000 paragraphs took 8 s. The walks now remember their
 *   answers (view/records.ts `CopyChain`).
 * - **Noah's Ark with a changed tag.** Once a formatting element's tag differs in the output (a link
 *   given `rel`), every push is checked against the entries since the last marker with the tags as
 *   written; the check copied and compared them all: n unclosed `<font color=cN>`, 61 s at n = 10,000.
 *   It now reads an index of the list by output tag (transform/noahs-ark.ts): the list's `prev` reads
 *   per push are a few.
 * - **Whether an element is in the output.** Once something is removed, the rewriter asks it by walking
 *   up the element's ancestors: a removed `<script>` then n nested `<span><i>` (each `<i>` makes Noah's
 *   Ark drop an earlier one) took 8 s at n = 20,000. The walk is now remembered on the elements it
 *   passes (transform/alignment.ts `absentAround`): the reads of `parent` grow linearly.
 * - **Descendant combinators.** `div i` asked, for each `<i>`, whether an ancestor is a `div`, walking
 *   up to the root: n `<i>`s under n nested `<span>`s took 10 s at n = 20,000. Each walk now stops at
 *   the first ancestor that remembers the answer (selectors/match.ts `someAncestorMatches`).
 * - **Descendant combinators' memos under moves.** Every move voided every memo: `<b><div>x</b>` × n
 *   (the adoption agency moves the div at each `</b>`, and the tree deepens) with `td b` walked up to
 *   the root for every `<b>`: 5.3 s at n = 12,000. A move now voids the memos of the moved element's
 *   open descendants only (view/records.ts `voidAncestorMemosUnder`), and none where the ancestors it
 *   leaves are named by no selector's left side (view/view-sink.ts `moveVoidsMemos`): `<b>` + `<div>` ×
 *   n + `</b>` × n with `td b` took 3.5 s at n = 20,000 (each move takes a div with every later one).
 * - **Whether a moved element is in removed content.** After a removal, the view asked it of every
 *   element the adoption agency moves by walking up to the root (`<script>` removed, then `<b><div>x</b>`
 *   × n: 31 s at n = 48,000). It now asks the alignment's remembered walks (view-sink.ts
 *   `insideRemoved`, alignment.ts `insideRemovedMemo`).
 * - **A long reconstruction tail.** Closed formatting elements with distinct attributes (which Noah's
 *   Ark does not limit) stay in the list of active formatting elements; the rewriter asks for that
 *   tail before every token, and each answer walked it: 34 s for 20,000 of them. The tree builder now
 *   remembers it while it holds (`ActiveFormattingElements.tailStart`).
 *
 * Not timed: the steps are counted — every read of `copiedFrom` on the view's records, of `prev` on the
 * list's entries — at n and 4n; a linear rewrite makes about 4 times as many at 4n (the walks made 16
 * times as many).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTMLRewriter } from '@sluice/rewriter';
import { parse, serialize } from '@sluice/dom';
import { FormattingEntry } from '../../tree-builder/src/active-formatting-elements.js';
import { ElementRecord } from '../src/view/records.js';
import { verifyNoahsArk } from '../src/transform/noahs-ark.js';
import { verifyPresence } from '../src/transform/alignment.js';
import { verifyAncestorMatches } from '../src/selectors/match.js';

/** Count every read of `field` on objects of `cls` while `run` runs (it is turned into an accessor). */
function countingReads(cls: { prototype: object }, field: string, run: () => void): number {
  const proto = cls.prototype as Record<string, unknown>;
  const store = Symbol(field);
  let reads = 0;
  Object.defineProperty(proto, field, {
    configurable: true,
    get(this: Record<symbol, unknown>) {
      reads++;
      return this[store];
    },
    set(this: Record<symbol, unknown>, v: unknown) {
      this[store] = v;
    },
  });
  try {
    run();
  } finally {
    delete proto[field];
  }
  return reads;
}

function rewrite(html: string, selector: string, set: boolean): string {
  let out = '';
  const rewriter = new HTMLRewriter().on(selector, {
    element(e) {
      if (set) e.setAttribute('data-x', '1');
      // (A handler on <script> removes it: from then on the rewriter asks whether elements are in the output.)
      else if (e.tagName === 'script') e.remove();
    },
  });
  const t = rewriter.createTransformer((s) => void (out += s));
  // In chunks, as a stream would give it.
  for (let i = 0; i < html.length; i += 1000) t.write(html.slice(i, i + 1000));
  t.end();
  return out;
}

type Handlers = readonly (readonly [selector: string, setsAttribute: boolean])[];
const ALL: Handlers = [['a', true], ['b', false], ['b', true]];

/** [name, build(k), the class and field whose reads are counted, the handlers] */
const shapes: [string, (k: number) => string, { prototype: object }, string, Handlers][] = [
  ['an unclosed <b> reconstructed in every paragraph', (k) => '<p><b>x</p>' + '<p>y</p>'.repeat(k), ElementRecord, 'copiedFrom', ALL],
  ['the adoption agency copying a <b> at every </b> over nested <div>s', (k) => '<b>' + '<div>'.repeat(k) + '</b>'.repeat(k), ElementRecord, 'copiedFrom', ALL],
  [
    'formatting entries far back: k closed <i>s in the list while k </b>s run the adoption agency',
    (k) =>
      Array.from({ length: k }, (_, i) => `<b class=b${i}>`).join('') + '<p>' +
      Array.from({ length: k }, (_, i) => `<i class=i${i}>`).join('') + '</p><div>' + '</b>'.repeat(k),
    FormattingEntry,
    'prev',
    ALL,
  ],
  [
    "k unclosed <font>s after a link given an attribute: Noah's Ark checked at every push",
    (k) => '<a href=x>y</a>' + Array.from({ length: k }, (_, i) => `<font color=c${i}>t`).join(''),
    FormattingEntry,
    'prev',
    [['a', true], ['font', true], ['b', false]],
  ],
  [
    'n nested <span><i> after a removed <script>: whether each entry is in the output',
    (k) => '<script>x</script>' + '<span><i>'.repeat(k),
    ElementRecord,
    'parent',
    [['script', false]],
  ],
  [
    'n <i>s under n nested <span>s, a selector with a descendant combinator',
    (k) => '<span>'.repeat(k) + '<i>x</i>'.repeat(k),
    ElementRecord,
    'parent',
    [['div i', true], ['span i', true]],
  ],
  [
    'the adoption agency moving a <div> at every </b> (`<b><div>x</b>` × n), a descendant combinator',
    (k) => '<b><div>x</b>'.repeat(k),
    ElementRecord,
    'parent',
    [['td b', true], ['div p, body a, td b', false]],
  ],
  [
    'the adoption agency moving a <div> with every later one inside it at every </b>, a descendant combinator',
    (k) => '<b>' + '<div>'.repeat(k) + '</b>'.repeat(k),
    ElementRecord,
    'parent',
    [['td b', true]],
  ],
  [
    'a removed <script>, then the adoption agency moving a <div> at every </b> (`<b><div>x</b>` × n)',
    (k) => '<script>x</script>' + '<b><div>x</b>'.repeat(k),
    ElementRecord,
    'parent',
    [['script', false]],
  ],
];

describe('linear steps', () => {
  // (The test setup checks Noah's Ark by walking the list too, presence and descendant combinators by walking up: not here.)
  beforeAll(() => {
    verifyNoahsArk(false);
    verifyPresence(false);
    verifyAncestorMatches(false);
  });
  afterAll(() => {
    verifyNoahsArk(true);
    verifyPresence(true);
    verifyAncestorMatches(true);
  });
  for (const [name, build, cls, field, handlers] of shapes) {
    for (const [selector, set] of handlers) {
      it(`${name}: linear steps, with ${set ? 'an attribute set on' : 'a handler on'} ${selector}`, () => {
        const n = 300;
        const small = countingReads(cls, field, () => rewrite(build(n), selector, set));
        const large = countingReads(cls, field, () => rewrite(build(4 * n), selector, set));
        expect(small).toBeGreaterThan(n);
        expect(large / small, `${small} reads of ${field} at n = ${n}, ${large} at 4n`).toBeLessThan(4.4);
      });
    }
    it(`${name}: the output still builds the same tree`, () => {
      const html = build(40);
      // Without changes, the output is the input.
      expect(rewrite(html, 'b', false)).toBe(html);
      // With an attribute on every <b> (copies included), the output's tree is the input's with it.
      const expected = parse(html);
      for (const b of expected.querySelectorAll('b')) b.setAttribute('data-x', '1');
      expect(serialize(parse(rewrite(html, 'b', true)))).toBe(serialize(expected));
    });
  }
});
