// classList (DOM §7.1 DOMTokenList, with the ordered set parser/serializer of §1.3) and dataset
// (HTML §3.2.6.6, DOMStringMap).
import { describe, expect, it } from 'vitest';
import { NS } from '@sluice/tree-builder';
import { DOMStringMap, DOMTokenList, Document, parse } from '../src/index.js';
import { expectError } from './helpers.js';

const span = (cls?: string) => {
  const el = new Document().createElement('span');
  if (cls !== undefined) el.setAttribute('class', cls);
  return el;
};

describe('classList', () => {
  it('is a live ordered set parsed from the class attribute, the same object each time', () => {
    const el = span('  a  a b\tc\n');
    const list = el.classList;
    expect(list).toBeInstanceOf(DOMTokenList);
    expect(el.classList).toBe(list);
    expect(list.length).toBe(3);
    expect([list[0], list[1], list[2], list[3]]).toEqual(['a', 'b', 'c', undefined]);
    expect([list.item(0), list.item(2), list.item(3), list.item(-1)]).toEqual(['a', 'c', null, null]);
    expect([...list]).toEqual(['a', 'b', 'c']);
    expect([...list.keys()]).toEqual([0, 1, 2]);
    expect([...list.entries()]).toEqual([[0, 'a'], [1, 'b'], [2, 'c']]);
    const seen: string[] = [];
    list.forEach((t, i) => seen.push(`${i}:${t}`));
    expect(seen).toEqual(['0:a', '1:b', '2:c']);
    expect(Object.keys(list)).toEqual(['0', '1', '2']);
    expect(1 in list).toBe(true);
    expect(3 in list).toBe(false);
    // value is the attribute as written, not normalized.
    expect(list.value).toBe('  a  a b\tc\n');
    expect(String(list)).toBe('  a  a b\tc\n');
    expect(list.contains('a')).toBe(true);
    expect(list.contains('a ')).toBe(false);
    // Live: follows setAttribute and className.
    el.className = 'x';
    expect([...list]).toEqual(['x']);
    el.removeAttribute('class');
    expect(list.length).toBe(0);
    expect(list.value).toBe('');
  });

  it('add and remove write the attribute back normalized (the update steps)', () => {
    const el = span('  a  a b ');
    el.classList.add();
    expect(el.getAttribute('class')).toBe('a b');
    el.classList.add('c', 'a', 'd', 'c');
    expect(el.getAttribute('class')).toBe('a b c d');
    el.classList.remove('a', 'zz', 'c');
    expect(el.getAttribute('class')).toBe('b d');
    el.classList.remove('b', 'd');
    expect(el.getAttribute('class')).toBe(''); // the attribute stays, empty
  });

  it('does not create the attribute when it was absent and nothing is added', () => {
    const el = span();
    el.classList.remove('a');
    expect(el.hasAttribute('class')).toBe(false);
    expect(el.classList.toggle('a', false)).toBe(false);
    expect(el.hasAttribute('class')).toBe(false);
    el.classList.add();
    expect(el.hasAttribute('class')).toBe(false);
    expect(el.classList.replace('a', 'b')).toBe(false);
    expect(el.hasAttribute('class')).toBe(false);
    el.classList.add('a');
    expect(el.outerHTML).toBe('<span class="a"></span>');
  });

  it('toggle with and without force', () => {
    const el = span('a b');
    expect(el.classList.toggle('a')).toBe(false);
    expect(el.className).toBe('b');
    expect(el.classList.toggle('a')).toBe(true);
    expect(el.className).toBe('b a');
    expect(el.classList.toggle('a', true)).toBe(true);
    expect(el.className).toBe('b a');
    expect(el.classList.toggle('b', false)).toBe(false);
    expect(el.className).toBe('a');
    expect(el.classList.toggle('c', true)).toBe(true);
    expect(el.className).toBe('a c');
    // Present with force true: no update steps, the value is left as written.
    const raw = span(' a  a ');
    expect(raw.classList.toggle('a', true)).toBe(true);
    expect(raw.getAttribute('class')).toBe(' a  a ');
  });

  it('replace keeps the position of the first of either token and drops the other copies', () => {
    const el = span('a b c');
    expect(el.classList.replace('a', 'z')).toBe(true);
    expect(el.className).toBe('z b c');
    expect(el.classList.replace('b', 'c')).toBe(true); // c already there: the first of b/c becomes c
    expect(el.className).toBe('z c');
    expect(el.classList.replace('c', 'z')).toBe(true);
    expect(el.className).toBe('z');
    expect(el.classList.replace('nope', 'y')).toBe(false);
    expect(el.className).toBe('z');
  });

  it('throws SyntaxError for an empty token and InvalidCharacterError for whitespace, before changing anything', () => {
    const el = span('a');
    expectError(() => el.classList.add('b', ''), 'SyntaxError', /^DOMTokenList\.add: the token is empty/);
    expectError(() => el.classList.add('b', 'c d'), 'InvalidCharacterError', /^DOMTokenList\.add: the token "c d" contains ASCII whitespace/);
    expect(el.className).toBe('a');
    expectError(() => el.classList.remove(''), 'SyntaxError', /remove/);
    expectError(() => el.classList.remove('a\t'), 'InvalidCharacterError', /remove/);
    expectError(() => el.classList.toggle(''), 'SyntaxError', /toggle/);
    expectError(() => el.classList.toggle('a\nb'), 'InvalidCharacterError', /toggle/);
    expectError(() => el.classList.replace('', 'x'), 'SyntaxError', /replace/);
    expectError(() => el.classList.replace('a', 'x y'), 'InvalidCharacterError', /replace/);
    expect(el.classList.contains('')).toBe(false); // contains does not validate
    // Non-ASCII whitespace is part of a token.
    el.classList.add('a\u00a0b');
    expect(el.classList.length).toBe(2);
  });

  it('supports throws a TypeError: class defines no supported tokens', () => {
    expect(() => span('a').classList.supports('a')).toThrow(TypeError);
    expect(() => span('a').classList.supports('a')).toThrow(/class attribute defines no supported tokens/);
  });

  it('value and assigning classList set the attribute; works on SVG elements', () => {
    const el = span();
    el.classList.value = '  x  y ';
    expect(el.getAttribute('class')).toBe('  x  y ');
    (el as unknown as { classList: string }).classList = 'p q';
    expect(el.getAttribute('class')).toBe('p q');
    const svg = new Document().createElementNS(NS.SVG, 'rect');
    svg.classList.add('r');
    expect(svg.outerHTML).toBe('<rect class="r"></rect>');
  });

  it('reads parsed attributes, including undecoded ones', () => {
    const doc = parse('<p class="one two  one">');
    const p = doc.getElementsByTagName('p')[0];
    expect([...p.classList]).toEqual(['one', 'two']);
    p.classList.toggle('two');
    expect(p.outerHTML).toBe('<p class="one"></p>');
  });
});

describe('dataset', () => {
  it('follows the HTML Standard example (the tower)', () => {
    const doc = parse('<img class="tower" id="tower5" data-x="12" data-y="5" data-ai="robotarget" data-hp="46" data-ability="flames" src="towers/rocket.png" alt="Rocket Tower">');
    const node = doc.getElementById('tower5')!;
    // function splashDamage(node, x, y, damage) from the standard, run with (node, 12, 5, 50):
    const [x, y, damage] = [12, 5, 50];
    expect(node.classList.contains('tower')).toBe(true);
    expect(Number(node.dataset.x) === x && Number(node.dataset.y) === y).toBe(true);
    let hp = parseInt(node.dataset.hp!, 10);
    hp = hp - damage;
    if (hp < 0) {
      hp = 0;
      node.dataset.ai = 'dead';
      delete node.dataset.ability;
    }
    node.dataset.hp = String(hp);
    expect(node.outerHTML).toBe('<img class="tower" id="tower5" data-x="12" data-y="5" data-ai="dead" data-hp="0" src="towers/rocket.png" alt="Rocket Tower">');
  });

  it('maps camelCase names to data- attributes and back', () => {
    const el = new Document().createElement('div');
    const ds = el.dataset;
    expect(ds).toBeInstanceOf(DOMStringMap);
    expect(el.dataset).toBe(ds);
    ds.fooBar = 'x';
    expect(el.getAttribute('data-foo-bar')).toBe('x');
    ds.Foo = 'y'; // an upper-case first letter: data--foo
    expect(el.getAttribute('data--foo')).toBe('y');
    expect(ds.Foo).toBe('y');
    ds.a1 = '1';
    expect(el.hasAttribute('data-a1')).toBe(true);
    el.setAttribute('data-two-words-here', 'w');
    el.setAttribute('data-Upper', 'ignored'); // lowercased by setAttribute on an HTML element: data-upper
    el.setAttribute('title', 'not data');
    expect(ds.twoWordsHere).toBe('w');
    expect(ds.upper).toBe('ignored');
    expect(Object.keys(ds)).toEqual(['fooBar', 'Foo', 'a1', 'twoWordsHere', 'upper']);
    expect({ ...ds }).toEqual({ fooBar: 'x', Foo: 'y', a1: '1', twoWordsHere: 'w', upper: 'ignored' });
    expect('fooBar' in ds).toBe(true);
    expect('foo-bar' in ds).toBe(false);
    expect(ds['foo-bar']).toBeUndefined();
    expect(ds.missing).toBeUndefined();
    ds.num = 5 as unknown as string;
    expect(el.getAttribute('data-num')).toBe('5');
  });

  it('skips attributes with upper-case letters after data- (possible on non-HTML elements)', () => {
    const el = new Document().createElementNS(NS.SVG, 'g');
    el.setAttribute('data-Camel', '1'); // SVG: not lowercased
    el.setAttribute('data-ok', '2');
    expect(Object.keys(el.dataset)).toEqual(['ok']);
  });

  it('throws SyntaxError for "-" followed by a lowercase letter, InvalidCharacterError for a bad name', () => {
    const el = new Document().createElement('div');
    expectError(() => (el.dataset['foo-bar'] = 'x'), 'SyntaxError', /^dataset: "foo-bar" has a "-" followed by a lowercase letter/);
    expectError(() => (el.dataset['a b'] = 'x'), 'InvalidCharacterError', /^dataset: "data-a b" is not a valid attribute name/);
    el.dataset['foo-1'] = 'ok'; // "-" followed by a digit is fine
    expect(el.getAttribute('data-foo-1')).toBe('ok');
    expect(el.hasAttributes()).toBe(true);
  });

  it('delete removes the attribute; deleting a missing name does nothing', () => {
    const el = new Document().createElement('div');
    el.setAttribute('data-foo-bar', '1');
    el.setAttribute('id', 'i');
    expect(delete el.dataset.fooBar).toBe(true);
    expect(el.hasAttribute('data-foo-bar')).toBe(false);
    expect(delete el.dataset.nothing).toBe(true);
    expect(el.outerHTML).toBe('<div id="i"></div>');
  });
});
