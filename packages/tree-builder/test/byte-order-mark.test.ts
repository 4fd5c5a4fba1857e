/**
 * `Parser` and a leading byte order mark: a document's BOM is consumed before tokenizing (HTML §13.2.3.1,
 * the Encoding Standard's "decode"), so `\uFEFF<title>x</title>` puts the title in `head`, for every
 * chunking; a fragment's (innerHTML's) is text, as in browsers. Source locations stay offsets into the
 * input as given (the BOM counts).
 */
import { describe, expect, it } from 'vitest';
import { DomTreeSink, Element, Text, nextInSubtree, toTestFormat, type Node } from '@sluice/dom';
import type { Token } from '@sluice/tokenizer';
import { NS, Parser, type ParserOptions } from '../src/index.js';

const BOM = '\uFEFF';

function parseChunks(chunks: readonly string[], options: ParserOptions<Node> = {}): DomTreeSink {
  const sink = new DomTreeSink();
  const parser = new Parser<Node>(sink, options);
  for (const c of chunks) parser.write(c);
  parser.end();
  return sink;
}

/** Every way to cut `s` into non-empty chunks, each once as is and once with empty chunks around its pieces. */
function* chunkings(s: string): Generator<string[]> {
  const n = s.length;
  for (let mask = 0; mask < 1 << (n - 1); mask++) {
    const chunks: string[] = [];
    let from = 0;
    for (let i = 1; i < n; i++) {
      if (mask & (1 << (i - 1))) {
        chunks.push(s.slice(from, i));
        from = i;
      }
    }
    chunks.push(s.slice(from));
    yield chunks;
    yield ['', ...chunks.flatMap((c) => [c, ''])];
  }
}

/** Each node's name (or text) with its source location, in document order. */
function locations(sink: DomTreeSink): string[] {
  const doc = sink.document;
  const out: string[] = [];
  for (let n: Node | null = doc.firstChild; n !== null; n = nextInSubtree(n, doc)) {
    const loc = n.sourceLocation;
    const name = n instanceof Element ? n.localName : n instanceof Text ? JSON.stringify(n.data) : n.nodeName;
    out.push(`${name}@${loc === null ? '-' : `${loc.start}-${loc.end}`}`);
  }
  return out;
}

describe('Parser: a leading byte order mark', () => {
  const input = `${BOM}<title>x</title>${BOM}y`;
  const expectedTree = parseChunks([input.slice(1)]);

  it('is not text: the title is in head (the tree of the input without it)', () => {
    const tree = toTestFormat(parseChunks([input]).document);
    expect(tree).toBe(toTestFormat(expectedTree.document));
    expect(tree).toContain('|   <head>\n|     <title>');
    // The U+FEFF after the title is text: only the first character of the input is a BOM.
    expect(tree).toContain(`"${BOM}y"`);
  });

  it('is skipped for every chunking of a small input, empty chunks included', () => {
    // Short enough for all 2^(n-1) splits (each also with empty chunks): the BOM alone, after empty
    // chunks, joined to the next characters; and a U+FEFF later stays text.
    const small = `${BOM}<title>x${BOM}`;
    const expected = toTestFormat(parseChunks([small.slice(1)]).document);
    expect(expected).toContain(`|     <title>\n|       "x${BOM}"`);
    const expectedLocations = locations(parseChunks([small]));
    let count = 0;
    for (const chunks of chunkings(small)) {
      const sink = parseChunks(chunks);
      expect(toTestFormat(sink.document), JSON.stringify(chunks)).toBe(expected);
      expect(locations(sink), JSON.stringify(chunks)).toEqual(expectedLocations);
      count++;
    }
    expect(count).toBe(2 ** small.length);
  });

  it('counts in source locations: they are offsets into the input as given', () => {
    // html, head implied (no location); <title> spans [1, 8) after the one-unit BOM.
    expect(locations(parseChunks([input]))).toEqual(['html@-', 'head@-', 'title@1-8', '"x"@8-9', 'body@-', `"${BOM}y"@17-19`]);
    expect(locations(expectedTree)).toEqual(['html@-', 'head@-', 'title@0-7', '"x"@7-8', 'body@-', `"${BOM}y"@16-18`]);
  });

  it('counts in parse error offsets', () => {
    const errors: [string, number][] = [];
    parseChunks([`${BOM}<p></>`], { onParseError: (e) => errors.push([e.code, e.offset]) });
    expect(errors).toEqual([
      ['missing-doctype', 1], // at `<p>`
      ['missing-end-tag-name', 6], // at the `>` of `</>`
    ]);
  });

  it('reaches onToken as a discarded token, so the tokens still concatenate to the input', () => {
    const tokens: Token[] = [];
    parseChunks(['', BOM, '<p>a'], { onToken: (t) => tokens.push(t) });
    expect(tokens.map((t) => [t.type, t.raw, t.start])).toEqual([
      ['discarded', BOM, 0],
      ['startTag', '<p>', 1],
      ['text', 'a', 4],
    ]);
  });

  it('is text in a fragment (innerHTML keeps it, §13.2.8 has no decoding step), unless asked', () => {
    const context = { localName: 'div', namespace: NS.HTML };
    const fragment = parseChunks([`${BOM}<b>x</b>`], { fragmentContext: context });
    expect(toTestFormat(fragment.document)).toBe(`| <html>\n|   "${BOM}"\n|   <b>\n|     "x"`);
    const stripped = parseChunks([`${BOM}<b>x</b>`], { fragmentContext: context, stripByteOrderMark: true });
    expect(toTestFormat(stripped.document)).toBe('| <html>\n|   <b>\n|     "x"');
  });

  it('is text with stripByteOrderMark: false (what DOMParser does with a string)', () => {
    const tree = toTestFormat(parseChunks([input], { stripByteOrderMark: false }).document);
    expect(tree).toContain(`|   <body>\n|     "${BOM}"\n|     <title>`);
    expect(() => new Parser(new DomTreeSink(), { stripByteOrderMark: 1 as unknown as boolean })).toThrow(/stripByteOrderMark must be a boolean/);
  });
});
