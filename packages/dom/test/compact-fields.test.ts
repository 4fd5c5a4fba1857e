/**
 * The fields a parsed element keeps packed (issue 19, the heap row): the end tag's location in one
 * number (`Element._endTag`, with any span it cannot hold in `_extra`), and the `childNodes` snapshot in
 * the rarely made `_extra` (`NodeExtra`). What the API gives must not show it.
 */
import { describe, expect, it } from 'vitest';
import { Document, type Element, parse, parseFragment } from '../src/index.js';

function endTagOf(html: string, name: string): unknown {
  const el = parse(html).getElementsByTagName(name)[0];
  const at = el.endTagLocation;
  return at === null ? null : html.slice(at.start, at.end);
}

describe('endTagLocation, one number in the element', () => {
  it('is the end tag as written, whatever its length', () => {
    expect(endTagOf('<p>x</p>', 'p')).toBe('</p>');
    expect(endTagOf('<p>x</P>', 'p')).toBe('</P>');
    expect(endTagOf('<p>x</p >', 'p')).toBe('</p >');
    expect(endTagOf('<p>x</p\n\tclass=a>', 'p')).toBe('</p\n\tclass=a>');
    expect(endTagOf('<div>x</div/>', 'div')).toBe('</div/>');
    expect(endTagOf('<svg><foreignObject></foreignobject></svg>', 'foreignObject')).toBe('</foreignobject>');
    expect(endTagOf('<p>x<div>', 'p')).toBeNull(); // closed by <div>: no end tag
    expect(endTagOf('<p>x', 'p')).toBeNull();
    expect(endTagOf('<br>', 'br')).toBeNull();
  });

  it('takes any location set through the API', () => {
    const el = new Document().createElement('section');
    expect(el.endTagLocation).toBeNull();
    for (const span of [
      { start: 0, end: 10 }, // `</section>`'s length
      { start: 7, end: 30 },
      { start: 2 ** 31, end: 2 ** 31 + 10 },
      { start: 5, end: 2 },
    ]) {
      el.endTagLocation = span;
      expect(el.endTagLocation).toEqual(span);
    }
    el.endTagLocation = { start: 4, end: 4 }; // an empty span is no end tag
    expect(el.endTagLocation).toBeNull();
    el.endTagLocation = { start: 3, end: 13 };
    el.endTagLocation = null;
    expect(el.endTagLocation).toBeNull();
  });

  it('keeps the implied ends of source locations (empty spans) apart from end tags', () => {
    const html = '<ul><li>a<li>b</ul>';
    const doc = parse(html, { sourceLocations: true });
    const [a, b] = doc.getElementsByTagName('li');
    expect(a.endTagLocation).toBeNull();
    expect(a.sourceLocation!.endOffset).toBe(html.indexOf('<li>b'));
    expect(b.sourceLocation!.endOffset).toBe(html.indexOf('</ul>'));
    const ul = doc.getElementsByTagName('ul')[0];
    expect(ul.sourceLocation!.endTag!.startOffset).toBe(html.indexOf('</ul>'));
  });
});

describe('childNodes, kept in the rarely made extra part', () => {
  it('is the same array until the children change, for every kind of parent', () => {
    const doc = parse('<!--c--><p>a<b>b</b>c</p><template>t<i></i></template>');
    const p = doc.getElementsByTagName('p')[0];
    const template = doc.getElementsByTagName('template')[0] as Element & { content: Element };
    const fragment = parseFragment('x<y></y>z');
    for (const parent of [doc, p, template.content, fragment]) {
      const first = parent.childNodes;
      expect(parent.childNodes).toBe(first);
      const count = first.length;
      parent.appendChild(doc.createComment('new'));
      const second = parent.childNodes;
      expect(second).not.toBe(first);
      expect(second.length).toBe(count + 1);
      expect(first.length).toBe(count); // the old snapshot is not changed
      parent.removeChild(parent.lastChild!);
      expect(parent.childNodes.length).toBe(count);
    }
    expect(doc.createTextNode('x').childNodes).toEqual([]);
  });

  it('gives an element whose prefix or attributes map exists the same behaviour', () => {
    const doc = new Document();
    const el = doc.createElementNS('urn:x', 'x:e');
    el.setAttribute('a', '1');
    void el.attributes;
    el.append('one', 'two');
    const kids = el.childNodes;
    expect(kids.length).toBe(2);
    expect(el.childNodes).toBe(kids);
    el.firstChild!.remove();
    expect(el.childNodes.length).toBe(1);
    expect(el.prefix).toBe('x');
    expect(el.attributes.length).toBe(1);
  });
});
