import { describe, expect, it } from 'vitest';
import {
  InvalidSelectorError,
  attributeMatches,
  htmlAttributeMatches,
  includesWord,
  nthMatches,
  parseNth,
  parseSelectorList,
  startsIdent,
  typeMatches,
  type AttributeTest,
} from '../src/index.js';

const HTML = 'http://www.w3.org/1999/xhtml';
const SVG = 'http://www.w3.org/2000/svg';

function invalid(selector: string): string {
  try {
    parseSelectorList(selector);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidSelectorError);
    expect((e as InvalidSelectorError).name).toBe('SyntaxError');
    expect((e as InvalidSelectorError).selector).toBe(selector);
    return (e as InvalidSelectorError).detail;
  }
  throw new Error(`${selector} parsed`);
}

describe('parseSelectorList: the compiled form', () => {
  it('compounds and combinators, left to right', () => {
    const [c] = parseSelectorList('DIV.a > p + b ~ i [x]');
    expect(c!.combinators).toEqual(['child', 'adjacent', 'sibling', 'descendant']);
    expect(c!.compounds.map((x) => x.tagLower)).toEqual(['div', 'p', 'b', 'i', null]);
    expect(c!.compounds[0]!.tag).toBe('DIV');
    expect(c!.compounds[0]!.attributes[0]).toMatchObject({ nameLower: 'class', operator: 'includes', value: 'a', caseMode: 'quirks' });
  });
  it('attribute operators, flags and namespaces', () => {
    const [c] = parseSelectorList('[a][b=v][c~=v][d|=v][e^=v][f$=v][g*=V i][h=v s][*|k][|l]');
    const tests = c!.compounds[0]!.attributes;
    expect(tests.map((t) => t.operator)).toEqual(['exists', 'equals', 'includes', 'dash', 'prefix', 'suffix', 'substring', 'equals', 'exists', 'exists']);
    expect(tests.map((t) => t.caseMode)).toEqual(['default', 'default', 'default', 'default', 'default', 'default', 'i', 's', 'default', 'default']);
    expect(tests[6]!.valueLower).toBe('v');
    expect(tests[8]!.anyNamespace).toBe(true);
    expect(tests[9]!.anyNamespace).toBe(false);
    expect(parseSelectorList('|a')[0]!.compounds[0]!.namespace).toBe('none');
    expect(parseSelectorList('*|a')[0]!.compounds[0]!.namespace).toBe('any');
  });
  it('pseudo-classes, with their names as written', () => {
    const pseudos = parseSelectorList(':first-child:last-child:only-child:nth-last-of-type(2n):nth-child(odd of p, .x):has(> a, + b):hover::before')[0]!
      .compounds[0]!.pseudos;
    expect(pseudos.map((p) => `${p.kind} ${p.name}`)).toEqual([
      'nth-child :first-child', 'nth-child :last-child', 'only-child :only-child', 'nth-of-type :nth-last-of-type()',
      'nth-child :nth-child()', 'has :has()', 'never :hover', 'never ::before',
    ]);
    expect(pseudos[3]).toMatchObject({ a: 2, b: 0, last: true });
    const nth = pseudos[4] as Extract<(typeof pseudos)[number], { kind: 'nth-child' }>;
    expect(nth.of!.length).toBe(2);
    const has = pseudos[5] as Extract<(typeof pseudos)[number], { kind: 'has' }>;
    expect(has.relatives.map((r) => r.combinator)).toEqual(['child', 'adjacent']);
    expect(parseSelectorList(':link')[0]!.compounds[0]!.pseudos[0]!.kind).toBe('any-link');
    expect(parseSelectorList(':lang(en)')[0]!.compounds[0]!.pseudos[0]).toMatchObject({ kind: 'unsupported', name: ':lang()' });
  });
  it('the same text gives the same object (cached); a form gives a new one', () => {
    expect(parseSelectorList('p.x')).toBe(parseSelectorList('p.x'));
    const upper = parseSelectorList('p.x', { form: (s) => s.toUpperCase() });
    expect(upper[0]!.compounds[0]!.tag).toBe('P');
    expect(upper[0]!.compounds[0]!.attributes[0]!.value).toBe('X');
  });
});

describe('parseSelectorList: what browsers reject', () => {
  it('names that are not identifiers (css-what would accept them)', () => {
    expect(invalid('#1')).toMatch(/ID selector/);
    expect(invalid('.1a')).toMatch(/class selector/);
    expect(invalid('.-1')).toMatch(/class selector/);
    expect(invalid('1a')).toMatch(/type selector/);
    expect(invalid('[1a]')).toMatch(/attribute name/);
    expect(invalid('[a=1]')).toMatch(/attribute value/);
    expect(() => parseSelectorList('.\\31 a, #-a, .--b, [a="1"], [a=-x]')).not.toThrow();
  });
  it('structure', () => {
    expect(invalid('')).toMatch(/empty/);
    expect(invalid('a,,b')).toMatch(/empty selector/);
    expect(invalid('div,')).toMatch(/empty selector/);
    expect(invalid('> a')).toMatch(/leading combinator ">"/);
    expect(invalid('a >')).toMatch(/ends with a combinator/);
    expect(invalid('a || b')).toMatch(/"\|\|"/);
    expect(invalid('[a]div')).toMatch(/must come first/);
    expect(invalid('::before p')).toMatch(/end of the selector/);
    expect(invalid('p::before.x')).toMatch(/must end its compound/);
  });
  it('pseudo-classes and elements', () => {
    expect(invalid(':foo')).toMatch(/":foo" is unknown/);
    expect(invalid('::foo')).toMatch(/"::foo" is unknown/);
    expect(invalid(':hover()')).toMatch(/":hover\(\)" is unknown/);
    expect(invalid(':first-child(2)')).toMatch(/takes no argument/);
    expect(invalid(':not()')).toMatch(/empty/);
    expect(invalid(':has()')).toMatch(/empty|relative/);
    expect(invalid(':has(:has(a))')).toMatch(/cannot be nested/);
    expect(invalid(':has(::before)')).toMatch(/not allowed in :has/);
    expect(invalid(':nth-child(x)')).toMatch(/is not An\+B/);
    expect(invalid(':nth-child(+ 2n)')).toMatch(/is not An\+B/);
    expect(invalid(':nth-of-type(2 of p)')).toMatch(/is not An\+B/);
    expect(invalid(':nth-child(2n of)')).toMatch(/nth-child/);
  });
  it('attributes and namespaces', () => {
    expect(invalid('[a!=b]')).toMatch(/"!="/);
    expect(invalid('svg|a')).toMatch(/namespace prefix "svg\|"/);
    expect(invalid('[xlink|href]')).toMatch(/namespace prefix "xlink\|"/);
    expect(invalid('[a=b x]')).toBeTruthy();
  });
});

describe('forgiving :is() and :where()', () => {
  it('drops the parts that do not parse; an empty argument matches nothing', () => {
    const is = (s: string) => parseSelectorList(s)[0]!.compounds[0]!.pseudos[0]!;
    expect(is(':is(a, !!, .1)')).toMatchObject({ kind: 'is', list: [{ compounds: [{ tagLower: 'a' }] }] });
    expect(is(':where()')).toMatchObject({ kind: 'not', list: [{ compounds: [{ tagLower: null, attributes: [], pseudos: [] }] }] });
    expect(is(':is(p::before, b)')).toMatchObject({ kind: 'is', list: [{ compounds: [{ tagLower: 'b' }] }] });
    expect(is(':is(:is(!!), i)')).toMatchObject({ kind: 'is', list: [{ compounds: [{ pseudos: [{ kind: 'not' }] }] }, { compounds: [{ tagLower: 'i' }] }] });
    expect(invalid(':not(a, !!)')).toBeTruthy();
    expect(invalid(':is(a')).toBeTruthy();
  });
});

describe('An+B', () => {
  it('parses the microsyntax', () => {
    expect(parseNth('odd')).toEqual({ a: 2, b: 1 });
    expect(parseNth(' EVEN ')).toEqual({ a: 2, b: 0 });
    expect(parseNth('-n+3')).toEqual({ a: -1, b: 3 });
    expect(parseNth('+n')).toEqual({ a: 1, b: 0 });
    expect(parseNth('2n - 1')).toEqual({ a: 2, b: -1 });
    expect(parseNth('2n -1')).toEqual({ a: 2, b: -1 });
    expect(parseNth('-5')).toEqual({ a: 0, b: -5 });
    for (const bad of ['', 'n+', '+ n', '2 n', '2n+-1', 'x']) expect(parseNth(bad), bad).toBeNull();
  });
  it('matches indices', () => {
    expect([1, 2, 3, 4, 5].filter((i) => nthMatches(2, 1, i))).toEqual([1, 3, 5]);
    expect([1, 2, 3, 4, 5].filter((i) => nthMatches(-1, 3, i))).toEqual([1, 2, 3]);
    expect([1, 2, 3].filter((i) => nthMatches(0, 2, i))).toEqual([2]);
  });
});

describe('the per-element primitives', () => {
  const test = (t: Partial<AttributeTest>): AttributeTest => ({
    name: 'type', nameLower: 'type', anyNamespace: false, operator: 'equals', value: 'text', valueLower: 'text', caseMode: 'default', ...t,
  });
  const attr = (name: string, value: string, namespace: string | null = null) => ({ name, value, namespace, localName: name.replace(/^.*:/, '') });
  it("HTML's case-insensitive attribute values apply to HTML elements only; i and s override", () => {
    expect(attributeMatches(test({}), HTML, [attr('type', 'TEXT')], false)).toBe(true);
    expect(attributeMatches(test({}), SVG, [attr('type', 'TEXT')], false)).toBe(false);
    expect(attributeMatches(test({ caseMode: 's' }), HTML, [attr('type', 'TEXT')], false)).toBe(false);
    expect(attributeMatches(test({ name: 'title', nameLower: 'title' }), HTML, [attr('title', 'TEXT')], false)).toBe(false);
    expect(attributeMatches(test({ name: 'title', nameLower: 'title', caseMode: 'i' }), HTML, [attr('title', 'TEXT')], false)).toBe(true);
    expect(htmlAttributeMatches(test({ caseMode: 'quirks' }), 'TEXT', true)).toBe(true);
    expect(htmlAttributeMatches(test({ caseMode: 'quirks' }), 'TEXT', false)).toBe(false);
  });
  it('[a] looks at attributes in no namespace, [*|a] at all', () => {
    const href = test({ name: 'href', nameLower: 'href', operator: 'exists' });
    const xlink = [attr('xlink:href', '#a', 'http://www.w3.org/1999/xlink')];
    expect(attributeMatches(href, SVG, xlink, false)).toBe(false);
    expect(attributeMatches({ ...href, anyNamespace: true }, SVG, xlink, false)).toBe(true);
  });
  it('attribute names (HTML §4.16.2): lowercased for an HTML element\'s namespace-less attributes, as written for others', () => {
    const viewBox = test({ name: 'viewBox', nameLower: 'viewbox', operator: 'exists' });
    const viewbox = test({ name: 'viewbox', nameLower: 'viewbox', operator: 'exists' });
    const svgAttrs = [attr('viewBox', '0')];
    expect(attributeMatches(viewBox, SVG, svgAttrs, false)).toBe(true);
    expect(attributeMatches(viewbox, SVG, svgAttrs, false)).toBe(false);
    expect(attributeMatches({ ...viewBox, anyNamespace: true }, SVG, svgAttrs, false)).toBe(true);
    expect(attributeMatches({ ...viewbox, anyNamespace: true }, SVG, svgAttrs, false)).toBe(false);
    const CLASS = test({ name: 'CLASS', nameLower: 'class', operator: 'exists' });
    expect(attributeMatches(CLASS, HTML, [attr('class', 'x')], false)).toBe(true);
    expect(attributeMatches({ ...CLASS, anyNamespace: true }, HTML, [attr('class', 'x')], false)).toBe(true);
    expect(attributeMatches(CLASS, SVG, [attr('class', 'x')], false)).toBe(false);
    // A namespaced attribute of an HTML element (setAttributeNS) compares as written, even under *|.
    const Foo = test({ name: 'Foo', nameLower: 'foo', operator: 'exists', anyNamespace: true });
    expect(attributeMatches(Foo, HTML, [attr('Foo', '', 'urn:x')], false)).toBe(true);
    expect(attributeMatches({ ...Foo, name: 'foo' }, HTML, [attr('Foo', '', 'urn:x')], false)).toBe(false);
  });
  it('~= needs a whole word', () => {
    expect(includesWord('a  bc\td', 'bc')).toBe(true);
    expect(includesWord('abc', 'b')).toBe(false);
    expect(includesWord('a b', 'a b')).toBe(false);
  });
  it('type names (HTML §4.16.2): lowercased for HTML elements, as written for others', () => {
    expect(typeMatches('clipPath', 'clippath', 'any', 'clipPath', SVG)).toBe(true);
    expect(typeMatches('clippath', 'clippath', 'any', 'clipPath', SVG)).toBe(false);
    expect(typeMatches('CLIPPATH', 'clippath', 'any', 'clipPath', SVG)).toBe(false);
    expect(typeMatches('DIV', 'div', 'any', 'div', HTML)).toBe(true);
    expect(typeMatches('div', 'div', 'any', 'DIV', HTML)).toBe(false); // HTML element names are compared as stored
    expect(typeMatches('A', 'a', 'any', 'a', null)).toBe(false); // no namespace: not an HTML element
    expect(typeMatches(null, null, 'none', 'x', null)).toBe(true);
    expect(typeMatches(null, null, 'none', 'x', HTML)).toBe(false);
  });
  it('startsIdent', () => {
    expect(['a', '_', '-a', '--', '\\31', 'é'].every((s) => startsIdent(s, 0))).toBe(true);
    expect(['1', '-1', '!', '', '-'].some((s) => startsIdent(s, 0))).toBe(false);
  });
});
