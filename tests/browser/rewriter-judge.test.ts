/**
 * A browser as the rewriter's judge (issue 14, item 4). Every input is rewritten as a `Response` whose
 * body arrives in seeded-random byte chunks through `HTMLRewriter.transform()`, and the output bytes —
 * nothing stripped — are served as a real page from a loopback HTTP server (`text/html; charset=utf-8`,
 * `Content-Security-Policy: script-src 'none'; default-src 'none'`: no page script runs, nothing else is
 * fetched, and the parser runs with scripting on, as for any page) to Debian's Chromium (playwright-core,
 * one browser, one page, `page.goto`; never a downloaded browser).
 *
 * 1. The DOM: Chromium's tree of the rewritten page, walked in the page (iteratively) into html5lib's tree
 *    format (packages/dom/src/test-format.ts: adjacent text merged, template contents under `content`),
 *    equals the expected tree: `parse(input)` with the handlers' changes applied to its nodes
 *    (tests/rewriter/helpers/final-tree.ts, `'tags'`). (The page compares a hash of its dump with the
 *    expected dump's and sends the dump only when they differ; Node then compares the strings.)
 * 2. The firing: the rewriter also has an element handler per selector (SELECTORS) that only records the
 *    key (tests/rewriter/helpers/reference-run.ts `keyOfUnit`) of each element it fires on. Chromium
 *    answers `document.querySelectorAll` for each selector, as indices of elements in tree order; the DOMs
 *    being equal, element i is element i of the reference run of the same chunks, whose key is known (its
 *    offsets converted to bytes, as the byte transformer counts them). Per selector, the keys must be the
 *    same list, duplicates included. (Template contents: not matched by the rewriter, not searched by
 *    `document.querySelectorAll` — docs/rewriter.md.)
 *
 * Inputs: the 258 corpus pages (htmlparser-benchmark, read as UTF-8), 260 seeded soups (`tagSoup`,
 * `rearranging`; 60 of `moving`, soup full of adoption-agency moves) and a few hand-written cases: one of
 * each difference below, and some moves.
 *
 * Browser differences, each handled by a model (the input must match the model; otherwise it fails):
 *
 * - Chromium drops U+0000 in text before tree construction, where the standard's tree builder dispatches
 *   on it first (`<title>a</title>\0<meta>`: the NUL ends "in head"/"after head" and implies `<body>`, so
 *   the standard puts `<meta>` in the body; Chromium keeps it in `<head>`). Model: the expected tree of
 *   the input without its U+0000s, U+FFFD left out of both dumps (elsewhere a NUL becomes U+FFFD on both
 *   sides). Its firing is compared when the two trees still line up. Smallest input:
 *   `<title>a</title>\0<meta>`.
 * - `<search>`, said not to be special in Chromium: this Chromium (156) agrees with the standard on
 *   html5lib's search-element.dat, so the model (the expected tree of the input with `search` renamed to a
 *   non-special name) never applies here; it stays for other builds. Input: `<p>a<search>b`.
 * - This Chromium makes `<?x?>` a ProcessingInstruction node where the standard makes a bogus comment
 *   `<!--?x?-->`. It does not show here: the document comment handler rewrites every comment, and the
 *   rewriter writes a changed bogus comment as `<!--?X?-->`. Model, should it show: Chromium's PI dumped
 *   as the (uppercased) comment the standard makes of `<?target data?>`. Input: `<?x?>`.
 *
 * - Chromium compares foreign elements' names and attribute names ASCII case-insensitively where HTML
 *   §4.16.2 compares them as written (sluice follows the standard). Model (helpers/name-case.ts): where
 *   the document has a foreign name a selector names in another case, the handlers must fire on
 *   Chromium's answer minus the foreign elements the exact names reject; a selector the model cannot
 *   decide is left out, counted. Smallest inputs: `<svg><clipPath/></svg>` with `clippath`,
 *   `<svg viewBox="0 0 1 1">` with `[viewbox]`.
 *
 * Elements the adoption agency algorithm MOVES after their start tags (issue 14 item 3: the rewriter holds
 * the output until they cannot move any more, and matches them after the move) are exact in both
 * checks: inputs whose reference run reports a move (`moved`, `children moved`) are counted, and must
 * pass like any other (smallest: `<b><p></b>`, whose `p` must not get the `data-a` of `b p`).
 *
 * Known sluice limits, counted and printed, not asserted:
 *
 * - The other changes after the fact that docs/rewriter.md lists ("three ways a stream cannot see
 *   coming"), which change what selectors match but not these handlers' output: foster parenting
 *   inserting an element before an already-matched table (`<table><p>`: the table fired `:first-child`,
 *   in Chromium it is `:nth-child(2)`), attributes of a second `<html>`/`<body>` merged into the first
 *   (`x<body title=a>`: the implied body fired without `[title]`), and a `<frameset>` replacing the body
 *   (`</html><frameset>`: the body fired, Chromium has none). Inputs whose reference run reports any of
 *   these (`late`) have their firing differences counted by reason; their DOM must still be exact.
 *
 * Every other input must be exact in both checks. Without /usr/bin/chromium the suite is skipped locally
 * and FAILS under CI. JUDGE_DEBUG=1 prints the time spent and each input counted above.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runsInChromium } from './helpers/chromium.js';
import { type BodyServer, serveBodies } from './helpers/serve-bodies.js';
import fc from 'fast-check';
import { Element, HTMLTemplateElement, type Node } from '@sluice/dom';
import { HTMLRewriter } from '@sluice/rewriter';
import { expectedTree, handlers, moving, normalized, rearranging } from '../rewriter/helpers/final-tree.js';
import { keyOfUnit, referenceRun } from '../rewriter/helpers/reference-run.js';
import { tagSoup } from '../rewriter/helpers/soup.js';
import { foreignNames, standardAnswer } from './helpers/name-case.js';

const DEBUG = process.env.JUDGE_DEBUG !== undefined;
// script-src: no page script runs (the parser still runs with scripting on); default-src: no subresource is fetched.
const CSP = "script-src 'none'; default-src 'none'";

/** Combinators, attributes, structural pseudo-classes, implied elements, foreign content (from query-selector-all.test.ts). */
const SELECTORS = [
  '*', 'div', 'p', 'b', 'a', 'html', 'head', 'body', 'tbody', 'tr', 'td', 'title', 'meta', 'link', 'svg', 'rect', 'foreignObject',
  '.x', '#i', '[title]', '[title=abc]', '[title=ABC i]', '[title^=a]', '[title$=c]', '[title*=b]', '[title~=b]', '[class~=y]',
  '[lang|=en]', '[type=hidden]', '[href]', '[viewBox]', '[Title]', '[viewbox]', 'clipPath', 'clippath', 'foreignobject',
  'div > p', 'div p', 'body > *', 'table > tr', 'tbody > tr', 'table td', 'p + p', 'p ~ b', 'div + *', 'a ~ a + b', 'td + td',
  ':first-child', 'li:nth-child(2n+1)', ':nth-child(2)', ':nth-child(-n+2)', ':nth-of-type(2)', 'td:first-of-type', 'p:first-of-type',
  ':not(p)', ':not(div, span) > b', ':is(b, i) > span', ':where(.x) p', ':root', ':root > head', 'head title', 'select option',
  'svg rect', 'svg > foreignObject > div', 'math mi', '*|rect', ':nth-child(odd of .x)', 'template', 'template > div',
  'form button', 'img', 'noscript p', 'x-y', 'body :first-child', 'p:not(:first-child)', 'caption ~ tbody', 'ul > li a',
];

const HAND_WRITTEN = [
  '<table><tr><td>x</td></tr></table>',
  '<table><div id=i>a</div><tr><td>b<table><p class=x>c</table></table>',
  '<svg viewBox="0 0 1 1"><foreignObject><div title=abc>x</div></foreignObject><rect/></svg><math><mi>x</mi></math>',
  '<svg><clipPath title=a><rect/></clipPath></svg><math viewbox=1><mi Title=b>x</mi></math>',
  '<ul><li>1<li class=x>2<li>3<li class=x>4</ul><select><option>a<option>b</select><form><button>x</button></form>',
  '<template><div>t<template><p>u</p></template></div></template><p>after</p><noscript><p>n</p></noscript>',
  '<frameset><frame></frameset>',
  '<html><body><p>x</p></body></html><div>after html</div>',
  '<title>a</title>\0<meta>', // Chromium drops the NUL
  '<svg>a\0b</svg>',
  '<p>a<search>b</search>c<svg><g><search>', // search is special (html5lib search-element.dat)
  '<?x?><p>y', // Chromium: a ProcessingInstruction node
  // Adoption-agency moves (followed: see the header).
  '<b><p></b>',
  '<a href=1><div><a href=2>y</a></div>z',
  '<b><i><div><p>x</i>y</b>z<p>w',
  '<b><div><p>1</p><p>2</p>3</b>4</div>',
  '<table><b><div>x</b>y</table>',
  '<i class=k><a href=1><li><div></i><b></div><p></b><a href=1>x</b><p>',
  // The smallest input of each documented limit (see the header):
  '<table><p>',
  'x<body title=a>',
  '</html><frameset>',
];

// ---------------------------------------------------------------------------------------------------
// Chunking (seeded) and the rewrite.

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `s` cut into chunks of 1..max UTF-16 units (never between a surrogate pair, so each chunk is whole UTF-8). */
function chunked(s: string, max: number, rand: () => number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    let j = Math.min(s.length, i + 1 + Math.floor(rand() * max));
    const c = s.charCodeAt(j - 1);
    if (j < s.length && c >= 0xd800 && c <= 0xdbff) j++;
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}

interface Rewritten {
  bytes: Uint8Array;
  /** Per selector, the keys (byte offsets) of the elements the recording handler fired on. */
  fired: string[][];
}

/**
 * The byte chunks of `chunks`: each chunk's UTF-8, except that a cut before a multi-byte character moves,
 * half the time, into that character (the byte transformer holds the unfinished sequence, so the tokens
 * — and the keys — are those of the cut before it, the one the reference run is given).
 */
function byteChunks(chunks: readonly string[], rand: () => number): Uint8Array[] {
  const enc = new TextEncoder();
  const parts = chunks.map((c) => enc.encode(c));
  for (let i = 0; i + 1 < parts.length; i++) {
    const b = parts[i + 1]!;
    const lead = b[0]!;
    const len = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (len === 1 || rand() < 0.5) continue;
    const k = 1 + Math.floor(rand() * (len - 1));
    const joined = new Uint8Array(parts[i]!.length + k);
    joined.set(parts[i]!);
    joined.set(b.subarray(0, k), parts[i]!.length);
    parts[i] = joined;
    parts[i + 1] = b.subarray(k);
  }
  return parts;
}

async function rewriteResponse(chunks: readonly Uint8Array[]): Promise<Rewritten> {
  const r = new HTMLRewriter();
  handlers(r, 'tags');
  const fired: string[][] = SELECTORS.map(() => []);
  SELECTORS.forEach((s, i) => r.on(s, { element: (e) => void fired[i]!.push(keyOfUnit(e)) }));
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (next < chunks.length) c.enqueue(chunks[next++]!);
      else c.close();
    },
  });
  const res = r.transform(new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } }));
  return { bytes: new Uint8Array(await res.arrayBuffer()), fired };
}

/** UTF-8 byte offset of each UTF-16 offset of `s` (0..s.length). */
function byteOffsets(s: string): Int32Array {
  const out = new Int32Array(s.length + 1);
  let b = 0;
  for (let i = 0; i < s.length; i++) {
    out[i] = b;
    const c = s.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out[++i] = b + 2; // (inside a pair: never a token boundary)
        b += 4;
        continue;
      }
      b += 3;
    } else b += 3;
  }
  out[s.length] = b;
  return out;
}

/** Elements in the order the page walk numbers them: tree order, a template's contents after the template's own children. */
function elementOrder(doc: Node): Element[] {
  const out: Element[] = [];
  const stack: Node[] = [];
  const pushKids = (p: Node): void => {
    const kids: Node[] = [];
    for (let c = p.firstChild; c !== null; c = c.nextSibling) kids.push(c);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  };
  pushKids(doc);
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!(n instanceof Element)) continue;
    out.push(n);
    if (n instanceof HTMLTemplateElement) pushKids(n.content);
    pushKids(n);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// In the page: the tree in html5lib's format, and the selectors' answers. (Runs in Chromium: self-contained.)

interface PageResult {
  /** The tree in html5lib's format; null when its hash is the expected tree's (the strings are not sent). */
  dump: string | null;
  elements: number;
  /** Per selector, the indices `querySelectorAll` gives; null when they are the expected ones. */
  results: (number[] | string | null)[];
}

interface PageArgs {
  selectors: string[];
  /** hashOf(expected dump). */
  wantHash: string;
  /** Per selector, the indices of the elements the handlers fired on, joined with ','. */
  expected: string[];
}

/**
 * Two 32-bit FNV-1a lanes over the UTF-16 code units. (The same code runs in the page, inside `inPage`,
 * which must be self-contained; the page's CSP forbids eval.)
 */
function hashOf(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 13);
  }
  return `${(a >>> 0).toString(16)}.${(b >>> 0).toString(16)}.${s.length}`;
}

async function inPage({ selectors, wantHash, expected }: PageArgs): Promise<PageResult> {
  // goto returned at commit: wait for the parser to finish.
  if (document.readyState === 'loading') await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
  const hash = (s: string): string => {
    let a = 0x811c9dc5;
    let b = 0x01000193 ^ s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 13);
    }
    return `${(a >>> 0).toString(16)}.${(b >>> 0).toString(16)}.${s.length}`;
  };
  const HTML = 'http://www.w3.org/1999/xhtml';
  const SVG = 'http://www.w3.org/2000/svg';
  const MATHML = 'http://www.w3.org/1998/Math/MathML';
  const lines: string[] = [];
  const elements: globalThis.Element[] = [];
  // Stack entries: a node, a merged text run (string), or null for a template's `content` line.
  const stack: (globalThis.Node | string | null)[] = [];
  const depths: number[] = [];
  const pushKids = (p: globalThis.Node, depth: number): void => {
    const kids: (globalThis.Node | string)[] = [];
    for (let c = p.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === 3) {
        const data = (c as globalThis.Text).data;
        if (data === '') continue;
        if (typeof kids[kids.length - 1] === 'string') kids[kids.length - 1] += data;
        else kids.push(data);
      } else kids.push(c);
    }
    for (let i = kids.length - 1; i >= 0; i--) {
      stack.push(kids[i]!);
      depths.push(depth);
    }
  };
  pushKids(document, 0);
  while (stack.length > 0) {
    const n = stack.pop()!;
    const depth = depths.pop()!;
    const indent = '| ' + '  '.repeat(depth);
    if (n === null) lines.push(indent + 'content');
    else if (typeof n === 'string') lines.push(`${indent}"${n}"`);
    else if (n.nodeType === 1) {
      const el = n as globalThis.Element;
      elements.push(el);
      const ns = el.namespaceURI;
      const name = ns === HTML ? el.localName : ns === SVG ? `svg ${el.localName}` : ns === MATHML ? `math ${el.localName}` : el.tagName;
      lines.push(`${indent}<${name}>`);
      const attrs: [string, string][] = [];
      for (const a of Array.from(el.attributes)) {
        const an =
          a.namespaceURI === null ? a.localName
          : a.namespaceURI === 'http://www.w3.org/1999/xlink' ? `xlink ${a.localName}`
          : a.namespaceURI === 'http://www.w3.org/XML/1998/namespace' ? `xml ${a.localName}`
          : a.namespaceURI === 'http://www.w3.org/2000/xmlns/' ? `xmlns ${a.localName}`
          : a.name;
        attrs.push([an, a.value]);
      }
      attrs.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
      for (const [an, v] of attrs) lines.push(`${indent}  ${an}="${v}"`);
      if (ns === HTML && el.localName === 'template') {
        const content = (el as globalThis.HTMLTemplateElement).content;
        pushKids(content, depth + 2);
        stack.push(null);
        depths.push(depth + 1);
      }
      pushKids(el, depth + 1);
    } else if (n.nodeType === 8) lines.push(`${indent}<!-- ${(n as globalThis.Comment).data} -->`);
    else if (n.nodeType === 10) {
      const d = n as globalThis.DocumentType;
      lines.push(d.publicId !== '' || d.systemId !== '' ? `${indent}<!DOCTYPE ${d.name} "${d.publicId}" "${d.systemId}">` : `${indent}<!DOCTYPE ${d.name}>`);
    } else if (n.nodeType === 7) {
      const pi = n as globalThis.ProcessingInstruction;
      lines.push(`${indent}<?${pi.target} ${pi.data}>`);
    } else lines.push(`${indent}<#${n.nodeName}>`);
  }
  const index = new Map(elements.map((e, i) => [e, i]));
  const results = selectors.map((s, i) => {
    try {
      const found: number[] = [];
      for (const e of Array.from(document.querySelectorAll(s))) found.push(index.get(e)!);
      found.sort((a, b) => a - b);
      return found.join(',') === expected[i] ? null : found;
    } catch (err) {
      return `error: ${(err as Error).message}`;
    }
  });
  const dump = lines.join('\n');
  return { dump: hash(dump) === wantHash ? null : dump, elements: elements.length, results };
}

// ---------------------------------------------------------------------------------------------------
// The models of the known browser differences (see the header).

const stripFFFD = (s: string): string => s.replaceAll('\uFFFD', '');

function nulModel(input: string): string {
  return stripFFFD(normalized(expectedTree(input.replaceAll('\0', ''), 'tags')));
}

function searchModel(input: string): string {
  const renamed = input.replace(/<(\/?)search(?=[\s/>])/gi, '<$1x-search-as-chromium');
  return normalized(expectedTree(renamed, 'tags')).replaceAll('x-search-as-chromium', 'search');
}

/** Chromium's dump with its PI nodes written as the (uppercased) bogus comments the standard makes. */
function piAsComment(dump: string): string {
  return dump.replace(/^(\| *)<\?(\S*) (.*)>$/gm, (_, indent: string, target: string, data: string) =>
    `${indent}<!-- ${`?${target}${data === '' ? '' : ' ' + data}?`.toUpperCase()} -->`,
  );
}

/** The first line where two dumps differ, for messages. */
function firstDifference(a: string, b: string): string {
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] !== y[i]) return `line ${i + 1}: chromium ${JSON.stringify(x[i])} expected ${JSON.stringify(y[i])}`;
  }
  return 'no difference';
}

// ---------------------------------------------------------------------------------------------------

interface Case {
  name: string;
  input: string;
  /** Largest chunk (UTF-16 units; at most 12 KiB of UTF-8, under the byte transformer's 16 KiB slices, so that its text tokens are the reference run's). */
  max: number;
}

function corpus(): Case[] {
  const dir = join(import.meta.dirname, '../../bench/node_modules/htmlparser-benchmark/files');
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.html')).sort() : [];
  return names.map((n) => ({ name: n.slice(0, 12), input: readFileSync(join(dir, n), 'utf8'), max: 4096 }));
}

const SOUPS = [
  ...fc.sample(fc.oneof(tagSoup, tagSoup, rearranging), { numRuns: 200, seed: 20261125 }),
  // Soup made of adoption-agency moves (tests/rewriter/helpers/final-tree.ts).
  ...fc.sample(moving, { numRuns: 60, seed: 20261125 }),
];

interface Prepared {
  c: Case;
  path: string;
  /** Per selector, the keys the recording handler fired on. */
  fired: string[][];
  ref: ReturnType<typeof referenceRun>;
  /** The key (in the rewriter's terms: byte offsets) of each element of the reference run, in the page walk's order. */
  keys: string[];
  want: string;
  args: PageArgs;
  /** The rewriter's output: the page. */
  bytes: Uint8Array;
}

async function prepare(c: Case, serial: number, rand: () => number): Promise<Prepared> {
  const chunks = chunked(c.input, c.max, rand);
  const { bytes, fired } = await rewriteResponse(byteChunks(chunks, rand));
  // The rewriter passes a leading BOM through and matches on the tree without it; its offsets count its bytes.
  const bom = c.input.startsWith('\uFEFF') ? 1 : 0;
  const ref = referenceRun(bom === 1 ? [chunks[0]!.slice(1), ...chunks.slice(1)] : chunks, []);
  const offsets = byteOffsets(c.input);
  const keys = elementOrder(ref.document).map((el) => {
    const k = ref.keyOf.get(el)!;
    const plus = k.indexOf('+');
    const at = Number(plus < 0 ? k : k.slice(0, plus)) + bom;
    return String(offsets[at]) + (plus < 0 ? '' : k.slice(plus));
  });
  // The handlers' elements as indices, for the page to compare with (a key made twice at one token — two
  // reconstructed copies — gives its indices in turn; Node compares keys whenever the page reports a difference).
  const indicesOf = new Map<string, number[]>();
  keys.forEach((k, i) => indicesOf.set(k, [...(indicesOf.get(k) ?? []), i]));
  const expected = fired.map((list) => {
    const used = new Map<string, number>();
    return list
      .map((k) => {
        const n = used.get(k) ?? 0;
        used.set(k, n + 1);
        return indicesOf.get(k)?.[n] ?? -1;
      })
      .sort((a, b) => a - b)
      .join(',');
  });
  const want = normalized(expectedTree(c.input, 'tags'));
  const path = `/${serial}`;
  return { c, path, fired, ref, keys, want, args: { selectors: SELECTORS, wantHash: hashOf(want), expected }, bytes };
}

interface Tally {
  pages: number;
  soups: number;
  hand: number;
  exact: number;
  firingCompared: number;
  nul: number;
  nulFiringSkipped: number;
  search: number;
  pi: number;
  moved: number;
  movedDomWrong: number;
  movedFiringWrong: number;
  /** Answers compared under Chromium's modeled case deviation on foreign names, and those the model left out. */
  caseModeled: number;
  caseLeftOut: number;
  /** Inputs whose firing differs, by the reference's reasons the tree changed after the fact (documented limits). */
  lateFiring: Map<string, number>;
}

/** Both checks for one input: Chromium's tree against the expected tree, then each selector's answer against the firing. */
function check(p: Prepared, got: PageResult, tally: Tally, failures: string[]): void {
  const { c, fired, ref, keys, want } = p;
  const { input } = c;
  if (c.name.startsWith('soup')) tally.soups++;
  else if (c.name.startsWith('hand')) tally.hand++;
  else tally.pages++;
  const moved = ref.reasons.has('moved') || ref.reasons.has('children moved');
  if (moved) tally.moved++;

  // 1. The DOM.
  const dump = got.dump ?? want;
  let dom = dump === want;
  let lineUp = dom; // element i on both sides is the same element: the firing can be compared
  let cls = '';
  if (!dom && input.includes('\0') && !input.includes('\uFFFD') && stripFFFD(dump) === nulModel(input)) {
    cls = 'nul';
    tally.nul++;
    dom = true;
    lineUp = stripFFFD(dump) === stripFFFD(want);
    if (!lineUp) tally.nulFiringSkipped++;
  } else if (!dom && /<search/i.test(input) && dump === searchModel(input)) {
    cls = 'search';
    tally.search++;
    dom = true;
  } else if (!dom && input.includes('<?') && piAsComment(dump) === want) {
    cls = 'pi';
    tally.pi++;
    dom = lineUp = true;
  }
  if (!dom) {
    if (moved) tally.movedDomWrong++;
    failures.push(`${c.name} DOM${moved ? ' (adoption-agency move)' : ''}: ${JSON.stringify(input.slice(0, 300))} ${firstDifference(dump, want)}`);
    return;
  }
  // Moves are followed: an input whose only change after the fact is a move must fire exactly.
  const late = [...ref.reasons].some((r) => r !== 'moved' && r !== 'children moved');
  if (!lineUp) return;

  // 2. The firing.
  if (keys.length !== got.elements) {
    failures.push(`${c.name}: ${got.elements} elements in Chromium, ${keys.length} in the reference run`);
    return;
  }
  tally.firingCompared++;
  let firingWrong = false;
  const elements = elementOrder(ref.document);
  const names = foreignNames(elements);
  SELECTORS.forEach((s, i) => {
    const reported = got.results[i]!;
    if (typeof reported === 'string') {
      failures.push(`${c.name}: Chromium refused ${s}: ${reported}`);
      return;
    }
    // null: the page found the handlers' elements (p.args.expected[i], sorted indices).
    const answer = reported ?? (p.args.expected[i] === '' ? [] : p.args.expected[i]!.split(',').map(Number));
    const { comparison, want: standard } = standardAnswer(s, answer, elements, names);
    if (comparison === 'left out') {
      tally.caseLeftOut++;
      return;
    }
    if (comparison === 'modeled') tally.caseModeled++;
    else if (reported === null) return;
    const expected = (standard as readonly number[]).map((k) => keys[k]!).sort();
    const actual = [...fired[i]!].sort();
    if (JSON.stringify(expected) === JSON.stringify(actual)) return;
    firingWrong = true;
    if (moved && !late) tally.movedFiringWrong++;
    if (!late) {
      const missing = expected.filter((k) => !actual.includes(k));
      const extra = actual.filter((k) => !expected.includes(k));
      failures.push(
        `${c.name} firing of ${JSON.stringify(s)}${cls === '' ? '' : ` (${cls})`}: ${JSON.stringify(input.slice(0, 300))} ` +
          `missing ${JSON.stringify(missing.slice(0, 5))} extra ${JSON.stringify(extra.slice(0, 5))}`,
      );
    }
  });
  if (firingWrong && late) {
    const why = [...ref.reasons].sort().join(' + ');
    tally.lateFiring.set(why, (tally.lateFiring.get(why) ?? 0) + 1);
    if (DEBUG) console.log(`late firing (${why}): ${c.name} ${JSON.stringify(input.slice(0, 200))}`);
  }
  if (!firingWrong && cls === '' && dump === want) tally.exact++;
}

describe.runIf(runsInChromium)('Chromium judges the rewriter', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let browser: any = null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let page: any = null;
  let server: BodyServer | null = null;
  let origin = '';
  const served = new Map<string, Uint8Array>();

  beforeAll(async () => {
    server = await serveBodies(served, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP, 'cache-control': 'no-store' });
    origin = server.origin;
    browser = await launchChromium();
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('Chromium builds the expected tree of every rewritten page, and querySelectorAll agrees with the handlers', async () => {
    const cases: Case[] = [
      ...HAND_WRITTEN.map((input, i) => ({ name: `hand ${i}`, input, max: 3 })),
      ...corpus(),
      ...SOUPS.map((input, i) => ({ name: `soup ${i}`, input, max: 6 })),
    ];
    const tally: Tally = { pages: 0, soups: 0, hand: 0, exact: 0, firingCompared: 0, nul: 0, nulFiringSkipped: 0, search: 0, pi: 0, moved: 0, movedDomWrong: 0, movedFiringWrong: 0, caseModeled: 0, caseLeftOut: 0, lateFiring: new Map() };
    const failures: string[] = [];
    const rand = prng(20261125);
    const time = { node: 0, chromium: 0 };
    // Node's work for the next input overlaps Chromium's for this one.
    const prepared = async (n: number): Promise<Prepared> => {
      await new Promise((resolve) => setTimeout(resolve, 1)); // let the navigation go out first
      const t0 = performance.now();
      const p = await prepare(cases[n]!, n, rand);
      served.set(p.path, p.bytes);
      time.node += performance.now() - t0;
      return p;
    };
    let next: Promise<Prepared> | null = prepared(0);
    for (let n = 0; n < cases.length; n++) {
      const p = await next!;
      const inBrowser = (async (): Promise<PageResult> => {
        const t0 = performance.now();
        await page.goto(origin + p.path, { waitUntil: 'commit' });
        const r: PageResult = await page.evaluate(inPage, p.args);
        time.chromium += performance.now() - t0;
        return r;
      })();
      next = n + 1 < cases.length ? prepared(n + 1) : null;
      const got = await inBrowser;
      served.delete(p.path);
      check(p, got, tally, failures);
    }
    if (DEBUG) console.log(`time (ms): node ${time.node.toFixed(0)}, chromium ${time.chromium.toFixed(0)}; cpu of this process ${JSON.stringify(process.cpuUsage())}`);
    console.log(
      `browser judge: ${tally.pages} corpus pages, ${tally.soups} soups, ${tally.hand} hand-written; ${SELECTORS.length} selectors; ` +
        `${tally.exact} exact, firing compared on ${tally.firingCompared}; browser differences: NUL ${tally.nul} (${tally.nulFiringSkipped} not lined up, firing not compared), ` +
        `search ${tally.search}, PI ${tally.pi}, case of foreign names: ${tally.caseModeled} answers compared under the model (${tally.caseLeftOut} left out); adoption-agency moves ${tally.moved}: DOM differs ${tally.movedDomWrong}, firing differs ${tally.movedFiringWrong}; firing differs where the tree changed after the fact (documented) ${JSON.stringify(Object.fromEntries(tally.lateFiring))}; ` +
        `other mismatches ${failures.length}`,
    );
    expect(failures).toEqual([]);
    expect(tally.movedDomWrong).toBe(0);
    expect(tally.movedFiringWrong).toBe(0);
    expect(tally.moved).toBeGreaterThan(0);
    expect(tally.pages).toBe(258);
  }, 300_000); // ~55 s of CPU in all (this process ~20 s, Chromium the rest), overlapping on 2 cores; the margin is for a loaded machine
});
