/**
 * The real browser as the reference: Debian's Chromium (driven by playwright-core, never a downloaded
 * browser) parses the same input with document.open/write/close and answers `document.querySelectorAll`.
 *
 * 1. For every input, the selectors compiled by the rewriter, evaluated over `@sluice/dom`'s parse
 *    (tests/rewriter/helpers/reference-query.ts), give the same elements as Chromium — implied elements
 *    and adoption-agency clones included. (First the two DOMs must serialize the same.)
 * 2. For every input whose tree nothing rearranged after the fact, the elements the rewriter's handlers
 *    fire on are exactly Chromium's answer — implied elements (html, head, body, tbody, reconstructed
 *    and adoption-agency copies, …) included.
 *
 * Chromium compares foreign elements' names and attribute names ASCII case-insensitively where HTML
 * §4.16.2 compares them as written (sluice follows the standard): where that can change an answer, both
 * are compared with Chromium's minus the foreign elements the exact names reject (helpers/name-case.ts).
 *
 * Without /usr/bin/chromium the suite is skipped locally and FAILS under CI.
 */
import { openBlankPageForSuite, runsInChromium } from './helpers/chromium.js';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Element, type Node, nextInSubtree } from '@sluice/dom';
import { HTMLRewriter, parseSelector } from '@sluice/rewriter';
import { querySelectorAll } from '../rewriter/helpers/reference-query.js';
import { keyOfUnit, referenceRun } from '../rewriter/helpers/reference-run.js';
import { tagSoup } from '../rewriter/helpers/soup.js';
import { type Comparison, foreignNames, standardAnswer } from './helpers/name-case.js';


const SELECTORS = [
  '*', 'div', 'DIV', 'p', 'b', 'html', 'head', 'body', 'tbody', 'tr', 'td', 'title', 'svg', 'rect', 'foreignObject', 'foreignobject',
  '.x', '.y', '.Y', '#i', '#I', '[title]', '[title=abc]', '[title=ABC i]', '[title^=a]', '[title$=c]', '[title*=b]', '[title~=b]', '[class~=y]',
  // ('[a=b s]' is left out: Chromium does not implement the `s` flag and throws.)
  '[lang|=en]', '[lang=en]', '[lang=EN i]', '[type=hidden]', '[color=red]', '[href]', '[viewBox]', '[viewbox]', '[Title]',
  'div > p', 'div p', 'body > *', 'table > tr', 'tbody > tr', 'table td', 'p + p', 'p ~ b', 'div + *', 'a ~ a + b', 'td + td',
  ':first-child', 'li:nth-child(2n+1)', ':nth-child(2)', ':nth-child(-n+2)', ':nth-of-type(2)', 'td:first-of-type', 'p:first-of-type',
  ':not(p)', ':not(div, span) > b', ':is(b, i) > span', ':where(.x) p', ':root', ':root > head', 'head title', 'select option',
  'svg rect', 'svg > foreignObject > div', 'math mi', '*|rect', ':nth-child(odd of .x)', ':nth-child(2 of p, div)', 'template', 'template > div',
  'form button', 'img', 'image', 'noscript p', 'x-y', 'body :first-child', 'p:not(:first-child)', ':not(:nth-of-type(1))', 'caption ~ tbody',
  'clipPath', 'clippath', 'CLIPPATH', 'svg > clippath', '[*|viewbox]', '[*|HREF]', '[definitionurl]', '[definitionURL]',
];
const LISTS = SELECTORS.map((s) => parseSelector(s));

const HAND_WRITTEN = [
  '<table><tr><td>x</td></tr></table>',
  '<table><div id=i>a</div><tr><td>b<table><p class=x>c</table></table>',
  '<!DOCTYPE html><p class=X id=I>quirks off</p>',
  '<p class=X id=I>quirks on</p>',
  '<svg viewBox="0 0 1 1"><foreignObject><div title=abc>x</div></foreignObject><rect/></svg><math><mi>x</mi></math>',
  '<b><p>1</b>2</p><a><div>3</a>',
  '<ul><li>1<li class=x>2<li>3<li class=x>4</ul>',
  '<select><option>a<option>b</select><form><button>x</button></form>',
  '<input type=HIDDEN lang=EN-us color=Red title=ABC>',
  '<template><div>t</div></template><p>after</p>',
  '<frameset><frame></frameset>',
  '<html><body><p>x</p></body></html><div>after html</div>',
  '<image src=a><noscript><p>n</p></noscript>',
  '<svg><clipPath Title=a><rect/></clipPath></svg><math viewbox=1><mi>x</mi></math><DIV TITLE=b></DIV>',
];

function docOrder(doc: Node): Element[] {
  const out: Element[] = [];
  for (let n: Node | null = doc.firstChild; n !== null; n = nextInSubtree(n, doc)) if (n instanceof Element) out.push(n);
  return out;
}

/** Per selector, the keys (tests/rewriter/helpers/reference-run.ts) of the elements handlers fired on. */
async function firedKeys(input: string): Promise<string[][]> {
  const r = new HTMLRewriter();
  const fired: string[][] = SELECTORS.map(() => []);
  SELECTORS.forEach((s, i) => r.on(s, { element: (e) => void fired[i]!.push(keyOfUnit(e)) }));
  const t = r.createTransformer(() => {});
  await t.write(input);
  await t.end();
  return fired;
}

describe.runIf(runsInChromium)('querySelectorAll in Chromium', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let page: any = null;
  openBlankPageForSuite((opened) => (page = opened));

  async function inBrowser(input: string): Promise<{ html: string; results: (number[] | string)[] }> {
    return page.evaluate(
      ([html, selectors]: [string, string[]]) => {
        document.open();
        document.write(html);
        document.close();
        const all = [...document.querySelectorAll('*')];
        const index = new Map(all.map((e, i) => [e, i]));
        return {
          html: document.documentElement === null ? '' : document.documentElement.outerHTML,
          results: selectors.map((s) => {
            try {
              return [...document.querySelectorAll(s)].map((e) => index.get(e)!);
            } catch (err) {
              return `error: ${(err as Error).message}`;
            }
          }),
        };
      },
      [input, SELECTORS],
    );
  }

  // Left out of the random inputs: <script> (it would run) and <plaintext> (it swallows the rest), and
  // `<?…>`, which this Chromium parses as a processing instruction node where the HTML Standard (and
  // sluice) make a bogus comment — a parser difference, not a selector one; and NUL, which arrives in
  // the page as U+FFFD here. Also inputs with both <template> and <noscript>: Chromium serializes a
  // noscript's text inside template contents escaped (no scripting there), sluice's serializer raw —
  // the trees agree, their outerHTML does not.
  const inputs = [
    ...HAND_WRITTEN,
    ...fc.sample(
      tagSoup.filter((s) => !/<script|<plaintext|<\?|\0/i.test(s) && !(/<template/i.test(s) && /<noscript/i.test(s))),
      { numRuns: 150, seed: 20260425 },
    ),
  ];
  let compared = 0;
  let clean = 0;
  const tally: Record<Comparison, number> = { exact: 0, modeled: 0, 'left out': 0 };

  it('sluice and Chromium build the same DOM and select the same elements', async () => {
    for (const input of inputs) {
      const browser = await inBrowser(input);
      const ref = referenceRun(input, LISTS);
      const ours = docOrder(ref.document);
      const root = ref.document.documentElement;
      const ourHtml = root === null ? '' : root.outerHTML;
      expect(ourHtml, `the DOM of ${JSON.stringify(input)}`).toBe(browser.html);
      compared++;
      const index = new Map(ours.map((e, i) => [e, i]));
      const names = foreignNames(ours);
      const standard = SELECTORS.map((s, i) => standardAnswer(s, browser.results[i]!, ours, names));
      LISTS.forEach((list, i) => {
        const { comparison, want } = standard[i]!;
        tally[comparison]++;
        if (want === null) return;
        const mine = querySelectorAll(ref.document, list).map((e) => index.get(e)!);
        expect(mine, `${SELECTORS[i]} on ${JSON.stringify(input)} (${comparison})`).toEqual(want);
      });
      if (ref.late !== null) continue;
      clean++;
      // The rewriter: its handlers fire on exactly the browser's elements, implied ones included.
      const fired = await firedKeys(input);
      const keys = ours.map((el) => ref.keyOf.get(el)!);
      SELECTORS.forEach((s, i) => {
        const answer = standard[i]!.want;
        if (answer === null) return;
        const want = (answer as number[]).map((k) => keys[k]!).sort();
        const got = [...fired[i]!].sort();
        expect(got, `rewriter ${s} on ${JSON.stringify(input)}`).toEqual(want);
      });
    }
    console.log(
      `query-selector-all: ${compared} inputs × ${SELECTORS.length} selectors: ${tally.exact} answers compared exactly, ` +
        `${tally.modeled} under Chromium's modeled case deviation on foreign names, ${tally['left out']} left out as not modeled; ` +
        `rewriter firing compared on ${clean} inputs`,
    );
    expect(compared).toBe(inputs.length);
    expect(clean).toBeGreaterThan(inputs.length / 4);
  });
});
