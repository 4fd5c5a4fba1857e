/**
 * The fast single-byte decoders (single-byte.ts: a Latin-1 reading, then only the bytes that differ fixed
 * up, or a table lookup when they are dense, or a self-tested platform TextDecoder) against a plain
 * index-based reference, for every byte array and every split into chunks, on each path the decoder can
 * take: Node's Buffer (all-ASCII blocks passed over with its isAscii), the portable path a browser
 * without a right TextDecoder takes, and the platform TextDecoder when its self-test passes. The references come from iconv-lite and the Encoding Standard's
 * definitions, not from the code under test.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { createDecoder, decodeBytes, HtmlDecoder } from '@sluice/encoding';
import { tableOf } from '../src/decoders.js';
import { SingleByteDecoder, type SingleBytePlatform } from '../src/single-byte.js';

type SingleByte = 'windows-1252' | 'ISO-8859-16' | 'x-user-defined';
const ENCODINGS: SingleByte[] = ['windows-1252', 'ISO-8859-16', 'x-user-defined'];

/**
 * The Encoding Standard's code point for each byte. windows-1252: iconv-lite's, except the five bytes its
 * index maps to the C1 control of the same number (0x81, 0x8D, 0x8F, 0x90, 0x9D; iconv-lite has none for
 * them). ISO-8859-16: iconv-lite's. x-user-defined: §14.4, 0x80–0xFF to U+F780–U+F7FF.
 */
const REFERENCE: Record<SingleByte, string[]> = {
  'windows-1252': Array.from({ length: 256 }, (_, b) =>
    [0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(b) ? String.fromCharCode(b) : iconv.decode(Buffer.from([b]), 'windows-1252'),
  ),
  'ISO-8859-16': Array.from({ length: 256 }, (_, b) => iconv.decode(Buffer.from([b]), 'iso-8859-16')),
  'x-user-defined': Array.from({ length: 256 }, (_, b) => String.fromCharCode(b < 0x80 ? b : 0xf780 + b - 0x80)),
};

function reference(encoding: SingleByte, bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += REFERENCE[encoding][b];
  return s;
}

/** The decoders under test: the default (createDecoder) and each path forced. */
const PATHS: { name: string; make: (encoding: SingleByte) => { decode(b?: Uint8Array, o?: { stream?: boolean }): string } }[] = [
  { name: 'createDecoder', make: (e) => createDecoder(e) },
  { name: 'Buffer', make: (e) => new SingleByteDecoder(tableOf(e), { platform: 'buffer', platformTextDecoder: false }) },
  // All-ASCII blocks passed over (Node's isAscii): 16-byte blocks, so that fix-ups meet block edges.
  { name: 'Buffer, 16-byte scan blocks', make: (e) => new SingleByteDecoder(tableOf(e), { platform: 'buffer', platformTextDecoder: false, scanBlock: 16 }) },
  { name: 'portable', make: (e) => new SingleByteDecoder(tableOf(e), { platform: 'portable' as SingleBytePlatform, platformTextDecoder: false }) },
  { name: 'platform TextDecoder if right', make: (e) => new SingleByteDecoder(tableOf(e), { platform: 'portable', platformTextDecoder: true }) },
];

/** Byte arrays made of runs: ASCII, bytes ≥ 0x80, the C1 range, anything, so sparse and dense both occur. */
const run = fc.oneof(
  fc.uint8Array({ min: 0x00, max: 0x7f, maxLength: 300 }),
  fc.uint8Array({ min: 0x80, max: 0xff, maxLength: 120 }),
  fc.uint8Array({ min: 0x80, max: 0x9f, maxLength: 60 }),
  fc.uint8Array({ maxLength: 200 }),
);
const bytesArb = fc.array(run, { maxLength: 12 }).map((runs) => {
  const out = new Uint8Array(runs.reduce((n, r) => n + r.length, 0));
  let at = 0;
  for (const r of runs) {
    out.set(r, at);
    at += r.length;
  }
  return out;
});

describe('single-byte decoders: every byte array, every split, every path = the index', () => {
  for (const path of PATHS) {
    it(`${path.name}: streamed decode equals the index-based reference`, () => {
      fc.assert(
        fc.property(fc.constantFrom(...ENCODINGS), bytesArb, fc.array(fc.nat(), { maxLength: 6 }), (encoding, bytes, cuts) => {
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const d = path.make(encoding);
          let out = '';
          let at = 0;
          for (const p of [...points, bytes.length]) {
            out += d.decode(bytes.subarray(at, p), { stream: true });
            at = p;
          }
          out += d.decode();
          expect(out).toBe(reference(encoding, bytes));
        }),
        { numRuns: 1500 },
      );
    });
  }

  it('every byte alone and all 256 together, on every path', () => {
    const all = Uint8Array.from({ length: 256 }, (_, b) => b);
    for (const encoding of ENCODINGS) {
      for (const path of PATHS) {
        expect(path.make(encoding).decode(all), `${path.name} ${encoding}`).toBe(REFERENCE[encoding].join(''));
        for (let b = 0; b < 256; b++) expect(path.make(encoding).decode(Uint8Array.of(b))).toBe(REFERENCE[encoding][b]);
      }
    }
    expect(decodeBytes(Uint8Array.of(0x80, 0x85, 0x99, 0x9f), 'windows-1252')).toBe('€…™Ÿ');
  });

  it('long inputs (past the 8 KiB runs of the portable path and the dense switch), sparse then dense then sparse', () => {
    // A deterministic mix: 40 KB mostly ASCII with a C1 byte now and then, 20 KB of bytes ≥ 0x80, 40 KB ASCII.
    let seed = 1;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const bytes = new Uint8Array(100_000);
    for (let i = 0; i < bytes.length; i++) {
      const dense = i >= 40_000 && i < 60_000;
      const r = next();
      bytes[i] = dense ? 0x80 + (r % 128) : r % 997 === 0 ? 0x80 + (r % 32) : 0x20 + (r % 95);
    }
    for (const encoding of ENCODINGS) {
      const expected = reference(encoding, bytes);
      for (const path of PATHS) {
        expect(path.make(encoding).decode(bytes) === expected, `${path.name} ${encoding}`).toBe(true);
        const d = path.make(encoding);
        let out = '';
        for (let i = 0; i < bytes.length; i += 7777) out += d.decode(bytes.subarray(i, i + 7777), { stream: true });
        expect(out + d.decode() === expected, `${path.name} ${encoding}, chunks`).toBe(true);
      }
    }
  });

  it('decodes a subarray of a larger buffer from its own offset', () => {
    const backing = Uint8Array.from({ length: 64 }, (_, i) => 0x70 + i);
    const view = backing.subarray(10, 40);
    for (const encoding of ENCODINGS) {
      for (const path of PATHS) expect(path.make(encoding).decode(view)).toBe(reference(encoding, view));
    }
  });

  it('through HtmlDecoder, windows-1252 by default: any split of a page with C1 bytes', () => {
    const page = Uint8Array.from([...'<p>'].map((c) => c.charCodeAt(0)).concat([0x93, 0x68, 0x69, 0x94, 0x20, 0x80, 0x35, 0x20, 0x99, 0xe9]));
    const expected = '<p>“hi” €5 ™é';
    for (let cut = 0; cut <= page.length; cut++) {
      const d = new HtmlDecoder();
      const text = d.write(page.subarray(0, cut)) + d.write(page.subarray(cut)) + d.end();
      expect(text).toBe(expected);
      expect(d.encoding).toBe('windows-1252');
    }
  });
});
