// Serializer round trips: serialize a tree, parse the HTML again, and get the same tree.
//
// The HTML Standard warns (§13.3) that serializing and re-parsing does not always give back the tree
// (a DOM the parser could never build, a `<pre>`'s leading newline, …). So the property test generates
// only trees the parser can build — it knows the content rules that matter: no block inside `<p>`, no
// breakout elements directly in `<svg>`, no `</name` in raw text, no leading newline in `<textarea>`,
// no adjacent or empty text nodes, … — and checks that for those, parse(serialize(tree)) is the tree.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NS } from '@sluice/tree-builder';
import {
  Document,
  type DocumentFragment,
  type Element,
  type HTMLTemplateElement,
  type Node,
  parse,
  parseFragment,
  serialize,
  toTestFormat,
} from '@sluice/dom';

/** A tree description, built into a DOM by `build`. */
type Desc =
  | { kind: 'text'; data: string }
  | { kind: 'comment'; data: string }
  | { kind: 'element'; ns: string; name: string; attrs: [string, string][]; children: Desc[]; content?: Desc[] };

// Characters that need escaping, or are merely interesting; no CR (normalized to LF) and no NUL (dropped
// or replaced by the parser).
const textChar = fc.constantFrom('a', 'b', ' ', '&', '<', '>', '"', "'", '\u00a0', '\n', 'é', '=', '/', ';', '#', '!', '-', '𝒳');
const text = fc.array(textChar, { minLength: 1, maxLength: 8 }).map((a) => a.join(''));
// Raw text may not hold `<` (no `</style`, and no `<!--` to switch script data into its escaped states).
const rawText = fc.array(fc.constantFrom('a', ' ', '&', '>', '"', '\n', 'é', ';'), { minLength: 1, maxLength: 8 }).map((a) => a.join(''));
const commentData = fc.array(fc.constantFrom('a', ' ', '-', 'z'), { maxLength: 6 }).map((a) => a.join(''));
const attrValue = fc.array(textChar, { maxLength: 6 }).map((a) => a.join(''));
const htmlAttrs = fc.uniqueArray(fc.tuple(fc.constantFrom('id', 'class', 'title', 'data-x', 'lang', 'hidden'), attrValue), {
  selector: (a) => a[0],
  maxLength: 3,
});
const svgAttrs = fc.uniqueArray(fc.tuple(fc.constantFrom('viewBox', 'fill', 'xlink:href', 'xml:lang', 'class'), attrValue), {
  selector: (a) => a[0],
  maxLength: 3,
});

const leafText: fc.Arbitrary<Desc> = text.map((data) => ({ kind: 'text', data }));
const leafComment: fc.Arbitrary<Desc> = commentData.map((data) => ({ kind: 'comment', data }));
const el = (ns: string, name: string, attrs: [string, string][], children: Desc[] = [], content?: Desc[]): Desc => ({
  kind: 'element',
  ns,
  name,
  attrs,
  children,
  ...(content ? { content } : {}),
});

const trees = fc.letrec<{ flow: Desc; phrasing: Desc; svg: Desc }>((tie) => {
  const phrasingVoid = fc.tuple(fc.constantFrom('br', 'img', 'input', 'wbr'), htmlAttrs).map(([n, a]) => el(NS.HTML, n, a));
  const rawTextElement = (names: string[]) =>
    fc.tuple(fc.constantFrom(...names), htmlAttrs, fc.option(rawText, { nil: undefined })).map(([n, a, t]) =>
      el(NS.HTML, n, a, t === undefined ? [] : [{ kind: 'text', data: t }]),
    );
  const rcdata = fc
    .tuple(fc.constantFrom('textarea', 'title'), fc.option(text.filter((t) => !t.startsWith('\n')), { nil: undefined }))
    .map(([n, t]) => el(NS.HTML, n, [], t === undefined ? [] : [{ kind: 'text', data: t }]));
  const template = fc.tuple(htmlAttrs, fc.array(tie('flow'), { maxLength: 3 })).map(([a, c]) => el(NS.HTML, 'template', a, [], c));
  const math = fc
    .array(fc.tuple(fc.constantFrom('mi', 'mo', 'mn', 'mtext'), fc.option(text, { nil: undefined })), { maxLength: 3 })
    .map((items) =>
      el(
        NS.MATHML,
        'math',
        [],
        items.map(([n, t]) => el(NS.MATHML, n, [], t === undefined ? [] : [{ kind: 'text', data: t }])),
      ),
    );
  const svgRoot = fc.tuple(svgAttrs, fc.array(tie('svg'), { maxLength: 3 })).map(([a, c]) => el(NS.SVG, 'svg', a, c));
  const phrasing = fc.oneof(
    { depthIdentifier: 'tree', maxDepth: 5 },
    leafText,
    leafComment,
    phrasingVoid,
    rawTextElement(['style', 'script', 'iframe', 'noembed', 'noframes', 'noscript']),
    rcdata,
    fc
      .tuple(fc.constantFrom('span', 'b', 'i', 'em', 'code'), htmlAttrs, fc.array(tie('phrasing'), { maxLength: 3 }))
      .map(([n, a, c]) => el(NS.HTML, n, a, c)),
    svgRoot,
    math,
    template,
  );
  const flow = fc.oneof(
    { depthIdentifier: 'tree', maxDepth: 5 },
    phrasing,
    fc.tuple(fc.constantFrom('hr'), htmlAttrs).map(([n, a]) => el(NS.HTML, n, a)),
    rawTextElement(['xmp']),
    fc.tuple(htmlAttrs, fc.array(tie('phrasing'), { maxLength: 3 })).map(([a, c]) => el(NS.HTML, 'p', a, c)),
    fc
      .tuple(fc.constantFrom('div', 'section', 'article', 'span', 'b'), htmlAttrs, fc.array(tie('flow'), { maxLength: 3 }))
      .map(([n, a, c]) => el(NS.HTML, n, a, c)),
  );
  const svg = fc.oneof(
    { depthIdentifier: 'tree', maxDepth: 5 },
    leafText,
    leafComment,
    fc
      .tuple(fc.constantFrom('g', 'circle', 'clipPath', 'linearGradient'), svgAttrs, fc.array(tie('svg'), { maxLength: 3 }))
      .map(([n, a, c]) => el(NS.SVG, n, a, c)),
    fc.tuple(svgAttrs, fc.array(tie('flow'), { maxLength: 3 })).map(([a, c]) => el(NS.SVG, 'foreignObject', a, c)),
  );
  return { flow, phrasing, svg };
});

/** Build descriptions into `parent`, merging adjacent text (the parser would) with an explicit stack. */
function build(doc: Document, parent: Node, descs: Desc[]): void {
  const work: [Node, Desc[]][] = [[parent, descs]];
  while (work.length > 0) {
    const [into, list] = work.pop()!;
    for (const d of list) {
      if (d.kind === 'text') {
        const last = into.lastChild;
        if (last !== null && last.nodeType === 3) (last as unknown as { data: string }).data += d.data;
        else into.appendChild(doc.createTextNode(d.data));
      } else if (d.kind === 'comment') {
        into.appendChild(doc.createComment(d.data));
      } else {
        const e = d.ns === NS.HTML ? doc.createElement(d.name) : doc.createElementNS(d.ns, d.name);
        for (const [name, value] of d.attrs) {
          if (name === 'xlink:href') e.setAttributeNS(NS.XLINK, name, value);
          else if (name === 'xml:lang') e.setAttributeNS(NS.XML, name, value);
          else e.setAttribute(name, value);
        }
        into.appendChild(e);
        work.push([e, d.children]);
        if (d.content) work.push([(e as HTMLTemplateElement).content, d.content]);
      }
    }
  }
}

describe('serialize → parseFragment round trip (property)', () => {
  it('gives back any tree the parser can build', () => {
    fc.assert(
      fc.property(fc.array(trees.flow, { maxLength: 4 }), (descs) => {
        const doc = new Document();
        doc.scriptingEnabled = true; // parseFragment's default, so <noscript> holds raw text
        const frag: DocumentFragment = doc.createDocumentFragment();
        build(doc, frag, descs);
        const html = serialize(frag);
        const reparsed = parseFragment(html, 'div');
        expect(toTestFormat(reparsed)).toBe(toTestFormat(frag));
        expect(serialize(reparsed)).toBe(html);
      }),
      { numRuns: 400 },
    );
  });
});

describe('parse → serialize (examples)', () => {
  const cases: [string, string][] = [
    ['<!DOCTYPE html><title>a&amp;b</title><p class="x">1 &lt; 2', '<!DOCTYPE html><html><head><title>a&amp;b</title></head><body><p class="x">1 &lt; 2</p></body></html>'],
    ['<p title="&quot;<>&amp;">&nbsp;', '<html><head></head><body><p title="&quot;&lt;&gt;&amp;">&nbsp;</p></body></html>'],
    ['<script>if (a < b && c) {}</script><style>p>q{}</style>', '<html><head><script>if (a < b && c) {}</script><style>p>q{}</style></head><body></body></html>'],
    ['<svg viewbox="0 0 1 1"><foreignobject><div>x</div></foreignobject><use xlink:href="#a"/></svg>', '<html><head></head><body><svg viewBox="0 0 1 1"><foreignObject><div>x</div></foreignObject><use xlink:href="#a"></use></svg></body></html>'],
    ['<table><tr><td>1</td></tr></table>', '<html><head></head><body><table><tbody><tr><td>1</td></tr></tbody></table></body></html>'],
    ['<template><tr><td>x</td></tr></template>', '<html><head><template><tr><td>x</td></tr></template></head><body></body></html>'],
    ['<br/><img src=a.png><input disabled>', '<html><head></head><body><br><img src="a.png"><input disabled=""></body></html>'],
    ['<!-- c --><html><body><textarea>&lt;x&gt;</textarea>', '<!-- c --><html><head></head><body><textarea>&lt;x&gt;</textarea></body></html>'],
    ['<pre>\n\nx</pre>', '<html><head></head><body><pre>\nx</pre></body></html>'],
    ['<math><mi>x</mi><annotation-xml encoding="text/html"><b>y</b></annotation-xml></math>', '<html><head></head><body><math><mi>x</mi><annotation-xml encoding="text/html"><b>y</b></annotation-xml></math></body></html>'],
  ];
  for (const [input, output] of cases) {
    it(JSON.stringify(input), () => {
      expect(serialize(parse(input))).toBe(output);
    });
  }

  it('round-trips a 100,000-deep document', () => {
    const depth = 100_000;
    const html = '<div>'.repeat(depth) + 'x' + '</div>'.repeat(depth);
    const doc = parse(html);
    let el: Element | null = doc.body;
    let n = 0;
    while (el !== null && el.firstElementChild !== null) {
      el = el.firstElementChild;
      n++;
    }
    expect(n).toBe(depth);
    expect(serialize(doc.body!) === html).toBe(true);
  });
});
