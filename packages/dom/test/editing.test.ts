// Editing the DOM as the DOM Standard says (§4.2.3 mutation algorithms, §4.2.6 ParentNode, §4.2.8
// ChildNode, §4.4 Node, §4.5 Document factories): every method, and every error by name and message.
import { describe, expect, it } from 'vitest';
import { NS } from '@sluice/tree-builder';
import {
  Comment,
  Document,
  DocumentFragment,
  type Element,
  type HTMLTemplateElement,
  Node,
  Text,
  parse,
  serialize,
} from '../src/index.js';
import { expectError } from './helpers.js';

const html = (n: Node) => serialize(n);

function page() {
  const doc = parse('<!DOCTYPE html><html><head></head><body><div id=a><p id=b>B</p><p id=c>C</p></div></body></html>');
  return { doc, a: doc.getElementById('a')!, b: doc.getElementById('b')!, c: doc.getElementById('c')! };
}

describe('pre-insertion validity (DOM §4.2.3)', () => {
  it('a Document takes one element: a second element, alone or in a fragment, is a HierarchyRequestError', () => {
    const doc = new Document();
    doc.appendChild(doc.createElement('html'));
    expectError(() => doc.appendChild(doc.createElement('body')), 'HierarchyRequestError', /^appendChild: a Document can have only one element child/);
    const two = doc.createDocumentFragment();
    two.append(doc.createElement('x'), doc.createElement('y'));
    const empty = new Document();
    expectError(() => empty.appendChild(two), 'HierarchyRequestError', /^appendChild: the fragment holds 2 elements; a Document can have only one element child/);
    expect(empty.childNodes.length).toBe(0);
    expect(two.childNodes.length).toBe(2); // nothing moved
    const one = doc.createDocumentFragment();
    one.append(doc.createComment('c'), doc.createElement('root'));
    empty.appendChild(one);
    expect(empty.childNodes.map((n) => n.nodeName)).toEqual(['#comment', 'ROOT']);
  });

  it('a doctype after the element, or a second doctype, is a HierarchyRequestError', () => {
    const doc = new Document();
    const root = doc.appendChild(doc.createElement('html'));
    expectError(() => doc.appendChild(doc.createDocumentType('html')), 'HierarchyRequestError', /^appendChild: the doctype cannot come after the document element/);
    const dt = doc.insertBefore(doc.createDocumentType('html'), root);
    expect(doc.doctype).toBe(dt);
    expectError(() => doc.insertBefore(doc.createDocumentType('x'), root), 'HierarchyRequestError', /only one doctype/);
    // The element may not go before the doctype either.
    const d2 = new Document();
    const dt2 = d2.appendChild(d2.createDocumentType('html'));
    expectError(() => d2.insertBefore(d2.createElement('html'), dt2), 'HierarchyRequestError', /^insertBefore: the document element cannot come before the doctype/);
    const c = d2.insertBefore(d2.createComment('first'), dt2);
    expectError(() => d2.insertBefore(d2.createElement('html'), c), 'HierarchyRequestError', /cannot come before the doctype/);
  });

  it('Text into a Document, a doctype into an element, a Document anywhere: HierarchyRequestError', () => {
    const doc = new Document();
    expectError(() => doc.appendChild(doc.createTextNode('x')), 'HierarchyRequestError', /^appendChild: a Text node cannot be a child of a Document/);
    const frag = doc.createDocumentFragment();
    frag.append('text');
    expectError(() => doc.appendChild(frag), 'HierarchyRequestError', /the fragment holds a Text node/);
    const el = doc.createElement('div');
    expectError(() => el.appendChild(doc.createDocumentType('html')), 'HierarchyRequestError', /a doctype can only be a child of a Document, not of an element <div>/);
    expectError(() => el.appendChild(new Document()), 'HierarchyRequestError', /a Document cannot be inserted/);
    expectError(() => el.appendChild(el.attributes[0] ?? (el.setAttribute('x', '1'), el.attributes[0])), 'HierarchyRequestError', /an Attr cannot be inserted/);
    expectError(() => doc.createTextNode('t').appendChild(el), 'HierarchyRequestError', /^appendChild: a Text node cannot have children/);
    expectError(() => doc.createComment('t').appendChild(el), 'HierarchyRequestError', /a Comment cannot have children/);
    // Comments are fine in a Document, anywhere.
    doc.appendChild(doc.createComment('ok'));
    expect(doc.firstChild!.nodeName).toBe('#comment');
  });

  it('a node into itself or its own descendant is a HierarchyRequestError (the check walks up, no recursion)', () => {
    const { a, b } = page();
    expectError(() => b.appendChild(a), 'HierarchyRequestError', /^appendChild: the node to insert is an ancestor of the parent/);
    expectError(() => a.appendChild(a), 'HierarchyRequestError', /^appendChild: a node cannot be inserted into itself/);
    expectError(() => b.insertBefore(a, null), 'HierarchyRequestError', /^insertBefore: .*ancestor/);
    expectError(() => b.append(a), 'HierarchyRequestError', /^append: .*ancestor/);
    expectError(() => b.replaceWith(a), 'HierarchyRequestError', /^replaceWith: a node cannot be inserted into itself/); // a is b's parent
    // Through a template's contents: the template is their host.
    const doc = new Document();
    const t = doc.createElement('template') as HTMLTemplateElement;
    const inner = t.content.appendChild(doc.createElement('p'));
    expectError(() => inner.appendChild(t), 'HierarchyRequestError', /ancestor/);
    // 100,000 deep: the ancestor walk is a loop.
    let deep: Element = doc.createElement('div');
    const top = deep;
    for (let i = 0; i < 100_000; i++) deep = deep.appendChild(doc.createElement('div'));
    expectError(() => deep.appendChild(top), 'HierarchyRequestError', /ancestor/);
  });

  it('a reference child that is not a child is a NotFoundError', () => {
    const { doc, a, b } = page();
    expectError(() => doc.body!.insertBefore(doc.createElement('x'), b), 'NotFoundError', /^insertBefore: the reference child is not a child of this node/);
    expectError(() => doc.body!.removeChild(b), 'NotFoundError', /^removeChild: the node to remove is not a child of this node/);
    expectError(() => doc.body!.replaceChild(doc.createElement('x'), b), 'NotFoundError', /^replaceChild: the reference child is not a child/);
    // HierarchyRequestError comes first (step 2 before step 3), as in a browser.
    expectError(() => b.replaceChild(a, doc.body!), 'HierarchyRequestError', /ancestor/);
  });

  it('arguments that are not nodes are TypeErrors', () => {
    const { a } = page();
    expect(() => a.appendChild('x' as unknown as Node)).toThrow(TypeError);
    expect(() => a.insertBefore(a.ownerDocument!.createElement('i'), {} as Node)).toThrow(/reference child is not a Node/);
    expect(() => a.removeChild(null as unknown as Node)).toThrow(TypeError);
    expect(() => a.replaceChild(a.ownerDocument!.createElement('i'), 'x' as unknown as Node)).toThrow(/^replaceChild: the child to replace is not a Node/);
  });
});

describe('Node mutation methods', () => {
  it('insertBefore and appendChild move nodes, splice fragments, and return the node', () => {
    const { doc, a, b, c } = page();
    const x = doc.createElement('x');
    expect(a.insertBefore(x, c)).toBe(x);
    expect(html(a)).toBe('<p id="b">B</p><x></x><p id="c">C</p>');
    expect(a.insertBefore(c, c)).toBe(c); // before itself: stays
    expect(a.appendChild(b)).toBe(b);
    expect(html(a)).toBe('<x></x><p id="c">C</p><p id="b">B</p>');
    const frag = doc.createDocumentFragment();
    frag.append('1', doc.createElement('y'), '2');
    expect(a.insertBefore(frag, c)).toBe(frag);
    expect(frag.firstChild).toBeNull();
    expect(html(a)).toBe('<x></x>1<y></y>2<p id="c">C</p><p id="b">B</p>');
    expect(a.insertBefore(doc.createElement('z'), undefined as unknown as null).localName).toBe('z'); // missing child: append
  });

  it('replaceChild replaces, also with a fragment, a sibling, or the node itself', () => {
    const { doc, a, b, c } = page();
    expect(a.replaceChild(doc.createElement('x'), b)).toBe(b);
    expect(b.parentNode).toBeNull();
    expect(html(a)).toBe('<x></x><p id="c">C</p>');
    const x = a.firstChild!;
    expect(a.replaceChild(c, x)).toBe(x); // the next sibling replaces
    expect(html(a)).toBe('<p id="c">C</p>');
    expect(a.replaceChild(c, c)).toBe(c); // itself: nothing changes
    expect(html(a)).toBe('<p id="c">C</p>');
    const frag = doc.createDocumentFragment();
    frag.append('1', '2');
    a.replaceChild(frag, c);
    expect(a.childNodes.map((n) => (n as Text).data)).toEqual(['1', '2']);
  });

  it('replaceChild in a Document: the element may replace the element, a doctype the doctype', () => {
    const doc = parse('<!DOCTYPE html><p>');
    const newRoot = doc.createElement('html');
    doc.replaceChild(newRoot, doc.documentElement!);
    expect(doc.documentElement).toBe(newRoot);
    doc.replaceChild(doc.createDocumentType('other'), doc.doctype!);
    expect(doc.doctype!.name).toBe('other');
    expectError(() => doc.replaceChild(doc.createElement('x'), doc.doctype!), 'HierarchyRequestError', /only one element child/);
    const noDoctype = parse('<!--c--><p></p></body></html><!--end-->');
    expect(noDoctype.childNodes.map((n) => n.nodeName)).toEqual(['#comment', 'HTML', '#comment']);
    expectError(() => noDoctype.replaceChild(noDoctype.createDocumentType('html'), noDoctype.lastChild!), 'HierarchyRequestError', /^replaceChild: the doctype cannot come after/);
    noDoctype.replaceChild(noDoctype.createDocumentType('html'), noDoctype.firstChild!); // the comment before the element
    expect(serialize(noDoctype)).toBe('<!DOCTYPE html><html><head></head><body><p></p></body></html><!--end-->');
    // Replacing the element with a doctype is allowed (nothing of the element kind precedes it).
    const swap = parse('<p>');
    swap.replaceChild(swap.createDocumentType('html'), swap.documentElement!);
    expect(serialize(swap)).toBe('<!DOCTYPE html>');
  });

  it('removeChild and remove', () => {
    const { doc, a, b } = page();
    expect(a.removeChild(b)).toBe(b);
    expect(b.parentNode).toBeNull();
    b.remove(); // no parent: nothing happens
    a.remove();
    expect(doc.body!.childNodes.length).toBe(0);
    const t = doc.createTextNode('t');
    doc.body!.append(t);
    t.remove();
    expect(doc.body!.firstChild).toBeNull();
  });

  it('nodes from another document are adopted: ownerDocument, descendants, attributes and template contents follow', () => {
    const src = parse('<div id=x title=t><template><i>in</i></template><span>s</span></div>');
    const div = src.getElementById('x')!;
    const attr = div.attributes[0];
    const template = div.firstChild as HTMLTemplateElement;
    const dest = parse('');
    dest.body!.appendChild(div);
    expect(div.ownerDocument).toBe(dest);
    expect(div.lastChild!.firstChild!.ownerDocument).toBe(dest);
    expect(attr.ownerDocument).toBe(dest);
    expect(template.content.ownerDocument).toBe(dest);
    expect(template.content.firstChild!.ownerDocument).toBe(dest);
    expect(src.getElementById('x')).toBeNull();
    // Fragment children are adopted one by one.
    const frag = src.createDocumentFragment();
    frag.append('t', src.createElement('b'));
    dest.body!.prepend(frag);
    expect(dest.body!.firstChild!.ownerDocument).toBe(dest);
    expect(dest.body!.childNodes[1].ownerDocument).toBe(dest);
  });

  it('importNode copies into the document, adoptNode moves', () => {
    const src = parse('<p id=p class=c>hi<b>x</b></p>');
    const dest = new Document();
    const p = src.getElementById('p')!;
    const copy = dest.importNode(p, true);
    expect(copy.ownerDocument).toBe(dest);
    expect(copy.firstChild!.ownerDocument).toBe(dest);
    expect(copy.outerHTML).toBe('<p id="p" class="c">hi<b>x</b></p>');
    expect(p.parentNode).toBe(src.body);
    expect(dest.importNode(p).outerHTML).toBe('<p id="p" class="c"></p>');
    expect(dest.importNode(p, {}).outerHTML).toBe('<p id="p" class="c">hi<b>x</b></p>'); // ImportNodeOptions: deep unless selfOnly
    expect(dest.importNode(p, { selfOnly: true }).outerHTML).toBe('<p id="p" class="c"></p>');
    expect(dest.adoptNode(p)).toBe(p);
    expect(p.parentNode).toBeNull();
    expect(p.ownerDocument).toBe(dest);
    expectError(() => dest.importNode(src), 'NotSupportedError', /^importNode: a Document cannot be imported/);
    expectError(() => dest.adoptNode(src), 'NotSupportedError', /^adoptNode/);
  });
});

describe('textContent (DOM §4.4)', () => {
  it('setting it on an element or fragment replaces all children with one Text node, or none', () => {
    const { doc, a } = page();
    a.textContent = '<b>&';
    expect(a.childNodes.length).toBe(1);
    expect(a.firstChild).toBeInstanceOf(Text);
    expect((a.firstChild as Text).data).toBe('<b>&');
    expect(a.innerHTML).toBe('&lt;b&gt;&amp;');
    a.textContent = '';
    expect(a.firstChild).toBeNull();
    a.append('x', 'y');
    a.textContent = null;
    expect(a.firstChild).toBeNull();
    const frag = new DocumentFragment(); // no document
    frag.textContent = 'f';
    expect(frag.firstChild).toBeInstanceOf(Text);
    expect(frag.firstChild!.ownerDocument).toBeNull();
    expect(doc.textContent).toBeNull();
    doc.textContent = 'ignored';
    expect(doc.documentElement).not.toBeNull();
  });

  it('on Text and Comment it sets the data; on a doctype it does nothing', () => {
    const doc = new Document();
    const t = doc.createTextNode('a');
    t.textContent = 'b';
    expect(t.data).toBe('b');
    const c = doc.createComment('a');
    c.textContent = null;
    expect(c.data).toBe('');
    const dt = doc.createDocumentType('html');
    dt.textContent = 'x';
    expect(dt.textContent).toBeNull();
  });

  it('reads the descendant text only (no comments, no template contents)', () => {
    const doc = parse('<div id=d>a<!--c--><b>b</b><template>t</template>c</div>');
    expect(doc.getElementById('d')!.textContent).toBe('abc');
  });
});

describe('ParentNode: append, prepend, replaceChildren (DOM §4.2.6)', () => {
  it('take nodes and strings (strings become Text nodes of the node document)', () => {
    const { doc, a, b } = page();
    a.append('x', doc.createElement('i'), 'y');
    expect(html(a)).toBe('<p id="b">B</p><p id="c">C</p>x<i></i>y');
    expect(a.lastChild).toBeInstanceOf(Text);
    expect(a.lastChild!.ownerDocument).toBe(doc);
    a.prepend('0', b.firstChild!);
    expect(html(a)).toBe('0B<p id="b"></p><p id="c">C</p>x<i></i>y');
    a.replaceChildren('only');
    expect(html(a)).toBe('only');
    a.replaceChildren();
    expect(a.firstChild).toBeNull();
    a.append(); // nothing
    expect(a.firstChild).toBeNull();
    a.append(42 as unknown as string); // WebIDL: stringified
    expect(html(a)).toBe('42');
  });

  it('move nodes already in the tree, also one of the children', () => {
    const { a, b, c } = page();
    a.append(b);
    expect(html(a)).toBe('<p id="c">C</p><p id="b">B</p>');
    a.replaceChildren(c, 'z', b);
    expect(html(a)).toBe('<p id="c">C</p>z<p id="b">B</p>');
  });

  it('work on Document and DocumentFragment, with the Document rules', () => {
    const doc = new Document();
    // Several nodes go through a DocumentFragment first ("convert nodes into a node"), and a fragment
    // takes no doctype: a browser throws here too.
    expectError(() => doc.append(doc.createDocumentType('html'), doc.createElement('html')), 'HierarchyRequestError', /^append: a doctype can only be a child of a Document, not of a DocumentFragment/);
    doc.append(doc.createDocumentType('html'));
    doc.append(doc.createElement('html'));
    expect(serialize(doc)).toBe('<!DOCTYPE html><html></html>');
    expectError(() => doc.append('text'), 'HierarchyRequestError', /^append: a Text node cannot be a child of a Document/);
    expectError(() => doc.append(doc.createElement('x')), 'HierarchyRequestError', /^append: a Document can have only one element child/);
    expectError(() => doc.prepend(doc.createElement('x')), 'HierarchyRequestError', /^prepend: a Document can have only one element child/);
    // replaceChildren excludes all the current children from the checks.
    doc.replaceChildren(doc.createElement('new'));
    expect(serialize(doc)).toBe('<new></new>');
    expectError(() => doc.replaceChildren(doc.createElement('a'), doc.createElement('b')), 'HierarchyRequestError', /^replaceChildren: the fragment holds 2 elements; a Document can have only one element child/);
    expect(serialize(doc)).toBe('<new></new>'); // unchanged after the error
    const frag = doc.createDocumentFragment();
    frag.append('a', 'b');
    frag.prepend(doc.createElement('p'));
    expect(serialize(frag)).toBe('<p></p>ab');
    frag.replaceChildren();
    expect(frag.firstChild).toBeNull();
  });
});

describe('ChildNode: before, after, replaceWith, remove (DOM §4.2.8)', () => {
  it('insert around the node', () => {
    const { doc, a, b, c } = page();
    b.before('0', doc.createElement('x'));
    expect(html(a)).toBe('0<x></x><p id="b">B</p><p id="c">C</p>');
    b.after('1');
    expect(html(a)).toBe('0<x></x><p id="b">B</p>1<p id="c">C</p>');
    c.after('end');
    expect(a.lastChild!.nodeValue).toBe('end');
    b.replaceWith('r1', doc.createElement('r'), 'r2');
    expect(html(a)).toBe('0<x></x>r1<r></r>r21<p id="c">C</p>end');
    expect(b.parentNode).toBeNull();
  });

  it('skip the nodes being moved when finding where to insert (the viable siblings)', () => {
    const { a, b, c } = page();
    const x = a.ownerDocument!.createElement('x');
    a.append(x);
    // c.before(b, c): c's previous sibling b is one of the nodes, so insert at the start.
    c.before(c, b);
    expect(html(a)).toBe('<p id="c">C</p><p id="b">B</p><x></x>');
    // b.after(x, b): b's next sibling x is one of the nodes: insert before x's next (null).
    b.after(x, b);
    expect(html(a)).toBe('<p id="c">C</p><x></x><p id="b">B</p>');
    // replaceWith with the node itself among the nodes: it moves into the fragment first.
    b.replaceWith('1', b, '2');
    expect(html(a)).toBe('<p id="c">C</p><x></x>1<p id="b">B</p>2');
    c.replaceWith(c);
    expect(a.firstChild).toBe(c);
  });

  it('do nothing without a parent; work on Text, Comment and DocumentType', () => {
    const doc = parse('<!DOCTYPE html><body>t<!--c-->');
    const lone = doc.createElement('lone');
    lone.before('x');
    lone.after('x');
    lone.replaceWith('x');
    expect(lone.parentNode).toBeNull();
    const text = doc.body!.firstChild as Text;
    text.before('0');
    text.after('1');
    const comment = doc.body!.lastChild as Comment;
    comment.replaceWith(doc.createElement('b'));
    expect(doc.body!.innerHTML).toBe('0t1<b></b>');
    doc.doctype!.after(doc.createComment('after doctype'));
    expect(serialize(doc).startsWith('<!DOCTYPE html><!--after doctype--><html>')).toBe(true);
    expectError(() => doc.doctype!.after(doc.createElement('x')), 'HierarchyRequestError', /^after: a Document can have only one element child/);
    expectError(() => doc.doctype!.before('text'), 'HierarchyRequestError', /^before: a Text node cannot be a child of a Document/);
    doc.doctype!.remove();
    expect(doc.doctype).toBeNull();
  });
});

describe('cloneNode (DOM §4.4 "clone a node", HTML template cloning steps)', () => {
  it('copies attributes, data, template contents (deep only) and keeps the owner document', () => {
    const doc = parse('<div id=d class="a b" data-x=1><template id=t><p>in</p></template>text<!--c--></div>');
    const d = doc.getElementById('d')!;
    const shallow = d.cloneNode();
    expect(shallow.outerHTML).toBe('<div id="d" class="a b" data-x="1"></div>');
    expect(shallow.ownerDocument).toBe(doc);
    expect(shallow.parentNode).toBeNull();
    const deep = d.cloneNode(true);
    expect(deep.outerHTML).toBe(d.outerHTML);
    const t = deep.firstChild as HTMLTemplateElement;
    expect(t.content.firstChild!.textContent).toBe('in');
    expect(t.content).not.toBe((d.firstChild as HTMLTemplateElement).content);
    expect((d.firstChild as HTMLTemplateElement).cloneNode().content.firstChild).toBeNull(); // shallow: no contents
    // The copy's attributes are its own.
    deep.setAttribute('id', 'copy');
    deep.classList.add('z');
    expect(d.getAttribute('id')).toBe('d');
    expect(d.className).toBe('a b');
    expect(deep.className).toBe('a b z');
  });

  it('a cloned document owns its copies', () => {
    const doc = parse('<!DOCTYPE html><p>x<template><b>y</b></template>');
    const copy = doc.cloneNode(true);
    expect(serialize(copy)).toBe(serialize(doc));
    const t = copy.getElementsByTagName('template')[0] as HTMLTemplateElement;
    expect(t.ownerDocument).toBe(copy);
    expect(t.content.firstChild!.ownerDocument).toBe(copy);
    expect(copy.mode).toBe(doc.mode);
  });
});

describe('Document factories (DOM §4.5)', () => {
  it('createElement validates names as DOM §1.4 "valid element local name" and lowercases', () => {
    const doc = new Document();
    expect(doc.createElement('DIV').localName).toBe('div');
    expect(doc.createElement('x-Émoji').localName).toBe('x-Émoji');
    expect(doc.createElement('a:b').localName).toBe('a:b');
    expect(doc.createElement('_x').localName).toBe('_x');
    expect(doc.createElement('é').localName).toBe('é');
    expect(doc.createElement('template').constructor.name).toBe('HTMLTemplateElement');
    for (const bad of ['', 'a b', '1a', '-a', 'a>', 'a/b', '_a b', 'é!']) {
      expectError(() => doc.createElement(bad), 'InvalidCharacterError', /^createElement: .* is not a valid element name/);
    }
  });

  it('createElementNS validates and extracts (DOM §1.4)', () => {
    const doc = new Document();
    const rect = doc.createElementNS(NS.SVG, 'svg:rect');
    expect([rect.prefix, rect.localName, rect.namespaceURI, rect.tagName]).toEqual(['svg', 'rect', NS.SVG, 'svg:rect']);
    const multi = doc.createElementNS('urn:x', 'a:b:c');
    expect([multi.prefix, multi.localName]).toEqual(['a', 'b:c']);
    expect(doc.createElementNS(NS.HTML, 'template').constructor.name).toBe('HTMLTemplateElement');
    expect(doc.createElementNS('', 'x').namespaceURI).toBeNull();
    expectError(() => doc.createElementNS('urn:x', ':a'), 'InvalidCharacterError', /is not a valid namespace prefix/);
    expectError(() => doc.createElementNS('urn:x', 'a:1'), 'InvalidCharacterError', /"1" .* is not a valid element local name/);
    expectError(() => doc.createElementNS(null, 'a:b'), 'NamespaceError', /the prefix "a" needs a namespace/);
    expectError(() => doc.createElementNS('urn:x', 'xml:b'), 'NamespaceError', /xml prefix needs the XML namespace/);
    expectError(() => doc.createElementNS('urn:x', 'xmlns'), 'NamespaceError', /xmlns/);
    expectError(() => doc.createElementNS(NS.XMLNS, 'x'), 'NamespaceError', /xmlns/);
  });

  it('createTextNode, createComment, createDocumentFragment, createDocumentType', () => {
    const doc = new Document();
    expect(doc.createTextNode('t').ownerDocument).toBe(doc);
    expect(doc.createTextNode(5 as unknown as string).data).toBe('5');
    expect(doc.createComment('c').data).toBe('c');
    expect(doc.createDocumentFragment().ownerDocument).toBe(doc);
    expect(doc.createDocumentType('').name).toBe('');
    expectError(() => doc.createDocumentType('a b'), 'InvalidCharacterError', /^createDocumentType: "a b" is not a valid doctype name/);
  });
});

describe('attributes (DOM §4.9)', () => {
  it('setAttributeNS validates prefix and local name separately; the local name may hold colons', () => {
    const doc = new Document();
    const el = doc.createElement('div');
    el.setAttributeNS('urn:x', 'p:a:b', 'v');
    const a = el.attributes[0];
    expect([a.prefix, a.localName, a.name, a.value]).toEqual(['p', 'a:b', 'p:a:b', 'v']);
    expectError(() => el.setAttributeNS('urn:x', ':a', 'v'), 'InvalidCharacterError', /is not a valid namespace prefix/);
    expectError(() => el.setAttributeNS('urn:x', 'p:a=b', 'v'), 'InvalidCharacterError', /"a=b" .* is not a valid attribute local name/);
    expectError(() => el.setAttributeNS(null, 'p:a', 'v'), 'NamespaceError', /needs a namespace/);
  });

  it('toggleAttribute validates the name, present or not, and follows force', () => {
    const el = new Document().createElement('input');
    expect(el.toggleAttribute('Disabled')).toBe(true);
    expect(el.outerHTML).toBe('<input disabled="">');
    expect(el.toggleAttribute('disabled', true)).toBe(true);
    expect(el.hasAttribute('disabled')).toBe(true);
    expect(el.toggleAttribute('disabled')).toBe(false);
    expect(el.toggleAttribute('disabled', false)).toBe(false);
    expect(el.hasAttribute('disabled')).toBe(false);
    expectError(() => el.toggleAttribute('a b', false), 'InvalidCharacterError', /^toggleAttribute: "a b" is not a valid attribute name/);
    expectError(() => el.toggleAttribute(''), 'InvalidCharacterError', /toggleAttribute/);
  });

  it('id and className reflect their attributes', () => {
    const el = new Document().createElement('p');
    expect(el.id).toBe('');
    expect(el.className).toBe('');
    el.id = 'x';
    el.className = 'a  b';
    expect(el.outerHTML).toBe('<p id="x" class="a  b"></p>');
    el.setAttribute('ID', 'y');
    expect(el.id).toBe('y');
    el.removeAttribute('class');
    expect(el.className).toBe('');
  });
});

describe('insertAdjacentElement and insertAdjacentText (DOM §4.9 "insert adjacent")', () => {
  it('insert at the four positions, return null without a parent, SyntaxError otherwise', () => {
    const { doc, a, b } = page();
    expect(b.insertAdjacentElement('beforebegin', doc.createElement('x'))!.localName).toBe('x');
    b.insertAdjacentText('afterbegin', '<first>');
    b.insertAdjacentText('beforeend', 'last');
    expect(b.insertAdjacentElement('afterend', doc.createElement('y'))!.localName).toBe('y');
    expect(html(a)).toBe('<x></x><p id="b">&lt;first&gt;Blast</p><y></y><p id="c">C</p>');
    const lone = doc.createElement('lone');
    expect(lone.insertAdjacentElement('beforebegin', doc.createElement('z'))).toBeNull();
    expect(lone.insertAdjacentElement('afterbegin', doc.createElement('z'))!.parentNode).toBe(lone);
    expectError(() => lone.insertAdjacentText('inside' as 'afterbegin', 't'), 'SyntaxError', /^insertAdjacentText: "inside" is not one of/);
    expectError(() => b.insertAdjacentElement('afterbegin', a), 'HierarchyRequestError', /^insertAdjacentElement: .*ancestor/);
  });
});

describe('Attr.value', () => {
  it('sets the attribute it belongs to, also one whose name holds a colon but no namespace', () => {
    const el = new Document().createElement('div');
    el.setAttribute('a:b', '1');
    el.setAttributeNS(NS.XLINK, 'xlink:href', 'u');
    const [plain, linked] = [...el.attributes];
    plain.value = '2';
    linked.value = 'v';
    expect(el.outerHTML).toBe('<div a:b="2" xlink:href="v"></div>');
    el.removeAttribute('a:b');
    plain.value = 'detached';
    expect(plain.value).toBe('detached');
    expect(el.outerHTML).toBe('<div xlink:href="v"></div>');
  });
});

describe('CharacterData and Text editing (DOM §4.10, §4.11)', () => {
  it('substringData, insertData, deleteData, replaceData count UTF-16 code units and clamp the count', () => {
    const t = new Document().createTextNode('hello');
    expect(t.substringData(1, 3)).toBe('ell');
    expect(t.substringData(3, 100)).toBe('lo');
    expect(t.substringData(2, -1)).toBe('llo'); // unsigned long: -1 is 4294967295
    t.insertData(5, '!');
    t.insertData(0, '>');
    expect(t.data).toBe('>hello!');
    t.deleteData(1, 1);
    expect(t.data).toBe('>ello!');
    t.replaceData(1, 4, 'ELLO');
    expect(t.data).toBe('>ELLO!');
    t.appendData('?');
    expect(t.data).toBe('>ELLO!?');
    expectError(() => t.substringData(8, 1), 'IndexSizeError', /^substringData: offset 8 is past the end of the data \(length 7\)/);
    expectError(() => t.insertData(99, 'x'), 'IndexSizeError', /^replaceData: offset 99/);
    const c = new Document().createComment('𝒳y');
    c.deleteData(0, 2); // one astral character is two code units
    expect(c.data).toBe('y');
  });

  it('splitText moves the rest into a new Text node after this one; wholeText joins adjacent Text', () => {
    const doc = parse('<p>abcdef<b>x</b></p>');
    const p = doc.getElementsByTagName('p')[0];
    const t = p.firstChild as Text;
    const rest = t.splitText(2);
    expect([t.data, rest.data]).toEqual(['ab', 'cdef']);
    expect(t.nextSibling).toBe(rest);
    expect(rest.ownerDocument).toBe(doc);
    expect(rest.splitText(4).data).toBe('');
    expect(p.childNodes.length).toBe(4);
    expect(t.wholeText).toBe('abcdef');
    expect(rest.wholeText).toBe('abcdef');
    expect(p.innerHTML).toBe('abcdef<b>x</b>');
    const lone = doc.createTextNode('12');
    expect(lone.splitText(1).parentNode).toBeNull();
    expectError(() => lone.splitText(5), 'IndexSizeError', /^splitText: offset 5/);
  });
});

describe('Node: normalize, isEqualNode, isSameNode, getRootNode, isConnected, compareDocumentPosition', () => {
  it('normalize merges adjacent Text nodes and drops empty ones, at every depth', () => {
    const doc = new Document();
    const div = doc.createElement('div');
    const b = doc.createElement('b');
    div.append('a', '', 'b', b, '', 'c');
    b.append('', 'x', 'y', doc.createComment('k'), 'z', '');
    div.normalize();
    expect(div.childNodes.map((n) => n.nodeName)).toEqual(['#text', 'B', '#text']);
    expect((div.firstChild as Text).data).toBe('ab');
    expect(b.childNodes.map((n) => (n as Text).data)).toEqual(['xy', 'k', 'z']);
    expect(div.innerHTML).toBe('ab<b>xy<!--k-->z</b>c');
  });

  it('isEqualNode compares type, names, attributes in any order, data and children; isSameNode is identity', () => {
    const doc = parse('<div id=a title=t><p>x</p><!--c--></div><div title=t id=a><p>x</p><!--c--></div><div id=a title=t><p>y</p><!--c--></div>');
    const [d1, d2, d3] = doc.getElementsByTagName('div');
    expect(d1.isEqualNode(d2)).toBe(true);
    expect(d1.isEqualNode(d3)).toBe(false);
    expect(d1.isEqualNode(null)).toBe(false);
    expect(d1.isSameNode(d2)).toBe(false);
    expect(d1.isSameNode(d1)).toBe(true);
    expect(d1.isEqualNode(d1.cloneNode(true))).toBe(true);
    expect(d1.isEqualNode(d1.cloneNode(false))).toBe(false);
    expect(doc.isEqualNode(doc.cloneNode(true))).toBe(true);
    expect(doc.createDocumentType('html').isEqualNode(doc.createDocumentType('html', 'p'))).toBe(false);
  });

  it('getRootNode and isConnected (template contents are not connected)', () => {
    const doc = parse('<p id=p>x</p><template id=t><i>in</i></template>');
    const p = doc.getElementById('p')!;
    expect(p.getRootNode()).toBe(doc);
    expect(p.isConnected).toBe(true);
    const inner = (doc.getElementById('t') as HTMLTemplateElement).content.firstChild!;
    expect(inner.isConnected).toBe(false);
    expect(inner.getRootNode()).toBe((doc.getElementById('t') as HTMLTemplateElement).content);
    p.remove();
    expect(p.isConnected).toBe(false);
    expect(p.firstChild!.getRootNode()).toBe(p);
  });

  it('compareDocumentPosition', () => {
    const doc = parse('<div id=a><p id=b>x</p><p id=c></p></div>');
    const [a, b, c] = ['a', 'b', 'c'].map((id) => doc.getElementById(id)!);
    const { DOCUMENT_POSITION_PRECEDING: P, DOCUMENT_POSITION_FOLLOWING: F, DOCUMENT_POSITION_CONTAINS: C, DOCUMENT_POSITION_CONTAINED_BY: CB } = Node;
    expect(b.compareDocumentPosition(b)).toBe(0);
    expect(b.compareDocumentPosition(c)).toBe(F);
    expect(c.compareDocumentPosition(b)).toBe(P);
    expect(b.compareDocumentPosition(a)).toBe(C | P);
    expect(a.compareDocumentPosition(b.firstChild!)).toBe(CB | F);
    const attr = b.attributes[0];
    expect(b.compareDocumentPosition(attr)).toBe(CB | F);
    expect(attr.compareDocumentPosition(b)).toBe(C | P);
    expect(attr.compareDocumentPosition(c)).toBe(F);
    const lone = doc.createElement('x');
    const there = lone.compareDocumentPosition(a);
    const back = a.compareDocumentPosition(lone);
    expect(there & Node.DOCUMENT_POSITION_DISCONNECTED).toBeTruthy();
    expect(there & Node.DOCUMENT_POSITION_IMPLEMENTATION_SPECIFIC).toBeTruthy();
    expect((there & P) !== 0).toBe((back & F) !== 0); // consistent both ways
    expect(a.DOCUMENT_POSITION_CONTAINS).toBe(8);
  });
});

describe('Attr nodes: createAttribute(NS), setAttributeNode, removeAttributeNode, NamedNodeMap set/removeNamedItem', () => {
  it('moves Attr nodes onto elements, replacing by namespace and local name', () => {
    const doc = new Document();
    const el = doc.createElement('div');
    const a = doc.createAttribute('Title');
    expect([a.name, a.value, a.ownerDocument, a.ownerElement]).toEqual(['title', '', doc, null]);
    a.value = 'one';
    expect(el.setAttributeNode(a)).toBeNull();
    expect(a.ownerElement).toBe(el);
    expect(el.getAttribute('title')).toBe('one');
    expect(el.getAttributeNode('TITLE')).toBe(a);
    expect(el.attributes[0]).toBe(a);
    const b = doc.createAttribute('title');
    b.value = 'two';
    expect(el.setAttributeNode(b)).toBe(a); // replaced, returned, detached
    expect(a.ownerElement).toBeNull();
    expect(el.outerHTML).toBe('<div title="two"></div>');
    expect(el.setAttributeNode(b)).toBe(b); // already there
    const other = doc.createElement('p');
    expectError(() => other.setAttributeNode(b), 'InUseAttributeError', /^setAttributeNode: the attribute "title" belongs to another element/);
    expect(el.removeAttributeNode(b)).toBe(b);
    expect(el.hasAttributes()).toBe(false);
    expectError(() => el.removeAttributeNode(b), 'NotFoundError', /^removeAttributeNode: the attribute is not one of this element's attributes/);
    other.setAttributeNode(b); // free again
    expect(other.outerHTML).toBe('<p title="two"></p>');
  });

  it('createAttributeNS validates and extracts; the NamedNodeMap methods do the same as the element ones', () => {
    const doc = new Document();
    const link = doc.createAttributeNS(NS.XLINK, 'xlink:href');
    expect([link.prefix, link.localName, link.namespaceURI]).toEqual(['xlink', 'href', NS.XLINK]);
    expectError(() => doc.createAttributeNS(null, 'x:y'), 'NamespaceError', /^createAttributeNS: the prefix "x" needs a namespace/);
    expectError(() => doc.createAttribute('a b'), 'InvalidCharacterError', /^createAttribute: "a b" is not a valid attribute name/);
    const svg = doc.createElementNS(NS.SVG, 'a');
    const map = svg.attributes;
    expect(map.setNamedItemNS(link)).toBeNull();
    link.value = '#x';
    expect(svg.getAttributeNodeNS(NS.XLINK, 'href')).toBe(link);
    expect(svg.outerHTML).toBe('<a xlink:href="#x"></a>');
    svg.setAttribute('class', 'c');
    expect(map.removeNamedItem('class').value).toBe('c');
    expect(map.removeNamedItemNS(NS.XLINK, 'href')).toBe(link);
    expect(map.length).toBe(0);
    expectError(() => map.removeNamedItem('class'), 'NotFoundError', /^removeNamedItem: the element has no attribute "class"/);
    // A parsed element's attributes keep working after nodes are added.
    const p = parse('<p id=i class=c>').getElementsByTagName('p')[0];
    p.setAttributeNode(p.ownerDocument!.createAttribute('lang'));
    expect(p.outerHTML).toBe('<p id="i" class="c" lang=""></p>');
    expect(p.attributes.length).toBe(3);
  });
});
