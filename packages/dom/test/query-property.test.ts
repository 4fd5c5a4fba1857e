/**
 * One engine, two matchers: for generated tag soup and the selectors the rewriter supports, the DOM's
 * `querySelectorAll` and the rewriter's reference query (tests/rewriter/helpers/reference-query.ts: the
 * rewriter's compiled selectors evaluated by a plain recursive walk over the same parsed tree) return
 * the same elements in the same order.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSelector } from '@sluice/rewriter';
import { parse } from '../src/index.js';
import { querySelectorAll as referenceQuery } from '../../../tests/rewriter/helpers/reference-query.js';
import { tagSoup } from '../../../tests/rewriter/helpers/soup.js';

/** Selectors the rewriter accepts, over the names and attributes the soup generator uses. */
const SELECTORS = [
  '*', 'div', 'p', 'b', 'a', 'td', 'tr', 'tbody', 'table', 'li', 'svg', 'rect', 'foreignObject', 'html', 'body', 'head',
  '.x', '.y', '#i', '[title]', '[title=abc]', '[title=ABC i]', '[title^=a]', '[title$=c]', '[title*=b]', '[title~=b]',
  '[class~=y]', '[lang|=en]', '[a=b s]', '*|rect', '|p', 'div > p', 'div p', 'body > *', 'table td', 'p + p', 'p ~ b',
  'div + *', 'a ~ a + b', 'td + td', ':first-child', ':first-of-type', 'li:nth-child(2n+1)', ':nth-child(-n+2)',
  ':nth-of-type(2)', ':nth-child(odd of .x)', ':nth-child(2 of p, div)', ':not(p)', ':not(div, span) > b',
  ':is(b, i) > span', ':where(.x) p', ':root', ':root > head', 'p:not(:first-child)', 'b ~ :is(p, div) + *',
];

const values = fc.constantFrom('abc', 'ABC', 'a b c', 'x y', 'en', 'en-US', 'b', '', 'i', 'X');
const withAttributes = fc
  .tuple(tagSoup, fc.array(fc.tuple(fc.constantFrom('title', 'class', 'id', 'lang', 'a'), values), { maxLength: 6 }))
  .map(([soup, attrs]) => {
    // Sprinkle attributes into the soup's start tags.
    let i = 0;
    return soup.replace(/<([a-zA-Z][a-zA-Z0-9]*)(?=[\s>/])/g, (m) => (i < attrs.length ? `${m} ${attrs[i]![0]}="${attrs[i++]![1]}"` : m));
  });

describe('the DOM matcher agrees with the rewriter engine', () => {
  const lists = SELECTORS.map((s) => parseSelector(s));
  it('querySelectorAll = the reference query, on random tag soup (fast-check)', () => {
    fc.assert(
      fc.property(withAttributes, (html) => {
        const doc = parse(html);
        SELECTORS.forEach((s, i) => {
          expect(doc.querySelectorAll(s), `${s} on ${JSON.stringify(html)}`).toEqual(referenceQuery(doc, lists[i]!));
        });
      }),
      { numRuns: 300 },
    );
  });
});
