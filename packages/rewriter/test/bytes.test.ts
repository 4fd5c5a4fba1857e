/**
 * The byte interface (`createByteTransformer`, and `transform` on byte streams): UTF-8 in and out, the
 * same bytes as decoding with a streaming TextDecoder, rewriting the text, and encoding with a
 * TextEncoder — for any bytes (malformed UTF-8 included) and any chunking.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HTMLRewriter } from '@sluice/rewriter';
import { tagSoup } from './helpers/soup.js';

const encoder = new TextEncoder();

/** What the string path gives: streaming decode (BOM kept), rewrite as one string, encode. */
async function viaStrings(setup: (r: HTMLRewriter) => void, input: Uint8Array): Promise<Uint8Array> {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(input);
  const r = new HTMLRewriter();
  setup(r);
  let out = '';
  const t = r.createTransformer((s) => (out += s));
  await t.write(text);
  await t.end();
  return encoder.encode(out);
}

/** The string path fed the same chunks, each decoded by a streaming TextDecoder (BOM kept). */
async function viaStringChunks(setup: (r: HTMLRewriter) => void, chunks: readonly Uint8Array[]): Promise<void> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const r = new HTMLRewriter();
  setup(r);
  const t = r.createTransformer(() => {});
  for (const c of chunks) await t.write(decoder.decode(c, { stream: true }));
  await t.write(decoder.decode());
  await t.end();
}

async function viaBytes(setup: (r: HTMLRewriter) => void, chunks: readonly Uint8Array[]): Promise<{ out: Uint8Array; pieces: Uint8Array[] }> {
  const r = new HTMLRewriter();
  setup(r);
  const pieces: Uint8Array[] = [];
  const t = r.createByteTransformer((b) => pieces.push(b));
  for (const c of chunks) await t.write(c);
  await t.end();
  return { out: concat(pieces), pieces };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function splitBytes(b: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (b.length + 1)))].sort((x, y) => x - y);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const c of at) {
    out.push(b.subarray(prev, c));
    prev = c;
  }
  out.push(b.subarray(prev));
  return out;
}

/** UTF-8 sequences cut short, overlong, surrogate, out of range, stray continuation bytes. */
const badSequence = fc.constantFrom(
  [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80], [0xf5], [0xff], [0x80], [0xbf, 0xbf], [0xef, 0xbb, 0xbf],
);
const textBytes = fc
  .oneof(fc.string({ unit: 'binary', maxLength: 40 }), tagSoup, fc.constantFrom('é', '€', '😀', '<a href="é">ü</a>', '\ufffd'))
  .map((s) => encoder.encode(s));
const anyBytes = fc.array(fc.oneof(textBytes, badSequence.map((a) => new Uint8Array(a)), fc.uint8Array({ maxLength: 12 })), { maxLength: 6 }).map(concat);
const cuts = fc.array(fc.nat(), { maxLength: 8 });

/** Handlers that change the output in several ways, deterministically for any chunking. */
/** What a rewrite gave: its output, or the message of the error it failed with. */
async function outcome(run: () => Promise<Uint8Array>): Promise<{ out: Uint8Array } | { error: string }> {
  try {
    return { out: await run() };
  } catch (err) {
    // (Offsets count bytes on the byte path and UTF-16 code units on the string path.)
    return { error: (err as Error).message.replace(/offset \d+/g, 'offset N') };
  }
}

function rewriteSome(r: HTMLRewriter, async: boolean): void {
  const wait = async ? () => Promise.resolve() : () => undefined;
  r.on('a', {
    element(el) {
      el.setAttribute('data-x', 'ü');
      el.before('«');
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
  r.on('i', { element: (el) => void el.setInnerContent('<ok>', { html: true }) });
  r.on('*', { comments: (c) => void c.replace('[c]') });
  r.onDocument({ end: (e) => void e.append('∎') });
}

/**
 * Markup whose handler-visible values differ between byte form and text if anything is read from the
 * wrong one: non-ASCII names and values, references, NULs against literal U+FFFD.
 */
const nonAsciiPiece = fc.constantFrom(
  '<a href="é&eacute;&#xE9;&#0;" title=ü>', '<A TITLE=&uuml; class="café x">', '<p\0é x="\0">', '</p\ufffdé>', '<café data-ö=1>',
  'é&eacute;&notin;&#128512;', '\0x\r\n', '<!--é\0&amp;-->', '<!doctype HTMLé PUBLIC "é\0" "&amp;ü">', '<textarea>é&lt;\0</textarea>',
  '<b title="&eacute;">', '<b title="é">', '<p>', '</b>', '<table>é<tr>ü', '<svg><![CDATA[é\0]]><é/></svg>', '\ufffd', '😀', '<div lang="é-x">',
);
const nonAsciiMarkup = fc
  .array(fc.oneof(nonAsciiPiece, tagSoup, fc.string({ unit: 'grapheme', maxLength: 6 })), { maxLength: 10 })
  .map((p) => p.join(''));

/** Selectors with non-ASCII names and values (matched in byte form on the byte path). */
const NON_ASCII_SELECTORS = ['[title="é"]', '.café', '[href*="é"]', '[lang|="é" i]', 'café', '[data-ö]', '.\\e9', 'b[title^="\\e9"]'];

/** Handlers that record everything a handler can read, into `log`. `offsetOf` maps sourceOffset to bytes. */
function readAll(r: HTMLRewriter, log: unknown[], offsetOf: (n: number) => number): void {
  let text = '';
  r.on('*', {
    element(el) {
      log.push(['element', el.tagName, [...el.attributes], el.namespaceURI, el.implied, el.selfClosing, el.canHaveContent, offsetOf(el.sourceOffset)]);
      for (const [name] of el.attributes) log.push(['get', name, el.getAttribute(name), el.hasAttribute(name)]);
      if (el.canHaveContent) el.onEndTag((end) => void log.push(['end', end.name]));
    },
  });
  for (const selector of NON_ASCII_SELECTORS) r.on(selector, { element: (el) => void log.push(['matched', selector, el.tagName]) });
  r.onDocument({
    doctype: (d) => void log.push(['doctype', d.name, d.publicId, d.systemId]),
    comments: (c) => void log.push(['comment', c.text]),
    // Text chunks are cut where the input was: compare whole text nodes.
    text(t) {
      text += t.text;
      if (t.lastInTextNode) {
        log.push(['text', text]);
        text = '';
      }
    },
  });
}

describe('bytes in, bytes out', () => {
  it('handlers read the same text, attributes and matches as from strings; sourceOffset counts bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(nonAsciiMarkup, anyBytes.map((b) => new TextDecoder().decode(b))), cuts, async (text, c) => {
        const input = encoder.encode(text);
        // What the byte path tokenizes: the input as TextDecoder → TextEncoder leaves it.
        const decoded = new TextDecoder('utf-8', { ignoreBOM: true }).decode(input);
        const chunks = splitBytes(input, c);
        const expected: unknown[] = [];
        await viaStringChunks((r) => readAll(r, expected, (n) => encoder.encode(decoded.slice(0, n)).length), chunks);
        const log: unknown[] = [];
        await viaBytes((r) => readAll(r, log, (n) => n), chunks);
        expect(log).toEqual(expected);
      }),
      { numRuns: 600 },
    );
  });

  it('matches selectors with non-ASCII names and values, and changes elements with non-ASCII attributes', async () => {
    const text = '<p title="é">1</p><p title="&eacute;">2</p><p class="café">3</p><p class=é>4</p><a href="/é/&#xE9;">5</a>';
    const setup = (r: HTMLRewriter): void => {
      r.on('[title="é"]', { element: (el) => void el.setAttribute('data-m', el.getAttribute('title')!) });
      r.on('.café, .\\e9', { element: (el) => void el.prepend('→') });
      r.on('a[href$="é"]', { element: (el) => void el.setAttribute('href', el.getAttribute('href')!.toUpperCase()) });
    };
    const expected = new TextDecoder().decode(await viaStrings(setup, encoder.encode(text)));
    expect(expected).toBe(
      '<p title="é" data-m="é">1</p><p title="&eacute;" data-m="é">2</p><p class="café">→3</p><p class=é>→4</p><a href="/É/É">5</a>',
    );
    const { out } = await viaBytes(setup, [encoder.encode(text)]);
    expect(new TextDecoder().decode(out)).toBe(expected);
  });

  it('matches a foreign element with a non-ASCII name by type (candidates looked up by its ASCII-lowercased name)', async () => {
    const matched: string[] = [];
    await viaBytes((r) => r.on('café', { element: (el) => void matched.push(el.tagName) }), [encoder.encode('<svg><café data-ö=1><CAFÉ>')]);
    expect(matched).toEqual(['café']); // not <CAFÉ>: type selectors fold ASCII letters only
  });

  it('sourceOffset counts bytes', async () => {
    const offsets: number[] = [];
    await viaBytes((r) => r.on('b', { element: (el) => void offsets.push(el.sourceOffset) }), [encoder.encode('é😀<b>x</b>€<b>')]);
    expect(offsets).toEqual([6, 17]);
  });


  it('passthrough: valid UTF-8 comes back byte for byte, for any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(textBytes, cuts, async (input, c) => {
        const { out } = await viaBytes((r) => r.on('*', { element() {} }), splitBytes(input, c));
        expect(out).toEqual(input);
      }),
      { numRuns: 400 },
    );
  });

  it('any bytes, any chunking: the same bytes as decode → rewrite → encode', async () => {
    for (const async of [false, true]) {
      await fc.assert(
        fc.asyncProperty(anyBytes, cuts, async (input, c) => {
          // The same output, or the same error (a change to a copy of a formatting element that markup
          // cannot express is refused: see copies.ts), from the same handlers, sync or async, on strings: an
          // async handler runs later, so a change an adoption-agency move would misplace can be refused at
          // the handler's call rather than at the move (the same refusal, another message).
          const expected = await outcome(() => viaStrings((r) => rewriteSome(r, async), input));
          const got = await outcome(async () => (await viaBytes((r) => rewriteSome(r, async), splitBytes(input, c))).out);
          expect(got).toEqual(expected);
        }),
        { numRuns: async ? 200 : 500 },
      );
    }
  });

  it('regression (FC_SEED=182220222): `&00` cut after `&0` reads the same tail as whole (boundaries.ts), on both paths', async () => {
    const input = encoder.encode('&00');
    const expected = await viaStrings((r) => rewriteSome(r, false), input);
    expect(new TextDecoder().decode(expected)).toBe('&00&#8718;');
    for (const async of [false, true]) {
      for (const c of [[], [1], [2], [1, 2]]) expect((await viaBytes((r) => rewriteSome(r, async), splitBytes(input, c))).out).toEqual(expected);
    }
    // The seed itself, as the property above ran it.
    await fc.assert(
      fc.asyncProperty(anyBytes, cuts, async (bytes, c) => {
        const want = await outcome(() => viaStrings((r) => rewriteSome(r, false), bytes));
        expect(await outcome(async () => (await viaBytes((r) => rewriteSome(r, false), splitBytes(bytes, c))).out)).toEqual(want);
      }),
      { seed: 182220222, numRuns: 250 },
    );
  });

  it('malformed UTF-8 becomes U+FFFD, as TextDecoder decodes it', async () => {
    const input = new Uint8Array([0x3c, 0x70, 0x3e, 0xe2, 0x82, 0x3c, 0x2f, 0x70, 0x3e, 0xf0, 0x9f]);
    const { out } = await viaBytes(() => {}, [input.subarray(0, 4), input.subarray(4, 10), input.subarray(10)]);
    expect(new TextDecoder().decode(out)).toBe('<p>\ufffd</p>\ufffd');
  });

  it('a character split across chunks is decoded whole', async () => {
    const input = encoder.encode('<p>😀é</p>');
    const chunks = Array.from(input, (_, i) => input.subarray(i, i + 1));
    const { out } = await viaBytes((r) => r.on('p', { element: (el) => void el.setAttribute('title', '😀') }), chunks);
    expect(new TextDecoder().decode(out)).toBe('<p title="😀">😀é</p>');
  });

  it('each output is a new array: changing the input afterwards changes nothing', async () => {
    const input = encoder.encode('<p>hello <a href="x">world</a></p>');
    const pieces: Uint8Array[] = [];
    const t = new HTMLRewriter().on('a', { element() {} }).createByteTransformer((b) => pieces.push(b));
    t.write(input);
    input.fill(0x21);
    t.end();
    expect(new TextDecoder().decode(concat(pieces))).toBe('<p>hello <a href="x">world</a></p>');
  });

  it('output behind an async handler is released in order', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pieces: Uint8Array[] = [];
    const t = new HTMLRewriter().on('div', { element: () => gate }).createByteTransformer((b) => pieces.push(b));
    const input = encoder.encode('<p>é</p><div>ü</div><p>x</p>');
    const p = t.write(input.subarray(0, 15)); // `<div>` and the first byte of `ü`
    expect(p).toBeInstanceOf(Promise);
    expect(new TextDecoder().decode(concat(pieces))).toBe('<p>é</p>');
    const p2 = t.write(input.subarray(15));
    release();
    await p;
    await p2;
    await t.end();
    expect(concat(pieces)).toEqual(input);
  });

  it('changing the input after write() returned a promise changes nothing (async handlers)', async () => {
    const text = '<p>é</p><div>ü</div><p>x</p><div>y</div>';
    const input = encoder.encode(text);
    const pieces: Uint8Array[] = [];
    const t = new HTMLRewriter()
      .on('div', { element: () => new Promise<void>((resolve) => setTimeout(resolve, 1)) })
      .on('p', { element: () => Promise.resolve() })
      .createByteTransformer((b) => pieces.push(b));
    const p = t.write(input);
    expect(p).toBeInstanceOf(Promise);
    input.fill(0x21);
    await p;
    await t.end();
    expect(new TextDecoder().decode(concat(pieces))).toBe(text);
  });

  it('rejects chunks that are not Uint8Array', () => {
    const t = new HTMLRewriter().createByteTransformer(() => {});
    expect(() => t.write('<p>' as unknown as Uint8Array)).toThrow(/expected a Uint8Array chunk, got string/);
  });
});

describe('chunks larger than the byte transformer\'s slice (16 KiB)', () => {
  // Multi-byte characters everywhere, so that the 16 KiB cuts fall inside sequences; a tag, a comment
  // and a reference now and then, so that tokens span the cuts too.
  const unit = '<p title="é€">ünï€😀 text &eacute; <!-- ç --></p>';
  const big = encoder.encode(`<!DOCTYPE html><body>${unit.repeat(1200)}</body>`);

  it('passes a large chunk through unchanged', async () => {
    expect(big.length).toBeGreaterThan(3 * 16 * 1024);
    const { out, pieces } = await viaBytes(() => {}, [big]);
    expect(out).toEqual(big);
    // Output is released per slice: more than one piece for one chunk.
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('gives the string path\'s output and text with an async handler, and reads no byte of the chunk after write() returned', async () => {
    // Text handlers see each text chunk's characters: a slice cut inside a character would show as U+FFFD.
    // (How text splits into chunks depends on the input's chunking, so the texts are compared joined.)
    const setup = (r: HTMLRewriter, texts: string[]): void => {
      r.on('p', {
        async element(el) {
          await Promise.resolve();
          el.setAttribute('data-t', el.getAttribute('title') ?? '');
        },
        text(chunk) {
          texts.push(chunk.text);
        },
      });
    };
    const expectedTexts: string[] = [];
    const expected = await viaStrings((r) => setup(r, expectedTexts), big);
    const texts: string[] = [];
    const r = new HTMLRewriter();
    setup(r, texts);
    const pieces: Uint8Array[] = [];
    const t = r.createByteTransformer((b) => pieces.push(b));
    const chunk = big.slice();
    const pending = t.write(chunk);
    // The caller may reuse its buffer once write() has returned.
    chunk.fill(0x41);
    await pending;
    await t.end();
    expect(new TextDecoder().decode(concat(pieces))).toBe(new TextDecoder().decode(expected));
    expect(texts.join('')).toBe(expectedTexts.join(''));
  });
});
