/**
 * `byteInput`: tokenizing UTF-8 in byte form (one character per byte) gives the tokens of the text, with
 * raw text and offsets in bytes and every decoded field in byte form.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { StartTagClass, Tokenizer, attributeValueOfRawTag, attributesOfRawTag, byteFormOf, bytesOfByteForm, fromByteForm, toByteForm, type Token } from '../src/index.js';

const encoder = new TextEncoder();

function tokensOf(chunks: readonly string[], byteInput: boolean): Token[] {
  const tokens: Token[] = [];
  const t = new Tokenizer({ byteInput });
  for (const c of chunks) t.write(c, (x) => tokens.push(x));
  t.end((x) => tokens.push(x));
  return tokens;
}

/** Every field of a token, decoded, with `form` applied to each string (offsets as they are). */
function fieldsOf(token: Token, form: (s: string) => string): unknown {
  const f = (s: string | null): string | null => (s === null ? null : form(s));
  switch (token.type) {
    case 'text':
      return ['text', token.kind, f(token.raw), f(token.value)];
    case 'startTag':
    case 'endTag':
      return [token.type, f(token.raw), f(token.name), token.selfClosing, token.attributes.map((a) => [f(a.name), f(a.value)])];
    case 'comment':
      return ['comment', f(token.raw), f(token.data)];
    case 'doctype':
      return ['doctype', f(token.raw), f(token.name), f(token.publicId), f(token.systemId), token.forceQuirks];
    case 'discarded':
      return ['discarded', f(token.raw)];
  }
}

/** Markup where byte form and text part ways if anything is decoded wrongly: references, NULs, non-ASCII. */
const piece = fc.constantFrom(
  '<a href="é&eacute;&#xE9;&#0;">', '<A TITLE=ü&uuml >', '<p\0é x="\0">', '</p\0é>', '<café data-ö=1>', 'é&eacute;&notin;&#128512;',
  '\0x\r\n', '<!--é\0&amp;-->', '<!doctype HTMLé PUBLIC "é\0" "&amp;ü">', '<textarea>é&lt;\0</textarea>', '<script>é\0</script>',
  '<style>ü</style>', '\ufffd', '😀', '<svg><![CDATA[é\0]]></svg>', '&#xD800;', '&#x110000;', '&', '<', '</', '<é>',
);
const markup = fc.array(fc.oneof(piece, fc.string({ unit: 'grapheme', maxLength: 8 })), { maxLength: 12 }).map((p) => p.join(''));

describe('byteInput', () => {
  it('gives the tokens of the text: raw text and every decoded field in byte form', () => {
    fc.assert(
      fc.property(markup, (text) => {
        const bytes = byteFormOf(encoder.encode(text));
        const fromText = tokensOf([text], false).map((t) => fieldsOf(t, toByteForm));
        const fromBytes = tokensOf([bytes], true).map((t) => fieldsOf(t, (s) => s));
        expect(fromBytes).toEqual(fromText);
        // …and offsets are byte offsets.
        const starts = tokensOf([bytes], true).map((t) => t.start);
        expect(starts).toEqual(tokensOf([text], false).map((t) => encoder.encode(text.slice(0, t.start)).length));
      }),
      { numRuns: 1000 },
    );
  });

  it('single-attribute lookups agree with the decoded list, in byte form', () => {
    fc.assert(
      fc.property(markup, (text) => {
        for (const token of tokensOf([byteFormOf(encoder.encode(text))], true)) {
          if (!(token instanceof StartTagClass)) continue;
          const list = attributesOfRawTag(token.raw, true);
          expect(list).toEqual(token.attributes);
          for (const a of list) {
            if (list.find((b) => b.name === a.name) !== a) continue;
            expect(token.attributeValue(a.name)).toBe(a.value);
            expect(attributeValueOfRawTag(token.raw, a.name, true)).toBe(a.value);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('decodes references to the bytes of their characters, NUL to U+FFFD’s bytes', () => {
    const [tag] = tokensOf([toByteForm('<a x="&eacute;\0é">')], true) as [StartTagClass];
    expect(tag.attributes[0]!.value).toBe('\xC3\xA9\xEF\xBF\xBD\xC3\xA9');
    expect(fromByteForm(tag.attributes[0]!.value)).toBe('é\ufffdé');
    // The same characters compare equal however they were written.
    expect(tag.attributeValue('x')).toBe(toByteForm('é\ufffdé'));
  });

  it('round-trips byte form', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(fromByteForm(toByteForm(s))).toBe(s);
        expect(bytesOfByteForm(toByteForm(s))).toEqual(encoder.encode(s));
      }),
    );
    expect(() => bytesOfByteForm('é€')).toThrow(/U\+20AC at 1 of a string in byte form is not a byte/);
  });

  it('round-trips long strings with one character past ASCII anywhere (values such as URLs)', () => {
    // Strings of 12 characters or more are checked for ASCII another way than short ones.
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.constantFrom('\x7f', '\x80', 'é', '\xff', '€', '😀'),
        (before, after, c) => {
          const s = 'a'.repeat(before) + c + 'b'.repeat(after);
          expect(toByteForm(s)).toBe(byteFormOf(encoder.encode(s)));
          expect(fromByteForm(toByteForm(s))).toBe(s);
        },
      ),
    );
  });

  it('cannot be combined with onError', () => {
    expect(() => new Tokenizer({ byteInput: true, onError: () => {} })).toThrow(/byteInput and options.onParseError cannot be combined/);
    expect(() => new Tokenizer({ byteInput: 1 as unknown as boolean })).toThrow(/byteInput must be a boolean/);
  });
});
