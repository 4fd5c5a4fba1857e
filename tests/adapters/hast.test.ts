/**
 * toHast against the real hast utilities: the tree is hast-util-from-html's for the same page (the 258
 * corpus pages and tag soup, where parse5 — under hast-util-from-html — and sluice build the same tree),
 * and hast-util-to-html's output reparses (with sluice) to sluice's tree as far as hast can tell
 * (hast does not keep the spelling of list, boolean and number attribute values: compared through
 * toHast), with the same elements, text and comments (compared in the html5lib format without
 * attributes). Where hast cannot represent something (the doctype's identifiers; text that
 * hast-util-to-html escapes and the standard does not), a test says so.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as parse5 from 'parse5';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import type { Element as HastElementType, Root } from 'hast';
import {
  NodeType,
  parse,
  parseFragment,
  serialize,
  toHast,
  toTestFormat,
  type Document,
  type Element,
  type HastElement,
  type HastNode,
  type Node,
  type Text,
} from '@sluice/dom';
import { tagSoup } from '../rewriter/helpers/soup.js';
import { corpus, elementsOf, nested, plainCopy, treeOf } from './helpers.js';

/** A hast tree as plain data without positions (iterative). */
function strip(node: unknown): unknown {
  return plainCopy(node, (k) => k === 'position');
}

/** The elements whose text HTML §13.3 writes as is but hast-util-to-html escapes. */
const LITERAL_TEXT = new Set(['xmp', 'iframe', 'noembed', 'noframes', 'plaintext', 'noscript']);

/** The names hast-util-to-html writes without an end tag (html-void-elements) outside SVG, MathML elements included. */
const HTML_VOID_NAMES = new Set(['area', 'base', 'basefont', 'bgsound', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'image', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** Comment data hast-util-to-html writes with references (which comments do not decode). */
const ESCAPED_IN_COMMENTS = /^>|^->|<!--|-->|--!>|<!-$/;

/**
 * `doc` changed where hast-util-to-html's output would change the tree and the HTML serializer's would
 * not (each case tested on its own below): `<` and `&` taken out of the text it escapes and §13.3 does
 * not; `<` and `>` out of comments it escapes; the children of a MathML `<template>` removed (it writes
 * a `template` outside SVG from `content`, which only an HTML template has); a MathML element named like
 * an HTML void element removed (it writes no end tag for it).
 */
function withoutEscapedLiteralText(doc: Document): Document {
  const pending: Node[] = [doc];
  const voidNamed: Element[] = [];
  while (pending.length > 0) {
    const root = pending.pop()!;
    const walk: Node[] = [root];
    while (walk.length > 0) {
      const n = walk.pop()!;
      for (let c = n.firstChild; c !== null; c = c.nextSibling) {
        if (c.nodeType === NodeType.ELEMENT_NODE) {
          const el = c as Element;
          if (el.localName === 'template' && el.namespaceURI === 'http://www.w3.org/1998/Math/MathML') {
            while (el.firstChild !== null) el.removeChild(el.firstChild);
          }
          if (HTML_VOID_NAMES.has(el.localName) && el.namespaceURI === 'http://www.w3.org/1998/Math/MathML') {
            // Written without an end tag, it would take in what follows it: left out (tested below).
            voidNamed.push(el);
            continue;
          }
          if (el.localName === 'template' && 'content' in el) pending.push((el as unknown as { content: Node }).content);
        }
        walk.push(c);
        if (c.nodeType === NodeType.COMMENT_NODE) {
          const comment = c as Text;
          if (ESCAPED_IN_COMMENTS.test(comment.data)) comment.data = comment.data.replace(/</g, '\u2039').replace(/>/g, '\u203A');
        }
        if (c.nodeType !== NodeType.TEXT_NODE) continue;
        const parent = c.parentNode as Element | null;
        if (parent === null || parent.nodeType !== NodeType.ELEMENT_NODE || parent.namespaceURI !== 'http://www.w3.org/1999/xhtml') continue;
        if (!LITERAL_TEXT.has(parent.localName)) {
          // Text in an element inside <plaintext> (a formatting element reconstructed there): everything
          // after the <plaintext> start tag is text to a parser, so the two serializers' escapes (which
          // differ in `>`) come back as what they wrote.
          if (!insidePlaintext(parent)) continue;
          (c as Text).data = (c as Text).data.replace(/</g, '\u2039').replace(/&/g, '\uFF06').replace(/>/g, '\u203A');
          continue;
        }
        if (parent.localName === 'noscript' && !doc.scriptingEnabled) continue;
        (c as Text).data = (c as Text).data.replace(/</g, '\u2039').replace(/&/g, '\uFF06');
      }
    }
  }
  for (const el of voidNamed) el.parentNode!.removeChild(el);
  return doc;
}

function insidePlaintext(el: Element): boolean {
  for (let a: Element | null = el; a !== null; a = a.parentNode as Element | null) {
    if (a.nodeType !== NodeType.ELEMENT_NODE) return false;
    if (a.localName === 'plaintext' && a.namespaceURI === 'http://www.w3.org/1999/xhtml') return true;
  }
  return false;
}

/** The html5lib dump of `html`'s tree without attributes and with the doctype line normalized (hast keeps neither). */
function elementsAndText(html: string): string {
  const doc = parse(html);
  for (const el of elementsOf(doc, true)) for (const name of el.getAttributeNames()) el.removeAttribute(name);
  return toTestFormat(doc).replace(/^\| <!DOCTYPE[^\n]*/, '| <!DOCTYPE>');
}

/** Characters hast-util-to-html writes as references in an attribute name (which names do not decode). */
const ESCAPED_IN_NAMES = /["'<&`]/;

/** Attribute names hast-util-to-html (property-information) writes as `data-…`: `datatype` → `data-type`. */
const DATA_WITHOUT_DASH = /^data[^-]/i;

/**
 * `doc` without the attributes whose names hast-util-to-html does not write back as they were (tested
 * on their own below).
 */
function withoutUnwritableNames(doc: Document): Document {
  for (const el of elementsOf(doc, true)) {
    for (const name of el.getAttributeNames()) {
      if (ESCAPED_IN_NAMES.test(name) || DATA_WITHOUT_DASH.test(name)) el.removeAttribute(name);
    }
  }
  return doc;
}

/** Check one page: toHtml(toHast(doc)) reparses to doc's tree as far as hast tells. */
function roundTrips(html: string): void {
  const doc = withoutUnwritableNames(withoutEscapedLiteralText(parse(html)));
  const out = toHtml(toHast(doc) as Root);
  const mine = serialize(doc);
  const theirs = strip(toHast(parse(out)));
  const ours = strip(toHast(parse(mine)));
  expect(JSON.stringify(theirs) === JSON.stringify(ours) ? '' : firstDifference(theirs, ours)).toBe('');
  expect(elementsAndText(out)).toBe(elementsAndText(mine));
}

/**
 * hastscript (under hast-util-from-html) spells an SVG `textarea` `textArea` (SVG Tiny 1.2's name); the
 * HTML parser does not adjust that name (§13.2.6.5's table has no `textarea`), and toHast keeps the
 * parser's. Put the parser's spelling back in `tree` (plain data, changed in place).
 */
function withParsersTagNames(tree: unknown): unknown {
  const work: unknown[] = [tree];
  while (work.length > 0) {
    const n = work.pop() as { tagName?: string; children?: unknown[]; content?: unknown };
    if (n.tagName === 'textArea') n.tagName = 'textarea';
    if (n.children !== undefined) work.push(...n.children);
    if (n.content !== undefined) work.push(n.content);
  }
  return tree;
}

describe('toHast: the tree is hast-util-from-html\'s', () => {
  it('for every corpus page', () => {
    const pages = corpus();
    expect(pages.length).toBe(258);
    const differing: string[] = [];
    for (const { name, html } of pages) {
      // hast-util-from-html parses with scripting off (as rehype-parse does) and is handed text without a BOM.
      const text = html.replace(/^\uFEFF/, '');
      const ours = strip(toHast(parse(text, { scripting: false })));
      const theirs = withParsersTagNames(strip(fromHtml(text)));
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) differing.push(`${name}: ${firstDifference(ours, theirs)}`);
    }
    expect(differing).toEqual([]);
  });

  it('for generated tag soup where parse5 and sluice build the same tree', () => {
    fc.assert(
      fc.property(tagSoup, (html) => {
        const doc = parse(html, { scripting: false });
        fc.pre(parse5.serialize(parse5.parse(html, { scriptingEnabled: false })) === serialize(doc));
        // hast-util-from-html makes its elements with hastscript, which reads `#` and `.` in a tag name as
        // an id and classes (`<a#b>` becomes an `a` with id `b`; found by a random seed: `<x&#32;z<html>`);
        // toHast keeps the parser's name (docs/dom.md).
        fc.pre(!elementsOf(doc, true).some((el) => /[#.]/.test(el.localName)));
        expect(strip(toHast(doc))).toEqual(withParsersTagNames(strip(fromHtml(html))));
      }),
      { numRuns: 500 },
    );
  });
});

/** Where two plain trees first differ, for the failure message. */
function firstDifference(a: unknown, b: unknown): string {
  const work: [unknown, unknown, string][] = [[a, b, '']];
  while (work.length > 0) {
    const [x, y, path] = work.pop()!;
    if (x === y) continue;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return `${path}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`;
    const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
    for (const k of [...keys].reverse()) work.push([(x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${path}.${k}`]);
  }
  return '(none)';
}

describe('toHast: hast-util-to-html output reparses to sluice\'s tree', () => {
  it('for every corpus page', () => {
    for (const { html } of corpus()) roundTrips(html);
  });

  it('for generated tag soup', () => {
    fc.assert(fc.property(tagSoup, roundTrips), { numRuns: 500 });
  });
});

describe('toHast: what hast keeps and what it cannot', () => {
  it('gives hast property names and types', () => {
    const doc = parse(
      '<label for=a class=" x  y " data-foo-bar=1 tabindex=2 hidden onclick="f()" aria-hidden=true>l</label>' +
        '<input checked=checked disabled=false accept="a, b" maxlength=x>',
    );
    const [label, input] = (toHast(doc.body!) as HastElement).children as HastElement[];
    expect(label!.properties).toEqual({
      htmlFor: ['a'],
      className: ['x', 'y'],
      dataFooBar: '1',
      tabIndex: 2,
      hidden: true,
      onClick: 'f()',
      ariaHidden: 'true',
    });
    expect(input!.properties).toEqual({ checked: true, disabled: 'false', accept: ['a', 'b'], maxLength: 'x' });
    expect(toHtml(toHast(doc.body!) as HastElementType)).toBe(
      '<body><label for="a" class="x y" data-foo-bar="1" tabindex="2" hidden onclick="f()" aria-hidden="true">l</label>' +
        '<input checked disabled="false" accept="a, b" maxlength="x"></body>',
    );
  });

  it('keeps SVG and MathML: SVG property names, xlink:href and xml:lang, foreignObject back to HTML', () => {
    const doc = parse(
      '<svg viewBox="0 0 1 1" class="c" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="#z" xml:lang="en" stroke-width="2"/>' +
        '<foreignObject><p class=q>x</p></foreignObject></svg><math definitionURL="u"><mi>i</mi></math>',
    );
    const body = toHast(doc.body!) as HastElement;
    const svg = body.children[0] as HastElement;
    expect(svg.properties).toEqual({ viewBox: '0 0 1 1', className: ['c'], xmlnsXLink: 'http://www.w3.org/1999/xlink' });
    const a = svg.children[0] as HastElement;
    expect(a.properties).toEqual({ xLinkHref: '#z', xmlLang: 'en', strokeWidth: '2' });
    const foreignObject = svg.children[1] as HastElement;
    expect(foreignObject.tagName).toBe('foreignObject');
    expect((foreignObject.children[0] as HastElement).properties).toEqual({ className: ['q'] });
    const html = toHtml(body as HastElementType);
    expect(html).toBe(
      '<body><svg viewBox="0 0 1 1" class="c" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="#z" xml:lang="en" stroke-width="2"></a>' +
        '<foreignObject><p class="q">x</p></foreignObject></svg><math definitionURL="u"><mi>i</mi></math></body>',
    );
    expect(treeOf(html)).toBe(treeOf(serialize(doc)));
    // An SVG subtree that does not start at <svg>: hast-util-to-html needs to be told its space.
    expect(toHtml(a as HastElementType, { space: 'svg' })).toBe('<a xlink:href="#z" xml:lang="en" stroke-width="2"></a>');
  });

  it('puts template contents in content, a root', () => {
    const doc = parse('<template id=t><td>cell</td><template><b>in</b></template></template>');
    const template = (toHast(doc.head!) as HastElement).children[0] as HastElement;
    expect(template.children).toEqual([]);
    expect(template.content?.type).toBe('root');
    const td = template.content!.children[0] as HastElement;
    expect(td.tagName).toBe('td');
    const inner = template.content!.children[1] as HastElement;
    expect((inner.content!.children[0] as HastElement).tagName).toBe('b');
    expect(toHtml(template as HastElementType)).toBe('<template id="t"><td>cell</td><template><b>in</b></template></template>');
  });

  it('has no place for the doctype\'s name and identifiers (documented): toHtml writes <!doctype html>, quirksMode stays', () => {
    const doc = parse('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>');
    const root = toHast(doc);
    expect(root.children[0]).toEqual({ type: 'doctype' });
    expect(root.data).toEqual({ quirksMode: true });
    expect(toHtml(root as Root).startsWith('<!doctype html>')).toBe(true);
  });

  it('cannot keep the spelling of boolean, number and list values (documented)', () => {
    const doc = parse('<input checked=CHECKED tabindex=01 class="  a   b ">');
    expect(toHtml(toHast(doc.body!) as HastElementType)).toBe('<body><input checked tabindex="1" class="a b"></body>');
  });

  it('loses literal text that hast-util-to-html escapes (documented): <noscript> with scripting on, <xmp>', () => {
    const doc = parse('<noscript><img src=x></noscript><xmp>a<b</xmp>');
    const out = toHtml(toHast(doc) as Root);
    expect(out).toContain('<noscript>&#x3C;img src=x></noscript>');
    expect(treeOf(out)).not.toBe(treeOf(serialize(doc)));
  });

  it('escapes some characters in attribute names, which then reparse as other names (documented)', () => {
    const doc = parse('<p a<b=1 c"d=2>');
    const out = toHtml(toHast(doc.body!) as HastElementType);
    expect(out).toBe('<body><p a&#x3C;b="1" c&#x22;d="2"></p></body>');
    expect((parse(out).body!.firstChild as Element).getAttributeNames()).toEqual(['a&#x3c;b', 'c&#x22;d']);
  });

  it('writes references into comments holding <!-- or --> (documented)', () => {
    const doc = parse('<!--[if IE]> <!-- x --><p>');
    expect(toHtml(toHast(doc) as Root)).toContain('<!--[if IE]> &#x3C;!-- x -->');
  });

  it('loses the children of a MathML <template> in hast-util-to-html, which reads content (documented)', () => {
    const doc = parse('<math><template><mi>x</mi></template></math>');
    const math = (toHast(doc.body!) as HastElement).children[0] as HastElement;
    const template = math.children[0] as HastElement;
    expect(template.content).toBeUndefined();
    expect((template.children[0] as HastElement).tagName).toBe('mi');
    expect(toHtml(math as HastElementType)).toBe('<math><template></template></math>');
  });

  it('writes a MathML element named like an HTML void element without its end tag, so what follows moves into it (documented)', () => {
    // Found by a random seed: `<math><image/><html>` (a MathML image, then a MathML html).
    const doc = parse('<math><image/><html>');
    expect(toHtml(toHast(doc.body!) as HastElementType)).toBe('<body><math><image><html></html></math></body>');
    expect(serialize(doc.body!)).toBe('<math><image></image><html></html></math>');
  });

  it('writes an attribute named data… without a dash after data as data-… (documented)', () => {
    const doc = parse('<span datatype=x>');
    expect(toHtml(toHast(doc.body!) as HastElementType)).toBe('<body><span data-type="x"></span></body>');
  });

  it('keeps the parser\'s tag names (an SVG textarea stays textarea; hastscript would write textArea)', () => {
    const svg = (toHast(parse('<svg><textarea>').body!) as HastElement).children[0] as HastElement;
    expect((svg.children[0] as HastElement).tagName).toBe('textarea');
    const body = (fromHtml('<svg><textarea>').children[0] as HastElementType).children[1] as HastElementType;
    expect(((body.children[0] as HastElementType).children[0] as HastElementType).tagName).toBe('textArea');
  });

  it('drops attributes named constructor and __proto__ (as hast-util-from-parse5 does)', () => {
    const p = toHast(parse('<p constructor=1 __proto__=2 id=x>').body!.firstChild!) as HastElement;
    expect(Object.keys(p.properties)).toEqual(['id']);
    expect(Object.getPrototypeOf(p.properties)).toBe(Object.prototype);
  });

  it('converts a fragment, a text node and a comment', () => {
    const fragment = parseFragment('<td>a</td><!--c-->', 'tr');
    const root = toHast(fragment);
    expect(strip(root)).toEqual({
      type: 'root',
      data: { quirksMode: false },
      children: [
        { type: 'element', tagName: 'td', properties: {}, children: [{ type: 'text', value: 'a' }] },
        { type: 'comment', value: 'c' },
      ],
    });
    expect(toHast(fragment.firstChild!.firstChild!)).toEqual({ type: 'text', value: 'a' });
  });

  it('throws a TypeError naming what it got for an Attr', () => {
    const el = parse('<p id=a>').body!.firstChild as Element;
    expect(() => toHast(el.attributes[0]!)).toThrow(/toHast: cannot convert a node of type 2/);
  });
});

describe('toHast on a 100,000-deep document', () => {
  it('converts it (iteratively); hast-util-to-html recurses and overflows the stack on it, so only the adapter is tested', () => {
    const depth = 100_000;
    const root = toHast(parse(nested(depth)));
    let n: HastNode = root;
    let divs = 0;
    for (;;) {
      if (!('children' in n) || n.children.length === 0) break;
      n = n.children[n.children.length - 1]!;
      if (n.type === 'element' && n.tagName === 'div') divs++;
    }
    expect(divs).toBe(depth);
    expect(() => toHtml(root as Root)).toThrow(RangeError);
  });
});
