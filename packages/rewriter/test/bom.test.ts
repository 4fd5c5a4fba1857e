/**
 * A leading byte order mark and the rewriter: the output keeps it (byte-exact passthrough), but the tree
 * the selectors match against is the browser's, which never saw it (the decoder consumes it before
 * tokenizing, HTML §13.2.3.1): `<title>` after a BOM is in `head`, and no text handler sees U+FEFF as
 * text. Strings and bytes, every chunking of a small input (the BOM's bytes EF BB BF cut anywhere).
 */
import { describe, expect, it } from 'vitest';
import { HTMLRewriter } from '../src/index.js';

const BOM = '\uFEFF';
const encoder = new TextEncoder();

/** What the handlers saw. */
interface Seen {
  titleInHead: number;
  bodies: number;
  texts: string[];
}

/** A rewriter that records what it sees and changes nothing. */
function watcher(): { rewriter: HTMLRewriter; seen: Seen } {
  const seen: Seen = { titleInHead: 0, bodies: 0, texts: [] };
  const rewriter = new HTMLRewriter()
    .on('head > title', { element: () => void seen.titleInHead++ })
    .on('body', { element: () => void seen.bodies++, text: (t) => void (t.text !== '' && seen.texts.push(`body:${t.text}`)) })
    .onDocument({ text: (t) => void (t.text !== '' && seen.texts.push(t.text)) });
  return { rewriter, seen };
}

/** Every way to cut `n` items into non-empty runs: the cut positions, 2^(n-1) lists. */
function* cutLists(n: number): Generator<number[]> {
  for (let mask = 0; mask < 1 << (n - 1); mask++) {
    const cuts: number[] = [];
    for (let i = 1; i < n; i++) if (mask & (1 << (i - 1))) cuts.push(i);
    yield cuts;
  }
}

function cut<T extends { slice(a: number, b?: number): T }>(s: T, cuts: readonly number[], length: number): T[] {
  const out: T[] = [];
  let from = 0;
  for (const c of [...cuts, length]) {
    out.push(s.slice(from, c));
    from = c;
  }
  return out;
}

function rewriteString(chunks: readonly string[]): { out: string; seen: Seen } {
  const { rewriter, seen } = watcher();
  let out = '';
  const t = rewriter.createTransformer((c) => (out += c));
  for (const c of chunks) t.write(c);
  t.end();
  return { out, seen };
}

function rewriteBytes(chunks: readonly Uint8Array[]): { out: Buffer; seen: Seen } {
  const { rewriter, seen } = watcher();
  const parts: Uint8Array[] = [];
  const t = rewriter.createByteTransformer((c) => parts.push(c));
  for (const c of chunks) t.write(c);
  t.end();
  return { out: Buffer.concat(parts), seen };
}

// (Element handlers run before document handlers.)
const EXPECTED_SEEN: Seen = { titleInHead: 1, bodies: 1, texts: ['x', 'body:y', 'y'] };

describe('rewriter: a leading byte order mark', () => {
  const input = `${BOM}<title>x</title>y`;

  it('strings: passes through, and the tree is the one without it (head > title fires; no text is U+FEFF)', () => {
    const { out, seen } = rewriteString([input]);
    expect(out).toBe(input);
    expect(seen).toEqual(EXPECTED_SEEN);
  });

  // All 2^(n-1) chunkings of a short input (each also with empty chunks): the BOM alone, after empty
  // chunks, joined to what follows; what the handlers see is what they see for the input without the BOM.
  const small = `${BOM}<title>x`;
  const smallSeen = rewriteString([small.slice(1)]).seen;

  it('strings: the same for every chunking, and with empty chunks before and between', () => {
    expect(smallSeen).toEqual({ titleInHead: 1, bodies: 1, texts: ['x'] });
    let count = 0;
    for (const cuts of cutLists(small.length)) {
      const chunks = cut(small, cuts, small.length);
      for (const withEmpty of [chunks, ['', '', ...chunks.flatMap((c) => [c, ''])]]) {
        const { out, seen } = rewriteString(withEmpty);
        expect(out, JSON.stringify(withEmpty)).toBe(small);
        expect(seen, JSON.stringify(withEmpty)).toEqual(smallSeen);
        count++;
      }
    }
    expect(count).toBe(2 ** small.length);
  });

  it('bytes: EF BB BF passes through and is not text, for every chunking (the BOM split EF | BB BF, …)', () => {
    expect(rewriteBytes([encoder.encode(input)])).toEqual({ out: Buffer.from(encoder.encode(input)), seen: EXPECTED_SEEN });
    const bytes = encoder.encode(small);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    let count = 0;
    for (const cuts of cutLists(bytes.length)) {
      const chunks = cut(bytes, cuts, bytes.length);
      for (const withEmpty of [chunks, [new Uint8Array(0), ...chunks.flatMap((c) => [c, new Uint8Array(0)])]]) {
        const { out, seen } = rewriteBytes(withEmpty);
        const label = JSON.stringify(withEmpty.map((c) => [...c]));
        expect(out.equals(Buffer.from(bytes)), label).toBe(true);
        expect(seen, label).toEqual(smallSeen);
        count++;
      }
    }
    expect(count).toBe(2 ** bytes.length);
  });

  it('only the first character is a BOM: a later U+FEFF is text, and a second one too', () => {
    const { out, seen } = rewriteString([`${BOM}${BOM}<title>x</title>`]);
    expect(out).toBe(`${BOM}${BOM}<title>x</title>`);
    // The second U+FEFF is text, so it starts the body and the title lands in it (as in a browser).
    expect(seen.titleInHead).toBe(0);
    expect(seen.texts.slice(0, 2)).toEqual([`body:${BOM}`, BOM]);
    expect(rewriteString([`<p>${BOM}`]).seen.texts).toEqual([`body:${BOM}`, BOM]);
  });

  it('the BOM stays first in the output when handlers insert content around the first elements', () => {
    const rewriter = new HTMLRewriter()
      .on('head', { element: (e) => void e.prepend('<meta charset=utf-8>', { html: true }) })
      .on('title', { element: (e) => void e.before('<!--t-->', { html: true }) });
    let out = '';
    const t = rewriter.createTransformer((c) => (out += c));
    t.write(BOM);
    t.write('<title>x</title>');
    t.end();
    expect(out.startsWith(BOM)).toBe(true);
    expect(out.slice(1)).toContain('<!--t--><title>x</title>');
    const bytesOut: Uint8Array[] = [];
    const bt = rewriter.createByteTransformer((c) => bytesOut.push(c));
    const bytes = encoder.encode(`${BOM}<title>x</title>`);
    bt.write(bytes.subarray(0, 1));
    bt.write(bytes.subarray(1));
    bt.end();
    expect([...Buffer.concat(bytesOut).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('transform(Response): the bytes come back identical, with the tree without the BOM (whole, and 1-byte chunks)', async () => {
    const bytes = encoder.encode(input);
    const oneByteChunks = (): ReadableStream<Uint8Array> =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const b of bytes) controller.enqueue(new Uint8Array([b]));
          controller.close();
        },
      });
    for (const body of [bytes, oneByteChunks()]) {
      const { rewriter, seen } = watcher();
      const out = Buffer.from(await rewriter.transform(new Response(body)).arrayBuffer());
      expect(out.equals(Buffer.from(bytes))).toBe(true);
      expect(seen).toEqual(EXPECTED_SEEN);
    }
  }, 10_000);
});
