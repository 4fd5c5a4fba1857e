/**
 * The Encoding Standard's label table, walked whole, and the decoders for every encoding: the platform's
 * TextDecoder where it has the encoding, and the three implemented here (ISO-8859-16, x-user-defined,
 * replacement) checked against the standard's definitions and, for ISO-8859-16, against iconv-lite.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import {
  ENCODING_LABELS,
  ENCODING_NAMES,
  createDecoder,
  decodeBytes,
  getEncoding,
  iso885916Index,
  platformDecodes,
  type EncodingName,
} from '@sluice/encoding';

/** A sample per encoding: bytes and the text they decode to (made with iconv-lite, or by hand). */
const SAMPLE_TEXT: Partial<Record<EncodingName, string>> = {
  'UTF-8': 'héllo €😀', 'UTF-16LE': 'héllo €😀', 'UTF-16BE': 'héllo €😀',
  IBM866: 'привет', 'ISO-8859-2': 'żółć', 'ISO-8859-3': 'ĝĥ', 'ISO-8859-4': 'ąē', 'ISO-8859-5': 'привет',
  'ISO-8859-6': 'مرحبا', 'ISO-8859-7': 'γειά', 'ISO-8859-8': 'שלום', 'ISO-8859-8-I': 'שלום', 'ISO-8859-10': 'ŋŧ',
  'ISO-8859-13': 'ąž', 'ISO-8859-14': 'ŵŷ', 'ISO-8859-15': '€œ', 'ISO-8859-16': 'șțĂ€', 'KOI8-R': 'привет', 'KOI8-U': 'їє',
  macintosh: 'café', 'windows-874': 'สวัสดี', 'windows-1250': 'żółć', 'windows-1251': 'привет', 'windows-1252': 'café €',
  'windows-1253': 'γειά', 'windows-1254': 'şğ', 'windows-1255': 'שלום', 'windows-1256': 'مرحبا', 'windows-1257': 'ąž',
  'windows-1258': 'café', 'x-mac-cyrillic': 'привет', GBK: '你好', gb18030: '你好😀', Big5: '你好', 'EUC-JP': 'こんにちは',
  Shift_JIS: 'こんにちは', 'EUC-KR': '안녕하세요',
};

/** iconv-lite's name for an encoding where its own label differs. */
const ICONV_NAME: Partial<Record<EncodingName, string>> = { 'ISO-8859-8-I': 'iso-8859-8', 'x-mac-cyrillic': 'maccyrillic', GBK: 'gbk' };

function sampleBytes(encoding: EncodingName): { bytes: Uint8Array; text: string } {
  if (encoding === 'x-user-defined') return { bytes: Uint8Array.of(0x61, 0x80, 0xff), text: 'a\uf780\uf7ff' };
  // iconv-lite has no ISO-2022-JP: こんにちは in JIS X 0208, between ESC $ B and ESC ( B.
  if (encoding === 'ISO-2022-JP') {
    return { bytes: Uint8Array.of(0x1b, 0x24, 0x42, 0x24, 0x33, 0x24, 0x73, 0x24, 0x4b, 0x24, 0x41, 0x24, 0x4f, 0x1b, 0x28, 0x42), text: 'こんにちは' };
  }
  if (encoding === 'replacement') return { bytes: Uint8Array.of(0x1b, 0x24, 0x29, 0x43, 0x61), text: '\ufffd' };
  const text = SAMPLE_TEXT[encoding]!;
  return { bytes: new Uint8Array(iconv.encode(text, ICONV_NAME[encoding] ?? encoding)), text };
}

describe('the label table (Encoding Standard §4.2)', () => {
  it('has the standard\'s 40 encodings and 228 labels, each label once', () => {
    expect(ENCODING_NAMES.length).toBe(40);
    const labels = ENCODING_LABELS.flatMap(([, l]) => l);
    expect(labels.length).toBe(228);
    expect(new Set(labels).size).toBe(228);
  });

  it('resolves every label, ASCII case-insensitively and with ASCII whitespace trimmed, and decodes a sample with it', () => {
    let checked = 0;
    for (const [name, labels] of ENCODING_LABELS) {
      const { bytes, text } = sampleBytes(name);
      for (const label of labels) {
        expect(getEncoding(label)).toBe(name);
        expect(getEncoding(` \t\n\f\r${label.toUpperCase()}\r\n `)).toBe(name);
        const odd = [...label].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
        expect(getEncoding(odd)).toBe(name);
        const encoding = getEncoding(label)!;
        expect(decodeBytes(bytes, encoding), `${label} → ${name}`).toBe(text);
        checked++;
      }
    }
    expect(checked).toBe(228);
  });

  it('agrees with the platform TextDecoder on every label it knows', () => {
    for (const [name, labels] of ENCODING_LABELS) {
      for (const label of labels) {
        let platform: string | null;
        try {
          platform = new TextDecoder(label).encoding;
        } catch {
          platform = null;
        }
        if (platform !== null) expect(platform).toBe(name.toLowerCase());
        else expect(['ISO-8859-16', 'x-user-defined', 'replacement']).toContain(name);
      }
    }
  });

  it('is no label: other whitespace, non-ASCII case folding, unknown names', () => {
    expect(getEncoding('\u00a0utf-8')).toBeNull();
    expect(getEncoding('utf-8\v')).toBeNull();
    expect(getEncoding('\u212Aoi8-r')).toBeNull(); // KELVIN SIGN lowercases to k outside ASCII
    expect(getEncoding('utf-32')).toBeNull();
    expect(getEncoding('')).toBeNull();
    expect(getEncoding('x-user-defined')).toBe('x-user-defined');
  });
});

describe('the decoders', () => {
  it('uses TextDecoder for all but ISO-8859-16, x-user-defined and replacement', () => {
    const missing = ENCODING_NAMES.filter((n) => !platformDecodes(n));
    expect(missing.sort()).toEqual(['ISO-8859-16', 'replacement', 'x-user-defined']);
  });

  it('ISO-8859-16: the index matches iconv-lite for every byte, and known points', () => {
    const index = iso885916Index();
    for (let b = 0; b < 256; b++) {
      const expected = iconv.decode(Buffer.from([b]), 'iso-8859-16');
      expect(decodeBytes(Uint8Array.of(b), 'ISO-8859-16'), `byte 0x${b.toString(16)}`).toBe(expected);
      if (b >= 0x80) expect(index[b - 0x80]).toBe(expected.charCodeAt(0));
    }
    expect(decodeBytes(Uint8Array.of(0xa4, 0xaa, 0xba, 0xde, 0xfe, 0xa5, 0xb5), 'ISO-8859-16')).toBe('€ȘșȚț„”');
    expect(decodeBytes(Uint8Array.of(0x80, 0x9f, 0xa0), 'ISO-8859-16')).toBe('\u0080\u009f\u00a0');
  });

  it('windows-1252 (decoded here, not by TextDecoder): matches iconv-lite and the streaming TextDecoder for every byte', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = decodeBytes(all, 'windows-1252');
    expect(text).toBe(new TextDecoder('windows-1252').decode(all, { stream: true }));
    for (let b = 0; b < 256; b++) {
      const expected = b >= 0x80 && b <= 0x9f && [0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(b) ? String.fromCharCode(b) : iconv.decode(Buffer.from([b]), 'windows-1252');
      expect(text[b], `byte 0x${b.toString(16)}`).toBe(expected);
    }
    expect(text.slice(0x80, 0x83)).toBe('€\u0081‚');
  });

  it('x-user-defined: ASCII as is, 0x80–0xFF to U+F780–U+F7FF (§14.4)', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = decodeBytes(all, 'x-user-defined');
    for (let b = 0; b < 256; b++) expect(text.charCodeAt(b)).toBe(b < 0x80 ? b : 0xf780 + b - 0x80);
  });

  it('replacement: one U+FFFD for non-empty input, then nothing, streaming or not (§14.1)', () => {
    expect(decodeBytes(new Uint8Array(0), 'replacement')).toBe('');
    expect(decodeBytes(Uint8Array.of(0x41, 0x42), 'replacement')).toBe('\ufffd');
    const d = createDecoder('replacement');
    expect(d.decode(new Uint8Array(0), { stream: true })).toBe('');
    expect(d.decode(Uint8Array.of(0x41), { stream: true })).toBe('\ufffd');
    expect(d.decode(Uint8Array.of(0x42), { stream: true })).toBe('');
    expect(d.decode()).toBe('');
  });

  it('keeps a U+FEFF: the sniffing consumed the BOM, a decoder never does', () => {
    expect(decodeBytes(Uint8Array.of(0xef, 0xbb, 0xbf, 0x41), 'UTF-8')).toBe('\ufeffA');
    expect(decodeBytes(Uint8Array.of(0xff, 0xfe, 0x41, 0x00), 'UTF-16LE')).toBe('\ufeffA');
  });

  it('streaming: any split of any sample decodes as the whole, in every encoding', () => {
    const encodings = ENCODING_NAMES.filter((n) => n !== 'replacement');
    fc.assert(
      fc.property(
        fc.constantFrom(...encodings),
        fc.array(fc.nat({ max: 64 }), { maxLength: 6 }),
        (encoding, cuts) => {
          const { bytes } = sampleBytes(encoding);
          const whole = decodeBytes(bytes, encoding);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const d = createDecoder(encoding);
          let out = '';
          let at = 0;
          for (const p of [...points, bytes.length]) {
            out += d.decode(bytes.subarray(at, p), { stream: true });
            at = p;
          }
          out += d.decode();
          expect(out).toBe(whole);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('streaming: an incomplete sequence at the end is U+FFFD', () => {
    const d = createDecoder('Shift_JIS');
    expect(d.decode(Uint8Array.of(0x82), { stream: true })).toBe('');
    expect(d.decode()).toBe('\ufffd');
  });
});

describe('UTF-8, streamed by hand over the fast non-streaming decode', () => {
  it('gives what a streaming TextDecoder gives, for random bytes and random chunks', () => {
    const interesting = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xff, 0x41),
    );
    fc.assert(
      fc.property(fc.array(interesting, { maxLength: 24 }), fc.array(fc.nat({ max: 24 }), { maxLength: 6 }), (values, cuts) => {
        const bytes = Uint8Array.from(values);
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const reference = new TextDecoder('utf-8', { ignoreBOM: true });
        const ours = createDecoder('UTF-8');
        let expected = '';
        let got = '';
        let at = 0;
        for (const p of [...points, bytes.length]) {
          expected += reference.decode(bytes.subarray(at, p), { stream: true });
          got += ours.decode(bytes.subarray(at, p), { stream: true });
          at = p;
        }
        expected += reference.decode();
        got += ours.decode();
        expect(got).toBe(expected);
      }),
      { numRuns: 20000 },
    );
  });
});
