/**
 * `HTMLRewriterByteStream` in every encoding (issue 15): with `contentType`, `encoding` or
 * `defaultEncoding` it sniffs as `HTMLRewriter.transform(stream, options)` does and rewrites in the
 * document's own encoding — windows-1252, Shift_JIS and UTF-16 here, through
 * `readable.pipeThrough(new HTMLRewriterByteStream(…))`, in 1-byte and random chunks, on the runtime's
 * streams and web-streams-polyfill's. Each run races a deadline: a stream that never settles fails the
 * test with a message instead of hanging it.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { decodeBytes, getEncoding } from '@sluice/encoding';
import { parse, serialize } from '@sluice/dom';
import { HTMLRewriter } from '@sluice/rewriter';
import { HTMLRewriterByteStream, type HTMLRewriterByteStreamOptions } from '@sluice/streams';
import { IMPLEMENTATIONS, type Impl, collect, source } from './helpers.js';

// iconv-lite makes the test data (a devDependency of @sluice/encoding).
const iconv = createRequire(new URL('../../encoding/package.json', import.meta.url))('iconv-lite') as { encode(text: string, encoding: string): Uint8Array };
const enc = (text: string, label: string): Uint8Array => new Uint8Array(iconv.encode(text, label));


const DEADLINE_MS = 5000;

/** `run()` raced against the deadline. */
async function withDeadline<T>(what: string, run: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no settlement within ${DEADLINE_MS} ms`)), DEADLINE_MS)));
  try {
    return await Promise.race([run(), deadline]);
  } finally {
    clearTimeout(timer);
  }
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

function split(b: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  if (cuts[0] === -1) return Array.from(b, (_, k) => b.slice(k, k + 1));
  const points = [...new Set(cuts.map((c) => c % (b.length + 1)))].sort((x, y) => x - y);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, b.length]) {
    out.push(b.slice(prev, p));
    prev = p;
  }
  return out;
}

/** UTF-16 with a BOM, from code units. */
function utf16(s: string, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(2 + s.length * 2);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0xfeff, littleEndian);
  for (let i = 0; i < s.length; i++) view.setUint16(2 + i * 2, s.charCodeAt(i), littleEndian);
  return out;
}

/** A rewriter that changes the page and records what its handlers read. */
function rewriter(seen: string[], text: string): HTMLRewriter {
  return new HTMLRewriter()
    .on('p', {
      element(el) {
        seen.push(`p title=${el.getAttribute('title')}`);
        el.setAttribute('data-x', `${text} ✓`);
        el.append(text);
      },
    })
    .on('a', { element: (el) => void el.before('→') });
}

interface Page {
  name: string;
  bytes: Uint8Array;
  options: HTMLRewriterByteStreamOptions;
  encoding: string;
  text: string;
}

const html = (text: string, meta = ''): string => `<!DOCTYPE html><html><head>${meta}<title>${text}</title></head><body><p title="${text}">${text}</p><a href="/x">${text}</a></body></html>`;
const PAGES: Page[] = [
  { name: 'windows-1252, HTTP charset', bytes: enc(html('Café “quoted” — €5'), 'windows-1252'), options: { contentType: 'text/html; charset=ISO-8859-1' }, encoding: 'windows-1252', text: 'Café “quoted” — €5' },
  { name: 'windows-1252, the default asked for', bytes: enc(html('Café naïve'), 'windows-1252'), options: { defaultEncoding: 'windows-1252' }, encoding: 'windows-1252', text: 'Café naïve' },
  { name: 'Shift_JIS, <meta charset>', bytes: enc(html('日本語のテキスト、ｶﾀｶﾅ', '<meta charset="shift_jis">'), 'shift_jis'), options: { defaultEncoding: 'windows-1252' }, encoding: 'Shift_JIS', text: '日本語のテキスト、ｶﾀｶﾅ' },
  { name: 'Shift_JIS, encoding option', bytes: enc(html('表示'), 'shift_jis'), options: { encoding: 'sjis' }, encoding: 'Shift_JIS', text: '表示' },
  { name: 'UTF-16LE with a BOM', bytes: utf16(html('é日😀'), true), options: { defaultEncoding: 'windows-1252' }, encoding: 'UTF-16LE', text: 'é日😀' },
  { name: 'UTF-16BE with a BOM (over an HTTP charset)', bytes: utf16(html('é日😀'), false), options: { contentType: 'text/html;charset=shift_jis' }, encoding: 'UTF-16BE', text: 'é日😀' },
];

async function pipe(impl: Impl, chunks: Uint8Array[], r: HTMLRewriter, options: HTMLRewriterByteStreamOptions): Promise<Uint8Array> {
  return concat(await collect(source(impl, chunks).pipeThrough(new HTMLRewriterByteStream(r, { ...options, streams: impl.streams }))));
}

describe('HTMLRewriterByteStream: encodings', () => {
  for (const impl of IMPLEMENTATIONS) {
    for (const page of PAGES) {
      it(`${impl.name}: ${page.name} — rewritten in its own encoding, the same for 1-byte and random chunks`, async () => {
        const encoding = getEncoding(page.encoding)!;
        // Untouched: the input, byte for byte.
        const untouched = await withDeadline('untouched, 1-byte chunks', () => pipe(impl, split(page.bytes, [-1]), new HTMLRewriter().on('*', { element() {} }), page.options));
        expect(untouched).toEqual(page.bytes);
        const seen: string[] = [];
        const whole = await withDeadline('one chunk', () => pipe(impl, [page.bytes], rewriter(seen, page.text), page.options));
        expect(seen).toEqual([`p title=${page.text}`]);
        // The output, parsed as a browser would (its own sniffing), is the string rewriter's tree; what
        // the encoding lacks (✓, → in windows-1252 and Shift_JIS) was written as a reference.
        const { contentType, encoding: label, defaultEncoding = 'utf-8' } = page.options;
        const doc = parse(whole, { ...(contentType !== undefined ? { contentType } : {}), ...(label !== undefined ? { encoding: label } : {}), defaultEncoding });
        expect(doc.characterSet).toBe(encoding);
        const p = doc.getElementsByTagName('p')[0]!;
        expect([p.getAttribute('data-x'), p.textContent, doc.body!.childNodes[1]!.textContent]).toEqual([`${page.text} ✓`, page.text + page.text, '→']);
        if (encoding === 'windows-1252') expect(decodeBytes(whole, encoding)).toContain('✓">'.replace('✓', '&#10003;'));
        let expected = '';
        const t = rewriter([], page.text).createTransformer((s) => (expected += s));
        t.write(decodeBytes(page.bytes, encoding));
        t.end();
        expect(serialize(doc)).toBe(serialize(parse(expected)));
        expect(await withDeadline('1-byte chunks', () => pipe(impl, split(page.bytes, [-1]), rewriter([], page.text), page.options))).toEqual(whole);
        await fc.assert(
          fc.asyncProperty(fc.array(fc.nat(), { maxLength: 12 }), async (cuts) => {
            expect(await withDeadline(`chunks cut at ${cuts.join(',')}`, () => pipe(impl, split(page.bytes, cuts), rewriter([], page.text), page.options))).toEqual(whole);
          }),
          { numRuns: 30 },
        );
      });
    }
  }

  it('without encoding options: UTF-8 as before (no sniffing: a <meta> changes nothing); with them, the streams\' default is UTF-8', async () => {
    const impl = IMPLEMENTATIONS[0]!;
    const meta = new TextEncoder().encode('<meta charset="windows-1252"><p title="é">é</p>');
    const seen: string[] = [];
    expect(await pipe(impl, split(meta, [-1]), rewriter(seen, 'ü'), {})).toEqual(new TextEncoder().encode('<meta charset="windows-1252"><p title="é" data-x="ü ✓">éü</p>'));
    expect(seen).toEqual(['p title=é']);
    // With an option, the <meta> is prescanned: windows-1252 (é's UTF-8 bytes read as Ã©).
    const seen1252: string[] = [];
    await pipe(impl, [meta], rewriter(seen1252, 'ü'), { contentType: 'text/html' });
    expect(seen1252).toEqual(['p title=Ã©']);
    // Nothing says: UTF-8.
    const plain = new TextEncoder().encode('<p title="é">é</p>');
    const seen8: string[] = [];
    await pipe(impl, [plain], rewriter(seen8, 'ü'), { contentType: 'text/html' });
    expect(seen8).toEqual(['p title=é']);
  });

  it('misuse throws at construction, naming the option; a refused encoding errors the stream', async () => {
    const r = new HTMLRewriter();
    expect(() => new HTMLRewriterByteStream(r, { encoding: 'utf-7' })).toThrow(/HTMLRewriterByteStream: options.encoding/);
    expect(() => new HTMLRewriterByteStream(r, { defaultEncoding: 'nope' })).toThrow(/HTMLRewriterByteStream: options.defaultEncoding/);
    expect(() => new HTMLRewriterByteStream(r, { contentType: 42 as unknown as string })).toThrow(/options.contentType must be a string/);
    const impl = IMPLEMENTATIONS[0]!;
    await expect(withDeadline('refused', () => pipe(impl, [new TextEncoder().encode('<p>x')], r, { encoding: 'iso-2022-jp' }))).rejects.toThrow(/ISO-2022-JP input is not rewritten/);
  });
});
