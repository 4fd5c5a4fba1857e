import { describe, expect, it } from 'vitest';
import { NS, type ElementAttribute } from '@sluice/tree-builder';
import { DomTreeSink, Element, HTMLTemplateElement, Text, parse, toTestFormat } from '../src/index.js';

const attr = (name: string, value: string): ElementAttribute => ({ name, value, namespace: null, prefix: null, localName: name });

describe('DomTreeSink', () => {
  it('builds a document through the sink methods', () => {
    const sink = new DomTreeSink();
    const doc = sink.document;
    sink.insertBefore(doc, sink.createDocumentType('html', '', '', null), null);
    const html = sink.createElement('html', NS.HTML, [], null);
    sink.insertBefore(doc, html, null);
    const head = sink.createElement('head', NS.HTML, [], null);
    const body = sink.createElement('body', NS.HTML, [attr('class', 'x')], { start: 0, end: 6 });
    sink.insertBefore(html, head, null);
    sink.insertBefore(html, body, null);
    sink.insertText(body, 'Hi', null, null);
    sink.insertBefore(body, sink.createComment('c', null), null);
    expect(toTestFormat(doc)).toBe(
      ['| <!DOCTYPE html>', '| <html>', '|   <head>', '|   <body>', '|     class="x"', '|     "Hi"', '|     <!-- c -->'].join('\n'),
    );
    expect(doc.body).toBe(body);
    expect(doc.head).toBe(head);
    expect(body.sourceLocation).toEqual({ start: 0, end: 6 });
    expect(sink.parentNode(body)).toBe(html);
  });

  it('merges adjacent text (insert a character), also before a node, and widens the location', () => {
    const sink = new DomTreeSink();
    const div = sink.createElement('div', NS.HTML, [], null);
    sink.insertText(div, 'a', null, { start: 0, end: 1 });
    sink.insertText(div, 'b', null, { start: 1, end: 2 });
    const b = sink.createElement('b', NS.HTML, [], null);
    sink.insertBefore(div, b, null);
    sink.insertText(div, 'c', b, { start: 5, end: 6 }); // merges into "ab", which is just before <b>
    sink.insertText(div, 'd', null, null); // after <b>: a new node
    expect(div.childNodes.length).toBe(3);
    const first = div.firstChild as Text;
    expect(first.data).toBe('abc');
    expect(first.sourceLocation).toEqual({ start: 0, end: 6 });
    expect((div.lastChild as Text).data).toBe('d');
  });

  it('appends a million one-character pieces in linear time and keeps them all', () => {
    const sink = new DomTreeSink();
    const div = sink.createElement('div', NS.HTML, [], null);
    for (let i = 0; i < 1_000_000; i++) sink.insertText(div, i % 2 ? 'y' : 'x', null, null);
    expect(div.childNodes.length).toBe(1);
    const data = (div.firstChild as Text).data;
    expect(data.length).toBe(1_000_000);
    expect(data.slice(0, 4)).toBe('xyxy');
  });

  it('moves nodes on insertBefore, removes, and moves children', () => {
    const sink = new DomTreeSink();
    const a = sink.createElement('a', NS.HTML, [], null);
    const b = sink.createElement('b', NS.HTML, [], null);
    const i = sink.createElement('i', NS.HTML, [], null);
    sink.insertBefore(a, i, null);
    sink.insertText(a, 't', null, null);
    sink.insertBefore(b, i, null); // moves <i> from <a> to <b>
    expect(a.childNodes.map((n) => n.nodeName)).toEqual(['#text']);
    expect(i.parentNode).toBe(b);
    sink.moveChildren(a, b);
    expect(a.firstChild).toBeNull();
    expect(b.childNodes.map((n) => n.nodeName)).toEqual(['I', '#text']);
    sink.remove(i);
    expect(i.parentNode).toBeNull();
    sink.remove(i); // no parent: nothing to do
    expect(() => sink.insertBefore(a, i, b.firstChild)).toThrow(/not a child/);
  });

  it('adds missing attributes only', () => {
    const sink = new DomTreeSink();
    const html = sink.createElement('html', NS.HTML, [attr('lang', 'en')], null) as Element;
    sink.addMissingAttributes(html, [attr('lang', 'fr'), attr('dir', 'ltr')]);
    expect(html.getAttribute('lang')).toBe('en');
    expect(html.getAttribute('dir')).toBe('ltr');
  });

  it('gives templates their contents, sets the mode, records end tags', () => {
    const sink = new DomTreeSink();
    const t = sink.createElement('template', NS.HTML, [], null);
    expect(t).toBeInstanceOf(HTMLTemplateElement);
    const content = sink.templateContents(t);
    expect(content).toBe((t as HTMLTemplateElement).content);
    expect(() => sink.templateContents(sink.createElement('div', NS.HTML, [], null))).toThrow(/not an HTML <template>/);
    expect(() => sink.templateContents(sink.createElement('template', NS.SVG, [], null))).toThrow(/template/);
    sink.setDocumentMode('quirks');
    expect(sink.document.mode).toBe('quirks');
    expect(sink.document.compatMode).toBe('BackCompat');
    sink.elementPopped!(t, { start: 10, end: 21 });
    expect((t as Element).endTagLocation).toEqual({ start: 10, end: 21 });
  });
});

describe('selectedcontent (HTML §4.10.10)', () => {
  const dump = (html: string) => toTestFormat(parse(html).body!);
  it('mirrors the selected option into <selectedcontent> when the option is popped', () => {
    expect(dump('<select><button><selectedcontent></selectedcontent></button><option>One</option><option>Two</option></select>')).toBe(
      [
        '| <body>',
        '|   <select>',
        '|     <button>',
        '|       <selectedcontent>',
        '|         "One"',
        '|     <option>',
        '|       "One"',
        '|     <option>',
        '|       "Two"',
      ].join('\n'),
    );
  });

  it('follows the selected attribute, disabled options and optgroups', () => {
    const selected = (html: string) => parse(html).getElementsByTagName('selectedcontent')[0]!.textContent;
    expect(selected('<select><button><selectedcontent></button><option>A<option selected>B<option>C</select>')).toBe('B');
    expect(selected('<select><button><selectedcontent></button><option selected>A<option selected>B</select>')).toBe('B');
    expect(selected('<select><button><selectedcontent></button><option disabled>A<option>B</select>')).toBe('B');
    expect(selected('<select><button><selectedcontent></button><optgroup disabled><option>A</optgroup><option>B</select>')).toBe('B');
    expect(selected('<select><button><selectedcontent></button><optgroup><option>A</optgroup><option>B</select>')).toBe('A');
    // Not a drop-down box: no option is selected by default.
    expect(selected('<select size=3><button><selectedcontent></button><option>A<option>B</select>')).toBe('');
    // multiple: no enabled selectedcontent.
    expect(selected('<select multiple><button><selectedcontent></button><option selected>A</select>')).toBe('');
  });

  it('clones elements deeply, and leaves documents without <selectedcontent> alone', () => {
    const doc = parse('<select><button><selectedcontent></button><option><b>bold</b> text</select>');
    const sc = doc.getElementsByTagName('selectedcontent')[0]!;
    const option = doc.getElementsByTagName('option')[0]!;
    expect(sc.childNodes.map((n) => n.nodeName)).toEqual(['B', '#text']);
    expect(sc.firstChild).not.toBe(option.firstChild);
    expect(toTestFormat(parse('<select><option>A</select>'))).not.toContain('selectedcontent');
  });
});
