/**
 * What a parsed document leaves undecoded until read (issue 19, the heap row): Text nodes made from whole
 * text tokens keep the page and their span of it (`CharacterData._data`, `undecodedEnd`), elements keep
 * the page and their start tag's span (`Element._attrData`). Reading them must give exactly what decoding
 * at once gives: the reference is the same parse through a `DomTreeSink` without the two hooks
 * (`insertTextToken`, `createElementForStartTag`), so the tree builder hands it decoded text and raw tags.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NS, Parser, type ElementAttribute, type ElementNamespace } from '@sluice/tree-builder';
import { tagSoup } from '../../../tests/rewriter/helpers/soup.js';
import { type CharacterData, DomTreeSink, type Document, type Element, type Node, Text, parse, parseFragment, serialize } from '../src/index.js';

/**
 * A `DomTreeSink` without the tree builder's token hooks (the text and start tag tokens, and the hooks
 * that take offsets instead of location objects): it gets decoded text, decoded attributes and locations
 * through the general `TreeSink` methods.
 */
function sinkWithoutHooks(): DomTreeSink {
  const sink = new DomTreeSink();
  const hooks = sink as unknown as Record<'insertTextToken' | 'createElementForStartTag' | 'createElementFromStartTag' | 'elementClosedByEndTag', unknown>;
  hooks.insertTextToken = undefined;
  hooks.createElementForStartTag = undefined;
  hooks.createElementFromStartTag = undefined;
  hooks.elementClosedByEndTag = undefined;
  return sink;
}

/** The document the sink builds when it decodes everything as it is inserted. */
function parseDecodedAtOnce(html: string): Document {
  const sink = sinkWithoutHooks();
  const parser = new Parser(sink, {});
  parser.write(html);
  parser.end();
  return sink.document;
}

/** Every node of `doc` in tree order, template contents after their template. Iterative. */
function nodesOf(doc: Node): Node[] {
  const out: Node[] = [];
  const pending: Node[] = [doc];
  while (pending.length > 0) {
    const top = pending.pop()!;
    const children: Node[] = [];
    for (let c = top._first; c !== null; c = c._next) children.push(c);
    const content = top._templateContents();
    if (content !== null) children.push(content);
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
    out.push(top);
  }
  return out;
}

function undecodedTexts(doc: Document): number {
  return nodesOf(doc).filter((n) => n instanceof Text && n._end < -1).length;
}
function tagsKeptAsPage(doc: Document, html: string): number {
  return nodesOf(doc).filter((n) => n.nodeType === 1 && (n as Element)._attrData === html && html.length > 0).length;
}

/** Each node's fields, locations read first (they must not need the data), then data and attributes. */
function describeNodes(doc: Document): unknown[] {
  return nodesOf(doc).map((n) => {
    const location = n.sourceLocation;
    const out: unknown[] = [n.nodeType, n.nodeName, location === null ? null : [location.start, location.end]];
    if (n.nodeType === 3 || n.nodeType === 8) out.push((n as CharacterData).data);
    if (n.nodeType === 1) {
      const el = n as Element;
      const end = el.endTagLocation;
      out.push(end === null ? null : [end.start, end.end]);
      out.push(el._attrs.map((a) => [a.name, a.value, a.namespace, a.prefix, a.localName]));
    }
    return out;
  });
}

function expectSameAsDecodedAtOnce(html: string): void {
  expect(describeNodes(parse(html))).toEqual(describeNodes(parseDecodedAtOnce(html)));
}

const corpusDir = join(import.meta.dirname, '../../../bench/node_modules/htmlparser-benchmark/files');

describe('text and attributes decoded on first read', () => {
  const cases = [
    'a &amp; b &lt;c&gt; &notit; &#x41;&#0; d',
    'line\r\nline\rline\nend\r',
    '<p>x\0y\0</p>z\0',
    '<script>if (a < b && c) { x = "&amp;\r\n\0"; }</script>',
    '<style>p::after { content: "&amp;\0" }\r\n</style>',
    '<title>A &amp; B\r\n\0</title><textarea>\r\n&lt;x&gt;\0</textarea>',
    '<noscript>&amp;</noscript><iframe>&amp;\0</iframe><xmp>&lt;\0</xmp><noembed>&amp;</noembed>',
    '<plaintext>&amp; <b>\r\n\0',
    '<pre>\n\nx</pre><pre>\r\ny</pre><listing>\nz</listing>',
    '<table>a&amp;<tr>b\r\n<td>c&amp;\0</td></tr></table>',
    '<svg><title>&amp;\r\n</title><![CDATA[x&amp;\r\n]]></svg><math><mi>&amp;</mi></math>',
    '<template>t &amp; u<td>v\r\n</td></template>',
    '<div id=a CLASS="b &amp; c" data-x=\'&lt;\r\n\' hidden><a href="?x=1&amp;y">l</a><img src=i alt=""></div>',
    '<b>1<p>2</b>3</p>&amp;<i>4<div>5</i>6',
    '\uFEFF<p title="x">bom &amp;</p>',
    '<!DOCTYPE html><html lang=en><head> \r\n <meta charset=utf-8>\r\n</head>\r\n<body class=x>\r\n</body></html>\r\n',
    'a<!-- c\r\n -->b&amp;<br>c',
    '<frameset><frame></frameset>  \r\n ',
  ];
  for (const html of cases) {
    it(`gives what decoding at once gives: ${JSON.stringify(html).slice(0, 60)}`, () => expectSameAsDecodedAtOnce(html));
  }

  it('leaves parsed text and start tags undecoded until read', () => {
    const html = '<div class="a &amp; b">x &amp; y\r\n</div><p>plain</p>';
    const doc = parse(html);
    expect(undecodedTexts(doc)).toBe(2);
    expect(tagsKeptAsPage(doc, html)).toBe(1);
    const div = doc.body!.firstChild as Element;
    const text = div.firstChild as Text;
    const span = { start: html.indexOf('x'), end: html.indexOf('</div>') };
    expect(text.sourceLocation).toEqual(span);
    expect(text._end).toBeLessThan(-1); // reading the location decoded nothing
    expect(text.data).toBe('x & y\n');
    expect(text._end).toBe(span.end);
    expect(text.sourceLocation).toEqual(span);
    expect(div.getAttribute('class')).toBe('a & b');
    expect(div._attrData).not.toBe(html);
  });

  it('decodes before the location or the data is changed', () => {
    const html = '<p a="1&amp;2">q &amp; r</p><p>s &lt; t</p>';
    const doc = parse(html);
    const [p1, p2] = doc.getElementsByTagName('p');
    p1.sourceLocation = { start: 0, end: 1 };
    expect(p1.getAttribute('a')).toBe('1&2');
    const t1 = p1.firstChild as Text;
    t1.sourceLocation = null;
    expect(t1.data).toBe('q & r');
    expect(t1.sourceLocation).toBeNull();
    const t2 = p2.firstChild as Text;
    t2.data = 'new';
    expect(t2.data).toBe('new');
    expect(t2.sourceLocation).toEqual({ start: html.indexOf('s &lt;'), end: html.lastIndexOf('</p>') });
    t2.appendData('!');
    expect(serialize(doc.body!)).toBe('<p a="1&amp;2">q &amp; r</p><p>new!</p>');
  });

  it('copies, compares and normalizes undecoded nodes by their data', () => {
    const doc = parse('<p>a&amp;b</p><p>a&amp;b</p>');
    const [p1, p2] = doc.getElementsByTagName('p');
    expect(p1.isEqualNode(p2)).toBe(true);
    const copy = p1.cloneNode(true);
    expect((copy.firstChild as Text).data).toBe('a&b');
    expect(copy.firstChild!.sourceLocation).toBeNull();
    p1.append('c');
    p1.normalize();
    expect(p1.childNodes.length).toBe(1);
    expect((p1.firstChild as Text).data).toBe('a&bc');
    expect(p2.textContent).toBe('a&b');
  });

  it('appends text to an undecoded Text node (adjacent tokens) decoded', () => {
    // `<` that starts no tag ends a text token: the next one is appended to the same Text node.
    expectSameAsDecodedAtOnce('a &amp; b < c &amp; d <3 e\r\n');
    expect(parse('x&amp;< y').body!.firstChild!.textContent).toBe('x&< y');
  });

  it("goes through a subclass's insertText and createElementWithRawAttributes when it has its own", () => {
    const seen: string[] = [];
    class Filtering extends DomTreeSink {
      override insertText(parent: Node, data: string, before: Node | null, location: { start: number; end: number } | null): void {
        seen.push(data);
        if (data !== 'drop') super.insertText(parent, data, before, location);
      }
      override createElementWithRawAttributes(localName: string, rawTag: string, location: { start: number; end: number } | null): Element {
        seen.push(rawTag);
        return super.createElementWithRawAttributes(localName, rawTag, location);
      }
    }
    const sink = new Filtering();
    const parser = new Parser(sink, {});
    parser.write('<p class=a>keep &amp;</p><p>drop</p>');
    parser.end();
    expect(seen).toEqual(['<p class=a>', 'keep &', 'drop']);
    expect(serialize(sink.document.body!)).toBe('<p class="a">keep &amp;</p><p></p>');
    // The plain sink takes the hooks.
    const plain = new DomTreeSink() as unknown as Record<string, unknown>;
    for (const hook of ['insertTextToken', 'createElementForStartTag', 'createElementFromStartTag', 'elementClosedByEndTag']) {
      expect(typeof plain[hook]).toBe('function');
    }
  });

  it("goes through a subclass's createElement and elementPopped when it has its own", () => {
    const seen: string[] = [];
    class Watching extends DomTreeSink {
      override createElement(localName: string, namespace: ElementNamespace, attributes: readonly ElementAttribute[], location: { start: number; end: number } | null): Element {
        seen.push(`create ${localName} ${location === null ? '-' : `${location.start}-${location.end}`}`);
        return super.createElement(localName, namespace, attributes, location);
      }
      override elementPopped(element: Node, endLocation: { start: number; end: number } | null, at?: number): void {
        seen.push(`pop ${element.nodeName} ${endLocation === null ? '-' : `${endLocation.start}-${endLocation.end}`}`);
        super.elementPopped(element, endLocation, at);
      }
    }
    const sink = new Watching();
    const parser = new Parser(sink, {});
    parser.write('<p class=a>x</p><b>y</b>');
    parser.end();
    expect(seen).toEqual([
      'create html -', 'create head -', 'pop HEAD -', 'create body -', 'create p 0-11', 'pop P 12-16', 'create b 16-19', 'pop B 20-24',
      'pop BODY -', 'pop HTML -',
    ]);
    const hooks = sink as unknown as Record<string, unknown>;
    expect(hooks.createElementFromStartTag).toBeUndefined();
    expect(hooks.elementClosedByEndTag).toBeUndefined();
  });

  it('in fragments, whatever text mode the context sets', () => {
    const markup = 'a &amp; b\r\n<i>c\0</i> &lt;/x&gt; </script> </style>';
    for (const context of ['div', 'textarea', 'title', 'script', 'style', 'xmp', 'plaintext', 'noscript', 'td', 'svg title']) {
      const ours = parseFragment(markup, context);
      const sink = sinkWithoutHooks();
      const space = context.indexOf(' ');
      const fragmentContext = space < 0 ? { localName: context, namespace: NS.HTML } : { localName: context.slice(space + 1), namespace: NS.SVG };
      const parser = new Parser(sink, { fragmentContext });
      parser.write(markup);
      parser.end();
      const root = sink.document.documentElement!;
      const reference = sink.document.createDocumentFragment();
      while (root.firstChild !== null) reference.appendChild(root.firstChild);
      expect({ context, nodes: describeNodes(ours as unknown as Document) }).toEqual({ context, nodes: describeNodes(reference as unknown as Document) });
    }
  });

  it('for every corpus page', () => {
    let undecoded = 0;
    for (const name of readdirSync(corpusDir).sort()) {
      const html = readFileSync(join(corpusDir, name), 'utf8');
      undecoded += undecodedTexts(parse(html));
      expectSameAsDecodedAtOnce(html);
    }
    expect(undecoded).toBeGreaterThan(250_000);
  });

  it('for generated tag soup', () => {
    fc.assert(
      fc.property(tagSoup, (html) => expectSameAsDecodedAtOnce(html)),
      { numRuns: 500 },
    );
  });
});
