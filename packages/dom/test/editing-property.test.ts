// Editing at scale and on generated input: a 100,000-deep tree cloned and set through innerHTML with no
// stack overflow (nothing recurses), and for generated tag soup, innerHTML set from innerHTML settles
// after one round and cloneNode(true) serializes the same as the original.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NS } from '@sluice/tree-builder';
import { type Element, parse, serialize } from '../src/index.js';
import { tagSoup } from '../../../tests/rewriter/helpers/soup.js';

const DEPTH = 100_000;

describe('100,000 deep', () => {
  const deepMarkup = '<div>'.repeat(DEPTH) + 'x' + '</div>'.repeat(DEPTH);

  it('cloneNode(true) copies every level', () => {
    const doc = parse(deepMarkup);
    const body = doc.body!;
    const copy = body.cloneNode(true);
    expect(copy.innerHTML.length).toBe(deepMarkup.length);
    expect(copy.innerHTML).toBe(deepMarkup);
    expect(copy.textContent).toBe('x');
    // The copy is independent: its deepest node is a different node.
    let a: Element = body;
    let b: Element = copy;
    while (a.firstElementChild !== null) {
      a = a.firstElementChild;
      b = b.firstElementChild!;
    }
    expect(b).not.toBe(a);
    expect(b.ownerDocument).toBe(doc);
  });

  it('innerHTML gets and sets it, and outerHTML replaces it', () => {
    const doc = parse('<!DOCTYPE html><body><section></section><aside></aside>');
    const section = doc.getElementsByTagName('section')[0];
    section.innerHTML = deepMarkup;
    expect(section.innerHTML).toBe(deepMarkup);
    expect(section.textContent).toBe('x');
    const aside = doc.getElementsByTagName('aside')[0];
    aside.innerHTML = section.innerHTML;
    expect(aside.innerHTML.length).toBe(deepMarkup.length);
    section.firstElementChild!.outerHTML = '<b>flat</b>';
    expect(section.innerHTML).toBe('<b>flat</b>');
    // Moving the deep subtree (ancestor check walks 100,000 parents) and textContent replacing it.
    section.append(aside.firstChild!);
    expect(section.lastElementChild!.localName).toBe('div');
    section.textContent = 'gone';
    expect(section.innerHTML).toBe('gone');
  });
});

/** The context elements the property runs with (HTML, table, template, select, SVG). */
const contexts = fc.constantFrom('div', 'body', 'table', 'tr', 'template', 'select', 'svg', 'math', 'textarea', 'title');

function contextElement(name: string): Element {
  const doc = parse('<!DOCTYPE html>');
  if (name === 'svg') return doc.createElementNS(NS.SVG, 'svg');
  if (name === 'math') return doc.createElementNS(NS.MATHML, 'math');
  return doc.createElement(name);
}

/**
 * The HTML Standard (§13.3, since whatwg/html#1815) no longer writes an extra newline after `<pre>`,
 * `<textarea>` and `<listing>`, while the parser drops one newline after their start tags: each round
 * through innerHTML drops one leading newline of such an element inside the context. That is the
 * standard's (and every browser's) behaviour, not instability to catch here, so those inputs are left
 * out of the "settles after one round" property (editing-html.test.ts checks the rule itself).
 */
const LEADING_NEWLINE_LOSS = /<(pre|textarea|listing)(\s[^>]*)?>\n/;
/**
 * A `<plaintext>` element is serialized with an end tag (§13.3 writes one for every non-void element),
 * but nothing ends PLAINTEXT when parsing: each round adds one more `</plaintext>` as text. Also the
 * standard's behaviour (§13.3's warning that serializing and parsing need not give back the tree).
 */
const PLAINTEXT = /<plaintext[\s>]/;
const settles = (html: string): boolean => !LEADING_NEWLINE_LOSS.test(html) && !PLAINTEXT.test(html);

describe('generated tag soup', () => {
  it('el.innerHTML = el.innerHTML settles after one round; cloneNode(true) serializes the same', () => {
    fc.assert(
      fc.property(tagSoup, contexts, (soup, name) => {
        const el = contextElement(name);
        el.innerHTML = soup;
        const first = el.innerHTML;
        const clone = el.cloneNode(true);
        expect(serialize(clone)).toBe(first);
        expect(clone.outerHTML).toBe(el.outerHTML);
        el.innerHTML = first;
        const second = el.innerHTML;
        fc.pre(settles(second));
        el.innerHTML = second;
        expect(el.innerHTML).toBe(second);
      }),
      { numRuns: 500 },
    );
  });

  it('documents: cloneNode(true) serializes the same, and body.innerHTML settles after one round', () => {
    fc.assert(
      fc.property(tagSoup, (soup) => {
        const doc = parse(soup);
        expect(serialize(doc.cloneNode(true))).toBe(serialize(doc));
        const body = doc.body;
        if (body === null) return;
        body.innerHTML = body.innerHTML;
        const second = body.innerHTML;
        fc.pre(settles(second));
        body.innerHTML = second;
        expect(body.innerHTML).toBe(second);
      }),
      { numRuns: 300 },
    );
  });
});
