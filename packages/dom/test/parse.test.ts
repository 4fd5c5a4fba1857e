import { describe, expect, it } from 'vitest';
import { NS } from '@sluice/tree-builder';
import {
  Document,
  type Element,
  HTMLTemplateElement,
  parse,
  parseFragment,
  resolveContext,
  serialize,
  toTestFormat,
} from '../src/index.js';

describe('resolveContext', () => {
  it('reads html5lib-style context strings', () => {
    expect(resolveContext('td')).toEqual({ localName: 'td', namespace: NS.HTML });
    expect(resolveContext('TD')).toEqual({ localName: 'td', namespace: NS.HTML });
    expect(resolveContext('svg path')).toEqual({ localName: 'path', namespace: NS.SVG });
    expect(resolveContext('svg foreignObject')).toEqual({ localName: 'foreignObject', namespace: NS.SVG });
    expect(resolveContext('math mi')).toEqual({ localName: 'mi', namespace: NS.MATHML });
  });

  it('uses an element context with its attributes and its document mode', () => {
    const doc = new Document();
    doc.mode = 'quirks';
    const el = doc.createElementNS(NS.MATHML, 'annotation-xml');
    el.setAttribute('encoding', 'text/html');
    const ctx = resolveContext(el);
    expect(ctx.localName).toBe('annotation-xml');
    expect(ctx.namespace).toBe(NS.MATHML);
    expect(ctx.documentMode).toBe('quirks');
    expect(ctx.attributes).toEqual([{ name: 'encoding', value: 'text/html', namespace: null, prefix: null, localName: 'encoding' }]);
  });

  it('throws a clear error for a context it cannot use', () => {
    expect(() => parseFragment('x', '')).toThrow(/invalid context ""/);
    expect(() => parseFragment('x', 'foo bar')).toThrow(/namespace designator must be "svg" or "math"/);
    expect(() => parseFragment('x', 'svg ')).toThrow(/invalid context/);
    expect(() => parseFragment('x', 'a/b')).toThrow(/invalid context/);
    expect(() => parseFragment('x', new Document().createElementNS('urn:x', 'y'))).toThrow(/namespace urn:x/);
    expect(() => parseFragment('x', new Document().createTextNode('t') as never)).toThrow(/tag name string or an Element/);
  });
});

describe('parse', () => {
  it('parses a document', () => {
    const doc = parse('<!DOCTYPE html><title>T</title><p id=a>One<p>Two');
    expect(toTestFormat(doc)).toBe(
      [
        '| <!DOCTYPE html>',
        '| <html>',
        '|   <head>',
        '|     <title>',
        '|       "T"',
        '|   <body>',
        '|     <p>',
        '|       id="a"',
        '|       "One"',
        '|     <p>',
        '|       "Two"',
      ].join('\n'),
    );
    expect(doc.mode).toBe('no-quirks');
    expect(doc.getElementById('a')?.textContent).toBe('One');
    expect(doc.scriptingEnabled).toBe(true);
  });

  it('sets quirks mode without a doctype', () => {
    const doc = parse('<p>x');
    expect(doc.mode).toBe('quirks');
    expect(doc.compatMode).toBe('BackCompat');
  });

  it('records source locations of elements, end tags and merged text', () => {
    const html = '<div>ab&amp;c</div>';
    const div = parse(html).body!.firstChild!;
    expect(div.sourceLocation).toEqual({ start: 0, end: 5 });
    expect((div as unknown as { endTagLocation: unknown }).endTagLocation).toEqual({ start: 13, end: 19 });
    const text = div.firstChild!;
    expect(text.textContent).toBe('ab&c');
    expect(text.sourceLocation).toEqual({ start: 5, end: 13 });
  });

  it('source locations read as objects and can be set and cleared', () => {
    const p = parse('<p>x</p>').body!.firstChild as Element;
    expect(p.sourceLocation).toEqual({ start: 0, end: 3 });
    expect(p.endTagLocation).toEqual({ start: 4, end: 8 });
    p.sourceLocation = { start: 1, end: 2 };
    p.endTagLocation = null;
    expect(p.sourceLocation).toEqual({ start: 1, end: 2 });
    expect(p.endTagLocation).toBeNull();
    p.sourceLocation = null;
    expect(p.sourceLocation).toBeNull();
    // An implied element has none.
    expect(parse('<p>x').body!.sourceLocation).toBeNull();
  });

  it('parsed attributes keep their namespace, prefix and local name through changes', () => {
    const p = parse('<p ID=a class=b>').body!.firstChild as Element;
    p.setAttribute('id', 'c');
    expect(p.getAttributeNS(null, 'id')).toBe('c');
    const id = p.attributes.getNamedItem('id')!;
    expect([id.namespaceURI, id.prefix, id.localName, id.name, id.value]).toEqual([null, null, 'id', 'id', 'c']);
    expect(p.getAttributeNames()).toEqual(['id', 'class']);
  });

  it('decodes attributes when first read, the same as decoded at once', () => {
    const html = '<div id=a CLASS="b &amp; c" data-x=\'&lt;\' hidden><a href="?x=1&amp;y">l</a><img src=i alt="">';
    const doc = parse(html);
    const div = doc.body!.firstChild as Element;
    // Still raw: nothing has read them.
    expect(typeof div._attrData).toBe('string');
    expect(div.getAttribute('class')).toBe('b & c');
    expect(div.getAttributeNames()).toEqual(['id', 'class', 'data-x', 'hidden']);
    expect([...div.attributes].map((a) => [a.name, a.value, a.namespaceURI, a.prefix, a.localName])).toEqual([
      ['id', 'a', null, null, 'id'],
      ['class', 'b & c', null, null, 'class'],
      ['data-x', '<', null, null, 'data-x'],
      ['hidden', '', null, null, 'hidden'],
    ]);
    expect(serialize(doc.body!)).toBe('<div id="a" class="b &amp; c" data-x="&lt;" hidden=""><a href="?x=1&amp;y">l</a><img src="i" alt=""></div>');
    // Changing, cloning and removing work on raw attributes too.
    const img = doc.getElementsByTagName('img')[0];
    const copy = img.cloneNode();
    img.setAttribute('src', 'j');
    expect(copy.getAttribute('src')).toBe('i');
    expect(img.getAttribute('src')).toBe('j');
    const a = doc.getElementsByTagName('a')[0];
    a.removeAttribute('href');
    expect(a.hasAttributes()).toBe(false);
    expect(doc.getElementById('a')).toBe(div);
  });

  it('honours the scripting flag for <noscript>', () => {
    const on = parse('<noscript><p>x</p></noscript>');
    expect(on.head!.firstChild!.firstChild!.nodeName).toBe('#text');
    expect(serialize(on.head!)).toBe('<noscript><p>x</p></noscript>');
    const off = parse('<body><noscript><p>x</p></noscript>', { scripting: false });
    expect(off.body!.firstChild!.firstChild!.nodeName).toBe('P');
  });

  it('puts template children in the template contents', () => {
    const doc = parse('<template><td>cell</td></template>');
    const t = doc.head!.firstChild as HTMLTemplateElement;
    expect(t).toBeInstanceOf(HTMLTemplateElement);
    expect(t.hasChildNodes()).toBe(false);
    expect(t.content.firstChild!.nodeName).toBe('TD');
  });
});

describe('parseFragment', () => {
  it('parses in an HTML context', () => {
    const frag = parseFragment('<td>a</td><td>b', 'tr');
    expect(toTestFormat(frag)).toBe(['| <td>', '|   "a"', '| <td>', '|   "b"'].join('\n'));
    expect(frag.parentNode).toBeNull();
  });

  it('parses in a foreign context', () => {
    const frag = parseFragment('<circle r=1 /><div>x</div>', 'svg svg');
    expect(toTestFormat(frag)).toBe(['| <svg circle>', '|   r="1"', '| <div>', '|   "x"'].join('\n'));
  });

  it('gives the nodes the context element’s document', () => {
    const doc = new Document();
    const host = doc.createElement('div');
    const frag = parseFragment('<template><b>x</b></template>', host);
    expect(frag.ownerDocument).toBe(doc);
    const t = frag.firstChild as HTMLTemplateElement;
    expect(t.ownerDocument).toBe(doc);
    expect(t.content.firstChild!.ownerDocument).toBe(doc);
    host.appendChild(frag);
    expect(serialize(host)).toBe('<template><b>x</b></template>');
  });
});

describe('a leading byte order mark (U+FEFF)', () => {
  const BOM = '\uFEFF';

  it('parse skips it, as a browser loading the page does (the decoder consumes it, HTML §13.2.3.1)', () => {
    const doc = parse(`${BOM}<title>x</title>`);
    expect(serialize(doc)).toBe('<html><head><title>x</title></head><body></body></html>');
    expect(doc.head!.firstChild!.nodeName).toBe('TITLE');
    expect(doc.body!.textContent).toBe('');
    // The same with a doctype (no-quirks: the BOM did not make the doctype come too late).
    expect(parse(`${BOM}<!DOCTYPE html><p>`).compatMode).toBe('CSS1Compat');
  });

  it('only the first character: a second U+FEFF, or one later, is text', () => {
    expect(serialize(parse(`${BOM}${BOM}<title>x</title>`))).toBe(`<html><head></head><body>${BOM}<title>x</title></body></html>`);
    expect(serialize(parse(`<p>${BOM}`).body!)).toBe(`<p>${BOM}</p>`);
  });

  it('source locations stay offsets into the input as given (the BOM counts)', () => {
    const doc = parse(`${BOM}<title>x</title>`);
    expect(doc.head!.firstChild!.sourceLocation).toEqual({ start: 1, end: 8 });
  });

  it('parse keeps it as text with stripByteOrderMark: false (DOMParser on a string)', () => {
    expect(serialize(parse(`${BOM}<title>x</title>`, { stripByteOrderMark: false }))).toBe(
      `<html><head></head><body>${BOM}<title>x</title></body></html>`,
    );
  });

  it('parseFragment keeps it as text, as innerHTML does (§13.2.8 decodes nothing), unless asked', () => {
    expect(serialize(parseFragment(`${BOM}<b>x</b>`, 'div').firstChild!.parentNode!)).toBe(`${BOM}<b>x</b>`);
    expect(parseFragment(`${BOM}<b>x</b>`, 'div').firstChild!.nodeName).toBe('#text');
    expect(parseFragment(`${BOM}<b>x</b>`, 'div', { stripByteOrderMark: true }).firstChild!.nodeName).toBe('B');
  });
});

describe('parse(bytes): encodings (HTML §13.2.3)', () => {
  const latin1 = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
  const utf8 = (s: string) => new TextEncoder().encode(s);

  it('reports characterSet as the standard spells it, and compatMode', () => {
    expect(parse('<p>x').characterSet).toBe('UTF-8');
    expect(parse(latin1('<p>caf\xe9')).characterSet).toBe('windows-1252');
    expect(parse(latin1('<meta charset=SJIS>')).characterSet).toBe('Shift_JIS');
    expect(parse(latin1('<p>'), { contentType: 'text/html; charset=big5-hkscs' }).characterSet).toBe('Big5');
    expect(parse(latin1('\xff\xfe<\x00p\x00>\x00')).characterSet).toBe('UTF-16LE');
    expect(parse(latin1('<!DOCTYPE html><p>')).compatMode).toBe('CSS1Compat');
    expect(parse(latin1('<p>')).compatMode).toBe('BackCompat');
    const doc = parse(latin1('<meta charset=koi8-r>'));
    expect([doc.charset, doc.inputEncoding]).toEqual(['KOI8-R', 'KOI8-R']);
  });

  it('decodes with the sniffed encoding; the encoding option overrides all but a BOM', () => {
    expect(parse(latin1('<p>caf\xe9 \x80')).body!.textContent).toBe('café €');
    expect(parse(utf8('<p>café'), { encoding: 'utf-8' }).body!.textContent).toBe('café');
    expect(parse(utf8('<meta charset=latin1><p>café'), { encoding: ' UTF8 ' }).characterSet).toBe('UTF-8');
    expect(parse(utf8('\uFEFF<p>café'), { encoding: 'koi8-r' }).characterSet).toBe('UTF-8');
    expect(() => parse(utf8('<p>'), { encoding: 'utf-7' })).toThrow(RangeError);
  });

  it('parses again when a later <meta> changes a tentative encoding (§13.2.3.4)', () => {
    const bytes = utf8(`<title>${'x'.repeat(1100)}</title><meta charset=utf-8><p>café`);
    const doc = parse(bytes);
    expect(doc.characterSet).toBe('UTF-8');
    expect(doc.body!.textContent).toBe('café');
    // A transport charset is certain: the <meta> changes nothing.
    const certain = parse(bytes, { contentType: 'text/html; charset=windows-1252' });
    expect(certain.characterSet).toBe('windows-1252');
    expect(certain.body!.textContent).toBe('cafÃ©');
  });
});
