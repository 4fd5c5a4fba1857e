/**
 * toParse5 against the real parse5 8: the tree equals parse5's own for the same page (the 258 corpus
 * pages and generated tag soup), parse5.serialize's output reparses (with sluice) to sluice's tree, and
 * namespaces, attribute namespaces, template contents and doctypes keep their places.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as parse5 from 'parse5';
import { parse, parseFragment, serialize, toParse5, type Parse5Node } from '@sluice/dom';
import { tagSoup } from '../rewriter/helpers/soup.js';
import { corpus, nested, plainCopy, reference, treeOf } from './helpers.js';

/** A parse5 tree as plain data: parentNode links dropped (they make cycles), locations dropped unless asked. */
function plain(node: unknown, locations = false): unknown {
  return plainCopy(node, (k) => k === 'parentNode' || (k === 'sourceCodeLocation' && !locations));
}

describe('toParse5: the tree is parse5 8\'s own', () => {
  it('for every corpus page (parse5.parse of the same text)', () => {
    const pages = corpus();
    expect(pages.length).toBe(258);
    const differing: string[] = [];
    for (const { name, html } of pages) {
      const ours = plain(toParse5(parse(html)));
      // sluice skips a leading byte order mark as a browser's decoder does; parse5 is handed decoded text.
      const theirs = plain(parse5.parse(html.replace(/^\uFEFF/, ''), { scriptingEnabled: true }));
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) differing.push(name);
    }
    expect(differing).toEqual([]);
  });

  it('for generated tag soup where the two parsers agree (parse5 8 predates the standard\'s customizable <select>)', () => {
    fc.assert(
      fc.property(tagSoup, (html) => {
        const theirs = parse5.parse(html);
        fc.pre(parse5.serialize(theirs) === serialize(parse(html)));
        expect(plain(toParse5(parse(html)))).toEqual(plain(theirs));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps namespaces, attribute namespaces, template contents and the doctype', () => {
    const html =
      '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">' +
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1">' +
      '<a xlink:href="#z" href="h" xml:lang="en"/><foreignObject><p>x</p></foreignObject></svg>' +
      '<math definitionURL="u"><mi>i</mi></math><template><td>cell</td></template>';
    const doc = toParse5(parse(html));
    expect(plain(doc)).toEqual(plain(parse5.parse(html)));
    expect(doc.mode).toBe('limited-quirks');
    const doctype = doc.childNodes[0]!;
    expect(doctype).toMatchObject({ nodeName: '#documentType', name: 'html', publicId: "-//W3C//DTD HTML 4.01 Transitional//EN", systemId: "http://www.w3.org/TR/html4/loose.dtd" });
    const body = (doc.childNodes[1] as parse5.DefaultTreeAdapterMap['element']).childNodes[1] as parse5.DefaultTreeAdapterMap['element'];
    const svg = body.childNodes[0] as parse5.DefaultTreeAdapterMap['element'];
    expect(svg.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(svg.attrs).toEqual([
      { name: 'xmlns', value: 'http://www.w3.org/2000/svg', namespace: 'http://www.w3.org/2000/xmlns/', prefix: '' },
      { name: 'xlink', value: 'http://www.w3.org/1999/xlink', namespace: 'http://www.w3.org/2000/xmlns/', prefix: 'xmlns' },
      { name: 'viewBox', value: '0 0 1 1' },
    ]);
    const a = svg.childNodes[0] as parse5.DefaultTreeAdapterMap['element'];
    expect(a.attrs).toEqual([
      { name: 'href', value: '#z', namespace: 'http://www.w3.org/1999/xlink', prefix: 'xlink' },
      { name: 'href', value: 'h' },
      { name: 'lang', value: 'en', namespace: 'http://www.w3.org/XML/1998/namespace', prefix: 'xml' },
    ]);
    const foreignObject = svg.childNodes[1] as parse5.DefaultTreeAdapterMap['element'];
    expect(foreignObject.tagName).toBe('foreignObject');
    expect((foreignObject.childNodes[0] as parse5.DefaultTreeAdapterMap['element']).namespaceURI).toBe('http://www.w3.org/1999/xhtml');
    const math = body.childNodes[1] as parse5.DefaultTreeAdapterMap['element'];
    expect(math.namespaceURI).toBe('http://www.w3.org/1998/Math/MathML');
    expect(math.attrs).toEqual([{ name: 'definitionURL', value: 'u' }]);
    const template = body.childNodes[2] as parse5.DefaultTreeAdapterMap['template'];
    expect(template.childNodes).toEqual([]);
    expect(template.content.nodeName).toBe('#document-fragment');
    const td = template.content.childNodes[0] as parse5.DefaultTreeAdapterMap['element'];
    expect(td.tagName).toBe('td');
    expect(td.parentNode).toBe(template.content);
    expect(parse5.serialize(template)).toBe('<td>cell</td>');
    // parse5's own tree adapter reads it.
    expect(parse5.defaultTreeAdapter.getTemplateContent(template)).toBe(template.content);
    expect(parse5.defaultTreeAdapter.getAttrList(a)).toBe(a.attrs);
    expect(parse5.serializeOuter(a)).toBe('<a xlink:href="#z" href="h" xml:lang="en"></a>');
  });

  it('writes an attribute the DOM API put in another namespace by its qualified name', () => {
    const doc = parse('<p>');
    const p = doc.body!.firstChild as import('@sluice/dom').Element;
    p.setAttributeNS('urn:x', 'plain', '1');
    p.setAttributeNS('urn:y', 'y:pre', '2');
    expect(parse5.serializeOuter(toParse5(p) as parse5.DefaultTreeAdapterMap['element'])).toBe('<p plain="1" y:pre="2"></p>');
    expect(parse5.serializeOuter(toParse5(p) as parse5.DefaultTreeAdapterMap['element'])).toBe(p.outerHTML);
  });

  it('links every child to its parent', () => {
    const doc = toParse5(parse('<p>a<b>b</b><!--c--></p>'));
    const stack: Parse5Node[] = [doc];
    let seen = 0;
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (!('childNodes' in n)) continue;
      for (const c of n.childNodes) {
        expect(c.parentNode).toBe(n);
        seen++;
        stack.push(c);
      }
    }
    expect(seen).toBe(8); // html, head, body, p, "a", b, "b", the comment
  });

  it('converts a fragment and a single element', () => {
    const fragment = parseFragment('<td>a</td><td>b</td>', 'tr');
    const p5 = toParse5(fragment);
    expect(p5.nodeName).toBe('#document-fragment');
    expect(parse5.serialize(p5)).toBe('<td>a</td><td>b</td>');
    const el = toParse5(fragment.firstChild!);
    expect(el).toMatchObject({ nodeName: 'td', parentNode: null });
    expect(parse5.serializeOuter(el as parse5.DefaultTreeAdapterMap['element'])).toBe('<td>a</td>');
  });

  it('throws a TypeError naming what it got for an Attr or a non-node', () => {
    const el = parse('<p id=a>').body!.firstChild as import('@sluice/dom').Element;
    expect(() => toParse5(el.attributes[0]!)).toThrow(/toParse5: cannot convert a node of type 2/);
    expect(() => toParse5({} as never)).toThrow(TypeError);
  });
});

describe('toParse5: parse5.serialize output reparses to sluice\'s tree', () => {
  it('for every corpus page', () => {
    const differing: string[] = [];
    let identical = 0;
    for (const { name, html } of corpus()) {
      const doc = parse(html);
      const out = parse5.serialize(toParse5(doc));
      if (out === serialize(doc)) identical++;
      if (treeOf(out) !== reference(doc)) differing.push(name);
    }
    expect(differing).toEqual([]);
    // Both serializers are HTML §13.3's; they write the same text for almost every page.
    expect(identical).toBeGreaterThan(0);
  });

  it('for generated tag soup', () => {
    fc.assert(
      fc.property(tagSoup, (html) => {
        const doc = parse(html);
        expect(treeOf(parse5.serialize(toParse5(doc)))).toBe(reference(doc));
      }),
      { numRuns: 500 },
    );
  });
});

describe('toParse5 on a 100,000-deep document', () => {
  it('converts it (iteratively), and parse5.serialize (iterative in parse5 8) writes what sluice writes', () => {
    const depth = 100_000;
    const doc = parse(nested(depth));
    const tree = toParse5(doc);
    let n: Parse5Node = tree;
    let divs = 0;
    for (;;) {
      if (!('childNodes' in n) || n.childNodes.length === 0) break;
      n = n.childNodes[n.childNodes.length - 1]!;
      if (n.nodeName === 'div') divs++;
    }
    expect(divs).toBe(depth);
    expect(parse5.serialize(tree)).toBe(serialize(doc));
  });
});
