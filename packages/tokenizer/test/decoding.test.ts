/** Lazy decoding of every token field, and the standard's rules for each. */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { StartTagClass, Tokenizer, attributeSpansOfRawTag, attributeValueOfRawTag, attributesOfRawTag, type Token } from '../src/index.js';
import { only, textOf, tokenize } from './helpers.js';

function tokensOf(input: string, options = {}): Token[] {
  const tokens: Token[] = [];
  const t = new Tokenizer(options);
  t.write(input, (x) => tokens.push(x));
  t.end((x) => tokens.push(x));
  return tokens;
}

describe('lazy decoding', () => {
  it('computes fields on first access and caches them', () => {
    const tag = only(tokensOf('<A Href="x&amp;y">z'), 'startTag');
    // Nothing decoded yet but the name (decoded as the tag is emitted: every consumer reads it), and the
    // raw text not sliced out of the input.
    expect((tag as unknown as { decodedName: unknown }).decodedName).toBe('a');
    expect((tag as unknown as { decodedAttributes: unknown }).decodedAttributes).toBeUndefined();
    expect((tag as unknown as { rawText: unknown }).rawText).toBeUndefined();
    expect(tag.name).toBe('a');
    expect(tag.raw).toBe('<A Href="x&amp;y">');
    expect((tag as unknown as { rawText: unknown }).rawText).toBe('<A Href="x&amp;y">');
    const attributes = tag.attributes;
    expect(attributes).toEqual([{ name: 'href', value: 'x&y' }]);
    expect(tag.attributes).toBe(attributes); // cached: the same array
    // The fields are getters on the prototype, not data copied at scan time.
    expect(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Object.getPrototypeOf(tag)), 'attributes')?.get).toBeTypeOf(
      'function',
    );

    const text = only(tokensOf('a&lt;b'), 'text');
    expect((text as unknown as { decoded: unknown }).decoded).toBeUndefined();
    expect(text.value).toBe('a<b');
    expect((text as unknown as { decoded: unknown }).decoded).toBe('a<b');
  });

  it('decodes eagerly when errors are wanted (decoding finds errors too)', () => {
    const { tokens } = tokenize('<a b="&amp">x&lt</a>');
    const tag = tokens[0] as unknown as { decodedAttributes: unknown };
    expect(tag.decodedAttributes).toEqual([{ name: 'b', value: '&' }]);
    expect((tokens[1] as unknown as { decoded: unknown }).decoded).toBe('x<');
  });
});

describe('tag fields', () => {
  it('name: ASCII lowercased, NUL to U+FFFD, other characters kept', () => {
    expect(only(tokensOf('<DiV>'), 'startTag').name).toBe('div');
    expect(only(tokensOf('<a\0B>'), 'startTag').name).toBe('a\uFFFDb');
    expect(only(tokensOf('<xİY>'), 'startTag').name).toBe('xİy');
    expect(only(tokensOf('<İX>'), 'text').value).toBe('<İX>'); // not ASCII alpha: no tag
    expect(only(tokensOf('</SPAN >'), 'endTag').name).toBe('span');
  });

  it('attributes: names lowercased, later duplicates dropped, values decoded by the attribute rules', () => {
    const tag = only(
      tokensOf('<p ID=one id=two CLASS = "a\r\nb" data-x=\'&lt;&notx&not=&not\' u=&gt v w=\0 =z/>'),
      'startTag',
    );
    expect(tag.attributes).toEqual([
      { name: 'id', value: 'one' },
      { name: 'class', value: 'a\nb' },
      { name: 'data-x', value: '<&notx&not=¬' },
      { name: 'u', value: '>' },
      { name: 'v', value: '' },
      { name: 'w', value: '\uFFFD' },
      { name: '=z', value: '' },
    ]);
    expect(tag.selfClosing).toBe(true);
  });

  it('selfClosing only for a final `/>`', () => {
    expect(only(tokensOf('<br/>'), 'startTag').selfClosing).toBe(true);
    expect(only(tokensOf('<br / >'), 'startTag').selfClosing).toBe(false);
    expect(only(tokensOf('<a b=c/>'), 'startTag').selfClosing).toBe(false); // the `/` is in the value
    expect(only(tokensOf('<a b="c"/>'), 'startTag').selfClosing).toBe(true);
  });

  it('attributes also have the shape of an HTML element attribute (namespace, prefix null; localName = name)', () => {
    const [a, b] = only(tokensOf('<p ID=x data-Y>'), 'startTag').attributes;
    expect([a.namespace, a.prefix, a.localName]).toEqual([null, null, 'id']);
    expect([b.namespace, b.prefix, b.localName]).toEqual([null, null, 'data-y']);
    // Only `name` and `value` are own properties: the attribute prints and compares as `{ name, value }`.
    expect(Object.keys(a)).toEqual(['name', 'value']);
  });

  it('attribute lists have exactly their length (no spare room), whatever the count', () => {
    for (let n = 1; n <= 12; n++) {
      const input = `<p ${Array.from({ length: n }, (_, i) => `a${i}=v${i}`).join(' ')} a0=dup>`;
      const attributes = only(tokensOf(input), 'startTag').attributes;
      expect(attributes.map((a) => a.name)).toEqual(Array.from({ length: n }, (_, i) => `a${i}`));
      expect(attributes.map((a) => a.value)).toEqual(Array.from({ length: n }, (_, i) => `v${i}`));
    }
  });

  it('names come out the same whatever was decoded before (the name cache is only a cache)', () => {
    const names = (input: string) =>
      tokensOf(input).flatMap((t) => (t.type === 'startTag' ? [t.name, ...t.attributes.map((a) => a.name)] : []));
    expect(names('<div Class=a><DIV CLASS=b><dIv cLaSs=c>')).toEqual(['div', 'class', 'div', 'class', 'div', 'class']);
    // A NUL decodes to U+FFFD; a raw U+FFFD stays one. Neither may be mistaken for the other.
    expect(names('<a\0b x\0=1><a\uFFFDb x\uFFFD=1><a\0b x\0=1>')).toEqual([
      'a\uFFFDb', 'x\uFFFD', 'a\uFFFDb', 'x\uFFFD', 'a\uFFFDb', 'x\uFFFD',
    ]);
    // Same length and same first, middle and last letters: still told apart.
    expect(names('<abxd><abyd><ABXD><abyd>')).toEqual(['abxd', 'abyd', 'abxd', 'abyd']);
    // Long names are decoded each time.
    expect(names('<p Aria-LabelledBy=x><p aria-labelledby=y>')).toEqual(['p', 'aria-labelledby', 'p', 'aria-labelledby']);
  });

  it('attributesOfRawTag decodes a raw start tag to the token\'s own attributes', () => {
    const inputs = [
      '<p>', '<br/>', '<p >', '<DIV Id=a CLASS="b&amp;c" data-x=\'&notx\' u=&gt v w=\0 =z/>', '<a\tb=1\nc="2"\fd>',
      '<img src=x.png alt="">', '<x y="z" y=w>', '<a href=?a=1&b=2&amp;c=&#x41;>',
    ];
    for (const input of inputs) {
      const tag = only(tokensOf(input), 'startTag');
      expect(attributesOfRawTag(tag.raw)).toEqual(tag.attributes);
    }
  });

  it('looks one attribute up (raw tag or token) as the decoded list would give it, decoding nothing else', () => {
    const lookup = (input: string, name: string) => {
      const tag = only(tokensOf(input), 'startTag') as StartTagClass;
      const fromRaw = attributeValueOfRawTag(tag.raw, name);
      const fromToken = tag.attributeValue(name);
      // Still undecoded: the lookup did not build the list.
      expect((tag as unknown as { decodedAttributes: unknown }).decodedAttributes).toBeUndefined();
      const expected = tag.attributes.find((a) => a.name === name)?.value ?? null;
      expect(fromRaw).toBe(expected);
      expect(fromToken).toBe(expected);
      // And from the decoded list, once there is one.
      expect(tag.attributeValue(name)).toBe(expected);
      return fromRaw;
    };
    expect(lookup('<a HREF="x&amp;y" href=z>', 'href')).toBe('x&y'); // the first of duplicates, decoded
    expect(lookup('<a hreflang=en href>', 'href')).toBe(''); // no value; a longer name is another name
    expect(lookup('<a data-href=x>', 'href')).toBeNull();
    expect(lookup('<a>', 'href')).toBeNull();
    expect(lookup('<br/>', 'href')).toBeNull();
    expect(lookup('<a x\0y=1 href=\r\n>', 'x\uFFFDy')).toBe('1'); // NUL in a name decodes to U+FFFD
    expect(lookup('<x title="a\r\nb&lt;" =y>', 'title')).toBe('a\nb<');
    expect(lookup('<x title="a" =y>', '=y')).toBe('');
  });

  it('one-attribute lookup agrees with the decoded list on random tags (fast-check)', () => {
    const piece = fc.constantFrom('a', 'B', 'href', 'HREF', '=', ' ', '\t', '\n', '\r', '/', '"', "'", '&amp;', '&', '&#x41;', '\0', 'é', 'x=y', '=""');
    const names = ['a', 'b', 'href', 'x', '=', 'a=', '\uFFFD', 'é'];
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (parts) => {
        const tokens = tokensOf(`<p ${parts.join('')}>`);
        const tag = tokens.find((t) => t.type === 'startTag') as StartTagClass | undefined;
        if (tag === undefined) return;
        for (const name of names) {
          const expected = tag.attributes.find((a) => a.name === name)?.value ?? null;
          expect(attributeValueOfRawTag(tag.raw, name)).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('attributeSpansOfRawTag: each attribute\'s exact text, which alone decodes to the same attribute (fast-check)', () => {
    expect(attributeSpansOfRawTag('<a B=1 c d = "2" e=>')).toEqual([
      { name: 'b', start: 3, end: 6 },
      { name: 'c', start: 7, end: 8 },
      { name: 'd', start: 9, end: 16 },
      { name: 'e', start: 17, end: 19 },
    ]);
    const piece = fc.constantFrom('a', 'B', 'href', '=', ' ', '\t', '\n', '/', '"', "'", '&amp;', '&', '\0', 'é', 'x=y', '=""', "='z'");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (parts) => {
        const tag = tokensOf(`<p ${parts.join('')}>`).find((t) => t.type === 'startTag');
        if (tag === undefined || !tag.raw.endsWith('>')) return;
        const spans = attributeSpansOfRawTag(tag.raw);
        const firsts = spans.filter((a, i) => spans.findIndex((b) => b.name === a.name) === i);
        expect(firsts.map((a) => a.name)).toEqual(tag.attributes.map((a) => a.name));
        firsts.forEach((span, i) => {
          expect(attributesOfRawTag(`<x ${tag.raw.slice(span.start, span.end)}>`)).toEqual([tag.attributes[i]]);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('attributesUndecoded: attribute text not decoded yet', () => {
    const undecoded = (input: string) => (only(tokensOf(input), 'startTag') as unknown as { attributesUndecoded: boolean });
    expect(undecoded('<p>').attributesUndecoded).toBe(false);
    expect(undecoded('<br/>').attributesUndecoded).toBe(false);
    const tag = only(tokensOf('<p a=b>'), 'startTag');
    expect((tag as unknown as { attributesUndecoded: boolean }).attributesUndecoded).toBe(true);
    void tag.attributes;
    expect((tag as unknown as { attributesUndecoded: boolean }).attributesUndecoded).toBe(false);
  });

  it('end tags decode their (erroneous) attributes too', () => {
    const tag = only(tokensOf('</p a=b/>'), 'endTag');
    expect(tag.attributes).toEqual([{ name: 'a', value: 'b/' }]);
  });
});

describe('text values by kind', () => {
  it('data: references decoded, CR and CRLF to LF, NUL kept', () => {
    expect(textOf(tokensOf('a&amp;b\r\nc\rd\0&#0;&notin;&noti;'))).toBe('a&b\nc\nd\0\uFFFD∉¬i;');
  });

  it('RCDATA: references decoded, NUL to U+FFFD', () => {
    expect(textOf(tokensOf('<textarea>&lt;\0\r\n</textarea>'))).toBe('<\uFFFD\n');
  });

  it('RAWTEXT, script data, PLAINTEXT: no references, NUL to U+FFFD', () => {
    expect(textOf(tokensOf('<style>&lt;\0</style>'))).toBe('&lt;\uFFFD');
    expect(textOf(tokensOf('<script>&lt;\0\r</script>'))).toBe('&lt;\uFFFD\n');
    expect(textOf(tokensOf('<plaintext>&lt;\0</plaintext>'))).toBe('&lt;\uFFFD</plaintext>');
  });

  it('CDATA: no references, NUL kept', () => {
    expect(textOf(tokensOf('<![CDATA[&lt;\0\r\n]]>', { cdataAllowed: () => true }))).toBe('&lt;\0\n');
  });

  it('short texts decode the same when seen again (the short text cache is only a cache)', () => {
    const texts = (input: string, options = {}) => tokensOf(input, options).flatMap((t) => (t.type === 'text' ? [t.value] : []));
    expect(texts('<p>\r\n <p>\r\n <p>\r\n ')).toEqual(['\n ', '\n ', '\n ']);
    expect(texts('<p>a&amp;<p>a&amp;<textarea>a&amp;</textarea><style>a&amp;</style><p>a&amp;')).toEqual([
      'a&', 'a&', 'a&', 'a&amp;', 'a&',
    ]);
    expect(texts('<p>\0\r<textarea>\0\r</textarea><p>\0\r<p>')).toEqual(['\0\n', '\uFFFD\n', '\0\n']);
  });

  it('a CR from a reference is not a newline to normalize', () => {
    expect(textOf(tokensOf('&#13;&#x0D;\r'))).toBe('\r\r\n');
  });
});

describe('comment data', () => {
  const data = (input: string, options = {}) => only(tokensOf(input, options), 'comment').data;
  it('follows the comment states, short and unclosed forms included', () => {
    expect(data('<!--x-->')).toBe('x');
    expect(data('<!---->')).toBe('');
    expect(data('<!-->')).toBe('');
    expect(data('<!--->')).toBe('');
    expect(data('<!-- a -- b --!>')).toBe(' a -- b ');
    expect(data('<!--a--!-->')).toBe('a--!');
    expect(data('<!--<!--x-->')).toBe('<!--x');
    expect(data('<!--a\r\nb\0-->')).toBe('a\nb\uFFFD');
  });

  it('EOF in every comment state', () => {
    expect(data('<!--')).toBe('');
    expect(data('<!---')).toBe('');
    expect(data('<!--abc')).toBe('abc');
    expect(data('<!--abc-')).toBe('abc');
    expect(data('<!--abc--')).toBe('abc');
    expect(data('<!--abc--!')).toBe('abc');
    expect(data('<!--<!-')).toBe('<!');
    expect(data('<!--<!--')).toBe('<!');
  });

  it('bogus comments', () => {
    expect(data('<?xml version="1"?>')).toBe('?xml version="1"?');
    expect(data('</ x>')).toBe(' x');
    expect(data('<!x>')).toBe('x');
    expect(data('<!DOCTYP>')).toBe('DOCTYP');
    expect(data('<![CDATA[x]]>')).toBe('[CDATA[x]]');
    expect(data('<?x')).toBe('?x');
    expect(data('<!-')).toBe('-');
  });
});

describe('DOCTYPE fields', () => {
  const doctype = (input: string) => {
    const d = only(tokensOf(input), 'doctype');
    return [d.name, d.publicId, d.systemId, d.forceQuirks];
  };
  it('name, identifiers and force-quirks', () => {
    expect(doctype('<!DOCTYPE html>')).toEqual(['html', null, null, false]);
    expect(doctype('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">')).toEqual([
      'html',
      '-//W3C//DTD HTML 4.01//EN',
      'http://www.w3.org/TR/html4/strict.dtd',
      false,
    ]);
    expect(doctype("<!doctype html system 'about:legacy-compat'>")).toEqual(['html', null, 'about:legacy-compat', false]);
    expect(doctype('<!DOCTYPE>')).toEqual([null, null, null, true]);
    expect(doctype('<!DOCTYPE html PUBLIC "x>')).toEqual(['html', 'x', null, true]);
    expect(doctype('<!DOCTYPE html SYSTEMx>')).toEqual(['html', null, null, true]);
    expect(doctype('<!DOCTYPE html SYSTEM "a" junk>')).toEqual(['html', null, 'a', false]);
    expect(doctype('<!DOCTYPE a\0B PUBLIC "\r\n\0"')).toEqual(['a\uFFFDb', '\n\uFFFD', null, true]);
  });
});
