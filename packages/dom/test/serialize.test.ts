import { describe, expect, it } from 'vitest';
import { NS } from '@sluice/tree-builder';
import { Document, type Element, type HTMLTemplateElement, escapeString, parse, serialize, serializeChunks, serializeOuter } from '../src/index.js';

function doc() {
  return new Document();
}

describe('escapeString (HTML §13.3)', () => {
  it('escapes &, NBSP, < and > in text', () => {
    expect(escapeString('a&b\u00a0c<d>e"f\'g', false)).toBe('a&amp;b&nbsp;c&lt;d&gt;e"f\'g');
  });
  it('escapes &, NBSP, ", < and > in attribute mode (the 2025 rule)', () => {
    expect(escapeString('a&b\u00a0c<d>e"f\'g', true)).toBe('a&amp;b&nbsp;c&lt;d&gt;e&quot;f\'g');
  });
  it('returns plain strings unchanged', () => {
    expect(escapeString('plain', false)).toBe('plain');
  });
});

describe('serialize', () => {
  it('serializes a document with its doctype, comments, attributes, void elements', () => {
    const d = doc();
    d.appendChild(d.createDocumentType('html', 'ignored-public', 'ignored-system'));
    const html = d.appendChild(d.createElement('html'));
    html.setAttribute('lang', 'en');
    const head = html.appendChild(d.createElement('head'));
    head.appendChild(d.createElement('meta')).setAttribute('charset', 'utf-8');
    const body = html.appendChild(d.createElement('body'));
    body.appendChild(d.createComment(' hi '));
    const p = body.appendChild(d.createElement('p'));
    p.setAttribute('title', 'a "b" <c> & d');
    p.appendChild(d.createTextNode('x < y & z\u00a0'));
    p.appendChild(d.createElement('br'));
    p.appendChild(d.createElement('input')).setAttribute('disabled', '');
    expect(serialize(d)).toBe(
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"></head><body><!-- hi -->' +
        '<p title="a &quot;b&quot; &lt;c&gt; &amp; d">x &lt; y &amp; z&nbsp;<br><input disabled=""></p></body></html>',
    );
    expect(serialize(p)).toBe('x &lt; y &amp; z&nbsp;<br><input disabled="">');
    expect(serializeOuter(p.lastChild!)).toBe('<input disabled="">');
    expect(serialize(p.lastChild!)).toBe(''); // a void element serializes as void
    expect(p.innerHTML).toBe(serialize(p));
    expect(p.outerHTML).toBe(serializeOuter(p));
  });

  it('writes raw-text element contents literally', () => {
    const d = doc();
    const body = d.createElement('body');
    for (const name of ['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']) {
      body.appendChild(d.createElement(name)).appendChild(d.createTextNode('a<b>&c'));
    }
    expect(serialize(body)).toBe(
      ['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext'].map((n) => `<${n}>a<b>&c</${n}>`).join(''),
    );
    // Not raw text: textarea and title are escaped (RCDATA parses entities back).
    const t = d.createElement('textarea');
    t.appendChild(d.createTextNode('a<b>&c'));
    expect(serializeOuter(t)).toBe('<textarea>a&lt;b&gt;&amp;c</textarea>');
    // An SVG <style> is not the HTML one.
    const svgStyle = d.createElementNS(NS.SVG, 'style');
    svgStyle.appendChild(d.createTextNode('a<b'));
    expect(serializeOuter(svgStyle)).toBe('<style>a&lt;b</style>');
  });

  it('writes <noscript> text raw only when scripting is enabled', () => {
    const d = doc();
    const ns = d.createElement('noscript');
    ns.appendChild(d.createTextNode('<p>&'));
    expect(serialize(ns)).toBe('&lt;p&gt;&amp;'); // new Document(): scripting disabled
    expect(serialize(ns, { scripting: true })).toBe('<p>&');
    d.scriptingEnabled = true;
    expect(serialize(ns)).toBe('<p>&');
    expect(serialize(ns, { scripting: false })).toBe('&lt;p&gt;&amp;');
  });

  it('serializes template contents', () => {
    const d = doc();
    const div = d.createElement('div');
    const t = div.appendChild(d.createElement('template')) as HTMLTemplateElement;
    t.setAttribute('id', 't');
    t.content.appendChild(d.createElement('b')).appendChild(d.createTextNode('in'));
    const inner = t.content.appendChild(d.createElement('template')) as HTMLTemplateElement;
    inner.content.appendChild(d.createTextNode('deep&'));
    div.appendChild(d.createTextNode('after'));
    expect(serialize(div)).toBe('<template id="t"><b>in</b><template>deep&amp;</template></template>after');
    expect(serialize(t)).toBe('<b>in</b><template>deep&amp;</template>');
    expect(serialize(inner)).toBe('deep&amp;');
    expect(serialize(t.content)).toBe('<b>in</b><template>deep&amp;</template>');
  });

  it('uses the serialized names of foreign attributes and the case of foreign elements', () => {
    const d = doc();
    const svg = d.createElementNS(NS.SVG, 'svg');
    svg.setAttributeNS(NS.XMLNS, 'xmlns', NS.SVG);
    svg.setAttributeNS(NS.XMLNS, 'xmlns:xlink', NS.XLINK);
    svg.setAttributeNS(null, 'viewBox', '0 0 1 1');
    const use = svg.appendChild(d.createElementNS(NS.SVG, 'foreignObject'));
    use.setAttributeNS(NS.XLINK, 'xlink:href', '#a');
    use.setAttributeNS(NS.XML, 'xml:lang', 'en');
    use.setAttributeNS('urn:other', 'o:thing', 'v');
    expect(serializeOuter(svg)).toBe(
      `<svg xmlns="${NS.SVG}" xmlns:xlink="${NS.XLINK}" viewBox="0 0 1 1">` +
        '<foreignObject xlink:href="#a" xml:lang="en" o:thing="v"></foreignObject></svg>',
    );
    const other = d.createElementNS('urn:x', 'p:q');
    expect(serializeOuter(other)).toBe('<p:q></p:q>');
    // Void-ness is for HTML elements only.
    expect(serializeOuter(d.createElementNS(NS.SVG, 'img'))).toBe('<img></img>');
  });

  it('serializes leaf nodes with serializeOuter, and fragments', () => {
    const d = doc();
    expect(serializeOuter(d.createComment('c'))).toBe('<!--c-->');
    expect(serializeOuter(d.createTextNode('<'))).toBe('&lt;');
    expect(serializeOuter(d.createDocumentType('html'))).toBe('<!DOCTYPE html>');
    const f = d.createDocumentFragment();
    f.appendChild(d.createTextNode('a'));
    f.appendChild(d.createElement('i'));
    expect(serializeOuter(f)).toBe('a<i></i>');
    expect(serialize(d.createElement('p'))).toBe('');
  });

  it('serializes a 100,000-deep document without recursion', () => {
    const d = doc();
    const depth = 100_000;
    const root = d.appendChild(d.createElement('div'));
    let el: Element = root;
    for (let i = 1; i < depth; i++) el = el.appendChild(d.createElement(i % 2 ? 'span' : 'div'));
    const t = el.appendChild(d.createElement('template')) as HTMLTemplateElement;
    t.content.appendChild(d.createTextNode('x'));
    const out = serialize(d);
    let expected = '';
    for (let i = 0; i < depth; i++) expected += i % 2 ? '<span>' : '<div>';
    expected += '<template>x</template>';
    for (let i = depth - 1; i >= 0; i--) expected += i % 2 ? '</span>' : '</div>';
    expect(out.length).toBe(expected.length);
    expect(out === expected).toBe(true);
    expect(serializeOuter(root) === expected).toBe(true);
  });
});

describe('serializeChunks', () => {
  const page = parse('<!DOCTYPE html><p title="a&quot;b">1 &lt; 2<br><script>if (a < b) {}</script><template><i>t</i></template><svg><a xlink:href="#x"/></svg>');
  it('joined, is serialize, for any chunk length', () => {
    for (const chunkLength of [1, 7, 64, 16384]) expect([...serializeChunks(page, { chunkLength })].join('')).toBe(serialize(page));
    expect([...serializeChunks(page.body!)].join('')).toBe(serialize(page.body!));
  });
  it('yields chunks of at least chunkLength characters but the last', () => {
    const chunks = [...serializeChunks(page, { chunkLength: 20 })];
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeGreaterThanOrEqual(20);
  });
  it('yields nothing for a void element or an empty node, and rejects a chunk length that is not positive', () => {
    expect([...serializeChunks(page.createElement('br'))]).toEqual([]);
    expect([...serializeChunks(page.createElement('p'))]).toEqual([]);
    expect(() => [...serializeChunks(page, { chunkLength: 0 })]).toThrow(/chunkLength/);
  });
  it('never makes Attr nodes (el.attributes, which keeps them on the element, is not read)', () => {
    const d = parse('<p a=1 b=2>x</p><svg><a xlink:href="#x"/></svg>');
    expect([...serializeChunks(d, { chunkLength: 1 })].join('')).toContain('<p a="1" b="2">');
    for (const el of d.querySelectorAll('*')) expect((el as unknown as { _extra: { attrMap: unknown } | null })._extra?.attrMap ?? null).toBe(null);
    d.body!.firstElementChild!.attributes; // the check can fail: reading attributes makes the map
    expect((d.body!.firstElementChild as unknown as { _extra: { attrMap: unknown } | null })._extra?.attrMap ?? null).not.toBe(null);
  });
});
