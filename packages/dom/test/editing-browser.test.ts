// Editing, judged by Debian's Chromium: for generated tag soup and many context elements, `innerHTML`
// set then read, set again from what was read, `outerHTML` set and `insertAdjacentHTML` at the four
// positions give exactly the strings Chromium gives; and classList/dataset operations leave the same
// attributes. Chromium implements the current HTML Standard's fragment parsing and serialization
// (including the 2025 escaping of < and > in attribute values), so this checks sluice's setters and
// serializer against the standard as browsers ship it.
//
// Browser: Debian's Chromium at /usr/bin/chromium through playwright-core (from tests/node_modules);
// never a downloaded browser. Without /usr/bin/chromium the suite is skipped locally and FAILS when
// process.env.CI is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NS } from '@sluice/tree-builder';
import { type Element, parse } from '../src/index.js';
import { tagSoup } from '../../../tests/rewriter/helpers/soup.js';
import { launchChromium, runsInChromium } from '../../../tests/browser/helpers/chromium.js';

/** Context elements: [namespace designator, local name]. */
const CONTEXTS: [string, string][] = [
  ['html', 'div'], ['html', 'body'], ['html', 'html'], ['html', 'head'], ['html', 'table'], ['html', 'tbody'], ['html', 'tr'],
  ['html', 'td'], ['html', 'template'], ['html', 'select'], ['html', 'option'], ['html', 'textarea'], ['html', 'title'],
  ['html', 'script'], ['html', 'noscript'], ['html', 'pre'], ['html', 'p'], ['html', 'plaintext'], ['svg', 'svg'],
  ['svg', 'foreignObject'], ['svg', 'desc'], ['math', 'math'], ['math', 'mi'], ['math', 'annotation-xml'],
];
const NAMESPACES: Record<string, string> = { html: NS.HTML, svg: NS.SVG, math: NS.MATHML };

/**
 * Where Chromium 156 and sluice are known to differ, and why — none of it is the editing code: every case
 * is left out of the comparison with its reason, and counted.
 */
const KNOWN_DIFFERENCES: { reason: string; applies: (c: Case) => boolean }[] = [
  {
    reason:
      'processing instructions: the HTML Standard parses <?target data?> as a ProcessingInstruction since June 2026 ' +
      "(whatwg/html#12118) and Chromium 156 does; sluice's tokenizer still makes a bogus comment (a parser change, not editing)",
    applies: (c) => c.soup.includes('<?'),
  },
  {
    reason:
      'U+0000 with a RCDATA/RAWTEXT/script context: the standard emits U+FFFD (sluice does); Chromium drops it when fragment ' +
      'parsing (the bug WebKit fixed in 2026, bugs.webkit.org 323874; wpt#62599 tests it)',
    applies: (c) => c.soup.includes('\u0000') && RAW_CONTEXTS.has(c.name),
  },
  {
    reason:
      '"<" then U+0000 in the data state: the standard emits "<" and a U+0000 that "in body" ignores (sluice); Chromium ' +
      'keeps a U+FFFD there',
    applies: (c) => c.soup.includes('<\u0000'),
  },
  {
    reason:
      '<input> with a <select> context: the standard ignores it in the fragment case (in body, "input" start tag; ' +
      'html5lib-tests#195, whatwg/html#12420 closed unmerged) as sluice does; Chromium inserts it',
    applies: (c) => c.name === 'select' && /<input/i.test(c.soup),
  },
  {
    reason:
      '<noscript> under a <template> context: sluice takes the scripting flag from the context element, as for a <div> ' +
      '(whatwg/html#12254); Chromium parses template contents as if scripting were disabled (whatwg/html#10879, open)',
    applies: (c) => c.name === 'template' && /<noscript/i.test(c.soup),
  },
];
const RAW_CONTEXTS = new Set(['title', 'textarea', 'script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

interface Case {
  ns: string;
  name: string;
  soup: string;
}
interface Result {
  first: string;
  second: string;
  outer: string;
  adjacent: string;
}

/** Runs in the page (and, the same steps, in sluice below). */
function runCase(doc: Document, c: Case): Result {
  const make = (): globalThis.Element => doc.createElementNS(c.ns, c.name);
  const el = make();
  el.innerHTML = c.soup;
  const first = el.innerHTML;
  el.innerHTML = first;
  const second = el.innerHTML;
  // outerHTML: the soup replaces a <span> inside the context element.
  const host = make();
  const span = doc.createElement('span');
  host.appendChild(span);
  host.appendChild(doc.createTextNode('|'));
  span.outerHTML = c.soup;
  const outer = host.innerHTML;
  // insertAdjacentHTML at the four positions around a <b> inside the context element.
  const around = make();
  const b = doc.createElement('b');
  around.appendChild(b);
  for (const where of ['beforebegin', 'afterbegin', 'beforeend', 'afterend'] as const) b.insertAdjacentHTML(where, c.soup);
  const adjacent = around.innerHTML;
  return { first, second, outer, adjacent };
}

/** Class attribute values and token operations, and dataset writes and deletes. */
const TOKEN_CASES: { cls: string | null; ops: [string, string[]][] }[] = [
  { cls: null, ops: [['remove', ['a']], ['toggle', ['a', 'false']]] },
  { cls: null, ops: [['add', []]] },
  { cls: '  a  a b\t', ops: [['add', []]] },
  { cls: 'a b c', ops: [['replace', ['a', 'c']]] },
  { cls: 'a b c', ops: [['replace', ['b', 'z']], ['toggle', ['a']]] },
  { cls: ' x ', ops: [['toggle', ['x', 'true']]] },
  { cls: 'x\u00a0y', ops: [['add', ['x']]] },
  { cls: '', ops: [['remove', ['q']]] },
  { cls: 'a', ops: [['add', ['b', 'a', 'c']], ['remove', ['a', 'c']]] },
];
const DATASET_OPS: [string, string | null][] = [
  ['fooBar', '1'], ['Foo', '2'], ['a1', '3'], ['x-1', '4'], ['fooBar', null], ['nothing', null], ['déjàVu', '5'],
];

function runTokens(doc: Document): string[] {
  const out: string[] = [];
  for (const t of TOKEN_CASES) {
    const el = doc.createElement('span');
    if (t.cls !== null) el.setAttribute('class', t.cls);
    const list = el.classList as unknown as Record<string, (...a: unknown[]) => unknown>;
    const results: unknown[] = [];
    for (const [op, args] of t.ops) {
      results.push(list[op](...args.map((a) => (a === 'true' ? true : a === 'false' ? false : a))));
    }
    out.push(`${el.outerHTML} ${JSON.stringify(results)} ${el.classList.length}`);
  }
  const el = doc.createElement('div');
  el.setAttribute('data-pre-set', 'p');
  el.setAttribute('data-UPPER', 'u');
  for (const [name, value] of DATASET_OPS) {
    if (value === null) delete el.dataset[name];
    else el.dataset[name] = value;
  }
  out.push(`${el.outerHTML} ${JSON.stringify(Object.keys(el.dataset))}`);
  return out;
}

describe.runIf(runsInChromium)('Chromium judges innerHTML, outerHTML, insertAdjacentHTML, classList, dataset', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let browser: any = null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let page: any = null;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    await page.setContent('<!DOCTYPE html><html><head></head><body></body></html>');
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('gives the same strings for generated soup in every context', async () => {
    const soups = fc.sample(tagSoup, { seed: 20261125, numRuns: 250 });
    const cases: Case[] = [];
    for (const [i, soup] of soups.entries()) {
      // Every soup in a few contexts, rotating through the list so that each context gets many soups.
      for (let k = 0; k < 4; k++) {
        const [ns, name] = CONTEXTS[(i * 4 + k) % CONTEXTS.length]!;
        cases.push({ ns: NAMESPACES[ns]!, name, soup });
      }
    }
    const doc = parse('<!DOCTYPE html>') as unknown as Document;
    const mine = cases.map((c) => runCase(doc, c));
    const theirs: Result[] = await page.evaluate(
      ({ cases, source }: { cases: Case[]; source: string }) => {
        const run = new Function(`return (${source})`)() as (d: Document, c: Case) => Result;
        return cases.map((c) => run(document, c));
      },
      { cases, source: runCase.toString() },
    );
    const failures: string[] = [];
    const skipped = new Map<string, number>();
    let compared = 0;
    for (const [i, c] of cases.entries()) {
      const known = KNOWN_DIFFERENCES.find((k) => k.applies(c));
      if (known !== undefined) {
        skipped.set(known.reason, (skipped.get(known.reason) ?? 0) + 1);
        continue;
      }
      compared++;
      for (const key of ['first', 'second', 'outer', 'adjacent'] as const) {
        if (mine[i]![key] !== theirs[i]![key]) {
          failures.push(`${key} in <${c.name}> for ${JSON.stringify(c.soup)}:\n  sluice   ${JSON.stringify(mine[i]![key])}\n  Chromium ${JSON.stringify(theirs[i]![key])}`);
        }
      }
    }
    if (failures.length > 0) console.log(`${failures.length} differences of ${cases.length * 4}:\n${failures.slice(0, 20).join('\n')}`);
    console.log(
      `editing vs Chromium: ${compared} of ${cases.length} cases compared (4 strings each)` +
        [...skipped].map(([reason, n]) => `\n  ${n} left out: ${reason}`).join(''),
    );
    expect(cases.length).toBe(1000);
    expect(compared).toBeGreaterThan(800);
    expect(failures).toEqual([]);
  });

  it('leaves the same attributes after classList and dataset operations', async () => {
    const doc = parse('<!DOCTYPE html>') as unknown as Document;
    const mine = runTokens(doc);
    const theirs: string[] = await page.evaluate(
      ({ tokenCases, datasetOps, source }: { tokenCases: typeof TOKEN_CASES; datasetOps: typeof DATASET_OPS; source: string }) => {
        const run = new Function('TOKEN_CASES', 'DATASET_OPS', `return (${source})`)(tokenCases, datasetOps) as (d: Document) => string[];
        return run(document);
      },
      { tokenCases: TOKEN_CASES, datasetOps: DATASET_OPS, source: runTokens.toString() },
    );
    // DOM §7.1 "update steps": with no attribute and an empty token set, nothing is written — so
    // `classList.add()` on an element without a class attribute adds none (sluice, and the unit test in
    // editing-tokens.test.ts). Chromium writes class="" there; left out of the comparison for that reason.
    const CHROMIUM_WRITES_EMPTY_CLASS = 1;
    expect(TOKEN_CASES[CHROMIUM_WRITES_EMPTY_CLASS]).toEqual({ cls: null, ops: [['add', []]] });
    expect(mine[CHROMIUM_WRITES_EMPTY_CLASS]).toBe('<span></span> [null] 0');
    expect(theirs[CHROMIUM_WRITES_EMPTY_CLASS]).toBe('<span class=""></span> [null] 0');
    expect(mine.filter((_, i) => i !== CHROMIUM_WRITES_EMPTY_CLASS)).toEqual(theirs.filter((_, i) => i !== CHROMIUM_WRITES_EMPTY_CLASS));
    expect(mine.length).toBe(TOKEN_CASES.length + 1);
  });
});

// Keep the sluice side honest: runCase really runs on sluice's classes (not on a global DOM).
it('runs the cases on sluice elements', () => {
  const doc = parse('<!DOCTYPE html>');
  const r = runCase(doc as unknown as Document, { ns: NS.HTML, name: 'table', soup: '<tr><td>x' });
  expect(r.first).toBe('<tbody><tr><td>x</td></tr></tbody>');
  expect((doc.createElement('p') as Element).constructor.name).toBe('Element');
});
