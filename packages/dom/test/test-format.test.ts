import { describe, expect, it } from 'vitest';
import { NS } from '@sluice/tree-builder';
import { Document, type HTMLTemplateElement, toTestFormat } from '../src/index.js';

describe('toTestFormat', () => {
  it('dumps a hand-built document like an html5lib #document block', () => {
    const doc = new Document();
    doc.appendChild(doc.createDocumentType('html', '-//W3C//DTD HTML 4.01//EN', ''));
    doc.appendChild(doc.createComment(' top '));
    const html = doc.appendChild(doc.createElement('html'));
    html.appendChild(doc.createElement('head'));
    const body = html.appendChild(doc.createElement('body'));
    body.setAttribute('zeta', '1');
    body.setAttribute('alpha', 'two words');
    body.appendChild(doc.createTextNode('line 1\nline 2'));
    const svg = body.appendChild(doc.createElementNS(NS.SVG, 'svg'));
    const path = svg.appendChild(doc.createElementNS(NS.SVG, 'foreignObject'));
    path.setAttributeNS(NS.XLINK, 'xlink:href', '#a');
    path.setAttributeNS(null, 'viewBox', '0 0 1 1');
    path.setAttributeNS(NS.XML, 'xml:lang', 'en');
    path.setAttributeNS(NS.XMLNS, 'xmlns', NS.SVG);
    const math = body.appendChild(doc.createElementNS(NS.MATHML, 'mi'));
    math.appendChild(doc.createTextNode('x'));
    expect(toTestFormat(doc)).toBe(
      [
        '| <!DOCTYPE html "-//W3C//DTD HTML 4.01//EN" "">',
        '| <!--  top  -->',
        '| <html>',
        '|   <head>',
        '|   <body>',
        '|     alpha="two words"',
        '|     zeta="1"',
        '|     "line 1',
        'line 2"',
        '|     <svg svg>',
        '|       <svg foreignObject>',
        '|         viewBox="0 0 1 1"',
        '|         xlink href="#a"',
        '|         xml lang="en"',
        '|         xmlns xmlns="http://www.w3.org/2000/svg"',
        '|     <math mi>',
        '|       "x"',
      ].join('\n'),
    );
  });

  it('prints <!DOCTYPE name> when both identifiers are empty, and an empty name', () => {
    const doc = new Document();
    doc.appendChild(doc.createDocumentType(''));
    expect(toTestFormat(doc)).toBe('| <!DOCTYPE >');
  });

  it('dumps template contents under "content", and a fragment as its children', () => {
    const doc = new Document();
    const frag = doc.createDocumentFragment();
    const t = frag.appendChild(doc.createElement('template')) as HTMLTemplateElement;
    t.setAttribute('id', 't');
    t.content.appendChild(doc.createElement('div')).appendChild(doc.createTextNode('in'));
    const inner = t.content.appendChild(doc.createElement('template')) as HTMLTemplateElement;
    inner.content.appendChild(doc.createTextNode('deep'));
    frag.appendChild(doc.createTextNode('after'));
    expect(toTestFormat(frag)).toBe(
      [
        '| <template>',
        '|   id="t"',
        '|   content',
        '|     <div>',
        '|       "in"',
        '|     <template>',
        '|       content',
        '|         "deep"',
        '| "after"',
      ].join('\n'),
    );
    // An element is dumped as itself.
    expect(toTestFormat(inner)).toBe(['| <template>', '|   content', '|     "deep"'].join('\n'));
  });

  it('handles a deep tree without recursion', () => {
    const doc = new Document();
    let el = doc.appendChild(doc.createElement('div'));
    const depth = 8_000; // the format indents every line, so the output grows with depth²
    for (let i = 1; i < depth; i++) el = el.appendChild(doc.createElement('div'));
    el.appendChild(doc.createTextNode('bottom'));
    const out = toTestFormat(doc);
    const lines = out.split('\n');
    expect(lines.length).toBe(depth + 1);
    expect(lines[depth]).toBe('| ' + '  '.repeat(depth) + '"bottom"');
  });
});
