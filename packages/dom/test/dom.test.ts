import { describe, expect, it } from 'vitest';
import { NS } from '@sluice/tree-builder';
import {
  Attr,
  Comment,
  Document,
  DocumentFragment,
  Element,
  HTMLTemplateElement,
  Node,
  Text,
} from '../src/index.js';

function tree() {
  const doc = new Document();
  const html = doc.appendChild(doc.createElement('html'));
  const body = html.appendChild(doc.createElement('body'));
  const a = body.appendChild(doc.createElement('a'));
  const b = body.appendChild(doc.createElement('b'));
  const c = body.appendChild(doc.createElement('c'));
  return { doc, html, body, a, b, c };
}
const names = (n: Node) => n.childNodes.map((c) => c.nodeName);

describe('Node', () => {
  it('has the DOM node type constants on the class and on instances', () => {
    expect(Node.ELEMENT_NODE).toBe(1);
    expect(Node.TEXT_NODE).toBe(3);
    expect(Node.COMMENT_NODE).toBe(8);
    expect(Node.DOCUMENT_NODE).toBe(9);
    expect(Node.DOCUMENT_TYPE_NODE).toBe(10);
    expect(Node.DOCUMENT_FRAGMENT_NODE).toBe(11);
    const doc = new Document();
    expect(doc.ELEMENT_NODE).toBe(1);
    expect(doc.nodeType).toBe(Node.DOCUMENT_NODE);
    expect(doc.createElement('p').nodeType).toBe(Node.ELEMENT_NODE);
    expect(doc.createTextNode('x').nodeType).toBe(Node.TEXT_NODE);
    expect(doc.createComment('x').nodeType).toBe(Node.COMMENT_NODE);
    expect(doc.createDocumentFragment().nodeType).toBe(Node.DOCUMENT_FRAGMENT_NODE);
    expect(doc.createDocumentType('html').nodeType).toBe(Node.DOCUMENT_TYPE_NODE);
  });

  it('links parents, siblings and children', () => {
    const { doc, html, body, a, b, c } = tree();
    expect(doc.documentElement).toBe(html);
    expect(body.parentNode).toBe(html);
    expect(body.parentElement).toBe(html);
    expect(html.parentElement).toBeNull();
    expect(html.parentNode).toBe(doc);
    expect(body.firstChild).toBe(a);
    expect(body.lastChild).toBe(c);
    expect(b.previousSibling).toBe(a);
    expect(b.nextSibling).toBe(c);
    expect(a.previousSibling).toBeNull();
    expect(c.nextSibling).toBeNull();
    expect(body.hasChildNodes()).toBe(true);
    expect(a.hasChildNodes()).toBe(false);
    expect(a.ownerDocument).toBe(doc);
    expect(doc.ownerDocument).toBeNull();
  });

  it('insertBefore moves a node that already has a parent', () => {
    const { body, a, b, c } = tree();
    expect(body.insertBefore(c, a)).toBe(c);
    expect(names(body)).toEqual(['C', 'A', 'B']);
    body.insertBefore(a, null);
    expect(names(body)).toEqual(['C', 'B', 'A']);
    body.insertBefore(b, b); // before itself: stays put
    expect(names(body)).toEqual(['C', 'B', 'A']);
    a.appendChild(b); // to another parent
    expect(names(body)).toEqual(['C', 'A']);
    expect(b.parentNode).toBe(a);
    expect(c.nextSibling).toBe(a);
    expect(a.previousSibling).toBe(c);
  });

  it('inserting a DocumentFragment moves its children', () => {
    const { doc, body, a } = tree();
    const frag = doc.createDocumentFragment();
    frag.appendChild(doc.createElement('x'));
    frag.appendChild(doc.createTextNode('t'));
    body.insertBefore(frag, a);
    expect(names(body)).toEqual(['X', '#text', 'A', 'B', 'C']);
    expect(frag.firstChild).toBeNull();
  });

  it('removeChild unlinks, and rejects a non-child', () => {
    const { body, a, b, c } = tree();
    expect(body.removeChild(b)).toBe(b);
    expect(b.parentNode).toBeNull();
    expect(b.nextSibling).toBeNull();
    expect(a.nextSibling).toBe(c);
    expect(c.previousSibling).toBe(a);
    expect(() => body.removeChild(b)).toThrow(expect.objectContaining({ name: 'NotFoundError' }));
    body.removeChild(a);
    body.removeChild(c);
    expect(body.firstChild).toBeNull();
    expect(body.lastChild).toBeNull();
    c.remove(); // no parent: no-op
  });

  it('rejects insertions the DOM forbids', () => {
    const { doc, html, body, a } = tree();
    expect(() => a.appendChild(body)).toThrow(expect.objectContaining({ name: 'HierarchyRequestError' }));
    expect(() => a.appendChild(a)).toThrow(expect.objectContaining({ name: 'HierarchyRequestError' }));
    expect(() => body.insertBefore(doc.createElement('x'), html)).toThrow(expect.objectContaining({ name: 'NotFoundError' }));
    expect(() => doc.appendChild(doc.createElement('second'))).toThrow(/only one element/);
    expect(() => doc.appendChild(doc.createTextNode('x'))).toThrow(/Text node cannot be a child of a Document/);
    expect(() => body.appendChild(doc.createDocumentType('html'))).toThrow(/doctype can only be a child of a Document/);
    expect(() => doc.appendChild(doc.createDocumentType('html'))).toThrow(/doctype cannot come after the document element/);
    doc.insertBefore(doc.createDocumentType('html'), html);
    expect(() => doc.insertBefore(doc.createDocumentType('x'), html)).toThrow(/only one doctype/);
    expect(() => doc.createTextNode('t').appendChild(a)).toThrow(/a Text node cannot have children/);
    const t = doc.createElement('template') as HTMLTemplateElement;
    t.content.appendChild(doc.createElement('p'));
    expect(() => (t.content.firstChild as Element).appendChild(t)).toThrow(expect.objectContaining({ name: 'HierarchyRequestError' }));
  });

  it('childNodes is a snapshot, the same array until the children change', () => {
    const { body, a, b, c } = tree();
    const list = body.childNodes;
    expect(list).toEqual([a, b, c]);
    expect(body.childNodes).toBe(list);
    body.removeChild(b);
    expect(list).toEqual([a, b, c]);
    expect(body.childNodes).toEqual([a, c]);
  });

  it('textContent concatenates descendant text, skipping comments and template contents', () => {
    const doc = new Document();
    const div = doc.createElement('div');
    div.appendChild(doc.createTextNode('a'));
    div.appendChild(doc.createComment('no'));
    const span = div.appendChild(doc.createElement('span'));
    span.appendChild(doc.createTextNode('b'));
    const t = div.appendChild(doc.createElement('template')) as HTMLTemplateElement;
    t.content.appendChild(doc.createTextNode('hidden'));
    div.appendChild(doc.createTextNode('c'));
    expect(div.textContent).toBe('abc');
    expect(doc.textContent).toBeNull();
    expect(doc.createComment('x').textContent).toBe('x');
    div.textContent = 'new';
    expect(div.childNodes.length).toBe(1);
    expect(div.textContent).toBe('new');
    div.textContent = '';
    expect(div.hasChildNodes()).toBe(false);
  });

  it('replaceChild swaps nodes', () => {
    const { doc, body, a, b } = tree();
    const x = doc.createElement('x');
    expect(body.replaceChild(x, b)).toBe(b);
    expect(names(body)).toEqual(['A', 'X', 'C']);
    body.replaceChild(a, x);
    expect(names(body)).toEqual(['A', 'C']);
  });

  it('contains', () => {
    const { doc, body, a } = tree();
    expect(doc.contains(a)).toBe(true);
    expect(body.contains(body)).toBe(true);
    expect(a.contains(body)).toBe(false);
    expect(a.contains(null)).toBe(false);
  });
});

describe('Text and Comment', () => {
  it('have data, length and nodeValue', () => {
    const t = new Text('abc');
    expect(t.data).toBe('abc');
    expect(t.length).toBe(3);
    t.data = 'xy';
    expect(t.nodeValue).toBe('xy');
    t.nodeValue = 'z';
    expect(t.data).toBe('z');
    t.appendData('!');
    expect(t.data).toBe('z!');
    expect(t.nodeName).toBe('#text');
    const c = new Comment('hi');
    expect(c.nodeName).toBe('#comment');
    expect(c.data).toBe('hi');
  });
});

describe('nodes without children', () => {
  it('Text, Comment, DocumentType and Attr have no children and take none', () => {
    const doc = new Document();
    const el = doc.createElement('p');
    el.setAttribute('a', 'b');
    for (const leaf of [doc.createTextNode('x'), doc.createComment('y'), doc.createDocumentType('html'), el.attributes[0]]) {
      expect(leaf.firstChild).toBeNull();
      expect(leaf.lastChild).toBeNull();
      expect(leaf.hasChildNodes()).toBe(false);
      expect(leaf.childNodes).toEqual([]);
      expect(() => leaf.appendChild(doc.createTextNode('z'))).toThrow(expect.objectContaining({ name: 'HierarchyRequestError' }));
    }
    expect(doc.createElement('div').childNodes).toEqual([]);
  });
});

describe('Element', () => {
  it('has localName, namespaceURI, prefix and tagName (uppercased for HTML only)', () => {
    const doc = new Document();
    const div = doc.createElement('DiV');
    expect(div.localName).toBe('div');
    expect(div.namespaceURI).toBe(NS.HTML);
    expect(div.prefix).toBeNull();
    expect(div.tagName).toBe('DIV');
    expect(div.nodeName).toBe('DIV');
    const fo = doc.createElementNS(NS.SVG, 'foreignObject');
    expect(fo.tagName).toBe('foreignObject');
    const odd = doc.createElement('straße');
    expect(odd.tagName).toBe('STRAßE'); // ASCII uppercase only
    const prefixed = doc.createElementNS('urn:x', 'p:q');
    expect(prefixed.prefix).toBe('p');
    expect(prefixed.localName).toBe('q');
    expect(prefixed.tagName).toBe('p:q');
    expect(() => doc.createElement('a b')).toThrow(expect.objectContaining({ name: 'InvalidCharacterError' }));
    expect(() => doc.createElementNS(null, 'p:q')).toThrow(expect.objectContaining({ name: 'NamespaceError' }));
    const htmlPrefixed = doc.createElementNS(NS.HTML, 'h:Div');
    expect(htmlPrefixed.tagName).toBe('H:DIV');
    expect(htmlPrefixed.cloneNode().tagName).toBe('H:DIV');
  });

  it('copies attributes on first change after cloning (shared until then)', () => {
    const doc = new Document();
    const el = doc.createElement('p');
    el.setAttribute('a', '1');
    const copy = el.cloneNode();
    copy.setAttribute('a', '2');
    el.setAttribute('b', '3');
    expect(el.getAttributeNames()).toEqual(['a', 'b']);
    expect(el.getAttribute('a')).toBe('1');
    expect(copy.getAttributeNames()).toEqual(['a']);
    expect(copy.getAttribute('a')).toBe('2');
  });

  it('gets, sets and removes attributes; the NamedNodeMap follows', () => {
    const doc = new Document();
    const el = doc.createElement('div');
    el.setAttribute('ID', 'main');
    expect(el.getAttribute('id')).toBe('main');
    expect(el.getAttribute('Id')).toBe('main');
    expect(el.id).toBe('main');
    el.className = 'a b';
    expect(el.getAttribute('class')).toBe('a b');
    expect(el.hasAttribute('class')).toBe(true);
    expect(el.hasAttribute('title')).toBe(false);
    expect(el.getAttribute('title')).toBeNull();
    const attrs = el.attributes;
    expect(attrs.length).toBe(2);
    expect(attrs[0]).toBeInstanceOf(Attr);
    expect(attrs[0].name).toBe('id');
    expect(attrs[0].value).toBe('main');
    expect(attrs[1].localName).toBe('class');
    expect(attrs[1].namespaceURI).toBeNull();
    expect(attrs[1].prefix).toBeNull();
    expect(attrs.getNamedItem('CLASS')).toBe(attrs[1]);
    expect(attrs.item(5)).toBeNull();
    const idAttr = attrs[0];
    el.setAttribute('id', 'other');
    expect(idAttr.value).toBe('other'); // same Attr, new value
    idAttr.value = 'third';
    expect(el.id).toBe('third');
    el.setAttribute('title', 't');
    expect(attrs.length).toBe(3);
    expect(attrs[2].name).toBe('title');
    el.removeAttribute('id');
    expect(attrs.length).toBe(2);
    expect(attrs[0].name).toBe('class');
    expect(attrs[2]).toBeUndefined();
    expect(idAttr.ownerElement).toBeNull();
    expect([...attrs].map((a) => a.name)).toEqual(['class', 'title']);
    expect(el.getAttributeNames()).toEqual(['class', 'title']);
    expect(() => el.setAttribute('a b', 'x')).toThrow(expect.objectContaining({ name: 'InvalidCharacterError' }));
    expect(el.toggleAttribute('hidden')).toBe(true);
    expect(el.getAttribute('hidden')).toBe('');
    expect(el.toggleAttribute('hidden')).toBe(false);
    expect(el.hasAttribute('hidden')).toBe(false);
  });

  it('handles namespaced attributes', () => {
    const doc = new Document();
    const use = doc.createElementNS(NS.SVG, 'use');
    use.setAttributeNS(NS.XLINK, 'xlink:href', '#a');
    expect(use.getAttributeNS(NS.XLINK, 'href')).toBe('#a');
    expect(use.getAttribute('xlink:href')).toBe('#a');
    expect(use.hasAttributeNS(NS.XLINK, 'href')).toBe(true);
    const a = use.attributes[0];
    expect([a.namespaceURI, a.prefix, a.localName, a.name]).toEqual([NS.XLINK, 'xlink', 'href', 'xlink:href']);
    expect(use.attributes.getNamedItemNS(NS.XLINK, 'href')).toBe(a);
    use.setAttributeNS(NS.XLINK, 'xlink:href', '#b');
    expect(use.attributes.length).toBe(1);
    expect(a.value).toBe('#b');
    use.removeAttributeNS(NS.XLINK, 'href');
    expect(use.hasAttributes()).toBe(false);
    expect(() => use.setAttributeNS(null, 'x:y', '1')).toThrow(expect.objectContaining({ name: 'NamespaceError' }));
    expect(() => use.setAttributeNS(NS.SVG, 'xml:lang', '1')).toThrow(expect.objectContaining({ name: 'NamespaceError' }));
  });

  it('does not change an attribute array it was given until written to', () => {
    const shared = [{ name: 'a', value: '1', namespace: null, prefix: null, localName: 'a' }] as const;
    const el = new Element(null, 'p', NS.HTML, null, shared);
    el.setAttribute('a', '2');
    el.setAttribute('b', '3');
    expect(shared).toEqual([{ name: 'a', value: '1', namespace: null, prefix: null, localName: 'a' }]);
    expect(el.getAttribute('a')).toBe('2');
  });

  it('lists element children and siblings', () => {
    const { doc, body, a, b, c } = tree();
    body.insertBefore(doc.createTextNode('t'), b);
    expect(body.children).toEqual([a, b, c]);
    expect(body.firstElementChild).toBe(a);
    expect(body.lastElementChild).toBe(c);
    expect(body.childElementCount).toBe(3);
    expect(a.nextElementSibling).toBe(b);
    expect(b.previousElementSibling).toBe(a);
    expect(c.nextElementSibling).toBeNull();
  });
});

describe('Document', () => {
  it('finds elements by id and by tag name, in tree order', () => {
    const { doc, body, a, b, c } = tree();
    b.id = 'x';
    c.id = 'x';
    expect(doc.getElementById('x')).toBe(b);
    expect(doc.getElementById('nope')).toBeNull();
    const svg = c.appendChild(doc.createElementNS(NS.SVG, 'svg'));
    const fo = svg.appendChild(doc.createElementNS(NS.SVG, 'foreignObject'));
    const inner = fo.appendChild(doc.createElement('a'));
    expect(doc.getElementsByTagName('A')).toEqual([a, inner]);
    expect(doc.getElementsByTagName('foreignObject')).toEqual([fo]);
    expect(doc.getElementsByTagName('foreignobject')).toEqual([]);
    expect(body.getElementsByTagName('*')).toEqual([a, b, c, svg, fo, inner]);
    expect(c.getElementsByTagName('a')).toEqual([inner]);
  });

  it('exposes doctype, head, body and compatMode', () => {
    const doc = new Document();
    expect(doc.documentElement).toBeNull();
    expect(doc.body).toBeNull();
    expect(doc.doctype).toBeNull();
    const dt = doc.appendChild(doc.createDocumentType('html', 'pub', 'sys'));
    expect(doc.doctype).toBe(dt);
    expect([dt.name, dt.publicId, dt.systemId, dt.nodeName]).toEqual(['html', 'pub', 'sys', 'html']);
    const html = doc.appendChild(doc.createElement('html'));
    html.appendChild(doc.createComment('c'));
    const head = html.appendChild(doc.createElement('head'));
    const frameset = html.appendChild(doc.createElement('frameset'));
    expect(doc.head).toBe(head);
    expect(doc.body).toBe(frameset);
    expect(doc.mode).toBe('no-quirks');
    expect(doc.compatMode).toBe('CSS1Compat');
    doc.mode = 'limited-quirks';
    expect(doc.compatMode).toBe('CSS1Compat');
    doc.mode = 'quirks';
    expect(doc.compatMode).toBe('BackCompat');
  });

  it('gives a template its own contents fragment', () => {
    const doc = new Document();
    const t = doc.createElement('template');
    expect(t).toBeInstanceOf(HTMLTemplateElement);
    const content = (t as HTMLTemplateElement).content;
    expect(content).toBeInstanceOf(DocumentFragment);
    expect(content.parentNode).toBeNull();
    content.appendChild(doc.createElement('p')).id = 'in';
    expect(t.hasChildNodes()).toBe(false);
    expect(doc.getElementById('in')).toBeNull();
    expect(content.getElementById('in')?.localName).toBe('p');
    expect(doc.createElementNS(NS.SVG, 'template')).not.toBeInstanceOf(HTMLTemplateElement);
  });
});

describe('cloneNode', () => {
  it('copies a node, shallow or deep, with attributes and template contents', () => {
    const doc = new Document();
    const div = doc.createElement('div');
    div.setAttribute('id', 'a');
    div.sourceLocation = { start: 0, end: 5 };
    const t = div.appendChild(doc.createElement('template')) as HTMLTemplateElement;
    t.content.appendChild(doc.createElement('b')).appendChild(doc.createTextNode('in'));
    div.appendChild(doc.createComment('c'));
    const shallow = div.cloneNode();
    expect(shallow.hasChildNodes()).toBe(false);
    expect(shallow.getAttribute('id')).toBe('a');
    expect(shallow.sourceLocation).toBeNull();
    const deep = div.cloneNode(true);
    expect(deep).not.toBe(div);
    expect(deep.parentNode).toBeNull();
    expect(deep.ownerDocument).toBe(doc);
    expect(deep.childNodes.map((n) => n.nodeName)).toEqual(['TEMPLATE', '#comment']);
    const t2 = deep.firstChild as HTMLTemplateElement;
    expect(t2).toBeInstanceOf(HTMLTemplateElement);
    expect(t2.content).not.toBe(t.content);
    expect(t2.content.firstChild!.textContent).toBe('in');
    // The copies' attributes are independent.
    deep.setAttribute('id', 'b');
    expect(div.getAttribute('id')).toBe('a');
    div.setAttribute('class', 'x');
    expect(deep.hasAttribute('class')).toBe(false);
  });

  it('clones a document with its children owned by the copy', () => {
    const doc = new Document();
    doc.mode = 'quirks';
    doc.appendChild(doc.createDocumentType('html'));
    doc.appendChild(doc.createElement('html')).appendChild(doc.createTextNode('x'));
    const copy = doc.cloneNode(true);
    expect(copy.mode).toBe('quirks');
    expect(copy.doctype!.name).toBe('html');
    expect(copy.documentElement!.ownerDocument).toBe(copy);
    expect(copy.documentElement!.firstChild!.ownerDocument).toBe(copy);
  });

  it('clones a 100,000-deep tree without recursion', () => {
    const doc = new Document();
    const root = doc.createElement('div');
    let el: Element = root;
    for (let i = 0; i < 100_000; i++) el = el.appendChild(doc.createElement('div'));
    el.appendChild(doc.createTextNode('x'));
    expect(root.cloneNode(true).textContent).toBe('x');
  });
});

describe('deep trees', () => {
  it('walks a 100,000-deep tree without recursion', () => {
    const doc = new Document();
    let el: Element = doc.appendChild(doc.createElement('div'));
    for (let i = 0; i < 100_000; i++) el = el.appendChild(doc.createElement(i === 99_999 ? 'span' : 'div'));
    el.appendChild(doc.createTextNode('x'));
    el.id = 'bottom';
    expect(doc.textContent).toBeNull();
    expect(doc.documentElement!.textContent).toBe('x');
    expect(doc.getElementById('bottom')).toBe(el);
    expect(doc.getElementsByTagName('span')).toEqual([el]);
    expect(doc.getElementsByTagName('div').length).toBe(100_000);
    expect(doc.contains(el)).toBe(true);
  });
});
