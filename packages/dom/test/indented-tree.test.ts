import { describe, expect, it } from 'vitest';
import { NS } from '@sluice/tree-builder';
import { Document, type Element, type HTMLTemplateElement, indentedTreeLines, parse, toIndentedTree } from '../src/index.js';

describe('toIndentedTree', () => {
  it('renders an outline', () => {
    const d = new Document();
    d.appendChild(d.createDocumentType('html'));
    const html = d.appendChild(d.createElement('html'));
    html.setAttribute('lang', 'en');
    const body = html.appendChild(d.createElement('body'));
    body.appendChild(d.createTextNode('Hello\nworld'));
    body.appendChild(d.createComment(' note '));
    const t = body.appendChild(d.createElement('template')) as HTMLTemplateElement;
    t.content.appendChild(d.createElement('p'));
    body.appendChild(d.createElementNS(NS.SVG, 'circle')).setAttribute('r', '1');
    body.appendChild(d.createTextNode('x'.repeat(70)));
    expect(toIndentedTree(d)).toBe(
      [
        '#document (no-quirks)',
        '  <!DOCTYPE html>',
        '  <html lang="en">',
        '    <body>',
        '      "Hello\\nworld"',
        '      <!--  note  -->',
        '      <template>',
        '        #content',
        '          <p>',
        '      <svg:circle r="1">',
        `      "${'x'.repeat(60)}…"`,
      ].join('\n'),
    );
  });

  it('shows source locations when asked', () => {
    const d = new Document();
    const p = d.createElement('p');
    p.sourceLocation = { start: 0, end: 3 };
    p.endTagLocation = { start: 7, end: 11 };
    expect(toIndentedTree(p, { locations: true })).toBe('<p>  @0-3 </>@7-11');
  });

  it('caps the indentation of a 100,000-deep tree', () => {
    const d = new Document();
    let el: Element = d.appendChild(d.createElement('div'));
    for (let i = 1; i < 100_000; i++) el = el.appendChild(d.createElement('div'));
    const lines = toIndentedTree(d, { maxIndent: 4 }).split('\n');
    expect(lines.length).toBe(100_001);
    expect(lines[3]).toBe('      <div>');
    expect(lines[100_000]).toBe('        [100000] <div>');
  });
});

describe('indentedTreeLines', () => {
  it('yields the lines toIndentedTree joins', () => {
    const d = parse('<!DOCTYPE html><p title=x>a<!--c--><template><i>t</i></template><svg><circle/></svg>');
    const lines = [...indentedTreeLines(d, { locations: true, maxTextLength: 3 })];
    expect(lines.length).toBeGreaterThan(8);
    expect(lines.join('\n')).toBe(toIndentedTree(d, { locations: true, maxTextLength: 3 }));
  });
});
