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
