/**
 * UTF-16LE/BE documents on the byte path (issue 15 item 4): decoded as the Encoding Standard's UTF-16
 * decoder does (the platform's TextDecoder, which `parse(bytes)` uses), untouched input copied as its own
 * bytes (BOM, lone surrogates and an odd final byte included), content written in UTF-16 in the
 * document's byte order — for any bytes and any chunking (between a code unit's two bytes, between
 * surrogates, inside the BOM).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse, serialize } from '@sluice/dom';
import { HTMLRewriter } from '@sluice/rewriter';
import { Utf16Input, encodeUtf16 } from '../src/transform/utf16-input.js';
import { tagSoup } from './helpers/soup.js';

type Order = 'le' | 'be';
const label = (order: Order): string => (order === 'le' ? 'utf-16le' : 'utf-16be');

/** `s`'s code units (lone surrogates as they are) in `order`, after a BOM if `bom`. */
function utf16(s: string, order: Order, bom: boolean): Uint8Array {
  const units = bom ? `\ufeff${s}` : s;
  const out = new Uint8Array(units.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < units.length; i++) view.setUint16(i * 2, units.charCodeAt(i), order === 'le');
  return out;
}

/** The platform's decoding, the BOM kept as text (what the byte path tokenizes). */
const decode = (b: Uint8Array, order: Order): string => new TextDecoder(label(order), { ignoreBOM: true }).decode(b);

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function split(b: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (b.length + 1)))].sort((x, y) => x - y);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, b.length]) {
    out.push(b.slice(prev, p));
    prev = p;
  }
  return out;
}

type Options = Parameters<HTMLRewriter['createByteTransformer']>[1];

async function viaBytes(setup: (r: HTMLRewriter) => void, chunks: readonly Uint8Array[], options: Options): Promise<Uint8Array> {
  const r = new HTMLRewriter();
  setup(r);
  const out: Uint8Array[] = [];
  const t = r.createByteTransformer((b) => out.push(b), options);
  for (const c of chunks) await t.write(c);
  await t.end();
  return concat(out);
}

async function viaString(setup: (r: HTMLRewriter) => void, text: string): Promise<string> {
  const r = new HTMLRewriter();
  setup(r);
  let out = '';
  const t = r.createTransformer((s) => (out += s));
  await t.write(text);
  await t.end();
  return out;
}

/** The output, or the error's message (offsets count differently on the two paths). */
async function outcome<T>(run: () => Promise<T>): Promise<{ out: T } | { error: string }> {
  try {
    return { out: await run() };
  } catch (err) {
    return { error: (err as Error).message.replace(/offset \d+/g, 'offset N') };
  }
}

/** Handlers that change the output in several ways (optionally behind a promise). */
function rewriteSome(r: HTMLRewriter, async = false): void {
  const wait = async ? () => Promise.resolve() : () => undefined;
  r.on('a', {
    element(el) {
      el.setAttribute('data-x', 'ü😀');
      el.before('«日»');
      return wait();
    },
  });
  r.on('p', {
    element(el) {
      el.prepend('¶');
      if (el.canHaveContent) el.onEndTag((end) => end.after('↵'));
      return wait();
    },
  });
  r.on('b', { element: (el) => void el.remove() });
  r.on('i', { element: (el) => void el.setInnerContent('<ok>😀</ok>', { html: true }) });
  r.on('*', { comments: (c) => void c.replace('[c]') });
  r.onDocument({ end: (e) => void e.append('∎') });
}

/**
 * What handlers read: elements and attributes in order, and text and comments in order (adjacent text
 * joined) — two lists: where leading text falls among the implied elements depends on the chunking.
 */
function readings(r: HTMLRewriter, seen: string[], tags: string[] = seen): void {
  const push = (s: string): void => {
    if (s.startsWith('text ') && seen.length > 0 && seen[seen.length - 1]!.startsWith('text ')) seen[seen.length - 1] += s.slice(5);
    else seen.push(s);
  };
  r.on('*', {
    element(el) {
      tags.push(`<${el.tagName}>`);
      for (const [name, value] of el.attributes) tags.push(`${el.tagName} ${name}=${value}`);
    },
  });
  // (The document's text, not an element's: whether leading text is in an implied <body> yet depends on
  // the chunking, on every path.)
  r.onDocument({ text: (t) => push(`text ${t.text}`), comments: (c) => push(`comment ${c.text}`) });
}

/** Text with non-BMP characters, lone surrogates of both kinds, U+FEFF and U+FFFD among the markup. */
const unit = fc.constantFrom('é', '日本', '😀', '\ud83d', '\ude00', '\ud83d<', '\ufeff', '\ufffd', '\u0000', '<a title="😀">', '<p title=日>', '\ud800\ud800\udc00');
const doc = fc.array(fc.oneof({ weight: 3, arbitrary: tagSoup }, { weight: 2, arbitrary: unit }), { maxLength: 8 }).map((p) => p.join(''));
/** A UTF-16 document: with or without its BOM (then the encoding comes from an option), maybe an odd final byte. */
const input = fc.record({ text: doc, order: fc.constantFrom<Order>('le', 'be'), bom: fc.boolean(), odd: fc.option(fc.nat(255), { nil: undefined }), how: fc.constantFrom('encoding', 'contentType') });
const cuts = fc.oneof(fc.array(fc.nat(), { maxLength: 10 }), fc.constant([-1])); // [-1]: one byte at a time

function bytesOf(i: { text: string; order: Order; bom: boolean; odd: number | undefined }): Uint8Array {
  const b = utf16(i.text, i.order, i.bom);
  return i.odd === undefined ? b : concat([b, Uint8Array.of(i.odd)]);
}

/** With a BOM, nothing needs saying (the BOM decides); without, an option names the encoding. */
function optionsOf(i: { order: Order; bom: boolean; how: string }): Options {
  if (i.bom) return {};
  return i.how === 'encoding' ? { encoding: label(i.order) } : { contentType: `text/html; charset=${label(i.order).toUpperCase()}` };
}

const chunksOf = (b: Uint8Array, c: readonly number[]): Uint8Array[] => (c[0] === -1 ? Array.from(b, (_, k) => b.slice(k, k + 1)) : split(b, c));

/** The refusals of a handler's change that a browser reading the output would place elsewhere. */
const MISPLACED = /cannot be written so that a browser builds the same tree|is moved by the adoption agency algorithm after its start tag/;

describe('the UTF-16 decoding (utf16-input.ts)', () => {
  it('gives the platform TextDecoder\'s text, for any bytes and any chunking, and each character\'s bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }).map((b) => b.map((x) => (x % 4 === 0 ? [0xd8, 0xdc, 0xdb, 0x3c][x % 16 >> 2]! : x))), fc.array(fc.nat(), { maxLength: 6 }), fc.constantFrom<Order>('le', 'be'), (b, c, order) => {
        const input = new Utf16Input(order === 'be');
        let text = '';
        const starts: number[] = [];
        let base = 0;
        const chunks = split(b, c);
        chunks.forEach((chunk, k) => {
          const piece = input.write(chunk, k === chunks.length - 1);
          if (piece === null) return;
          text += piece.text;
          for (const o of piece.srcOf) starts.push(o < 0 ? o : base + o);
          base += piece.source.length;
        });
        expect(text).toBe(decode(b, order));
        expect(base).toBe(b.length);
        // Each character that is no error is its own code units, at the offset given.
        for (let k = 0; k < text.length; k++) {
          if (starts[k]! < 0 || text[k] === '\ufffd') continue;
          const unitAt = order === 'le' ? b[starts[k]!]! | (b[starts[k]! + 1]! << 8) : (b[starts[k]!]! << 8) | b[starts[k]! + 1]!;
          expect(unitAt).toBe(text.charCodeAt(k));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('encodes in either byte order; a lone surrogate becomes U+FFFD', () => {
    expect(Array.from(encodeUtf16('a😀é', false))).toEqual([0x61, 0, 0x3d, 0xd8, 0x00, 0xde, 0xe9, 0]);
    expect(Array.from(encodeUtf16('a😀é', true))).toEqual([0, 0x61, 0xd8, 0x3d, 0xde, 0x00, 0, 0xe9]);
    expect(Array.from(encodeUtf16('\ud83dx\ude00', false))).toEqual([0xfd, 0xff, 0x78, 0, 0xfd, 0xff]);
  });
});

describe('the byte path in UTF-16', () => {
  it('untouched: the output is the input, byte for byte, for any bytes and any chunking (handlers reading everything)', async () => {
    await fc.assert(
      fc.asyncProperty(input, cuts, async (i, c) => {
        const b = bytesOf(i);
        expect(await viaBytes((r) => readings(r, []), chunksOf(b, c), optionsOf(i))).toEqual(b);
      }),
      { numRuns: 400 },
    );
  });

  it('random bytes after a BOM pass through unchanged, for any chunking', async () => {
    const bytes = fc.uint8Array({ maxLength: 60 }).map((b) => b.map((x) => (x % 3 === 0 ? [0x3c, 0x3e, 0, 0xd8, 0xdc, 0x22][x % 6]! : x)));
    await fc.assert(
      fc.asyncProperty(bytes, fc.constantFrom<Order>('le', 'be'), cuts, async (body, order, c) => {
        const b = concat([order === 'le' ? Uint8Array.of(0xff, 0xfe) : Uint8Array.of(0xfe, 0xff), body]);
        expect(await viaBytes((r) => r.on('*', { element() {} }), chunksOf(b, c), {})).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it('handlers read the decoded text, and what they write decodes to the string rewriter\'s output on the decoded text (sync and async handlers)', async () => {
    for (const async of [false, true]) {
      await fc.assert(
        fc.asyncProperty(input, cuts, async (i, c) => {
          const b = bytesOf(i);
          const text = decode(b, i.order);
          const [seenBytes, tagsBytes, seenText, tagsText]: string[][] = [[], [], [], []];
          await viaBytes((r) => readings(r, seenBytes, tagsBytes), chunksOf(b, c), optionsOf(i));
          await viaString((r) => readings(r, seenText, tagsText), text);
          expect(seenBytes).toEqual(seenText);
          expect(tagsBytes).toEqual(tagsText);
          const got = await outcome(async () => decode(await viaBytes((r) => rewriteSome(r, async), chunksOf(b, c), optionsOf(i)), i.order));
          // The same handlers, sync or async, on the string path: an async handler runs later, so a
          // change the adoption agency would misplace can be refused at the handler's call rather than at
          // the move — the same refusal, another message (docs/rewriter.md, "Held output").
          // Async handlers also run at other points on the two paths (the byte path awaits the decoder),
          // so which of two refusals of one document is met first can differ: both must refuse, with
          // one of the two refusals of a change the adoption agency would misplace (alignment.ts, and
          // moved-content.ts for a moved element whose content changed at its start).
          const want = await outcome(() => viaString((r) => rewriteSome(r, async), text));
          if (async && 'error' in got && 'error' in want && got.error !== want.error) {
            expect(got.error).toMatch(MISPLACED);
            expect(want.error).toMatch(MISPLACED);
          } else {
            expect(got).toEqual(want);
          }
        }),
        { numRuns: async ? 150 : 300 },
      );
    }
  });

  it('the output reparsed with sluice\'s sniffing is the string rewriter\'s tree', async () => {
    await fc.assert(
      fc.asyncProperty(input, cuts, async (i, c) => {
        const b = bytesOf(i);
        const rewritten = await outcome(() => viaBytes((r) => rewriteSome(r), chunksOf(b, c), optionsOf(i)));
        const fromText = await outcome(() => viaString((r) => rewriteSome(r), decode(b, i.order)));
        if (!('out' in rewritten) || !('out' in fromText)) {
          expect('error' in rewritten && 'error' in fromText).toBe(true);
          return;
        }
        const doc = parse(rewritten.out, i.bom ? {} : { contentType: `text/html;charset=${label(i.order)}` });
        expect(doc.characterSet).toBe(i.order === 'le' ? 'UTF-16LE' : 'UTF-16BE');
        expect(serialize(doc)).toBe(serialize(parse(fromText.out)));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the BOM and the byte order; written content is UTF-16 in that order', async () => {
    for (const order of ['le', 'be'] as const) {
      const b = utf16('<!doctype html><title>t</title><p title="é">日本😀 &amp; x</p><a href=x>y</a>', order, true);
      const out = await viaBytes((r) => r.on('a', { element: (el) => void (el.setAttribute('data-x', 'ü😀'), el.append('∎')) }), [b], {});
      expect(Array.from(out.subarray(0, 2))).toEqual(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]);
      expect(decode(out, order)).toBe('\ufeff<!doctype html><title>t</title><p title="é">日本😀 &amp; x</p><a href=x data-x="ü😀">y∎</a>');
      const doc = parse(out);
      expect(doc.characterSet).toBe(order === 'le' ? 'UTF-16LE' : 'UTF-16BE');
      expect(doc.title).toBe('t'); // the BOM is no text: <title> is in the head
      expect(doc.body!.innerHTML).toBe('<p title="é">日本😀 &amp; x</p><a href="x" data-x="ü😀">y∎</a>');
    }
  });

  it('a lone surrogate a handler writes becomes U+FFFD (as in UTF-8 output); malformed source stays as its bytes', async () => {
    const b = concat([utf16('<p>\ud83d<a>x</a>', 'le', true), Uint8Array.of(0x3c)]); // a lone lead surrogate, an odd final byte
    const out = await viaBytes((r) => r.on('a', { element: (el) => void el.append('\ude00!') }), [b], {});
    expect(decode(out, 'le')).toBe('\ufeff<p>\ufffd<a>x\ufffd!</a>\ufffd');
    expect(out.subarray(0, 8)).toEqual(b.subarray(0, 8)); // BOM, <p>, and D83D as it was
    expect(out.at(-1)).toBe(0x3c);
  });

  it('an error at a cut in the output is written as U+FFFD\'s own code unit: nothing joins it or is misaligned by it', async () => {
    for (const order of ['le', 'be'] as const) {
      // A lone lead surrogate, then an element that is removed, then a lone trail surrogate: D83D DE00
      // side by side would be one character, 😀.
      const joined = utf16('<p>\ud83d<b>x</b>\ude00</p>', order, true);
      const removed = await viaBytes((r) => r.on('b', { element: (el) => void el.remove() }), chunksOf(joined, [-1]), {});
      expect(decode(removed, order)).toBe('\ufeff<p>\ufffd\ufffd</p>');
      // An odd final byte (alone, and after a lead surrogate), then content at the end of the document.
      for (const tail of [[0x3c], order === 'le' ? [0x3d, 0xd8, 0x3c] : [0xd8, 0x3d, 0x3c]]) {
        const odd = concat([utf16('<p>x', order, true), Uint8Array.of(...tail)]);
        const appended = await viaBytes((r) => r.onDocument({ end: (e) => void e.append('∎') }), chunksOf(odd, [-1]), {});
        expect(decode(appended, order)).toBe('\ufeff<p>x\ufffd∎');
        expect(await viaBytes((r) => r.onDocument({ end: () => {} }), chunksOf(odd, [-1]), {})).toEqual(odd); // untouched: as it was
      }
    }
  });

  it('ISO-2022-JP and replacement are still refused, naming the encoding', async () => {
    await expect(viaBytes(() => {}, [new TextEncoder().encode('<p>x')], { encoding: 'iso-2022-jp' })).rejects.toThrow(/ISO-2022-JP input is not rewritten \(not ASCII-compatible/);
    await expect(viaBytes(() => {}, [new TextEncoder().encode('<p>x')], { contentType: 'text/html; charset=iso-2022-kr' })).rejects.toThrow(/replacement input is not rewritten/);
  });
});
