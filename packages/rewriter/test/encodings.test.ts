/**
 * The byte path in every ASCII-compatible encoding (issue 15 item 4): the encoding sniffed as HTML
 * §13.2.3 says, untouched input copied as its bytes (malformed sequences included), handlers reading
 * the text the encoding's decoder gives, content written in the document's encoding.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { decodeBytes, getEncoding } from '@sluice/encoding';
import { HTMLRewriter } from '@sluice/rewriter';

// iconv-lite makes the test data; it is a devDependency of @sluice/encoding, not of this package.
const iconv = createRequire(new URL('../../encoding/package.json', import.meta.url))('iconv-lite') as {
  encode(text: string, encoding: string): Uint8Array;
};
const enc = (text: string, encoding: string): Uint8Array => new Uint8Array(iconv.encode(text, encoding));
const cat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** Sample text per encoding (characters it has), and a malformed sequence for it. */
const PAGES: [label: string, text: string, malformed: number[]][] = [
  ['windows-1252', 'Café “quoted” — €5 naïve', [0x81, 0x8d]],
  ['windows-1251', 'Привет, мир — ёж', [0x98]],
  ['iso-8859-2', 'Zażółć gęślą jaźń', []],
  ['koi8-r', 'Съешь же ещё этих мягких булок', []],
  ['shift_jis', '日本語のテキスト、ｶﾀｶﾅ表示', [0x81, 0x3c, 0xa0, 0x82]],
  ['euc-jp', '日本語のテキスト、ｶﾀｶﾅ', [0xa1, 0x3c, 0x8e]],
  // (Not 똠: Node's EUC-KR decoder lacks windows-949's extension, unlike the Encoding Standard's.)
  ['euc-kr', '한국어 텍스트 방각하', [0x81, 0x3c, 0xc9]],
  ['gbk', '中文文本，简体字', [0x81, 0x3c, 0x81, 0x30, 0x3c, 0xff]],
  ['big5', '中文文本，繁體字 許功蓋', [0x81, 0x3c, 0xa1]],
];

function page(label: string, text: string, malformed: number[], meta: boolean): Uint8Array {
  return cat(
    enc(`<!DOCTYPE html><html><head>${meta ? `<meta charset="${label}">` : ''}<title>${text}</title></head><body>`, label),
    enc(`<p class="x" title="${text}">${text}</p><!-- ${text} -->`, label),
    new Uint8Array([0x3c, 0x62, 0x3e, ...malformed, 0x3c, 0x2f, 0x62, 0x3e]), // <b>…</b>
    enc(`<a href="/${text}?q=1&amp;r=&eacute;">${text} &lt;&amp;&gt;</a><script>var s = "${text}";</script></body></html>`, label),
  );
}

async function run(bytes: Uint8Array, setup: (r: HTMLRewriter) => void, options: Parameters<HTMLRewriter['createByteTransformer']>[1], cuts: number[] = []): Promise<Uint8Array> {
  const r = new HTMLRewriter();
  setup(r);
  const out: Uint8Array[] = [];
  const t = r.createByteTransformer((c) => out.push(c), options);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let at = 0;
  for (const p of [...points, bytes.length]) {
    await t.write(bytes.slice(at, p));
    at = p;
  }
  await t.end();
  return cat(...out);
}

/** What handlers read: every attribute value and the text of every element, in order. */
function readings(r: HTMLRewriter, seen: string[]): void {
  r.on('*', {
    element(el) {
      for (const [name, value] of el.attributes) seen.push(`${el.tagName} ${name}=${value}`);
    },
    text(t) {
      seen.push(`text ${t.text}`);
    },
  });
  r.onDocument({ comments: (c) => void seen.push(`comment ${c.text}`) });
}

async function readingsOfText(text: string): Promise<string[]> {
  const seen: string[] = [];
  const r = new HTMLRewriter();
  readings(r, seen);
  const t = r.createTransformer(() => {});
  await t.write(text);
  await t.end();
  return seen;
}

/** Text chunks cut differently read the same: join adjacent text readings. */
function joined(seen: string[]): string[] {
  const out: string[] = [];
  for (const s of seen) {
    if (s.startsWith('text ') && out.length > 0 && out[out.length - 1]!.startsWith('text ')) out[out.length - 1] += s.slice(5);
    else out.push(s);
  }
  return out.filter((s) => s !== 'text ');
}

describe('the byte path in ASCII-compatible encodings', () => {
  for (const [label, text, malformed] of PAGES) {
    const encoding = getEncoding(label)!;
    const withMeta = page(label, text, malformed, true);
    const withoutMeta = page(label, text, malformed, false);

    it(`${label}: passthrough is byte-identical (meta charset, transport charset, override), malformed bytes included`, async () => {
      expect(await run(withMeta, () => {}, {})).toEqual(withMeta);
      expect(await run(withoutMeta, () => {}, { contentType: `text/html; charset=${label}` })).toEqual(withoutMeta);
      expect(await run(withoutMeta, () => {}, { encoding: label })).toEqual(withoutMeta);
    });

    it(`${label}: handlers read the text the decoder gives (as parse(bytes) decodes)`, async () => {
      const seen: string[] = [];
      await run(withMeta, (r) => readings(r, seen), {});
      expect(joined(seen)).toEqual(joined(await readingsOfText(decodeBytes(withMeta, encoding))));
      expect(seen).toContain(`p title=${text}`);
    });

    it(`${label}: written content is in the document's encoding; what it lacks becomes a reference where one means the same, an error in a script`, async () => {
      const out = await run(
        withMeta,
        (r) =>
          r.on('p', {
            element(el) {
              el.setAttribute('data-t', `${text} ✓ 😀`);
              el.append(text);
            },
          }),
        {},
      );
      const decoded = decodeBytes(out, encoding);
      const seen: string[] = [];
      await run(out, (r) => r.on('p', { element: (el) => void seen.push(el.getAttribute('data-t')!) }), {});
      expect(seen).toEqual([`${text} ✓ 😀`]);
      expect(decoded).toContain(`${text}</p>`);
      // In ordinary content a reference reads as the same character; in a script none does.
      const referenced = decodeBytes(await run(withMeta, (r) => r.on('p', { element: (el) => void el.append('😀') }), {}), encoding);
      expect(referenced).toContain(`${text}&#128512;</p>`);
      await expect(run(withMeta, (r) => r.on('script', { element: (el) => void el.append('😀') }), {})).rejects.toThrow(/cannot be written in/);
    });

    it(`${label}: output does not depend on the chunking`, async () => {
      const setup = (r: HTMLRewriter): void => {
        r.on('p', { element: (el) => el.setAttribute('data-x', text) });
        r.on('a', { element: (el) => el.before(text) });
      };
      const whole = await run(withMeta, setup, {});
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat(), { maxLength: 12 }), async (cuts) => {
          expect(await run(withMeta, setup, {}, cuts)).toEqual(whole);
          expect(await run(withoutMeta, () => {}, { contentType: `text/html;charset=${label}` }, cuts)).toEqual(withoutMeta);
        }),
        { numRuns: 40 },
      );
    });
  }

  it('random bytes pass through unchanged in every multi-byte encoding, and rewrite the same, for any chunking', async () => {
    const bytes = fc.uint8Array({ minLength: 0, maxLength: 80 }).map((b) => b.map((x) => (x % 3 === 0 ? [0x3c, 0x3e, 0x22, 0x61, 0x5d][x % 5]! : x)));
    for (const label of ['shift_jis', 'euc-jp', 'euc-kr', 'gbk', 'gb18030', 'big5', 'windows-1252']) {
      await fc.assert(
        fc.asyncProperty(bytes, fc.array(fc.nat(), { maxLength: 6 }), async (b, cuts) => {
          // (Only explicit elements are changed: where the implied html/head/body go next to leading
          // whitespace depends on the chunking, on every path.) (Readings are not compared: for some malformed sequences Node's decoders do not give back the
          // ASCII byte after a lead as the Encoding Standard says, e.g. Shift_JIS 82 40; the rewriter
          // steps as the standard does — see docs/encoding.md.)
          expect(await run(b, (r) => readings(r, []), { encoding: label }, cuts)).toEqual(b);
          expect(await run(b, (r) => r.on('a', { element: (el) => el.setAttribute('data-x', '1') }), { encoding: label }, cuts)).toEqual(
            await run(b, (r) => r.on('a', { element: (el) => el.setAttribute('data-x', '1') }), { encoding: label }),
          );
        }),
        { numRuns: 150 },
      );
    }
  });

  it('sniffing: no charset anywhere gives windows-1252 (or defaultEncoding); a UTF-16 BOM decides (utf16.test.ts); ISO-2022-JP is refused', async () => {
    const bytes = enc('<p title="café">x</p>', 'windows-1252');
    const seen: string[] = [];
    expect(await run(bytes, (r) => readings(r, seen), {})).toEqual(bytes);
    expect(seen).toContain('p title=café');
    const utf16 = new Uint8Array([0xff, 0xfe, 0x3c, 0, 0x70, 0, 0x3e, 0, 0xe9, 0]); // BOM <p>é
    const seen16: string[] = [];
    expect(await run(utf16, (r) => readings(r, seen16), { defaultEncoding: 'windows-1252' })).toEqual(utf16);
    expect(seen16).toContain('text é');
    await expect(run(enc('<p>x', 'utf-8'), () => {}, { encoding: 'iso-2022-jp' })).rejects.toThrow(/not ASCII-compatible/);
    const utf8 = enc('<p title="café">x</p>', 'utf-8');
    const seen8: string[] = [];
    expect(await run(utf8, (r) => readings(r, seen8), { defaultEncoding: 'utf-8' })).toEqual(utf8);
    expect(seen8).toContain('p title=café');
  });

  it('transform(stream, options) sniffs with the options; a <meta> split across chunks is found', async () => {
    const bytes = enc('<meta charset="euc-jp"><p title="日本">テキスト</p>', 'euc-jp');
    const seen: string[] = [];
    const r = new HTMLRewriter();
    readings(r, seen);
    const input = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 3) c.enqueue(bytes.slice(i, i + 3));
        c.close();
      },
    });
    const out = new Uint8Array(await new Response(r.transform(input, { defaultEncoding: 'windows-1252' })).arrayBuffer());
    expect(out).toEqual(bytes);
    expect(seen).toContain('p title=日本');
  });

  it('transform(Response) takes the charset from Content-Type', async () => {
    const bytes = enc('<p title="Привет">мир</p>', 'windows-1251');
    const seen: string[] = [];
    const r = new HTMLRewriter();
    readings(r, seen);
    const res = r.transform(new Response(bytes, { headers: { 'content-type': 'text/html; charset=windows-1251' } }));
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    expect(res.headers.get('content-type')).toBe('text/html; charset=windows-1251');
    expect(seen).toContain('p title=Привет');
  });
});

describe('an error at the edge of a change (output.ts `held`)', () => {
  // A lead byte whose next byte is no trail is an error, and that byte is given back; with something
  // else after the lead in the output (content, or source after a removed element) it could be a trail.
  // Then the error is written as bytes that are one U+FFFD whatever follows (DocumentEncoder.errorBytes).
  const LEADS: [label: string, lead: number, trail: string, errorBytes: number[]][] = [
    ['shift_jis', 0x82, '`', [0xff]], // 82 60 is Ａ
    ['euc-kr', 0xb0, 'A', [0xff]], // B0 41 is a character in the standard's EUC-KR (windows-949)
    ['big5', 0xa4, '@', [0x81, 0x80]], // A4 40 is 一
    ['gbk', 0x81, '@', [0x81, 0xff]], // 81 40 is 丂
    ['gb18030', 0x81, '@', [0x81, 0xff]],
    ['euc-jp', 0xa4, 'a', [0xff]], // (no ASCII trails: nothing can join; the error still reads as U+FFFD)
  ];
  for (const [label, lead, trail, errorBytes] of LEADS) {
    it(`${label}: a lone lead before a removed element, or before content, stays one U+FFFD; untouched, it is copied as it was`, async () => {
      const encoding = getEncoding(label)!;
      const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));
      // The Encoding Standard decodes errorBytes as one U+FFFD; so does Node, but for GBK (ICU's
      // windows-936 reads 81 FF as U+FFFD U+F8F5), where only the bytes are checked.
      const decodes = (out: Uint8Array, text: string, bytes: number[]): void => {
        expect(Array.from(out)).toEqual(bytes);
        if (encoding !== 'GBK') expect(decodeBytes(out, encoding)).toBe(text);
      };
      const removed = new Uint8Array([...ascii('<p>'), lead, ...ascii(`<b>x</b>${trail}</p>`)]);
      const before = new Uint8Array([...ascii('<p>'), lead, ...ascii('<b>x</b></p>')]);
      const end = new Uint8Array([...ascii('<p>x'), lead]);
      for (const cuts of [[], [4], [3, 4, 5]]) {
        expect(await run(removed, () => {}, { encoding: label }, cuts)).toEqual(removed);
        expect(await run(end, () => {}, { encoding: label }, cuts)).toEqual(end);
        const out1 = await run(removed, (r) => r.on('b', { element: (el) => void el.remove() }), { encoding: label }, cuts);
        decodes(out1, `<p>\ufffd${trail}</p>`, [...ascii('<p>'), ...errorBytes, ...ascii(`${trail}</p>`)]);
        const out2 = await run(before, (r) => r.on('b', { element: (el) => void el.before(`${trail}bc`) }), { encoding: label }, cuts);
        decodes(out2, `<p>\ufffd${trail}bc<b>x</b></p>`, [...ascii('<p>'), ...errorBytes, ...ascii(`${trail}bc<b>x</b></p>`)]);
        // At the end of the input: content after an unfinished sequence.
        const out3 = await run(end, (r) => r.onDocument({ end: (e) => void e.append(`${trail}!`) }), { encoding: label }, cuts);
        decodes(out3, `<p>x\ufffd${trail}!`, [...ascii('<p>x'), ...errorBytes, ...ascii(`${trail}!`)]);
      }
    });
  }
});
