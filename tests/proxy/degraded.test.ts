/**
 * The proxy's degraded mode (rewriteTransform): a token past the rewriter's bound, and the rest of the
 * page passes through — not a byte lost or doubled, whatever the chunking, whatever kind of token, with
 * multi-byte characters cut across chunks.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Readable, Writable, pipeline } from 'node:stream';
import { HTMLRewriter } from '@sluice/rewriter';
import { rewriteTransform } from '../../packages/example-proxy/src/index.js';

const BOUND = 64;

/** Links rewritten http: → https:, and nothing else changed (no banner: the expected output is easy to write down). */
const linkRewriter = (bound: number) =>
  new HTMLRewriter({ maxBufferedBytes: bound }).on('a[href^="http:"]', {
    element(el) {
      el.setAttribute('href', `https:${el.getAttribute('href')!.slice(5)}`);
    },
  });

/**
 * Run `input` through rewriteTransform in `cuts` pieces (byte offsets), with a `contentType` (the byte
 * path, in that encoding) or without (UTF-8); resolve the output bytes and the degraded count.
 */
function runBytes(input: Buffer, cuts: number[], bound: number, contentType?: string): Promise<{ bytes: Buffer; degraded: number; error: Error | null }> {
  const pieces: Buffer[] = [];
  let at = 0;
  for (const c of [...cuts.filter((c) => c > 0 && c < input.length)].sort((a, b) => a - b)) {
    pieces.push(input.subarray(at, c));
    at = c;
  }
  pieces.push(input.subarray(at));
  let degraded = 0;
  const out: Buffer[] = [];
  return new Promise((resolve) => {
    pipeline(
      Readable.from(pieces),
      rewriteTransform(linkRewriter(bound), { maxBufferedBytes: bound, ...(contentType === undefined ? {} : { contentType }), onDegraded: () => degraded++ }),
      new Writable({
        write(c: Buffer, _e, done) {
          out.push(c);
          done();
        },
      }),
      (err) => resolve({ bytes: Buffer.concat(out), degraded, error: err ?? null }),
    );
  });
}

/** `runBytes` without a content type, the output as UTF-8 text. */
async function run(input: Buffer, cuts: number[], bound: number): Promise<{ out: string; degraded: number; error: Error | null }> {
  const { bytes, degraded, error } = await runBytes(input, cuts, bound);
  return { out: bytes.toString('utf8'), degraded, error };
}

/** Tokens longer than BOUND, of every kind the tokenizer holds whole. */
const LONG_TOKENS = [
  (n: number) => `<p title="${'é'.repeat(n)}">`,
  (n: number) => `<p title='${'x'.repeat(n)}'>`,
  (n: number) => `<p title=${'y'.repeat(n)}>`,
  (n: number) => `<p data-${'n'.repeat(n)}=1>`,
  (n: number) => `<${'t'.repeat(n)}>`,
  (n: number) => `</${'e'.repeat(n)}>`,
  (n: number) => `<!--${'c😀'.repeat(n)}-->`,
  (n: number) => `<!${'b'.repeat(n)}>`,
  (n: number) => `<!DOCTYPE ${'d'.repeat(n)}>`,
  (n: number) => `<a href="http://e.x/${'l'.repeat(n)}">`,
];

const link = (i: number) => `<a href="http://e.x/${i}">é${i}</a>`;
const linkOut = (i: number) => `<a href="https://e.x/${i}">é${i}</a>`;

describe('degraded mode: a token past the bound', () => {
  it('passes the rest through: the rewritten prefix, then the input as it came (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom(...LONG_TOKENS.keys()),
        fc.integer({ min: BOUND + 1, max: 4 * BOUND }),
        fc.integer({ min: 0, max: 4 }),
        fc.array(fc.integer({ min: 0, max: 2000 }), { maxLength: 12 }),
        fc.constantFrom('', 'text ü ', '<p>', '<table>'),
        async (before, kind, n, after, cuts, lead) => {
          const prefix = '<body>' + lead + Array.from({ length: before }, (_, i) => link(i)).join('');
          const prefixOut = '<body>' + lead + Array.from({ length: before }, (_, i) => linkOut(i)).join('');
          const rest = LONG_TOKENS[kind]!(n) + Array.from({ length: after }, (_, i) => link(100 + i)).join('') + '</body>';
          const r = await run(Buffer.from(prefix + rest), cuts, BOUND);
          expect(r.error).toBeNull();
          // The bound is checked between writes: a token up to twice the bound may end in the write
          // after the one it began in, and be rewritten whole. Past that, degraded mode is certain.
          const token = LONG_TOKENS[kind]!(n);
          if (token.length > 2 * BOUND) expect(r.degraded).toBe(1);
          if (r.degraded === 0) expect(r.out).toBe((await run(Buffer.from(prefix + rest), [], 1 << 20)).out);
          else expect(r.out).toBe(prefixOut + rest);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a chunk larger than the bound is written in pieces, so it never trips the bound by itself', async () => {
    const page = Array.from({ length: 50 }, (_, i) => link(i)).join('');
    const r = await run(Buffer.from(page), [], BOUND);
    expect(r).toEqual({ out: Array.from({ length: 50 }, (_, i) => linkOut(i)).join(''), degraded: 0, error: null });
  });

  it('without onDegraded, an overflow errors the stream as the rewriter alone does', async () => {
    const out: Buffer[] = [];
    const err = await new Promise<Error | null | undefined>((resolve) =>
      pipeline(
        Readable.from([Buffer.from(`<p title="${'x'.repeat(200)}">`)]),
        rewriteTransform(linkRewriter(BOUND), { maxBufferedBytes: BOUND }),
        new Writable({
          write(c: Buffer, _e, done) {
            out.push(c);
            done();
          },
        }),
        resolve,
      ),
    );
    expect(err?.message).toMatch(/maxBufferedBytes \(64\) exceeded/);
  });

  it('a rewriter with a larger bound than the transform was told: not resumable, the stream errors', async () => {
    const r = await new Promise<Error | null | undefined>((resolve) =>
      pipeline(
        Readable.from([Buffer.from('<p title="'), ...Array.from({ length: 10 }, () => Buffer.from('x'.repeat(100)))]),
        rewriteTransform(linkRewriter(800), { maxBufferedBytes: 100, onDegraded: () => {} }),
        new Writable({ write: (_c, _e, done) => done() }),
        resolve,
      ),
    );
    expect(r?.message).toMatch(/maxBufferedBytes \(800\) exceeded/);
  });
});

describe('degraded mode on the byte path (a legacy encoding)', () => {
  // é is one byte in windows-1252 (0xE9), а one in KOI8-R (0xC1), あ two in Shift_JIS, 가 two in EUC-KR,
  // 一 two in Big5 (a trail byte 0x40 is ASCII): the held count is the UTF-8 length of their text, not
  // the bytes written, and a piece may end inside a character.
  const CASES: [label: string, char: Buffer][] = [
    ['windows-1252', Buffer.from([0xe9])],
    ['koi8-r', Buffer.from([0xc1])],
    ['shift_jis', Buffer.from([0x82, 0xa0])],
    ['euc-kr', Buffer.from([0xb0, 0xa1])],
    ['big5', Buffer.from([0xa4, 0x40])],
  ];
  // UTF-16: every character two bytes or four (a pair); a `<` is a code unit at an even offset, and the
  // bytes 3C and 00 occur inside other code units too (ϼ is 03FC, 㰀 3C00); a lone lead surrogate
  // right before the long token is held back by the byte path and must go out with it.
  for (const order of ['le', 'be'] as const) {
    it(`utf-16${order}: a token past the bound, then the rest of the page as it came, for any chunking (fast-check)`, async () => {
      const u16 = (s: string): Buffer => {
        const b = Buffer.alloc(s.length * 2);
        for (let i = 0; i < s.length; i++) order === 'le' ? b.writeUInt16LE(s.charCodeAt(i), i * 2) : b.writeUInt16BE(s.charCodeAt(i), i * 2);
        return b;
      };
      const bom = u16('\ufeff');
      for (const before of ['', '\ud83d']) {
        const head = (scheme: string): Buffer => u16(`<p>caf\u00e9 \u03fc\u3c00 <a href="${scheme}://e.x/">x</a></p>😀${before}`);
        const long = u16(`<p title="${'\u3c00é😀'.repeat(BOUND)}">`);
        const tail = u16('<a href="http://f.x/">y</a>\u3c00');
        const input = Buffer.concat([bom, head('http'), long, tail]);
        const expected = Buffer.concat([bom, head('https'), long, tail]);
        await fc.assert(
          fc.asyncProperty(fc.array(fc.nat({ max: input.length }), { maxLength: 6 }), async (cuts) => {
            const { bytes, degraded, error } = await runBytes(input, cuts, BOUND, 'text/html');
            expect(error).toBeNull();
            expect(degraded).toBe(1);
            expect(bytes.toString('hex')).toBe(expected.toString('hex'));
          }),
          { numRuns: 60 },
        );
      }
    });
  }

  for (const [label, char] of CASES) {
    it(`${label}: a token past the bound, then the rest of the page as it came, for any chunking (fast-check)`, async () => {
      const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');
      const chars = (n: number): Buffer => Buffer.concat(Array.from({ length: n }, () => char));
      // In the multi-byte encodings a lone lead byte (an error, the `<` after it given back) ends the
      // head: the byte path holds it back (in case a trail were written after it), and it must go out
      // before the long token (ByteTransformer.takeHeldOutput).
      const lone = char.length > 1 ? char.subarray(0, 1) : Buffer.alloc(0);
      const head = Buffer.concat([ascii('<p>caf'), char, ascii(' <a href="http://e.x/">x</a></p>'), lone]);
      const long = Buffer.concat([ascii('<p title="'), chars(3 * BOUND), ascii('">')]);
      const tail = Buffer.concat([ascii('<a href="http://f.x/">y</a>'), char]);
      const input = Buffer.concat([head, long, tail]);
      const rewrittenHead = Buffer.concat([ascii('<p>caf'), char, ascii(' <a href="https://e.x/">x</a></p>'), lone]);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat({ max: input.length }), { maxLength: 6 }), async (cuts) => {
          const { bytes, degraded, error } = await runBytes(input, cuts, BOUND, `text/html; charset=${label}`);
          expect(error).toBeNull();
          expect(degraded).toBe(1);
          expect(bytes.toString('latin1')).toBe(Buffer.concat([rewrittenHead, long, tail]).toString('latin1'));
        }),
        { numRuns: 100 },
      );
    });
  }
});
