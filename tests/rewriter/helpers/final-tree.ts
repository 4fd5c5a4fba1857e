/**
 * The reference for "exact on the final tree" (tests/rewriter/final-tree.test.ts, tests/browser/): a
 * handler set that changes every kind of node, and the tree `parse(input)` builds with the same changes
 * applied to its nodes, matching with `querySelectorAll` on the final tree.
 */
import fc from 'fast-check';
import { Comment, Document, Element, HTMLTemplateElement, type Node, Text, nextInSubtree, parse, toTestFormat } from '@sluice/dom';
import { HTMLRewriter, parseSelector, type SelectorList } from '@sluice/rewriter';
import { querySelectorAll } from './reference-query.js';

const FORMATTING = 'a, b, big, code, em, font, i, nobr, s, small, strike, strong, tt, u';
const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * The errors with which the rewriter refuses a change no markup can make a browser build (the output
 * would be another tree): docs/rewriter.md, "Exact on the final tree", "Held output", and content after
 * a document cut off inside something it would join. Any other error is a failure.
 */
export const REFUSAL = /cannot be written so that a browser builds the same tree|is moved by the adoption agency algorithm after its start tag|cannot write content at the end of the document/;
export const S = {
  formatting: FORMATTING,
  marked: 'p, div, td, li, table, h1, select, option',
  ancestry: 'div > p, b p, a div, td span, body > table',
  renamed: 'span',
  wrapped: 'h1, caption',
  unwrapped: 'section',
  removed: 'dd',
  textless: 'pre',
} as const;
const LIST = Object.fromEntries(Object.entries(S).map(([k, v]) => [k, parseSelector(v)])) as Record<keyof typeof S, SelectorList>;

/** Which changes a run makes: `tags` (attributes, names, removal, text, comments), and `content` too. */
export type Changes = 'tags' | 'content';

export function handlers(r: HTMLRewriter, changes: Changes): void {
  r.on(S.formatting, { element: (e) => void e.setAttribute('data-f', e.tagName) });
  r.on(S.marked, { element: (e) => void e.setAttribute('data-m', '') });
  r.on(S.ancestry, { element: (e) => void e.setAttribute('data-a', '1') });
  r.onDocument({ comments: (c) => void (c.text = c.text.toUpperCase()) });
  if (changes === 'content') {
    r.on(S.removed, { element: (e) => void e.remove() });
    r.on(S.renamed, { element: (e) => void (e.tagName = 'x-span') });
    r.on(S.textless, { text: (t) => void t.remove() });
    // (On HTML elements: a self-closing foreign element has no content, which the DOM cannot tell.)
    r.on(S.wrapped, { element: (e) => void (e.namespaceURI === HTML_NS && e.prepend('[').append(']')) });
    r.on(S.unwrapped, { element: (e) => void e.removeAndKeepContent() });
  }
}

export async function rewrite(chunks: readonly string[], changes: Changes): Promise<string> {
  const r = new HTMLRewriter();
  handlers(r, changes);
  let out = '';
  const t = r.createTransformer((s) => (out += s));
  for (const c of chunks) await t.write(c);
  await t.end();
  return out;
}

function elementsIn(doc: Document): Element[] {
  const out: Element[] = [];
  for (let n: Node | null = doc.firstChild; n !== null; n = nextInSubtree(n, doc)) if (n instanceof Element) out.push(n);
  return out;
}

/** `parse(input)` with the handlers' changes applied to the final tree's nodes. */
export function expectedTree(input: string, changes: Changes): Document {
  const doc = parse(input);
  const found = (k: keyof typeof S): Set<Element> => new Set(querySelectorAll(doc, LIST[k]));
  const m = Object.fromEntries(Object.keys(S).map((k) => [k, found(k as keyof typeof S)])) as Record<keyof typeof S, Set<Element>>;
  // Text inside `pre` (the text handler's scope: text whose element ancestors include a match).
  const texts: Text[] = [];
  for (let n: Node | null = doc.firstChild; n !== null; n = nextInSubtree(n, doc)) {
    if (!(n instanceof Text)) continue;
    for (let a = n.parentElement; a !== null; a = a.parentElement) if (m.textless.has(a)) { texts.push(n); break; }
  }
  if (changes === 'content') for (const t of texts) t.remove();
  // Document comment handlers see every comment, template contents' included.
  const roots: Node[] = [doc];
  while (roots.length > 0) {
    const root = roots.pop()!;
    for (let n: Node | null = root.firstChild; n !== null; n = nextInSubtree(n, root)) {
      if (n instanceof Comment) n.data = n.data.toUpperCase();
      else if (n instanceof HTMLTemplateElement) roots.push(n.content);
    }
  }
  for (const el of elementsIn(doc)) {
    if (m.formatting.has(el)) el.setAttribute('data-f', el.localName);
    if (m.marked.has(el)) el.setAttribute('data-m', '');
    if (m.ancestry.has(el)) el.setAttribute('data-a', '1');
    if (changes === 'content' && m.wrapped.has(el) && el.namespaceURI === HTML_NS) {
      el.insertBefore(doc.createTextNode('['), el.firstChild);
      el.appendChild(doc.createTextNode(']'));
    }
  }
  for (const el of elementsIn(doc)) {
    if (changes !== 'content' || !m.renamed.has(el)) continue;
    const renamed = doc.createElementNS(el.namespaceURI, 'x-span');
    for (const name of el.getAttributeNames()) renamed.setAttribute(name, el.getAttribute(name)!);
    while (el.firstChild !== null) renamed.appendChild(el.firstChild);
    el.parentNode!.replaceChild(renamed, el);
  }
  for (const el of elementsIn(doc)) {
    if (changes === 'content' && m.unwrapped.has(el)) {
      while (el.firstChild !== null) el.parentNode!.insertBefore(el.firstChild, el);
      el.remove();
    }
  }
  if (changes === 'content') for (const el of m.removed) el.remove();
  return doc;
}

/** The tree in html5lib's format, adjacent text nodes merged and empty ones dropped (as a parser makes them). */
export function normalized(doc: Document): string {
  const texts: Text[] = [];
  for (let n: Node | null = doc.firstChild; n !== null; n = nextInSubtree(n, doc)) if (n instanceof Text) texts.push(n);
  for (const t of texts) {
    if (t.parentNode === null) continue;
    let next = t.nextSibling;
    while (next instanceof Text) {
      t.data += next.data;
      next.remove();
      next = t.nextSibling;
    }
    if (t.data === '') t.remove();
  }
  return toTestFormat(doc);
}

/** Soup rich in what rearranges trees: formatting elements around blocks, tables, misnested end tags. */
export const rearranging = fc
  .array(
    fc.constantFrom(
      '<b>', '<i class=k>', '<a href=1>', '<font>', '</b>', '</i>', '</a>', '</font>', '<p>', '<div>', '</p>', '</div>',
      '<table>', '<tr>', '<td>', '</table>', '<span>', '</span>', '<section>', '</section>', '<h1>', '</h1>', '<li>',
      '<pre>', '<dd>', '<!--c-->', 'x', ' ', '<select>', '<option>', '<template>', '</template>', '<svg>', '<math>',
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

/**
 * Soup made of what makes the adoption agency algorithm move elements: formatting elements with blocks
 * (special elements) opened inside them and the formatting elements' end tags while the blocks are open
 * — nested, in tables (foster parenting), lists, foreign content's special elements — between bits of
 * other soup. (No `<template>`: a formatting element left active inside one is reconstructed outside it,
 * a copy matched where its original was not, which the rewriter refuses — copies.ts — and this test
 * counts as a failure.)
 */
const FORMATTING_START = fc.constantFrom('<b>', '<i class=k>', '<a href=1>', '<font>', '<nobr>', '<em>');
const FORMATTING_END = fc.constantFrom('</b>', '</i>', '</a>', '</font>', '</nobr>', '</em>', '<a href=2>');
const BLOCK = fc.constantFrom('<p>', '<div>', '<h1>', '<section>', '<li>', '<pre>', '<dd>', '<table>', '<table><tr><td>', '<select>', '<svg><desc>', '<math><mi>', '<ul>', '<center>');
const FILLER = fc.constantFrom('x', ' ', '<span>', '</span>', '</p>', '</div>', '<!--c-->', '<tr>', '<td>', '</td>', '</table>', '<br>', '<img>');
const move = fc
  .tuple(fc.array(FORMATTING_START, { minLength: 1, maxLength: 3 }), fc.array(fc.oneof(BLOCK, FILLER), { minLength: 1, maxLength: 5 }), fc.array(FORMATTING_END, { minLength: 1, maxLength: 3 }), fc.array(FILLER, { maxLength: 3 }))
  .map(([f, inside, end, after]) => [...f, ...inside, ...end, ...after].join(''));
export const moving = fc.array(fc.oneof(move, FILLER, BLOCK), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
