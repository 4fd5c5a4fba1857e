// One error channel (issue 16 item 5): `onParseError` on Parser, TreeBuilder, parse/parseFragment and the
// streams, in one shape ({ code, offset, line, col }, `byteOffset` for bytes in), each error once.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseFragment, DomTreeSink, type Node } from '@sluice/dom';
import { ErrorCode, Tokenizer, type ParseError } from '@sluice/tokenizer';
import { TreeBuilderStream, TreeBuilderByteStream, TokenizerStream, TokenizerByteStream } from '@sluice/streams';
import { Parser, TreeBuilder, TreeConstructionErrorCode } from '../src/index.js';
import { readDatFiles, treeConstructionDir, html5libTestsDir } from './support/html5lib-tree-tests.js';

const KNOWN_CODES = new Set<string>([...Object.values(ErrorCode), ...Object.values(TreeConstructionErrorCode)]);

/** Line and column of `offset` in `input`, counted from scratch: CR, LF and CRLF end a line. */
function positionIn(input: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x0d || (c === 0x0a && (i === 0 || input.charCodeAt(i - 1) !== 0x0d))) line++;
    if (c === 0x0d || c === 0x0a) lineStart = i + 1;
  }
  return { line, col: offset - lineStart + 1 };
}

/**
 * Where the standard itself raises one error twice or more at one place, and how many times at most:
 * - `unexpected-null-character`: the tokenizer's data state (§13.2.5.1) and tree construction ("in body",
 *   "in table text", foreign content) each raise one for the same U+0000;
 * - `adoption-agency-1.3`: step 4.6 of the adoption agency (§13.2.6.4.7) is inside its outer loop, which
 *   runs up to 8 times for one end tag (html5lib's expectations count each);
 * - `eof-in-template`: "in template" at end of input raises one per template it pops, then reprocesses
 *   the end of file;
 * - `unexpected-end-tag`: an end tag in foreign content that matches no foreign element is an error of the
 *   foreign content rules (§13.2.6.5), which then hand it to the HTML rules, which raise their own.
 */
const REPEATS: Readonly<Record<string, number>> = {
  'unexpected-null-character': 2,
  'adoption-agency-1.3': 8,
  'eof-in-template': Infinity,
  'unexpected-end-tag': 2,
};

describe('onParseError over the html5lib tree-construction tests', () => {
  const dir = treeConstructionDir();
  if (dir === null) {
    (process.env.CI ? it : it.skip)(`finds the html5lib tests under ${html5libTestsDir()}`, () => {
      throw new Error('html5lib tree-construction tests not found (set HTML5LIB_TESTS)');
    });
    return;
  }
  const files = readDatFiles(dir);

  it('reports each error once, with a known code, a right line and column, offsets inside the input', () => {
    let tests = 0;
    let sameCount = 0;
    const problems: string[] = [];
    for (const [file, list] of files) {
      for (const test of list) {
        tests++;
        const errors: ParseError[] = [];
        const options = { scripting: test.scripting ?? true, onParseError: (e: ParseError) => void errors.push(e) };
        if (test.fragment === null) parse(test.data, options);
        else parseFragment(test.data, test.fragment, options);
        const where = `${file}:${test.line} ${JSON.stringify(test.data)}`;
        const seen = new Map<string, number>();
        for (const e of errors) {
          if (!KNOWN_CODES.has(e.code)) problems.push(`${where}: unknown code ${e.code}`);
          if (e.offset < 0 || e.offset > test.data.length) problems.push(`${where}: offset ${e.offset} outside the input`);
          const at = positionIn(test.data, e.offset);
          if (e.line !== at.line || e.col !== at.col) {
            problems.push(`${where}: ${e.code}@${e.offset} at ${e.line}:${e.col}, should be ${at.line}:${at.col}`);
          }
          const key = `${e.code}@${e.offset}`;
          const n = (seen.get(key) ?? 0) + 1;
          seen.set(key, n);
          if (n === (REPEATS[e.code] ?? 1) + 1) problems.push(`${where}: ${key} reported ${n} times`);
        }
        if (errors.length === test.errors.length) sameCount++;
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    // html5lib's `#errors` are html5lib's own reports (its names, its positions; some of its counts differ
    // from the standard's: one error per foster-parented or ignored character, where sluice reports one
    // per run of text). The suite compares trees; this is a measurement, kept from going backwards.
    console.log(`parse errors: ${sameCount} of ${tests} tests report as many errors as html5lib's #errors`);
    expect(sameCount / tests).toBeGreaterThan(0.95);
  });
});

describe('onParseError', () => {
  it('merges the tokenizer and the tree builder in input order, each once', () => {
    const errors: ParseError[] = [];
    parse('<p></div id=x>\n<b>&am;\0</b/>', { onParseError: (e) => errors.push(e) });
    expect(errors.map((e) => [e.code, e.offset, e.line, e.col])).toEqual([
      ['missing-doctype', 0, 1, 1],
      ['unexpected-end-tag', 3, 1, 4],
      ['end-tag-with-attributes', 13, 1, 14], // the tokenizer's, at the `>`; not the tree builder's again
      ['unknown-named-character-reference', 21, 2, 7], // at the `;` after `&am`
      ['unexpected-null-character', 22, 2, 8], // the tokenizer's …
      ['unexpected-null-character', 22, 2, 8], // … and "in body"'s, for the same NUL (the standard raises both)
      ['end-tag-with-trailing-solidus', 27, 2, 13],
    ]);
  });

  it('reports end of input at the end of the input', () => {
    const errors: ParseError[] = [];
    parse('<!DOCTYPE html><div>\nx', { onParseError: (e) => errors.push(e) });
    expect(errors).toEqual([{ code: 'eof-with-open-elements', offset: 22, line: 2, col: 2 }]);
  });

  it('is the same option on Parser, in any chunking', () => {
    const html = '<table>a\r\nb<tr>\0<td>&x</table></p>';
    const whole: ParseError[] = [];
    parse(html, { onParseError: (e) => whole.push(e) });
    expect(whole.length).toBeGreaterThan(4);
    for (let cut = 0; cut <= html.length; cut++) {
      const errors: ParseError[] = [];
      const parser = new Parser<Node>(new DomTreeSink(), { onParseError: (e) => errors.push(e) });
      parser.write(html.slice(0, cut));
      parser.write(html.slice(cut));
      parser.end();
      expect(errors, `cut at ${cut}`).toEqual(whole);
    }
  });

  it('does not depend on the chunking, on corpus pages (a run of text cut into tokens is one run)', () => {
    const dir = join(import.meta.dirname, '../../../bench/node_modules/htmlparser-benchmark/files');
    const files = readdirSync(dir).filter((f) => f.endsWith('.html')).sort().slice(0, 40);
    let total = 0;
    for (const file of files) {
      const html = readFileSync(join(dir, file), 'utf8');
      const whole: ParseError[] = [];
      parse(html, { onParseError: (e) => whole.push(e) });
      total += whole.length;
      for (const size of [13, 1000]) {
        const errors: ParseError[] = [];
        const parser = new Parser<Node>(new DomTreeSink(), { onParseError: (e) => errors.push(e) });
        for (let i = 0; i < html.length; i += size) parser.write(html.slice(i, i + size));
        parser.end();
        expect(errors, `${file} in chunks of ${size}`).toEqual(whole);
      }
    }
    expect(total).toBeGreaterThan(300);
  });

  it('gives a TreeBuilder driven by hand its tree-construction errors, and merges with a tokenizer given the same function', () => {
    const errors: ParseError[] = [];
    const onParseError = (e: ParseError): void => void errors.push(e);
    const sink = new DomTreeSink();
    const tokenizer = new Tokenizer({ autoTextMode: false, onParseError });
    const builder = new TreeBuilder(sink, { setTextMode: (m) => tokenizer.setTextMode(m), insert: () => {} }, { onParseError });
    tokenizer.write('<p></x/>', (t) => builder.processToken(t));
    tokenizer.end((t) => builder.processToken(t));
    builder.processEnd();
    const viaParse: ParseError[] = [];
    parse('<p></x/>', { stripByteOrderMark: false, onParseError: (e) => viaParse.push(e) });
    // By hand, a token's tokenizer errors come as it is emitted, before the tree builder's; Parser holds
    // them until the token is processed and reports them by offset.
    expect(errors.map((e) => e.code)).toEqual(['missing-doctype', 'end-tag-with-trailing-solidus', 'unexpected-end-tag']);
    expect(viaParse.map((e) => e.code)).toEqual(['missing-doctype', 'unexpected-end-tag', 'end-tag-with-trailing-solidus']);
    expect([...errors].sort((a, b) => a.offset - b.offset)).toEqual(viaParse);
  });

  it('gives byte offsets for bytes in (UTF-8, UTF-16, single-byte), none for the multi-byte legacy encodings', () => {
    const html = '<p>é€😀&zz;</q>';
    const offsets = (bytes: Uint8Array, encoding: string): (number | undefined)[] => {
      const out: (number | undefined)[] = [];
      parse(bytes, { encoding, onParseError: (e) => out.push(e.byteOffset) });
      return out;
    };
    const utf8 = new TextEncoder().encode(html);
    // missing-doctype at 0; unknown-named-character-reference at `;` (after 3 + 2 + 3 + 4 + 3 bytes);
    // unexpected-end-tag at `</q>`.
    expect(offsets(utf8, 'utf-8')).toEqual([0, 15, 16]);
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]);
    expect(offsets(withBom, 'utf-8')).toEqual([3, 18, 19]);
    const latin = new Uint8Array([...'<p>ab&zz;</q>'].map((c) => c.charCodeAt(0)));
    expect(offsets(latin, 'windows-1252')).toEqual([0, 8, 9]);
    const utf16 = new Uint8Array([...'<p>&zz;</q>'].flatMap((c) => [c.charCodeAt(0), 0]));
    expect(offsets(utf16, 'utf-16le')).toEqual([0, 12, 14]);
    const sjis = new Uint8Array([...'<p>&zz;</q>'].map((c) => c.charCodeAt(0)));
    expect(offsets(sjis, 'shift_jis')).toEqual([undefined, undefined, undefined]);
    // A string has no bytes.
    const fromString: ParseError[] = [];
    parse(html, { onParseError: (e) => fromString.push(e) });
    expect(fromString.every((e) => e.byteOffset === undefined && !('byteOffset' in e))).toBe(true);
  });

  it('keeps byte offsets right on a long UTF-8 stream while keeping only the text errors may still point into', () => {
    const piece = '<p>é&zz;<table>x€<tr></x>😀\0';
    const html = '<!DOCTYPE html>' + piece.repeat(400);
    const bytes = new TextEncoder().encode(html);
    const expected: ParseError[] = [];
    parse(html, { onParseError: (e) => expected.push(e) });
    const errors: ParseError[] = [];
    const parser = new Parser<Node>(new DomTreeSink(), { encoding: 'utf-8', onParseError: (e) => errors.push(e) });
    let maxKept = 0;
    for (let i = 0; i < bytes.length; i += 97) {
      parser.write(bytes.subarray(i, i + 97));
      maxKept = Math.max(maxKept, parser.byteOffsets?.keptChunks ?? 0);
    }
    parser.end();
    expect(errors.map(({ code, offset, line, col }) => ({ code, offset, line, col }))).toEqual(expected);
    const encoder = new TextEncoder();
    expect(errors.map((e) => e.byteOffset)).toEqual(expected.map((e) => encoder.encode(html.slice(0, e.offset)).length));
    expect(maxKept).toBeLessThan(5); // of about 150 chunks
  });

  it('reports the second pass only when a <meta> makes parse start again', () => {
    const bytes = new Uint8Array([...'<p>&zz;<meta charset=koi8-r></x>'].map((c) => c.charCodeAt(0)));
    const errors: ParseError[] = [];
    const doc = parse(bytes, { onParseError: (e) => errors.push(e) });
    expect(doc.characterSet).toBe('KOI8-R');
    expect(errors.map((e) => e.code)).toEqual(['missing-doctype', 'unknown-named-character-reference', 'unexpected-end-tag']);
  });

  it('is on the streams, string and bytes', async () => {
    const html = '<p>&zz;</x>';
    const expected: ParseError[] = [];
    parse(html, { onParseError: (e) => expected.push(e) });
    const run = async (stream: { readable: ReadableStream<unknown>; writable: WritableStream<never> }, chunk: unknown): Promise<void> => {
      const writer = stream.writable.getWriter();
      const done = (async () => {
        for await (const _ of stream.readable as unknown as AsyncIterable<unknown>) void _;
      })();
      await writer.write(chunk as never);
      await writer.close();
      await done;
    };
    const bytes = new TextEncoder().encode(html);
    for (const [name, make, chunk] of [
      ['TreeBuilderStream', (f: (e: ParseError) => void) => new TreeBuilderStream({ onParseError: f }), html],
      ['TreeBuilderByteStream', (f: (e: ParseError) => void) => new TreeBuilderByteStream({ onParseError: f }), bytes],
      ['TokenizerStream', (f: (e: ParseError) => void) => new TokenizerStream({ onParseError: f }), html],
      ['TokenizerByteStream', (f: (e: ParseError) => void) => new TokenizerByteStream({ onParseError: f }), bytes],
    ] as const) {
      const errors: ParseError[] = [];
      await run(make((e) => errors.push(e)) as never, chunk);
      const plain = errors.map(({ code, offset, line, col }) => ({ code, offset, line, col }));
      expect(plain, name).toEqual(expected);
      if (chunk instanceof Uint8Array) expect(errors.map((e) => e.byteOffset), name).toEqual(expected.map((e) => e.offset));
    }
    // Without the tree builder, only the tokenizer's errors.
    const tokenizerOnly: ParseError[] = [];
    await run(new TokenizerStream({ treeBuilder: false, onParseError: (e) => tokenizerOnly.push(e) }) as never, html);
    expect(tokenizerOnly.map((e) => e.code)).toEqual(['unknown-named-character-reference']);
    const tokenizerOnlyBytes: ParseError[] = [];
    await run(new TokenizerByteStream({ treeBuilder: false, onParseError: (e) => tokenizerOnlyBytes.push(e) }) as never, bytes);
    expect(tokenizerOnlyBytes.map((e) => [e.code, e.byteOffset])).toEqual([['unknown-named-character-reference', 6]]);
  });

  it('names the old options when they are given', () => {
    expect(() => new Parser(new DomTreeSink(), { onTokenizerError: () => {} } as never)).toThrow(/onTokenizerError is now options.onParseError/);
    expect(() => new Parser(new DomTreeSink(), { onError: () => {} } as never)).toThrow(/onError is now options.onParseError/);
    expect(() => new Parser(new DomTreeSink(), { onParseError: 1 as never })).toThrow(/onParseError must be a function/);
    expect(() => parse('', { onParseError: 1 as never })).toThrow(/onParseError must be a function/);
    expect(() => new TreeBuilderStream({ onParseError: 1 as never })).toThrow(/onParseError must be a function/);
    expect(() => new Tokenizer({ onParseError: () => {}, onError: () => {} })).toThrow(/not both/);
  });
});
