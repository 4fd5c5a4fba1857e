/**
 * HTML §13.2.3: BOM sniffing, the transport layer's charset (Content-Type), the prescan with "get an
 * attribute", the meta content algorithm, the XML declaration, the default — and the streaming
 * `HtmlDecoder`, whose answer and text must not depend on where the chunks split.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import {
  HtmlDecoder,
  changeTheEncoding,
  decodeHtmlBytes,
  encodingFromContentType,
  extractEncodingFromMetaContent,
  prescan,
  sniffEncoding,
} from '@sluice/encoding';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const pre = (s: string) => prescan(bytes(s)).encoding;

describe('BOM sniffing (§13.2.3.2 step 1, Encoding Standard "BOM sniff")', () => {
  it('finds the three BOMs, consumes them, and beats every other source', () => {
    const o = { contentType: 'text/html; charset=shift_jis', encoding: 'koi8-r' };
    expect(sniffEncoding(bytes('\xef\xbb\xbf<meta charset=gbk>'), o)).toMatchObject({ encoding: 'UTF-8', bomLength: 3, confidence: 'certain', source: 'bom' });
    expect(sniffEncoding(bytes('\xfe\xff\x00<'), o)).toMatchObject({ encoding: 'UTF-16BE', bomLength: 2 });
    expect(sniffEncoding(bytes('\xff\xfe<\x00'), o)).toMatchObject({ encoding: 'UTF-16LE', bomLength: 2 });
    expect(sniffEncoding(bytes('\xef\xbb<'), {})).toMatchObject({ encoding: 'windows-1252', bomLength: 0 });
  });
  it('waits for a possible BOM prefix when the input may go on', () => {
    expect(sniffEncoding(bytes('\xef'), { encoding: 'gbk' }, false)).toBeNull();
    expect(sniffEncoding(bytes('\xef\xbb'), { encoding: 'gbk' }, false)).toBeNull();
    expect(sniffEncoding(bytes('\xef\xbb'), { encoding: 'gbk' }, true)).toMatchObject({ encoding: 'GBK', source: 'override' });
    expect(sniffEncoding(bytes('<'), { encoding: 'gbk' }, false)).toMatchObject({ encoding: 'GBK' });
  });
});

describe('the transport layer (Content-Type charset)', () => {
  it.each([
    ['text/html; charset=Shift_JIS', 'Shift_JIS'],
    ['text/html;charset="utf-8"', 'UTF-8'],
    ['text/html; charset = utf-8', null], // "charset " is not the name charset
    ['text/html; charset=" latin1 "', 'windows-1252'], // a quoted value; get an encoding trims it
    ['text/html; charset= "latin1"', null], // no whitespace is skipped after "=": the value starts with a space and a quote
    ['text/html; charset=\'utf-8\'', null],
    ['text/html; CHARSET=koi8-r', 'KOI8-R'],
    ['text/html; charset=utf-8; charset=gbk', 'UTF-8'], // the first parameter of a name wins
    ['text/html; charset=gbk, text/html', 'GBK'], // carried over to the same essence
    ['text/html; charset=gbk, text/plain', null], // a new essence drops it
    ['text/html; charset=gbk, */*', 'GBK'], // */* is skipped
    ['text/html; charset="big5\\"x"', null],
    ['text/html; charset="big5', 'Big5'], // an unterminated quoted string ends at the end
    ['text/html; charset=bogus', null],
    ['text/html', null],
    ['nonsense', null],
    ['text/html; charset=iso-2022-kr', 'replacement'],
    ['text/html; charset=utf-16', 'UTF-16LE'],
  ])('%s → %s', (value, expected) => {
    expect(encodingFromContentType(value)).toBe(expected);
  });
  it('is certain, and falls through to the prescan when it names no encoding', () => {
    expect(sniffEncoding(bytes('<meta charset=gbk>'), { contentType: 'text/html; charset=koi8-r' })).toMatchObject({ encoding: 'KOI8-R', confidence: 'certain', source: 'transport' });
    expect(sniffEncoding(bytes('<meta charset=gbk>'), { contentType: 'text/html; charset=nope' })).toMatchObject({ encoding: 'GBK', confidence: 'tentative', source: 'prescan' });
  });
});

describe('extracting a character encoding from a meta element', () => {
  it.each([
    ['text/html; charset=utf-8', 'UTF-8'],
    ['text/html;charset  =  "koi8-r" ', 'KOI8-R'],
    ["charset='big5'", 'Big5'],
    ['charset="big5', null], // unmatched quote
    ['charset=', null],
    ['charsetcharset=gbk', 'GBK'], // the first "charset" is not followed by "=": go on from there
    ['CHARSET=euc-kr;x', 'EUC-KR'],
    ['charset=utf-8 extra', 'UTF-8'],
    ['no charset here', null],
    ['charset=foo; charset=utf-8', null], // the first charset= decides, even when it names nothing
  ])('%s → %s', (content, expected) => {
    expect(extractEncodingFromMetaContent(content)).toBe(expected);
  });
});

describe('the prescan (§13.2.3.2)', () => {
  it('finds <meta charset> and <meta http-equiv content>', () => {
    expect(pre('<meta charset=iso-8859-2>')).toBe('ISO-8859-2');
    expect(pre('<META CHARSET="KOI8-R">')).toBe('KOI8-R');
    expect(pre('<meta/charset=gbk>')).toBe('GBK');
    expect(pre('<meta http-equiv="Content-Type" content="text/html; charset=euc-jp">')).toBe('EUC-JP');
    expect(pre('<meta content="text/html; charset=euc-jp" http-equiv=content-type>')).toBe('EUC-JP');
  });
  it('needs the pragma for content, not for charset; the first attribute of a name counts', () => {
    expect(pre('<meta content="text/html; charset=euc-jp">')).toBeNull();
    expect(pre('<meta http-equiv=refresh content="charset=euc-jp">')).toBeNull();
    expect(pre('<meta charset=gbk charset=big5>')).toBe('GBK');
    expect(pre('<meta charset=bogus><meta charset=big5>')).toBe('Big5');
    expect(pre('<meta content="charset=koi8-r" charset=gbk http-equiv=content-type>')).toBe('GBK');
    expect(pre('<meta charset=gbk content="charset=koi8-r" http-equiv=content-type>')).toBe('GBK');
  });
  it('maps UTF-16 to UTF-8 and x-user-defined to windows-1252', () => {
    expect(pre('<meta charset=utf-16>')).toBe('UTF-8');
    expect(pre('<meta charset=utf-16be>')).toBe('UTF-8');
    expect(pre('<meta charset=x-user-defined>')).toBe('windows-1252');
  });
  it('skips comments, other tags with their attributes, <! </ <?', () => {
    expect(pre('<!-- <meta charset=gbk> --><meta charset=big5>')).toBe('Big5');
    expect(pre('<!--><meta charset=big5>')).toBe('Big5'); // "<!-->" ends at its own "--"
    expect(pre('<!---><meta charset=gbk>--><meta charset=big5>')).toBe('GBK'); // "<!--->" is a whole comment
    expect(pre('<!-- --!><meta charset=gbk>--><meta charset=big5>')).toBe('Big5');
    expect(pre('<div title="<meta charset=gbk>"><meta charset=big5>')).toBe('Big5');
    expect(pre("<div title='a>b' <meta charset=gbk>")).toBeNull(); // the <meta is an attribute name here
    expect(pre('<!doctype html><?php x ?></p><meta charset=big5>')).toBe('Big5');
    expect(pre('<metax charset=gbk>')).toBeNull();
    expect(pre('<meta\fcharset=gbk>')).toBe('GBK');
    expect(pre('<script>"<meta charset=gbk>"</script>')).toBe('GBK'); // the prescan knows no raw text
  });
  it('get an attribute: spaces around "=", quotes, lowercasing, ">" in an unquoted value', () => {
    expect(pre('<meta charset = "GBK" >')).toBe('GBK');
    expect(pre('<meta charset=>')).toBeNull();
    expect(pre('<meta charset = >')).toBeNull();
    expect(pre('<meta =charset=gbk>')).toBeNull(); // "=" starts the name "=charset"
    expect(pre('<meta charset="gbk>')).toBeNull(); // never closed within the bytes: aborted
  });
  it('reads 1024 bytes and no more', () => {
    const pad = (n: number) => `<!--${'x'.repeat(n - 7)}-->`;
    expect(pad(1000).length).toBe(1000);
    expect(pre(pad(1000) + '<meta charset=gbk>')).toBe('GBK');
    expect(pre(pad(1010) + '<meta charset=gbk>')).toBeNull(); // the ">" is byte 1028
    expect(prescan(bytes(pad(1010) + '<meta charset=gbk>'), 2048).encoding).toBe('GBK');
  });
  it('the UTF-16 XML declarations and "get an XML encoding"', () => {
    expect(pre('<\x00?\x00x\x00m\x00')).toBe('UTF-16LE');
    expect(pre('\x00<\x00?\x00x\x00m')).toBe('UTF-16BE');
    expect(pre('<?xml version="1.0" encoding="koi8-r"?><p>')).toBe('KOI8-R');
    expect(pre('<?xml version="1.0" encoding="koi8-r"?><meta charset=gbk>')).toBe('GBK'); // a <meta> comes first
    expect(pre('<?xml version="1.0" encoding = \'utf-16\'?>')).toBe('UTF-8');
    expect(pre('<?xml version="1.0" ENCODING="koi8-r"?>')).toBeNull();
    expect(pre(' <?xml version="1.0" encoding="koi8-r"?>')).toBeNull();
  });
  it('the default is windows-1252, or the given one, tentative', () => {
    expect(sniffEncoding(bytes('<p>'))).toMatchObject({ encoding: 'windows-1252', confidence: 'tentative', source: 'default' });
    expect(sniffEncoding(bytes('<p>'), { defaultEncoding: 'Shift-JIS' })).toMatchObject({ encoding: 'Shift_JIS' });
    expect(() => sniffEncoding(bytes('<p>'), { encoding: 'nope' })).toThrow(RangeError);
  });
});

describe('change the encoding (§13.2.3.4)', () => {
  it('decides', () => {
    expect(changeTheEncoding('windows-1252', 'certain', 'UTF-8')).toBeNull();
    expect(changeTheEncoding('UTF-16LE', 'tentative', 'GBK')).toEqual({ from: 'UTF-16LE', to: 'UTF-16LE', action: 'none' });
    expect(changeTheEncoding('UTF-8', 'tentative', 'UTF-16BE')).toEqual({ from: 'UTF-8', to: 'UTF-8', action: 'none' });
    expect(changeTheEncoding('windows-1252', 'tentative', 'x-user-defined')).toEqual({ from: 'windows-1252', to: 'windows-1252', action: 'none' });
    expect(changeTheEncoding('windows-1252', 'tentative', 'ISO-8859-2')).toEqual({ from: 'windows-1252', to: 'ISO-8859-2', action: 'reparse' });
  });
});

describe('HtmlDecoder: sniff, then stream', () => {
  const pages: { bytes: Uint8Array; options: { contentType?: string; encoding?: string } }[] = [
    { bytes: new Uint8Array(iconv.encode('<meta charset=shift_jis><p>こんにちは、世界', 'shift_jis')), options: {} },
    { bytes: new Uint8Array(iconv.encode('<!--' + 'x'.repeat(1100) + '--><p>こんにちは', 'euc-jp')), options: { contentType: 'text/html;charset=euc-jp' } },
    { bytes: new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('<p>héllo 😀')]), options: {} },
    { bytes: new Uint8Array([0xff, 0xfe, ...iconv.encode('<p>héllo 😀', 'utf-16le')]), options: {} },
    { bytes: new Uint8Array(iconv.encode('<p>café ' + 'y'.repeat(1030) + 'é', 'windows-1252')), options: {} },
    { bytes: new Uint8Array(iconv.encode('<meta http-equiv=content-type content="text/html; charset=gb18030"><p>你好😀', 'gb18030')), options: {} },
    { bytes: new Uint8Array(Buffer.from('\xef')), options: {} },
    { bytes: new Uint8Array(0), options: {} },
  ];
  it('gives the same encoding and text for every chunking', () => {
    fc.assert(
      fc.property(fc.constantFrom(...pages), fc.array(fc.nat({ max: 1200 }), { maxLength: 8 }), (page, cuts) => {
        const whole = decodeHtmlBytes(page.bytes, page.options);
        const points = [...new Set(cuts.map((c) => c % (page.bytes.length + 1)))].sort((a, b) => a - b);
        const d = new HtmlDecoder(page.options);
        let text = '';
        let at = 0;
        for (const p of [...points, page.bytes.length]) {
          text += d.write(page.bytes.subarray(at, p));
          at = p;
        }
        text += d.end();
        expect(d.sniffResult).toEqual(whole.sniff);
        expect(text).toBe(whole.text);
      }),
      { numRuns: 1500 },
    );
  });
  it('holds at most 1024 bytes without a <meta>, and starts early when a <meta> decides', () => {
    const d = new HtmlDecoder();
    expect(d.write(bytes('<p>' + 'a'.repeat(1020)))).toBe('');
    expect(d.write(bytes('bc'))).toBe('<p>' + 'a'.repeat(1020) + 'bc');
    expect(d.encoding).toBe('windows-1252');
    const e = new HtmlDecoder();
    expect(e.write(bytes('<meta charset=koi8-r><p>\xc1'))).toBe('<meta charset=koi8-r><p>а');
    expect(e.confidence).toBe('tentative');
  });
});
