/**
 * `Parser` with `Uint8Array` chunks: the decoder stage (HTML §13.2.3) in front of the tokenizer. The tree
 * and the encoding must not depend on where the chunks split — every split of small inputs, multi-byte
 * characters split across chunks, a `<meta charset>` split across chunks, the sniffing's 1024-byte
 * boundary — and strings must still parse exactly as before.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { DomTreeSink, toTestFormat, type Node } from '@sluice/dom';
import type { EncodingChange } from '@sluice/encoding';
import { Parser, type ParserOptions } from '../src/index.js';

interface Outcome {
  tree: string;
  encoding: string | null;
  confidence: string | null;
  change: EncodingChange | null;
}

function parseChunks(chunks: readonly (Uint8Array | string)[], options: ParserOptions<Node> = {}): Outcome {
  const sink = new DomTreeSink();
  const parser = new Parser<Node>(sink, options);
  for (const c of chunks) parser.write(c);
  parser.end();
  return { tree: toTestFormat(sink.document), encoding: parser.encoding, confidence: parser.confidence, change: parser.encodingChange };
}

/** Every way to cut `bytes` into chunks with at most `maxCuts` cuts (all 2^(n−1) ways when maxCuts ≥ n − 1). */
function* everySplit(bytes: Uint8Array, maxCuts = Infinity): Generator<Uint8Array[]> {
  const n = bytes.length;
  function* cutSets(from: number, left: number): Generator<number[]> {
    yield [];
    if (left === 0) return;
    for (let i = from; i < n; i++) for (const rest of cutSets(i + 1, left - 1)) yield [i, ...rest];
  }
  for (const cuts of cutSets(1, Math.min(maxCuts, Math.max(0, n - 1)))) {
    const chunks: Uint8Array[] = [];
    let from = 0;
    for (const c of cuts) {
      chunks.push(bytes.subarray(from, c));
      from = c;
    }
    chunks.push(bytes.subarray(from));
    yield chunks;
  }
}

function randomSplit(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  return out;
}

// iconv-lite makes the test data; it is a devDependency of @sluice/encoding, not of this package.
const iconv = createRequire(new URL('../../encoding/package.json', import.meta.url))('iconv-lite') as {
  encode(text: string, encoding: string): Uint8Array;
};
const enc = (text: string, encoding: string) => new Uint8Array(iconv.encode(text, encoding));

describe('Parser: bytes in', () => {
  it('every split of small inputs gives the same tree and encoding', () => {
    const inputs: [Uint8Array, ParserOptions<Node>][] = [
      [enc('<p>é€😀', 'utf-8'), { encoding: 'utf-8' }], // multi-byte UTF-8, split everywhere
      [new Uint8Array([0xef, 0xbb, 0xbf, ...enc('<b>é', 'utf-8')]), {}], // the BOM split too
      [new Uint8Array([0xff, 0xfe, ...enc('<i>😀', 'utf-16le')]), {}], // a surrogate pair's four bytes
      [enc('<i>你好', 'gbk'), { contentType: 'text/html; charset=gbk' }],
      [enc('<i>日本', 'shift_jis'), { encoding: 'shift_jis' }],
    ];
    for (const [bytes, options] of inputs) {
      expect(bytes.length).toBeLessThanOrEqual(13);
      const whole = parseChunks([bytes], options);
      let n = 0;
      for (const chunks of everySplit(bytes)) {
        expect(parseChunks(chunks, options)).toEqual(whole);
        n++;
      }
      expect(n).toBe(2 ** (bytes.length - 1));
    }
  });

  it('a <meta charset> split anywhere (every split with up to three cuts) gives the same tree and encoding', () => {
    for (const bytes of [enc('<meta charset=sjis>日本', 'shift_jis'), enc('<meta http-equiv=content-type content=charset=gbk>你', 'gbk')]) {
      const whole = parseChunks([bytes]);
      expect(whole.encoding).not.toBe('windows-1252');
      let n = 0;
      for (const chunks of everySplit(bytes, 3)) {
        expect(parseChunks(chunks)).toEqual(whole);
        n++;
      }
      const k = bytes.length - 1;
      expect(n).toBe(1 + k + (k * (k - 1)) / 2 + (k * (k - 1) * (k - 2)) / 6);
    }
  });

  it('random splits of larger pages, around the 1024-byte prescan, in several encodings', () => {
    const pages: [Uint8Array, ParserOptions<Node>][] = [
      [enc(`<!DOCTYPE html><meta charset=euc-jp><title>日本語</title>${'<p>テキスト'.repeat(150)}`, 'euc-jp'), {}],
      [enc(`<!--${'x'.repeat(1005)}--><meta charset=koi8-r><p>привет`, 'koi8-r'), {}], // the <meta> straddles byte 1024
      [enc(`<p>${'é'.repeat(600)}<meta charset=utf-8>`, 'utf-8'), {}], // past 1024: windows-1252, then change the encoding
      [enc(`<meta http-equiv=Content-Type content="text/html; charset=big5">${'<p>中文'.repeat(300)}`, 'big5'), {}],
      [new Uint8Array([0xfe, 0xff, ...enc('<p>'.repeat(400) + '😀', 'utf-16be')]), {}],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...pages), fc.array(fc.nat({ max: 5000 }), { maxLength: 10 }), ([bytes, options], cuts) => {
        expect(parseChunks(randomSplit(bytes, cuts), options)).toEqual(parseChunks([bytes], options));
      }),
      { numRuns: 300 },
    );
  });

  it('sniffs: BOM, override, transport, prescan, default', () => {
    // The prescan's answer is tentative; the tree builder's <meta> then makes it certain (§13.2.3.4 step 4).
    expect(parseChunks([enc('<meta charset=koi8-r>', 'utf-8')])).toMatchObject({ encoding: 'KOI8-R', confidence: 'certain', change: { action: 'none' } });
    expect(parseChunks([enc('<meta charset=koi8-r>', 'utf-8')], { encoding: 'gbk' })).toMatchObject({ encoding: 'GBK', confidence: 'certain' });
    expect(parseChunks([enc('<p>', 'utf-8')], { contentType: 'text/html; charset=euc-kr' })).toMatchObject({ encoding: 'EUC-KR', confidence: 'certain' });
    expect(parseChunks([enc('<p>', 'utf-8')])).toMatchObject({ encoding: 'windows-1252', confidence: 'tentative' });
    expect(parseChunks([enc('<p>', 'utf-8')], { defaultEncoding: 'utf-8' })).toMatchObject({ encoding: 'UTF-8' });
    expect(parseChunks([new Uint8Array([0xef, 0xbb, 0xbf])], { encoding: 'gbk' })).toMatchObject({ encoding: 'UTF-8', confidence: 'certain' });
    expect(parseChunks([])).toMatchObject({ encoding: null, confidence: 'irrelevant' });
  });

  it('decodes the text: the BOM consumed once, a second U+FEFF is text', () => {
    const t = parseChunks([new Uint8Array([0xef, 0xbb, 0xbf, 0x3c, 0x70, 0x3e, 0xc3, 0xa9])]);
    expect(t.tree).toBe('| <html>\n|   <head>\n|   <body>\n|     <p>\n|       "é"');
    const twice = parseChunks([new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x3c, 0x62, 0x3e])]);
    expect(twice.tree).toContain('"\uFEFF"');
    expect(parseChunks([enc('<p>caf\u00e9 \u20ac', 'windows-1252')]).tree).toContain('"café €"');
  });

  it('detects "change the encoding" for a <meta> the prescan did not see (§13.2.3.4)', () => {
    const late = enc(`<title>${'x'.repeat(1100)}</title><meta charset=utf-8><p>é`, 'utf-8');
    const seen: EncodingChange[] = [];
    const out = parseChunks([late], { onEncodingChange: (c) => seen.push(c) });
    expect(out.encoding).toBe('windows-1252');
    expect(out.change).toEqual({ from: 'windows-1252', to: 'UTF-8', action: 'reparse' });
    expect(out.confidence).toBe('certain');
    expect(seen).toEqual([out.change]);
    // The same encoding: certain, no reparse. Certain already: nothing.
    expect(parseChunks([enc(`<title>${'x'.repeat(1100)}</title><meta charset=latin1>`, 'utf-8')]).change).toEqual({ from: 'windows-1252', to: 'windows-1252', action: 'none' });
    expect(parseChunks([late], { contentType: 'text/html;charset=iso-8859-2' }).change).toBeNull();
    // In body too (the "in head" rules), but not in a frameset.
    expect(parseChunks([enc(`<body>${'x'.repeat(1100)}<meta charset=gbk>`, 'utf-8')]).change?.to).toBe('GBK');
    expect(parseChunks([enc(`<frameset>${' '.repeat(1100)}<meta charset=gbk>`, 'utf-8')]).change).toBeNull();
    // http-equiv needs a content that names an encoding.
    expect(parseChunks([enc(`${' '.repeat(1100)}<meta http-equiv=CONTENT-TYPE content="text/html;charset=koi8-r">`, 'utf-8')]).change?.to).toBe('KOI8-R');
    expect(parseChunks([enc(`${' '.repeat(1100)}<meta http-equiv=refresh content="text/html;charset=koi8-r">`, 'utf-8')]).change).toBeNull();
  });

  it('strings parse as before; one parse takes one kind of chunk; fragments take strings', () => {
    expect(parseChunks(['\uFEFF<title>x</title>']).tree).toBe(parseChunks([enc('\uFEFF<title>x</title>', 'utf-8')], { encoding: 'utf-8' }).tree);
    expect(parseChunks(['<p>x'])).toMatchObject({ encoding: null, confidence: 'irrelevant' });
    const p = new Parser<Node>(new DomTreeSink());
    p.write('<p>');
    expect(() => p.write(new Uint8Array([0x41]))).toThrow(/one kind/);
    const q = new Parser<Node>(new DomTreeSink());
    q.write(new Uint8Array([0x41]));
    expect(() => q.write('x')).toThrow(/one kind/);
    const f = new Parser<Node>(new DomTreeSink(), { fragmentContext: { localName: 'div', namespace: 'http://www.w3.org/1999/xhtml' } });
    expect(() => f.write(new Uint8Array([0x41]))).toThrow(/fragment/);
    expect(() => new Parser<Node>(new DomTreeSink(), { encoding: 'nope' })).toThrow(RangeError);
  });
});
