/**
 * Attribute writes on every start tag shape (issue 14 item 5): after any sequence of `setAttribute` /
 * `removeAttribute` (and a new `tagName`), parsing the rewritten output gives the element exactly the
 * attributes the original element had (as `parse` of the input gives them) with those operations
 * applied. A rewritten start tag copies the attributes a handler left alone from the source text, so
 * every shape the tokenizer accepts must survive being copied next to something else: empty unquoted
 * values (`<a href=>`), unquoted values that run into `/` or end the tag, `/>`, bare names, duplicates,
 * upper case, odd names (`<a "x=1>`, `<a =y>`), SVG/MathML attributes the tree builder renames.
 *
 * Also: what a handler reads (`attributes`, `getAttribute`, `hasAttribute`) agrees with the DOM's
 * element, before and after the writes; the byte path (`createByteTransformer`) writes the same text.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HTMLRewriter, type Element } from '@sluice/rewriter';
import { type Element as DomElement, parse } from '@sluice/dom';

type Op = { kind: 'set'; name: string; value: string } | { kind: 'remove'; name: string } | { kind: 'rename'; name: string };

const DOCTYPE = '<!DOCTYPE html>';

/** Where a generated start tag goes, and how to find its element in a parsed document. */
interface Context {
  readonly name: string;
  /** Markup before the tag (after the doctype). */
  readonly prefix: string;
  /** Tag names to generate (matched case-insensitively by the parser). */
  readonly tags: readonly string[];
  /** Whether a new tagName keeps the element where it is (HTML, non-void only). */
  readonly renames: readonly string[];
  /** The element the tag made, in a parse of `DOCTYPE + prefix + tag + suffix`. */
  readonly find: (doc: ReturnType<typeof parse>) => DomElement | null;
}

const SUFFIX = 't';
const body = (doc: ReturnType<typeof parse>): DomElement => doc.body!;
const CONTEXTS: readonly Context[] = [
  { name: 'html', prefix: '<body>', tags: ['a', 'div', 'span', 'p', 'img', 'input', 'br'], renames: ['span', 'section', 'div'], find: (d) => body(d).firstElementChild },
  { name: 'svg root', prefix: '<body>', tags: ['svg'], renames: [], find: (d) => body(d).firstElementChild },
  {
    name: 'in svg',
    prefix: '<body><svg>',
    tags: ['rect', 'g', 'linearGradient', 'foreignObject', 'path'],
    renames: [],
    find: (d) => body(d).firstElementChild?.firstElementChild ?? null,
  },
  { name: 'math root', prefix: '<body>', tags: ['math'], renames: [], find: (d) => body(d).firstElementChild },
  { name: 'in math', prefix: '<body><math>', tags: ['mi', 'mo', 'annotation-xml'], renames: [], find: (d) => body(d).firstElementChild?.firstElementChild ?? null },
];

const VOID = new Set(['img', 'input', 'br']);

/** Names a source tag's attributes get (in random case). */
const SOURCE_NAMES = ['a', 'b', 'href', 'm', 'viewbox', 'definitionurl', 'xlink:href', 'refx', 'data-x'];
/** Names the tokenizer accepts that a handler cannot set (quotes, `<`, a leading `=`). */
const ODD_NAMES = ['"x', "'q", '=y', '<z', 'a"b'];
/** Names handlers use: present ones, absent ones, camel-cased foreign ones. */
const OP_NAMES = [...SOURCE_NAMES, 'rel', 'data-new', 'viewBox', 'definitionURL', 'refX', 'HREF', 'M'];
/** Values handlers write. (Not CR or NUL: no markup keeps those; the parser reads LF and U+FFFD.) */
const OP_VALUES = ['', '"', "'", '&amp;', '&', '>', '=', ' ', 'a b', 'x/', '/', '<', 'a\'b"c', '\t', '\n', 'v', '&lt;', 'a\rb', '\r\n'];

/** A string in random ASCII case. */
const randomCase = (s: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));

const sourceName = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...SOURCE_NAMES).chain(randomCase) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_NAMES) });
const ws = fc.constantFrom('', ' ', '\n', '\t', ' \n\t');
const someWs = fc.constantFrom(' ', '\n', '\t', '  ', '\f');
const valueChars = fc.constantFrom('x', 'y', '/', '=', '"', "'", '<', '`', '&amp;', '&', ' ', '>', 'é');
/** A value with the characters its quoting allows (unquoted: no whitespace or `>`; quoted: not its quote). */
// (An unquoted value cannot start with a quote: that would start a quoted one.)
const unquoted = fc
  .array(valueChars.filter((c) => c !== ' ' && c !== '>'), { minLength: 1, maxLength: 4 })
  .filter((a) => a[0] !== '"' && a[0] !== "'")
  .map((a) => a.join(''));
const quoted = (q: string) => fc.array(valueChars.filter((c) => c !== q), { maxLength: 4 }).map((a) => q + a.join('') + q);
const valuePart = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') }, // no value
  { weight: 2, arbitrary: fc.tuple(ws, ws).map(([a, b]) => `${a}=${b}`) }, // empty unquoted (`href=`)
  { weight: 2, arbitrary: fc.tuple(ws, ws, unquoted).map(([a, b, v]) => `${a}=${b}${v}`) },
  { weight: 2, arbitrary: fc.tuple(ws, ws, quoted('"')).map(([a, b, v]) => `${a}=${b}${v}`) },
  { weight: 1, arbitrary: fc.tuple(ws, ws, quoted("'")).map(([a, b, v]) => `${a}=${b}${v}`) },
);
/** Between attributes: whitespace, a stray `/`, or nothing (which the parser may read as one attribute: the oracle is `parse`). */
const separator = fc.oneof({ weight: 6, arbitrary: someWs }, { weight: 1, arbitrary: fc.constantFrom('/', ' / ', '') });
const ending = fc.constantFrom('>', '/>', ' />', ' >', '\n>', '/ >');

interface Case {
  context: Context;
  tag: string;
  ops: Op[];
}

const caseArb: fc.Arbitrary<Case> = fc
  .constantFrom(...CONTEXTS)
  .chain((context) =>
    fc.record({
      context: fc.constant(context),
      name: fc.constantFrom(...context.tags).chain(randomCase),
      first: fc.constantFrom(' ', '\n', '\t', '/', ' \n '),
      attrs: fc.array(fc.tuple(sourceName, valuePart, separator), { maxLength: 6 }),
      end: ending,
      ops: fc.array(
        fc.oneof(
          { weight: 5, arbitrary: fc.record({ kind: fc.constant('set' as const), name: fc.constantFrom(...OP_NAMES), value: fc.constantFrom(...OP_VALUES) }) },
          { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove' as const), name: fc.oneof(fc.constantFrom(...OP_NAMES), fc.constantFrom(...ODD_NAMES)) }) },
          { weight: context.renames.length > 0 ? 1 : 0, arbitrary: fc.record({ kind: fc.constant('rename' as const), name: fc.constantFrom('span', 'section', 'div') }) },
        ),
        { maxLength: 5 },
      ),
    }),
  )
  .map(({ context, name, first, attrs, end, ops }) => {
    let tag = `<${name}`;
    attrs.forEach(([n, v, sep], i) => (tag += (i === 0 ? first : sep) + n + v));
    // A rename of a void element would give it an end tag: not an attribute question.
    const renamable = context.renames.length > 0 && !VOID.has(name.toLowerCase());
    return { context, tag: tag + end, ops: renamable ? ops : ops.filter((o) => o.kind !== 'rename') };
  })
  // An odd name starting with a quote where a value may start (`<a a= "x>`) opens a quoted value that
  // may run to the end of the input, and the parser drops a tag cut by the end: no element to compare.
  .filter(({ context, tag }) => context.find(parse(DOCTYPE + context.prefix + tag + SUFFIX)) !== null);

/** The attribute name the tree builder gives the element for a token name `lower` (SVG/MathML adjust some): asked of `parse` itself. */
const adjustedNames = new Map<string, string>();
function domName(lower: string, namespace: string | null): string {
  if (namespace === 'http://www.w3.org/1999/xhtml') return lower;
  const root = namespace === 'http://www.w3.org/2000/svg' ? 'svg' : 'math';
  const key = `${root} ${lower}`;
  let name = adjustedNames.get(key);
  if (name === undefined) {
    name = parse(`${DOCTYPE}<${root} ${lower}>`).body!.firstElementChild!.getAttributeNames()[0]!;
    adjustedNames.set(key, name);
  }
  return name;
}

const attrsOf = (el: DomElement): [string, string][] => [...el.attributes].map((a) => [a.name, a.value]);
const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** What the operations leave, in the order the DOM gives (first of each name; new ones last; a set keeps its place). */
function expected(original: DomElement, ops: readonly Op[]): { attrs: [string, string][]; localName: string } {
  const map = new Map(attrsOf(original));
  let localName = original.localName;
  for (const op of ops) {
    if (op.kind === 'rename') localName = op.name;
    else if (op.kind === 'set') map.set(domName(lower(op.name), original.namespaceURI), op.value);
    else map.delete(domName(lower(op.name), original.namespaceURI));
  }
  return { attrs: [...map], localName };
}

/** What a handler reads of an element, with the DOM's names lowercased (the rewriter compares names case-insensitively). */
function reads(el: Element | DomElement): { attributes: [string, string][]; get: (string | null)[]; has: boolean[] } {
  const names = [...SOURCE_NAMES, ...ODD_NAMES, 'rel', 'data-new', 'HREF', 'viewBox'];
  if ('implied' in el) {
    return { attributes: [...el.attributes], get: names.map((n) => el.getAttribute(n)), has: names.map((n) => el.hasAttribute(n)) };
  }
  const attributes = attrsOf(el).map(([n, v]): [string, string] => [lower(n), v]);
  const get = names.map((n) => attributes.find(([k]) => k === lower(n))?.[1] ?? null);
  return { attributes, get, has: get.map((v) => v !== null) };
}

interface Run {
  out: string;
  before: ReturnType<typeof reads> | null;
  after: ReturnType<typeof reads> | null;
}

/** Rewrite `input`, applying `ops` to the element whose start tag is at `offset` (in UTF-16 units; bytes: in bytes). */
async function rewrite(input: string, offset: number, ops: readonly Op[], bytes: boolean): Promise<Run> {
  const run: Run = { out: '', before: null, after: null };
  const r = new HTMLRewriter().on('*', {
    element(el) {
      if (el.implied || el.sourceOffset !== offset) return;
      run.before = reads(el);
      for (const op of ops) {
        if (op.kind === 'set') el.setAttribute(op.name, op.value);
        else if (op.kind === 'remove') el.removeAttribute(op.name);
        else el.tagName = op.name;
      }
      run.after = reads(el);
    },
  });
  if (bytes) {
    const chunks: Uint8Array[] = [];
    const t = r.createByteTransformer((c) => chunks.push(c));
    await t.write(new TextEncoder().encode(input));
    await t.end();
    run.out = new TextDecoder().decode(Buffer.concat(chunks));
  } else {
    const t = r.createTransformer((s) => (run.out += s));
    await t.write(input);
    await t.end();
  }
  return run;
}

/** Check one case; returns the output after the prefix, for fixed examples to look at. */
async function check(context: Context, tag: string, ops: readonly Op[]): Promise<string> {
  const head = DOCTYPE + context.prefix;
  const input = head + tag + SUFFIX;
  const original = context.find(parse(input));
  expect(original, `no element for ${JSON.stringify(input)}`).not.toBeNull();
  const want = expected(original!, ops);
  const run = await rewrite(input, head.length, ops, false);
  expect(run.before, `the handler did not run on ${JSON.stringify(tag)}`).not.toBeNull();
  // What the handler read agrees with the DOM, before the writes and after them.
  expect(run.before).toEqual(reads(original!));
  expect(run.after!.attributes).toEqual(want.attrs.map(([n, v]) => [lower(n), v]));
  const element = context.find(parse(run.out));
  const detail = `${JSON.stringify(tag)} ${JSON.stringify(ops)} wrote ${JSON.stringify(run.out)}`;
  expect(element, detail).not.toBeNull();
  expect({ attrs: attrsOf(element!), localName: element!.localName }, detail).toEqual(want);
  // The byte path writes the same (its offsets are in bytes: the prefix is ASCII).
  const byteRun = await rewrite(input, new TextEncoder().encode(head).length, ops, true);
  expect(byteRun.out, detail).toBe(run.out);
  return run.out.slice(head.length);
}

const HTML = CONTEXTS[0]!;
const SVG_ROOT = CONTEXTS[1]!;
const IN_SVG = CONTEXTS[2]!;
const MATH_ROOT = CONTEXTS[3]!;
const set = (name: string, value: string): Op => ({ kind: 'set', name, value });
const remove = (name: string): Op => ({ kind: 'remove', name });

describe('attribute writes: fixed shapes', () => {
  it('<a href=> then setAttribute: the empty value does not swallow the next attribute', async () => {
    expect(await check(HTML, '<a href=>', [set('rel', 'x')])).toBe('<a href="" rel="x">t');
    expect(await check(HTML, '<a href= >', [set('rel', 'x')])).toBe('<a href="" rel="x">t');
    expect(await check(HTML, '<a href =\n>', [set('rel', 'x')])).toBe('<a href="" rel="x">t');
  });

  it("setAttribute(name, '') writes name=\"\"", async () => {
    expect(await check(HTML, '<a m=1>', [set('m', '')])).toBe('<a m="">t');
    expect(await check(HTML, '<a>', [set('m', '')])).toBe('<a m="">t');
  });

  it('unquoted values that end the tag or run into /', async () => {
    expect(await check(HTML, '<a href=x/>', [set('rel', 'x')])).toBe('<a href=x/ rel="x">t');
    expect(await check(HTML, '<a href=x>', [set('rel', 'x')])).toBe('<a href=x rel="x">t');
    await check(HTML, '<a rel=x href=y/>', [remove('rel')]);
    await check(SVG_ROOT, '<svg a=x />', [set('b', '')]);
    await check(SVG_ROOT, '<svg a=x/ />', [set('b', '/')]);
  });

  it('self-closing, bare names, whitespace between attributes, no space before >', async () => {
    expect(await check(HTML, '<br a/>', [set('b', '1')])).toBe('<br a b="1" />t');
    expect(await check(HTML, '<input\tdisabled\nvalue="v">', [set('x', '')])).toBe('<input disabled value="v" x="">t');
    expect(await check(HTML, "<a b='c'>", [set('d', 'e')])).toBe('<a b=\'c\' d="e">t');
    await check(HTML, "<a b='c'd=e>", [remove('b')]);
  });

  it('a bare name followed by an attribute named "=…" keeps them apart', async () => {
    // `<a b/=y>` is b and `=y`; written `<a b =y …>` the `=y` would become b's value.
    expect(await check(HTML, '<a b/=y>', [set('c', '1')])).toBe('<a b="" =y c="1">t');
    await check(HTML, '<a b/=y>', [remove('c')]);
  });

  it('duplicates: the first wins; removeAttribute leaves none, setAttribute makes the new value the effective one', async () => {
    expect(await check(HTML, '<a b=1 c b=2>', [remove('b')])).toBe('<a c>t');
    expect(await check(HTML, '<a b=1 c b=2>', [set('b', '3')])).toBe('<a b="3" c>t');
    expect(await check(HTML, '<a B=1 b=2>', [set('c', '')])).toBe('<a B=1 c="">t');
  });

  it('upper case and odd names the tokenizer accepts', async () => {
    expect(await check(HTML, '<A HREF=x>', [set('href', 'y'), set('REL', 'z')])).toBe('<a href="y" rel="z">t');
    expect(await check(HTML, '<a "x=1>', [set('y', '2')])).toBe('<a "x=1 y="2">t');
    expect(await check(HTML, '<a =y>', [set('z', '')])).toBe('<a =y z="">t');
    await check(HTML, '<a =y>', [remove('=y'), set('b', '')]);
    await check(HTML, '<a "x=1 <z>', [remove('"x'), set('b', '"')]);
  });

  it('foreign content: setAttribute updates the adjusted attribute, adds no second one', async () => {
    expect(await check(SVG_ROOT, '<svg viewBox="0 0 1 1">', [set('viewBox', '0 0 2 2')])).toBe('<svg viewbox="0 0 2 2">t');
    await check(SVG_ROOT, '<svg VIEWBOX="0 0 1 1" viewbox=x>', [set('viewbox', '1')]);
    await check(IN_SVG, '<linearGradient gradientUnits=x xlink:href=#a>', [set('XLINK:HREF', '#b'), remove('gradientunits')]);
    await check(MATH_ROOT, '<math definitionURL=a>', [set('definitionurl', 'b'), set('x', '')]);
  });

  it('a new tag name keeps the attributes', async () => {
    // (The div is closed by the end of the document, which closes the renamed element too: no end tag.)
    expect(await check(HTML, '<div b=\'\' a=>', [{ kind: 'rename', name: 'span' }, set('c', 'd')])).toBe('<span b=\'\' a="" c="d">t');
    // (`<div a= b=''>` is one attribute: a's value is `b=''`.)
    expect(await check(HTML, '<div a= b=\'\'>', [{ kind: 'rename', name: 'span' }, set('c', 'd')])).toBe('<span a= b=\'\' c="d">t');
  });
});

describe('attribute writes: property', () => {
  it('after any setAttribute/removeAttribute sequence, the reparsed element has exactly the expected attributes', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ context, tag, ops }) => {
        await check(context, tag, ops);
      }),
      { numRuns: 3000 },
    );
  });
});
