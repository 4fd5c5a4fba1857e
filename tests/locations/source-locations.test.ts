// Source locations beyond the corpus parity: fragments, bytes (byte offsets), newlines, streaming through
// DomTreeSink, off by default; and parseFragment without a context (issue 16 item 9).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as parse5 from 'parse5';
import { DomTreeSink, parse, parseFragment, serialize, type Element, type Node, type NodeSourceLocation } from '@sluice/dom';
import { Parser } from '@sluice/tree-builder';

const corpusDir = join(import.meta.dirname, '../../bench/node_modules/htmlparser-benchmark/files');
const FIELDS = ['startLine', 'startCol', 'startOffset', 'endLine', 'endCol', 'endOffset'] as const;

/** Every node of `root` (template contents included), in document order, iteratively. */
function nodesOf(root: Node): Node[] {
  const out: Node[] = [];
  const pending: Node[] = [root];
  while (pending.length > 0) {
    const n = pending.pop()!;
    out.push(n);
    const parent = n.nodeType === 1 && (n as Element).localName === 'template' ? (n as unknown as { content: Node }).content : n;
    const children: Node[] = [];
    for (let c = parent.firstChild; c !== null; c = c.nextSibling) children.push(c);
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  }
  return out;
}

type P5 = { childNodes?: P5[]; content?: P5; sourceCodeLocation?: Record<string, unknown> | null };
function p5NodesOf(root: P5): P5[] {
  const out: P5[] = [];
  const pending: P5[] = [root];
  while (pending.length > 0) {
    const n = pending.pop()!;
    out.push(n);
    const children = (n.content ?? n).childNodes ?? [];
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  }
  return out;
}

/** The parse5-shaped part of a location (sluice's `start`/`end` and byte offsets left out). */
function parse5Shape(location: NodeSourceLocation | null): unknown {
  if (location === null || location.startLine === undefined) return null;
  const pick = (l: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(FIELDS.map((f) => [f, l[f]]));
  const out: Record<string, unknown> = pick(location as unknown as Record<string, unknown>);
  if (location.startTag !== undefined) {
    out.startTag = pick(location.startTag as unknown as Record<string, unknown>);
    if (location.startTag.attrs !== undefined) {
      (out.startTag as Record<string, unknown>).attrs = Object.fromEntries(Object.entries(location.startTag.attrs).map(([k, v]) => [k, pick(v as unknown as Record<string, unknown>)]));
    }
  }
  if (location.endTag !== undefined) out.endTag = pick(location.endTag as unknown as Record<string, unknown>);
  if (location.attrs !== undefined) out.attrs = Object.fromEntries(Object.entries(location.attrs).map(([k, v]) => [k, pick(v as unknown as Record<string, unknown>)]));
  return out;
}

function p5Shape(location: Record<string, unknown> | null | undefined): unknown {
  return location == null ? null : JSON.parse(JSON.stringify(location));
}

const SNIPPETS = [
  '<p id=a class="b c">one<b>two</p>three',
  '<td>cell<td>next</td>',
  '<table><tr><td>x</table>',
  '<ul>\r\n<li>a\r<li>b\n</ul>',
  '<svg viewBox="0 0 1 1"><circle r=1 /><foreignObject><p>x</p></foreignObject></svg>',
  '<!-- c --><a href=x>link</a>&amp;<br><img src=y alt>',
  '<select><option>a<option selected>b</select><textarea>\nt</textarea>',
  '<h1>a</h2>b<p>c<div>d</div>',
  'text 😀 é\u2028 after',
];

describe('sourceLocations on fragments', () => {
  for (const html of SNIPPETS) {
    it(`equals parse5.parseFragment for ${JSON.stringify(html)}`, () => {
      const ours = nodesOf(parseFragment(html, { sourceLocations: true })).slice(1);
      const theirs = p5NodesOf(parse5.parseFragment(html, { sourceCodeLocationInfo: true }) as unknown as P5).slice(1);
      expect(ours.length).toBe(theirs.length);
      for (let i = 0; i < ours.length; i++) {
        expect(parse5Shape(ours[i].sourceLocation), `node ${i} ${ours[i].nodeName}`).toEqual(p5Shape(theirs[i].sourceCodeLocation));
      }
    });
  }

  it('with an element context too', () => {
    const div = parse('<div></div>').body!.firstChild as Element;
    const fragment = parseFragment('<b title=t>x</b>', div, { sourceLocations: true });
    const b = fragment.firstChild!;
    expect(b.sourceLocation).toMatchObject({ startLine: 1, startCol: 1, startOffset: 0, endOffset: 16, attrs: { title: { startOffset: 3, endOffset: 10 } } });
  });
});

describe('sourceLocations', () => {
  it('is off by default: offsets only', () => {
    const doc = parse('<p class=x>a</p>');
    const p = doc.body!.firstChild!;
    expect(p.sourceLocation).toEqual({ start: 0, end: 11 });
    expect((p as Element).endTagLocation).toEqual({ start: 12, end: 16 });
  });

  it('counts CR, LF and CRLF as one line end each, a split CRLF too', () => {
    const html = 'a\r\nb\rc\nd<p>\r\n\r\n<i>x</i>';
    const whole = parse(html, { sourceLocations: true });
    const i = whole.querySelector('i')!;
    expect(i.sourceLocation).toMatchObject({ startLine: 6, startCol: 1, endLine: 6, endCol: 9 });
    // Streaming through DomTreeSink, cut between the CR and the LF: the same locations.
    for (let cut = 0; cut <= html.length; cut++) {
      const sink = new DomTreeSink(undefined, { sourceLocations: true });
      const parser = new Parser(sink);
      parser.write(html.slice(0, cut));
      parser.write(html.slice(cut));
      parser.end();
      const a = nodesOf(sink.document).map((n) => n.sourceLocation);
      const b = nodesOf(whole).map((n) => n.sourceLocation);
      expect(a, `cut at ${cut}`).toEqual(b);
    }
  });

  it('gives byte offsets for bytes in: UTF-8 (corpus pages), windows-1252, UTF-16', () => {
    const encoder = new TextEncoder();
    const files = readdirSync(corpusDir).filter((f) => f.endsWith('.html')).sort().slice(0, 12);
    let checked = 0;
    for (const file of files) {
      const bytes = readFileSync(join(corpusDir, file));
      const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
      if (encoder.encode(text).length !== bytes.length) continue; // malformed UTF-8: the offsets are not exact there
      const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
      const doc = parse(withBom, { sourceLocations: true });
      expect(doc.characterSet).toBe('UTF-8');
      for (const n of nodesOf(doc)) {
        const l = n.sourceLocation;
        if (l === null || l.startOffset === undefined) continue;
        expect(l.startByteOffset).toBe(3 + encoder.encode(text.slice(0, l.startOffset)).length);
        expect(l.endByteOffset).toBe(3 + encoder.encode(text.slice(0, l.endOffset)).length);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
    const latin = parse(new Uint8Array([...'<p title=é>ü</p>'].map((c) => c.charCodeAt(0))), { encoding: 'windows-1252', sourceLocations: true });
    const p = latin.body!.firstChild!;
    expect(p.sourceLocation).toMatchObject({ startByteOffset: 0, endByteOffset: 16, attrs: { title: { startByteOffset: 3, endByteOffset: 10 } } });
    const utf16 = parse(new Uint8Array([0xff, 0xfe, ...[...'<b>x</b>'].flatMap((c) => [c.charCodeAt(0), 0])]), { sourceLocations: true });
    expect(utf16.body!.firstChild!.sourceLocation).toMatchObject({ startOffset: 0, startByteOffset: 2, endOffset: 8, endByteOffset: 18 });
    // A string has no bytes.
    expect(parse('<b>x</b>', { sourceLocations: true }).body!.firstChild!.sourceLocation!.startByteOffset).toBeUndefined();
  });

  it('names a bad option', () => {
    expect(() => parse('', { sourceLocations: 'yes' as never })).toThrow(/sourceLocations must be a boolean/);
    expect(() => new DomTreeSink(undefined, { sourceLocations: 1 as never })).toThrow(/sourceLocations must be a boolean/);
  });
});

describe('parseFragment without a context', () => {
  const cases = ['<td>a</td><td>b', '<tr><td>x</tr>', '<col span=2>', '<title>t</title><meta charset=x>', '<li>a<li>b', 'text <b>bold', '<option>a<option>b'];
  for (const html of cases) {
    it(`parses ${JSON.stringify(html)} in a <template>, as parse5 does`, () => {
      const ours = serialize(parseFragment(html));
      const theirs = parse5.serialize(parse5.parseFragment(html) as never);
      expect(ours).toBe(theirs);
      expect(ours).toBe(serialize(parseFragment(html, 'template')));
    });
  }

  it('takes the options second, and tells a misplaced third argument', () => {
    expect(parseFragment('<noscript><b>x</b></noscript>', { scripting: false }).firstChild!.firstChild!.nodeName).toBe('B');
    expect(() => parseFragment('x', undefined, { scripting: false })).toThrow(/options come second/);
  });
});
