/**
 * The descendant-combinator memos under moves (packages/rewriter/src/view/records.ts
 * `voidAncestorMemosUnder`): a move voids the memos of the moved element's open descendants only, and a
 * closed element's memo holds only while nothing moved. The test setup checks every remembered answer
 * against a walk up to the root (`verifyAncestorMatches`), which throws where they differ; this property
 * runs the soups that make the adoption agency move elements most, under selectors with descendant
 * combinators, sync and async (an async handler decides later, after more moves).
 */
import { expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from '@sluice/dom';
import { HTMLRewriter, parseSelector } from '@sluice/rewriter';
import { moving, normalized, rearranging } from './helpers/final-tree.js';
import { querySelectorAll } from './helpers/reference-query.js';
import { cuts, splitAt, tagSoup } from './helpers/soup.js';

// (Non-special elements between a formatting element and its furthest block leave the moved content's
// ancestors: `span i` is what a move can change.)
/** A formatting element around blocks, closed (moving a block), then elements in what stays open. */
const moveThenWalk = fc
  .tuple(
    fc.constantFrom('<b>', '<a>', '<font>', '<b><i>'),
    fc.array(fc.constantFrom('<div>', '<p>', '<span>', '<section>', '<i></i>', '<b></b>', 'x'), { minLength: 1, maxLength: 4 }),
    fc.array(fc.constantFrom('</b>', '</a>', '</font>', '</i>', '</div>', '<i>z', '<span></span>', '<b>', '<div>'), { minLength: 1, maxLength: 6 }),
  )
  .map(([f, inside, after]) => f + inside.join('') + after.join(''));

const SELECTORS = ['span i', 'span b', 'span div', 'span p', 'td b', 'div p', 'b div', 'body a', 'p i', 'div > p b', 'section a', 'b b', 'table b', 'font div', 'li i', 'a div p', 'x-y i'];

it('every remembered descendant-combinator answer is the walk\'s, on soups the adoption agency rearranges (fast-check)', async () => {
  let runs = 0;
  await fc.assert(
    // (The first walk after every memo was voided does not remember, match.ts `rememberWalks`: a prefix
    // with an element to match starts the memos before the soup.)
    fc.asyncProperty(fc.constantFrom('', '<i></i>', '<p><b></b><i></i></p>'), fc.oneof(moving, rearranging, tagSoup, moveThenWalk), cuts, fc.subarray(SELECTORS, { minLength: 1 }), fc.boolean(), async (prefix, soup, c, selectors, async) => {
      const input = prefix + soup;
      runs++;
      const r = new HTMLRewriter();
      const change = (e: { setAttribute(name: string, value: string): unknown }): void => void e.setAttribute('data-m', '1');
      for (const s of selectors) r.on(s, { element: async ? async (e) => void (await null, change(e)) : change });
      const t = r.createTransformer(() => {});
      try {
        for (const chunk of splitAt(input, c)) await t.write(chunk);
        await t.end();
      } catch (err) {
        // (A refusal of a change is the alignment's business, tested elsewhere; a memo's disagreement is not.)
        if (/someAncestorMatches|internal error/.test((err as Error).message)) throw err;
      }
    }),
    { numRuns: 2000 },
  );
  expect(runs).toBe(2000);
}, 600_000);

it('a move that takes an element out of ancestors no selector names keeps the memos; one a child combinator reads the parent of does not', async () => {
  // (Every memo is checked against its walk: a stale one throws. The first <i></i> starts the memos.)
  for (const [input, selector] of [
    ['<i></i>' + '<b>' + '<div>'.repeat(30) + '</b>'.repeat(30) + '<b>x', 'a, td b'],
    // The p moves from the i to the div (the adoption agency's furthest block): now a `div > p`.
    ['<i></i><div><i><p><b></b></i><b>x', 'div > p b'],
    ['<i></i><b><i><div><p></p></i><p>x', 'b > div p'],
  ] as const) {
    const r = new HTMLRewriter().on(selector, { element: (e) => void e.setAttribute('data-m', '1') });
    const t = r.createTransformer(() => {});
    await t.write(input);
    await t.end();
  }
});

it('a moved element\'s memo is void: `<b><div><i></i></b></b><i>` does not match `b i` at the second <i>, nor does the churn shape at its end', async () => {
  for (const [input, matches] of [
    ['<i></i><b><div><i></i></b></b><i>z', 1],
    ['<i></i><b><div><span><i></i></span></b></b><i>z', 1],
    ['<i></i>' + '<b><div>x</b>'.repeat(20) + '<i>z', 0],
  ] as const) {
    const seen: string[] = [];
    const r = new HTMLRewriter().on('b i, td i', { element: (e) => void seen.push(e.tagName) });
    const t = r.createTransformer(() => {});
    await t.write(input);
    await t.end();
    expect(seen.length, input).toBe(matches);
  }
});

it('a closed child the furthest block\'s children take into the copy is no child of the furthest block: `div > p b` does not match the b in `<b><i><div><p><b></b><div></i>` (random seed 1241)', async () => {
  // The `</i>` moves the div's children into a copy of the i (§13.2.6.4.7 step 4.16): the p, closed,
  // with them. Its memo said `div > p`; the b in it, held and matched again at the end, read it. (The
  // `x-y i` walk at the first <i> starts the memos; no x-y, so no i matches either.)
  const input = '<b><i><div><p><b></b><div></i>';
  const selectors = ['div > p b', 'x-y i'];
  for (const async of [false, true]) {
    const seen: string[] = [];
    const r = new HTMLRewriter();
    const change = (e: { tagName: string; setAttribute(name: string, value: string): unknown }): void => void (seen.push(e.tagName), e.setAttribute('data-m', '1'));
    for (const s of selectors) r.on(s, { element: async ? async (e) => void (await null, change(e)) : change });
    let out = '';
    const t = r.createTransformer((s) => (out += s));
    await t.write(input);
    await t.end();
    expect(seen, `async: ${async}`).toEqual([]);
    expect(out, `async: ${async}`).toBe(input);
    // The same on the final tree: what `querySelectorAll` finds there gets the attribute (nothing).
    const want = parse(input);
    for (const s of selectors) for (const el of querySelectorAll(want, parseSelector(s))) el.setAttribute('data-m', '1');
    expect(normalized(parse(out)), `async: ${async}`).toBe(normalized(want));
  }
});
