/**
 * Content written after the end of the input stays out of what the input ended inside
 * (packages/rewriter/src/transform/end-of-input.ts): a document cut off anywhere — inside a comment, a
 * tag, an attribute value, a doctype, a CDATA section, raw text, a character reference — with content
 * appended at its end reparses to the input's own tree plus that content, or the rewrite is refused
 * with an error that says why. Nothing appended: the output is the input.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Comment, Element, HTMLTemplateElement, type Node, Text, nextInSubtree, parse, toTestFormat } from '@sluice/dom';

const FORMATTING = new Set(['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u']);
import { HTMLRewriter } from '@sluice/rewriter';
import { tagSoup } from './helpers/soup.js';

const MARK = 'MARKZ';

async function appendAtEnd(input: string, content: string, html: boolean): Promise<string> {
  let out = '';
  const t = new HTMLRewriter().onDocument({ end: (e) => void e.append(content, { html }) }).createTransformer((s) => (out += s));
  await t.write(input);
  await t.end();
  return out;
}

/**
 * The tree with the marker taken out of every text and comment, whitespace taken out of text, and the
 * text nodes and comments left empty dropped (on both sides): where the input ends in a table's
 * whitespace, appended text joins that table text and takes it along where text in a table goes
 * (foster parenting, §13.2.6.1), which no markup after it can keep apart.
 */
function withoutMark(html: string): string {
  const doc = parse(html);
  const roots: Node[] = [doc];
  const drop: Node[] = [];
  while (roots.length > 0) {
    const root = roots.pop()!;
    for (let n: Node | null = root.firstChild; n !== null; n = nextInSubtree(n, root)) {
      if (n instanceof Text || n instanceof Comment) {
        // (html content in a raw text element is text there, escaped for it: `<\!--` in a script.)
        n.data = n.data.split(`<!--${MARK}-->`).join('').split(`<\\!--${MARK}-->`).join('').split(MARK).join('');
        // (Whitespace is compared nowhere: table text the content joins goes with it, merging with
        // the text before the table.)
        if (n instanceof Text) n.data = n.data.replace(/[\t\n\f\r ]+/g, '');
        if (n.data === '') drop.push(n);
      } else if (n instanceof HTMLTemplateElement) roots.push(n.content);
    }
  }
  for (const n of drop) n.remove();
  // Text appended in a table is foster-parented, and reopens the formatting elements a browser keeps
  // active there (§13.2.4.3): a copy the marker alone was in stays behind, empty. Empty formatting
  // elements are dropped on both sides (innermost first, so nested ones go too).
  const elements: Element[] = [];
  for (let n: Node | null = doc.firstChild; n !== null; n = nextInSubtree(n, doc)) if (n instanceof Element) elements.push(n);
  for (let i = elements.length - 1; i >= 0; i--) {
    const el = elements[i]!;
    if (el.firstChild === null && FORMATTING.has(el.localName)) el.remove();
  }
  return toTestFormat(doc);
}

/** Documents cut off anywhere: every construct can be the one the input ends inside. */
const cutOff = fc
  .tuple(
    fc.oneof(
      tagSoup,
      fc.constantFrom(
        '<p title="a b">x</p><!-- c -- d --><!DOCTYPE html PUBLIC "x" "y"><svg><![CDATA[ a ]] ]]></svg><script>a</script><title>t</title>',
        '<textarea>a&amp;b</textarea><style>s</style><?pi x?><a href=x>l</a>&notin; &#x41; &am\r\n<b>',
      ),
    ),
    fc.double({ min: 0, max: 1, noNaN: true }),
  )
  .map(([doc, f]) => doc.slice(0, Math.floor(f * doc.length)));

describe('content after the end of the input', () => {
  it('closes what the input ended inside, or is refused (fast-check)', async () => {
    let refused = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(cutOff, fc.boolean(), async (input, html) => {
        runs++;
        let out: string;
        try {
          out = await appendAtEnd(input, html ? `<!--${MARK}-->` : MARK, html);
        } catch (err) {
          expect((err as Error).message).toMatch(
            /^HTMLRewriter: (cannot write content at the end of the document: the document ends (inside a doctype|in "<\/"|in (plaintext|raw text or script data)|inside a comment|inside a script's "<!--<script>")|text inserted right after .* would make)/,
          );
          refused++;
          return;
        }
        // Written as text or as a comment, the content is found in the reparsed tree, and without it the
        // tree is the input's.
        // (A frameset document drops text, wherever it is; so does a template whose content is a column
        // group, `<template><col>`: docs/rewriter.md, DocumentEnd.)
        if (!/<frameset/i.test(input) && !(!html && /<template[\s\S]*<col/i.test(input))) expect(toTestFormat(parse(out))).toContain(MARK);
        expect(withoutMark(out)).toBe(withoutMark(input));
      }),
      { numRuns: 1500 },
    );
    console.log(`end of input: ${runs} cut-off documents, ${refused} refused`);
  });

  it('nothing appended: the output is the input, unfinished tag included', async () => {
    for (const input of ['<p title="abc', '<!--abc--', '<!DOCTYPE html', '</', '<', '&am', '<svg><![CDATA[c', '<script>a</scr', '<p a']) {
      let out = '';
      const t = new HTMLRewriter().onDocument({ end() {} }).createTransformer((s) => (out += s));
      await t.write(input);
      await t.end();
      expect(out).toBe(input);
    }
  });

  it('each construct, with the smallest examples', async () => {
    expect(await appendAtEnd('<p title="abc', 'x', false)).toBe('x'); // the parser drops the unfinished tag
    expect(await appendAtEnd('<!--abc--', 'x', false)).toBe('<!--abc-->x');
    expect(await appendAtEnd('<!x', 'x', false)).toBe('<!x>x');
    expect(await appendAtEnd('<svg><![CDATA[c', 'x', false)).toBe('<svg><![CDATA[c]]>x');
    expect(await appendAtEnd('<', 'b>', false)).toBe('<&#98;&gt;'); // `<b>` would be a tag
    expect(await appendAtEnd('&am', 'p;', false)).toBe('&am&#112;;'); // `&amp;` would be a reference
    expect(await appendAtEnd('<title>a</tit', 'le>', false)).toBe('<title>a</tit&#108;e&gt;');
    expect(await appendAtEnd('a\r', '\nb', false)).toBe('a\r&#10;b'); // CRLF would be one newline
    await expect(appendAtEnd('<!DOCTYPE html', 'x', false)).rejects.toThrow(/ends inside a doctype/);
    await expect(appendAtEnd('</', 'x', false)).rejects.toThrow(/ends in "<\/"/);
    await expect(appendAtEnd('<script>a</scr', 'ipt>', false)).rejects.toThrow(/raw text or script data/);
  });

  it('the body a document ending in a text element implies, with attributes set, comes after that element\'s end', async () => {
    // The explicit <body …> must not land in the title's RCDATA, where an attribute value holding
    // "</title>" would end the title early and make markup of the rest of the value.
    const value = '</title><x-pwn pwn>';
    const run = async (input: string) => {
      let out = '';
      const t = new HTMLRewriter().on('*', { element: (e) => void e.setAttribute('a', value) }).createTransformer((s) => (out += s));
      await t.write(input);
      await t.end();
      return out;
    };
    for (const input of ['<title>', '<title>a</tit', '<style>x', '<script>', '<noscript>']) {
      const out = await run(input);
      const doc = parse(out);
      expect(doc.querySelectorAll('x-pwn').length, out).toBe(0);
      expect(doc.body!.getAttribute('a'), out).toBe(value);
      const withoutA = toTestFormat(doc).split('\n').filter((line) => !line.endsWith(`a="${value}"`)).join('\n');
      expect(withoutA, out).toBe(toTestFormat(parse(input)));
    }
    // `<script><!--<script>`: no end tag closes that script, so nothing can be written after it.
    await expect(run('<script><!--<script>')).rejects.toThrow(/cannot write content at the end of the document: the document ends inside a script's "<!--<script>"/);
  });
});

describe('what the last token did, written at the end of the output', () => {
  it('closes what that token closed before the copy it made, which the end of the input would close only after', async () => {
    // `<a>` closes the b and the first a (adoption agency, no furthest block), then copies the b for
    // itself: with it removed, `</b></a>` and then the copy's `<b>` (found by random seed 20 of the
    // combinator soup in content-fuzz.test.ts, 2026-11-28).
    for (const input of ['<a><b><a>', '<a href=1><b><a href=1>x', '<a><b><a>x</a>']) {
      for (const chunks of [[input], [...input]]) {
        let out = '';
        const t = new HTMLRewriter().on('b > a', { element: (e) => void e.remove() }).createTransformer((s) => (out += s));
        for (const c of chunks) await t.write(c);
        await t.end();
        const want = parse(input);
        for (const el of want.querySelectorAll('b > a')) el.remove();
        expect(toTestFormat(parse(out)), `${input} → ${out}`).toBe(toTestFormat(want));
      }
    }
  });

  it('takes entries off the list only once the template the end of the input closes is closed', async () => {
    // The end of the input in a template clears the list up to its marker (§13.2.6.4.18): what lies
    // before the marker is the end of the list only after `</template>` (random seed 101 of a soup of
    // lists with combinator selectors, 2026-11-28).
    for (const [input, selector, change] of [
      ['<li><b><li><template><a>', 'li:nth-child(2)', (e: import('@sluice/rewriter').Element) => void e.append('[a]')],
      ['<li><b><li><template><a>', 'li + li', (e: import('@sluice/rewriter').Element) => void e.after('[f]')],
      ['<div><i><p>1<div><template><template><b>', 'div div', (e: import('@sluice/rewriter').Element) => void e.append('[a]')],
    ] as const) {
      for (const chunks of [[input], [...input]]) {
        let out = '';
        const t = new HTMLRewriter().on(selector, { element: change }).createTransformer((s) => (out += s));
        for (const c of chunks) await t.write(c);
        await t.end();
        const want = parse(input);
        for (const el of want.querySelectorAll(selector)) {
          const text = want.createTextNode(out.includes('[a]') ? '[a]' : '[f]');
          if (out.includes('[a]')) el.appendChild(text);
          else el.parentNode!.insertBefore(text, el.nextSibling);
        }
        expect(toTestFormat(parse(out)), `${input} → ${out}`).toBe(toTestFormat(want));
      }
    }
  });
});
