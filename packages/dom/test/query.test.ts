import { describe, expect, it } from 'vitest';
import { NS } from '@sluice/tree-builder';
import { Document, type Element, type HTMLTemplateElement, parse, parseFragment } from '../src/index.js';

/** The elements' ids (or local names when they have none), in order. */
function ids(els: readonly Element[]): string[] {
  return els.map((e) => e.getAttribute('id') ?? e.localName);
}

function q(html: string, selector: string): string[] {
  return ids(parse(html).querySelectorAll(selector));
}

describe('combinators', () => {
  const page = '<!DOCTYPE html><div id=d><p id=p1><span id=s1></span></p><p id=p2></p><b id=b></b><p id=p3><span id=s2></span></p></div>';
  it('descendant, child, next-sibling, subsequent-sibling', () => {
    expect(q(page, 'div span')).toEqual(['s1', 's2']);
    expect(q(page, 'div > span')).toEqual([]);
    expect(q(page, 'div > p')).toEqual(['p1', 'p2', 'p3']);
    expect(q(page, 'p + p')).toEqual(['p2']);
    expect(q(page, 'p ~ p')).toEqual(['p2', 'p3']);
    expect(q(page, 'p + b + p > span')).toEqual(['s2']);
    expect(q(page, 'body div > p ~ b')).toEqual(['b']);
  });
  it('results are in tree order, each element once, for a list', () => {
    expect(q(page, 'span, p, #d')).toEqual(['d', 'p1', 's1', 'p2', 'p3', 's2']);
  });
});

describe('attribute selectors', () => {
  const page = '<!DOCTYPE html><a id=a title="Hello World" lang=en-US href="http://x/y.pdf" type=TEXT class="c1  c2"></a><a id=b title=hello lang=EN></a>';
  it('every operator', () => {
    expect(q(page, '[title]')).toEqual(['a', 'b']);
    expect(q(page, '[title="Hello World"]')).toEqual(['a']);
    expect(q(page, '[title~=World]')).toEqual(['a']);
    expect(q(page, '[title~="Hello World"]')).toEqual([]);
    expect(q(page, '[lang|=en]')).toEqual(['a', 'b']); // lang compares case-insensitively (HTML's list)
    expect(q(page, '[href^="http:"]')).toEqual(['a']);
    expect(q(page, '[href$=".pdf"]')).toEqual(['a']);
    expect(q(page, '[href*="x/y"]')).toEqual(['a']);
    expect(q(page, '[href^=""]')).toEqual([]);
    expect(q(page, '[class~=c2]')).toEqual(['a']);
  });
  it('the i and s flags', () => {
    expect(q(page, '[title=hello]')).toEqual(['b']);
    expect(q(page, '[title=HELLO i]')).toEqual(['b']);
    expect(q(page, '[title="hello world" i]')).toEqual(['a']);
    expect(q(page, '[type=text]')).toEqual(['a']); // HTML §4.16.2: type compares case-insensitively
    expect(q(page, '[type=text s]')).toEqual([]);
    expect(q(page, '[lang=en s]')).toEqual([]);
  });
  it('attribute names compare ASCII case-insensitively', () => {
    expect(q(page, '[TITLE=hello]')).toEqual(['b']);
  });
});

describe('case rules of HTML documents', () => {
  // HTML §4.16.2 "Case-sensitivity of selectors" (Chromium deviates: docs/selectors.md).
  it('type selectors: lowercased for HTML elements, as written for foreign ones', () => {
    const html = '<!DOCTYPE html><div id=d></div><svg><foreignObject id=f></foreignObject><clipPath id=c></clipPath></svg>';
    expect(q(html, 'DIV')).toEqual(['d']);
    expect(q(html, 'foreignObject')).toEqual(['f']);
    expect(q(html, 'foreignobject')).toEqual([]);
    expect(q(html, 'clipPath')).toEqual(['c']);
    expect(q(html, 'clippath')).toEqual([]);
    expect(q(html, 'CLIPPATH')).toEqual([]);
    expect(q(html, 'svg > clippath, DIV')).toEqual(['d']);
    expect(q(html, 'clipPath:first-of-type, svg clipPath')).toEqual(['c']);
    expect(q(html, 'SVG')).toEqual([]); // the svg element is an SVG element: `svg` as written
    const doc = parse(html);
    expect(doc.querySelector('clippath')).toBeNull();
    expect(doc.getElementById('c')!.matches('clipPath')).toBe(true);
    expect(doc.getElementById('c')!.matches('clippath')).toBe(false);
    expect(doc.getElementById('c')!.closest('CLIPPATH')).toBeNull();
    // An ancestor named in another case does not satisfy the compound left of a combinator.
    expect(q('<!DOCTYPE html><svg><clipPath><rect id=r /></clipPath></svg>', 'clippath rect')).toEqual([]);
    expect(q('<!DOCTYPE html><svg><clipPath><rect id=r /></clipPath></svg>', 'clipPath rect')).toEqual(['r']);
  });
  it('attribute names: lowercased for HTML elements\' attributes, as written for foreign ones', () => {
    const html = '<!DOCTYPE html><p id=p class=x></p><svg viewBox="0 0 1 1" type=A id=s class=y></svg>';
    expect(q(html, '[viewBox]')).toEqual(['s']);
    expect(q(html, '[viewbox]')).toEqual([]);
    expect(q(html, '[VIEWBOX]')).toEqual([]);
    expect(q(html, '[*|viewBox]')).toEqual(['s']);
    expect(q(html, '[*|viewbox]')).toEqual([]);
    expect(q(html, '[CLASS]')).toEqual(['p']); // the SVG element's `class` is not `CLASS`
    expect(q(html, '[class]')).toEqual(['p', 's']);
    expect(q(html, '[type=a]')).toEqual([]); // HTML's case-insensitive list applies to HTML elements only
    expect(q(html, '[type=a i]')).toEqual(['s']);
  });
  it('.class and #id compare case-insensitively in quirks mode only', () => {
    const body = '<p id=Main class=Big></p>';
    expect(q(body, '#main')).toEqual(['Main']);
    expect(q(body, '.big')).toEqual(['Main']);
    expect(q(body, '[class=big]')).toEqual([]); // an attribute selector is not a class selector
    expect(q(`<!DOCTYPE html>${body}`, '#main, .big')).toEqual([]);
    expect(q(`<!DOCTYPE html>${body}`, '#Main.Big')).toEqual(['Main']);
  });
});

describe('namespaces', () => {
  it('*|x, |x, and an undeclared prefix', () => {
    const doc = parse('<!DOCTYPE html><svg><a id=svga></a></svg><a id=htmla></a>');
    const bare = doc.createElementNS(null, 'a');
    bare.setAttribute('id', 'bare');
    doc.body!.appendChild(bare);
    expect(ids(doc.querySelectorAll('a'))).toEqual(['svga', 'htmla', 'bare']);
    expect(ids(doc.querySelectorAll('*|a'))).toEqual(['svga', 'htmla', 'bare']);
    expect(ids(doc.querySelectorAll('|a'))).toEqual(['bare']);
    expect(ids(doc.querySelectorAll('|*'))).toEqual(['bare']);
    expect(() => doc.querySelectorAll('svg|a')).toThrow(/namespace prefix "svg\|"/);
  });
  it('[*|attr] matches namespaced attributes, [attr] only those in no namespace', () => {
    const html = '<!DOCTYPE html><svg><a id=x xlink:href=#y></a></svg>';
    expect(q(html, '[*|href]')).toEqual(['x']);
    expect(q(html, '[href]')).toEqual([]);
  });
});

describe('structural pseudo-classes', () => {
  const list = '<!DOCTYPE html><ul><li id=l1 class=x></li><li id=l2></li><li id=l3 class=x></li><li id=l4></li><li id=l5 class=x></li></ul>';
  it(':nth-child and friends', () => {
    expect(q(list, 'li:nth-child(2n+1)')).toEqual(['l1', 'l3', 'l5']);
    expect(q(list, 'li:nth-child(even)')).toEqual(['l2', 'l4']);
    expect(q(list, 'li:nth-child(-n+2)')).toEqual(['l1', 'l2']);
    expect(q(list, 'li:nth-last-child(2)')).toEqual(['l4']);
    expect(q(list, 'li:nth-child(2 of .x)')).toEqual(['l3']);
    expect(q(list, 'li:nth-last-child(1 of .x)')).toEqual(['l5']);
    expect(q(list, 'li:nth-child( 2n + 1 of :not(.x))')).toEqual(['l2']);
    expect(q(list, 'li:first-child, li:last-child')).toEqual(['l1', 'l5']);
    expect(q(list, 'li:only-child')).toEqual([]);
    expect(q('<!DOCTYPE html><p><b id=b></b></p>', 'b:only-child')).toEqual(['b']);
  });
  it('of-type variants count siblings of the same name', () => {
    const html = '<!DOCTYPE html><div><p id=p1></p><b id=b1></b><p id=p2></p><i id=i1></i><p id=p3></p></div>';
    expect(q(html, 'p:nth-of-type(2)')).toEqual(['p2']);
    expect(q(html, 'p:nth-last-of-type(1)')).toEqual(['p3']);
    expect(q(html, 'div > :first-of-type')).toEqual(['p1', 'b1', 'i1']);
    expect(q(html, 'div > :last-of-type')).toEqual(['b1', 'i1', 'p3']);
    expect(q(html, 'div > :only-of-type')).toEqual(['b1', 'i1']);
  });
  it(':root, :empty', () => {
    const doc = parse('<!DOCTYPE html><p id=a></p><p id=b> </p><p id=c><!--x--></p>');
    expect(doc.querySelectorAll(':root')).toEqual([doc.documentElement]);
    expect(ids(doc.querySelectorAll('p:empty'))).toEqual(['a', 'c']);
  });
});

describe(':is, :where, :not with lists', () => {
  const html = '<!DOCTYPE html><h1 id=h1></h1><h2 id=h2></h2><p id=p class=x></p><div id=d><p id=dp></p></div>';
  it('match any of the list; :not none of it', () => {
    expect(q(html, ':is(h1, h2)')).toEqual(['h1', 'h2']);
    expect(q(html, ':where(div, h2) p, :where(#h1)')).toEqual(['h1', 'dp']);
    expect(q(html, 'body > :not(h1, .x, div)')).toEqual(['h2']);
    expect(q(html, ':is(div p)')).toEqual(['dp']);
    expect(q(html, 'p:not(div > p)')).toEqual(['p']);
  });
  it(':is and :where forgive invalid parts (Selectors 4 §3.5); :not does not', () => {
    expect(q(html, ':is(h1, !!, .1)')).toEqual(['h1']);
    expect(q(html, ':is()')).toEqual([]);
    expect(q(html, ':where(p::before, #h2)')).toEqual(['h2']);
    expect(q(html, 'div :is(:foo, p)')).toEqual(['dp']);
    expect(() => parse(html).querySelectorAll(':not(h1, !!)')).toThrow(expect.objectContaining({ name: 'SyntaxError' }));
  });
});

describe(':has with relative selectors', () => {
  const html = '<!DOCTYPE html><div id=d1><a id=a1></a></div><div id=d2><p id=p><a id=a2></a></p></div><b id=b1></b><i id=i1></i><b id=b2></b>';
  it('descendant, child, next-sibling, subsequent-sibling', () => {
    expect(q(html, 'div:has(a)')).toEqual(['d1', 'd2']);
    expect(q(html, 'div:has(> a)')).toEqual(['d1']);
    expect(q(html, 'div:has(> p a)')).toEqual(['d2']);
    expect(q(html, 'b:has(+ i)')).toEqual(['b1']);
    expect(q(html, 'b:has(~ b)')).toEqual(['b1']);
    expect(q(html, 'div:has(+ div > p)')).toEqual(['d1']);
    expect(q(html, 'div:has(~ b + i)')).toEqual(['d1', 'd2']);
    expect(q(html, ':has(p, i)')).toEqual(['html', 'body', 'd2']);
    expect(q(html, 'div:not(:has(p))')).toEqual(['d1']);
  });
  it('a relative selector stays inside the anchor', () => {
    // `:has(div a)`: the div must be below the anchor too, not the anchor or above it.
    expect(q(html, 'div:has(div a)')).toEqual([]);
    expect(q(html, 'body:has(div a)')).toEqual(['body']);
  });
  it('the same answers for matches(), which has no per-query cache', () => {
    const doc = parse(html);
    for (const s of ['div:has(a)', ':has(p, i)', 'div:not(:has(p))']) {
      const all = [...doc.querySelectorAll('*')];
      expect(all.filter((e) => e.matches(s))).toEqual(doc.querySelectorAll(s));
    }
  });
});

describe(':scope', () => {
  const doc = parse('<!DOCTYPE html><div id=outer><div id=inner><p id=p></p></div></div>');
  const outer = doc.getElementById('outer')!;
  it('is the element queried from, the root element for a document, nothing for a fragment', () => {
    expect(ids(outer.querySelectorAll(':scope > div'))).toEqual(['inner']);
    expect(ids(outer.querySelectorAll(':scope div'))).toEqual(['inner']);
    expect(ids(outer.querySelectorAll('div div'))).toEqual(['inner']); // no :scope: ancestors outside count
    expect(ids(outer.querySelectorAll(':scope'))).toEqual([]); // only descendants are returned
    expect(doc.querySelectorAll(':scope')).toEqual([doc.documentElement]);
    const frag = parseFragment('<div><p></p></div>');
    expect(frag.querySelectorAll(':scope > div')).toEqual([]);
    expect(frag.querySelectorAll(':first-child').map((e) => e.localName)).toEqual(['div', 'p']);
  });
  it('is the element for matches() and closest()', () => {
    const p = doc.getElementById('p')!;
    expect(p.matches(':scope')).toBe(true);
    expect(p.closest(':scope')).toBe(p);
    expect(doc.getElementById('inner')!.matches('#outer > :scope')).toBe(true);
    expect(p.closest('div:has(> :scope)')!.id).toBe('inner');
  });
});

describe('links, form states, custom elements (HTML §4.16.3)', () => {
  it(':link and :any-link: a and area with href (and img[usemap], SVG a[href], as in Chromium)', () => {
    const html = '<!DOCTYPE html><a id=a1 href=x></a><a id=a2></a><area id=ar href=y><link id=l href=z><img id=im usemap=#m><svg><a id=sa href=q></a></svg>';
    expect(q(html, ':link')).toEqual(['a1', 'ar', 'im', 'sa']);
    expect(q(html, ':any-link')).toEqual(['a1', 'ar', 'im', 'sa']);
  });
  it(':checked: checkboxes, the last checked radio of a group, selected options', () => {
    const html =
      '<!DOCTYPE html><input id=c1 type=CHECKBOX checked><input id=c2 type=checkbox><input id=t type=text checked>' +
      '<input id=r1 type=radio name=g checked><input id=r2 type=radio name=g checked><input id=r3 type=radio name=h checked>' +
      '<form><input id=r4 type=radio name=g checked></form>' +
      '<select><option id=o1>a<option id=o2>b</select><select><option id=o3>c<option id=o4 selected>d</select>' +
      '<select multiple><option id=o5>e</select><select><option id=o6 disabled>f<option id=o7>g</select>';
    expect(q(html, ':checked')).toEqual(['c1', 'r2', 'r3', 'r4', 'o1', 'o4', 'o7']);
  });
  it(':disabled and :enabled, fieldsets and their first legend, optgroups', () => {
    const html =
      '<!DOCTYPE html><fieldset id=f disabled><legend id=lg><input id=i1></legend><legend><input id=i2></legend><input id=i3>' +
      '<fieldset id=f2><button id=bt></button></fieldset></fieldset><input id=i4 disabled><textarea id=ta></textarea>' +
      '<select id=s><optgroup id=og disabled><option id=o1></optgroup><option id=o2></select><p id=p></p>';
    expect(q(html, ':disabled')).toEqual(['f', 'i2', 'i3', 'f2', 'bt', 'i4', 'og', 'o1']);
    expect(q(html, ':enabled')).toEqual(['i1', 'ta', 's', 'o2']);
  });
  it(':required, :optional, :read-write, :read-only, :placeholder-shown (answers taken from Chromium)', () => {
    const html =
      '<!DOCTYPE html><form><input id=a required><input id=b type=checkbox required><input id=c type=hidden required><input id=d type=range><select id=e required></select><textarea id=f></textarea><input id=g readonly><input id=h disabled><input id=i type=number><input id=j type=button><textarea id=k readonly></textarea><textarea id=l disabled></textarea><input id=m type=TEXT placeholder=x><input id=n placeholder=x value=v><input id=o placeholder=""><input id=p type=checkbox placeholder=x><textarea id=q placeholder=y></textarea><textarea id=r placeholder=y>t</textarea><input id=s type=bogus required placeholder=z><button id=t required></button></form><div id=u contenteditable><p id=v>x<span id=w contenteditable=false><b id=x>y</b></span></p></div><div id=y contenteditable=PLAINTEXT-ONLY></div><div id=z contenteditable=bogus></div><svg id=sv></svg><fieldset disabled><input id=fi></fieldset>';
    expect(q(html, ':required')).toEqual(['a', 'b', 'e', 's']);
    expect(q(html, ':optional')).toEqual(['c', 'd', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 't', 'fi']);
    expect(q(html, ':read-write')).toEqual(['a', 'f', 'i', 'm', 'n', 'o', 'q', 'r', 's', 'u', 'v', 'y']);
    expect(q(html, ':read-only')).toEqual(['html', 'head', 'body', 'form', 'b', 'c', 'd', 'e', 'g', 'h', 'j', 'k', 'l', 'p', 't', 'w', 'x', 'z', 'fieldset', 'fi']);
    expect(q(html, ':placeholder-shown')).toEqual(['m', 'o', 'q', 's']);
  });
  it(':defined: not an element with a custom element name or an is attribute', () => {
    const html = '<!DOCTYPE html><x-y id=xy></x-y><button id=b is=my-button></button><fb:like-box id=fb></fb:like-box><font-face id=ff></font-face><svg><x-z id=xz></x-z></svg>';
    expect(q(html, 'body :not(:defined)')).toEqual(['xy', 'b', 'fb']);
    expect(q(html, 'body :defined')).toEqual(['ff', 'svg', 'xz']);
  });
});

describe('what matches nothing, and what throws', () => {
  const doc = parse('<!DOCTYPE html><p><a href=x>y</a></p>');
  it('user-action pseudo-classes and pseudo-elements are valid and match nothing (as in Chromium)', () => {
    for (const s of ['a:hover', 'a:visited', ':focus', ':active', ':target', 'p::before', 'p:first-line', '::selection', ':host', '::slotted(p)']) {
      expect(doc.querySelectorAll(s), s).toEqual([]);
    }
  });
  it('an invalid selector throws a SyntaxError DOMException that names it', () => {
    for (const s of ['', ' ', '#1', '.1a', '1a', '[a=1]', 'p::foo', ':foo', 'div,', '> p', 'a||b', ':has(:has(a))', ':nth-child(+ 2n)', ':not()', '[a!=b]', ':has()', 'a:hover()', '::before p', '[a=b x]', 'p )', '[a']) {
      let error: unknown = null;
      try {
        doc.querySelectorAll(s);
      } catch (e) {
        error = e;
      }
      expect(error, s).toBeInstanceOf(DOMException);
      expect((error as DOMException).name, s).toBe('SyntaxError');
      expect((error as DOMException).message, s).toContain(`'${s}' is not a valid selector`);
    }
    expect(() => doc.querySelector('p::foo')).toThrow(/Failed to execute 'querySelector' on 'Document': 'p::foo' is not a valid selector: the pseudo-element "::foo" is unknown/);
    expect(() => doc.body!.matches(':foo')).toThrow(/'matches' on 'Element'/);
    expect(() => doc.body!.closest('[')).toThrow(/'closest' on 'Element'/);
  });
  it('a valid pseudo-class sluice does not evaluate throws a NotSupportedError naming it', () => {
    expect(() => doc.querySelectorAll('p:lang(en)')).toThrow(expect.objectContaining({ name: 'NotSupportedError' }));
    expect(() => doc.querySelectorAll(':is(:valid)')).toThrow(/":valid"/);
  });
});

describe('template contents', () => {
  const doc = parse('<!DOCTYPE html><template id=t><p id=inside><b></b></p></template><p id=outside></p>');
  it('are not descendants: a query from the document does not enter them', () => {
    expect(ids(doc.querySelectorAll('p'))).toEqual(['outside']);
    expect(doc.querySelector('#inside')).toBeNull();
    expect(doc.querySelectorAll('template:empty').length).toBe(1);
    expect(doc.querySelectorAll('template:has(p)')).toEqual([]);
  });
  it('a query from the content fragment finds them', () => {
    const t = doc.getElementById('t') as HTMLTemplateElement;
    expect(ids(t.content.querySelectorAll('p'))).toEqual(['inside']);
    expect(t.content.querySelector('p > b')!.localName).toBe('b');
    expect(t.content.querySelector('template p')).toBeNull(); // the template is not an ancestor
  });
});

describe('matches and closest, on attached and detached elements', () => {
  it('detached elements match what depends on themselves and their detached ancestors', () => {
    const doc = new Document();
    const div = doc.createElement('div');
    div.className = 'a';
    const span = div.appendChild(doc.createElement('span'));
    expect(div.matches('div.a')).toBe(true);
    expect(div.matches(':root')).toBe(false);
    expect(div.matches(':first-child:last-child:only-child')).toBe(true);
    expect(span.matches('.a > span')).toBe(true);
    expect(span.closest('.a')).toBe(div);
    expect(span.closest('p')).toBeNull();
    expect(div.matches(':has(> span)')).toBe(true);
    expect(span.closest(':has(span)')).toBe(div);
    expect(div.webkitMatchesSelector('div')).toBe(true);
  });
  it('closest starts at the element itself', () => {
    const doc = parse('<!DOCTYPE html><section><div><p>x</p></div></section>');
    const p = doc.querySelector('p')!;
    expect(p.closest('p')).toBe(p);
    expect(p.closest('section > div')!.localName).toBe('div');
    expect(p.closest('body > *')!.localName).toBe('section');
  });
});

describe('getElementsByClassName, getElementById, getElementsByTagName', () => {
  it('class names: every one, whitespace-separated; case-insensitive only in quirks mode', () => {
    const html = '<p id=a class="x y"></p><p id=b class="X"></p><svg class="x y" id=s></svg>';
    expect(ids(parse(html).getElementsByClassName(' y  x '))).toEqual(['a', 's']);
    expect(ids(parse(html).getElementsByClassName('x'))).toEqual(['a', 'b', 's']); // quirks
    expect(ids(parse(`<!DOCTYPE html>${html}`).getElementsByClassName('x'))).toEqual(['a', 's']);
    expect(parse(html).getElementsByClassName('  ')).toEqual([]);
    const doc = parse(`<!DOCTYPE html>${html}`);
    expect(ids(doc.body!.getElementsByClassName('y'))).toEqual(['a', 's']);
  });
  it('getElementById and getElementsByTagName', () => {
    const doc = parse('<!DOCTYPE html><p id=a></p><svg><foreignObject id=f></foreignObject></svg><P id=a></P>');
    expect(doc.getElementById('a')).toBe(doc.querySelector('p'));
    expect(parse('<p id="">').getElementById('')).toBeNull(); // an empty id is no ID (DOM §4.9)
    expect(doc.getElementsByTagName('P').length).toBe(2);
    expect(ids(doc.getElementsByTagName('foreignObject'))).toEqual(['f']);
    expect(doc.getElementsByTagName('foreignobject')).toEqual([]);
  });
});

describe('document.title, head, body, documentElement (HTML §3.1.3)', () => {
  it('title: the first title element, whitespace stripped and collapsed', () => {
    const doc = parse('<!DOCTYPE html><title>\n  A \t  B  </title><body><title>second</title>');
    expect(doc.title).toBe('A B');
    doc.title = 'New  one';
    expect(doc.querySelector('title')!.textContent).toBe('New  one');
    expect(doc.title).toBe('New one');
  });
  it('setting the title makes a title in head when there is none; nothing without a head', () => {
    const doc = parse('<!DOCTYPE html><p>x');
    expect(doc.title).toBe('');
    doc.title = 'T';
    expect(doc.head!.lastElementChild!.outerHTML).toBe('<title>T</title>');
    const empty = new Document();
    empty.title = 'ignored';
    expect(empty.title).toBe('');
  });
  it('an SVG document: the svg root\'s title child', () => {
    const doc = new Document();
    const svg = doc.appendChild(doc.createElementNS(NS.SVG, 'svg'));
    expect(doc.title).toBe('');
    doc.title = ' S ';
    expect(svg.firstChild!.nodeName).toBe('title');
    expect(doc.title).toBe('S');
  });
  it('head, body and documentElement', () => {
    const doc = parse('<!DOCTYPE html><p>');
    expect(doc.documentElement!.localName).toBe('html');
    expect(doc.head!.localName).toBe('head');
    expect(doc.body!.localName).toBe('body');
    expect(parse('<frameset></frameset>').body!.localName).toBe('frameset');
    expect(new Document().body).toBeNull();
  });
});

describe('100,000 deep', () => {
  const depth = 100_000;
  const doc = parse(`<!DOCTYPE html>${'<div>'.repeat(depth)}<span>x</span>`);
  const span = doc.querySelector('span')!;
  it('div div, div > div, :has(span), closest — no stack overflow, no quadratic walk', () => {
    expect(doc.querySelectorAll('div div').length).toBe(depth - 1);
    expect(doc.querySelectorAll('body > div > div').length).toBe(1);
    expect(doc.querySelectorAll('div:has(span)').length).toBe(depth);
    expect(doc.querySelectorAll('div:has(> span)').length).toBe(1);
    expect(doc.querySelectorAll('span:not(p span)').length).toBe(1);
    expect(doc.querySelectorAll('p div').length).toBe(0);
    expect(span.closest('body > div')).toBe(doc.body!.firstElementChild);
    expect(span.closest(':has(> div)')).toBe(span.parentElement!.parentElement);
    expect(span.matches('body span')).toBe(true);
    expect(span.closest('p')).toBeNull();
  });
});

describe('long runs of siblings', () => {
  // A bulk query counts a long run of siblings once (see match.ts `position`); matches() walks them.
  const n = 5000;
  let html = '<!DOCTYPE html><ul>';
  for (let i = 1; i <= n; i++) html += i % 3 === 0 ? `<li class=x id=l${i}></li>` : i % 3 === 1 ? `<b id=l${i}></b>` : `<li id=l${i}></li>`;
  const doc = parse(`${html}</ul>`);
  const all = doc.querySelectorAll('*');
  it('the cached positions and :has() marks give what matches() gives, element by element', () => {
    for (const s of ['li:last-child', ':nth-last-child(2)', 'li:nth-of-type(7)', 'b:nth-last-of-type(3n+1)', ':only-of-type', ':nth-child(4 of .x)', ':nth-last-child(2 of li)', 'li:nth-child(3n)', 'li:has(~ b)', 'b:has(+ li.x)', ':has(> .x)', 'ul:has(b)']) {
      expect(ids(doc.querySelectorAll(s)), s).toEqual(ids(all.filter((e) => e.matches(s))));
    }
    expect(ids(doc.querySelectorAll(':nth-child(4 of .x)'))).toEqual(['l12']);
    expect(ids(doc.querySelectorAll('li:last-child'))).toEqual([`l${n}`]);
  });
});
