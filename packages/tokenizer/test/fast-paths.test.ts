/**
 * The speed work's fast paths (docs/tokenizer.md, "Speed") must give what the general paths give:
 *
 * - `decodeName`'s packed cache (names of up to five letters, digits, `-`, `_`, `:`, `.`) against the
 *   standard's rule applied to the slice (ASCII upper alphas lowercased, NUL to U+FFFD), on a cold and
 *   a warm cache, in both forms;
 * - the data state's step over whitespace before a `<` (instead of `indexOf`), against the same input
 *   fed in other chunkings (each chunk boundary moves which path finds each `<`) and against the raw text
 *   model: tokens concatenate to the input, and each text token is the text between two tags.
 */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Tokenizer, type Token } from '../src/index.js';
import { decodeName } from '../src/decode/names.js';
import { toByteForm } from '../src/decode/byte-form.js';

/** §13.2.5.8, .33: the name as the standard builds it, one character at a time. */
function referenceName(raw: string, byteForm: boolean): string {
  let out = '';
  for (const ch of raw) {
    const c = ch.charCodeAt(0);
    if (c >= 0x41 && c <= 0x5a) out += String.fromCharCode(c + 0x20);
    else if (c === 0) out += byteForm ? toByteForm('\uFFFD') : '\uFFFD';
    else out += ch;
  }
  return out;
}

const nameChar = fc.constantFrom(
  'a', 'z', 'A', 'Z', 'q', 'Q', '0', '9', '-', '_', ':', '.', '\0', 'é', '\u00c9', '@', '[', '`', '{', '~', '\x7f', '!', 'ß',
);

describe('decodeName (packed and hashed caches)', () => {
  it('gives the standard name for generated names, cold and warm, in text and byte form', () => {
    fc.assert(
      fc.property(fc.array(nameChar, { minLength: 1, maxLength: 8 }), fc.string({ maxLength: 3 }), fc.boolean(), (chars, prefix, byteForm) => {
        const name = chars.join('');
        const raw = byteForm ? toByteForm(name) : name;
        const source = `${prefix}<${raw}>`;
        const start = prefix.length + 1;
        const expected = referenceName(raw, byteForm);
        expect(decodeName(source, start, start + raw.length, byteForm)).toBe(expected);
        expect(decodeName(source, start, start + raw.length, byteForm)).toBe(expected); // a hit
        expect(decodeName(raw, 0, raw.length, byteForm)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('tells apart names that differ only in case, length or one character', () => {
    const names = ['a', 'A', 'aa', 'b', 'h1', 'H1', 'h6', 'li', 'lI', 'div', 'DIV', 'dIv', 'd-v', 'd_v', 'd:v', 'd.v', 'abcde', 'ABCDE', 'abcdf', 'abcdef', 'x-y-z'];
    for (let round = 0; round < 3; round++) {
      for (const name of names) expect(decodeName(`<${name}>`, 1, 1 + name.length)).toBe(referenceName(name, false));
    }
  });
});

/** Tokens as comparable data, adjacent text tokens of one kind merged (a chunk boundary may split them). */
function tokensOf(chunks: string[]): unknown[] {
  const out: unknown[] = [];
  const emit = (t: Token) => {
    const last = out[out.length - 1] as { type: string; kind: string; raw: string; value: string } | undefined;
    if (t.type === 'text' && last?.type === 'text' && last.kind === t.kind) {
      last.raw += t.raw;
      last.value += t.value;
      return;
    }
    if (t.type === 'text') out.push({ type: t.type, kind: t.kind, raw: t.raw, start: t.start, value: t.value });
    else if (t.type === 'startTag' || t.type === 'endTag') {
      out.push({ type: t.type, raw: t.raw, start: t.start, name: t.name, attributes: t.attributes.map((a) => [a.name, a.value]), selfClosing: t.selfClosing });
    } else out.push({ type: t.type, raw: t.raw, start: t.start });
  };
  const tokenizer = new Tokenizer();
  for (const chunk of chunks) tokenizer.write(chunk, emit);
  tokenizer.end(emit);
  return out;
}

function splitAt(input: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(input.slice(from, p));
    from = p;
  }
  chunks.push(input.slice(from));
  return chunks;
}

describe('the data state’s whitespace step before a tag', () => {
  const piece = fc.constantFrom(
    '<p>', '</p>', '<LI>', '</li >', '<a href=x>', '<b/>', '<br>', '<!--c-->', '<', '</', '<>', '< p>', '&amp;', '&', '&lt', 'x', 'Ü',
    ' ', '  ', '\n', '\r\n', '\r', '\t', '\f', '\n    ', '\r\n\t\t', ' x ', ' &amp; ', ' <', ' </', '\n<!', '\0',
  );

  it('finds every tag, whatever the chunking; text is the source between tags', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), (pieces, cuts) => {
        const input = pieces.join('');
        const whole = tokensOf([input]);
        expect(tokensOf(splitAt(input, cuts))).toEqual(whole);
        expect(tokensOf([...input])).toEqual(whole);
        expect((whole as { raw: string }[]).map((t) => t.raw).join('')).toBe(input);
        // A data text token never holds the start of a tag (§13.2.5.6–7: `<` or `</` and a letter).
        for (const t of whole as { type: string; raw: string }[]) if (t.type === 'text') expect(t.raw).not.toMatch(/<\/?[A-Za-z]/);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the short-text cache (decode/text.ts)', () => {
  /** Each text token's value, read inside `emit`; with `onParseError` the values are decoded without the cache. */
  function values(input: string, errors: boolean): string[] {
    const out: string[] = [];
    const t = new Tokenizer(errors ? { onParseError: () => {} } : {});
    const emit = (x: Token) => {
      if (x.type === 'text') out.push(x.value);
    };
    t.write(input, emit);
    t.end(emit);
    return out;
  }

  it('gives the uncached value for generated short texts, repeated so that they hit and evict each other', () => {
    const unit = fc.constantFrom(' ', '\t', '\n', '\r', '\r\n', '\f', 'a', 'Q', 'é', '&amp;', '&amp', '&lt', '&#65;', '&', '\0', '>', '=', '"');
    const text = fc.array(unit, { minLength: 1, maxLength: 6 }).map((u) => u.join(''));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 30 }), fc.array(fc.nat(), { maxLength: 60 }), (texts, picks) => {
        // The texts again in another order: later occurrences find (or have lost) their slot.
        const order = [...texts, ...picks.map((p) => texts[p % texts.length])];
        const input = order.map((s) => `<i>${s}`).join('');
        expect(values(input, false)).toEqual(values(input, true));
      }),
      { numRuns: 500 },
    );
  });
});

describe('the text scanner going on into the tag scanner and back (no driver dispatch per tag)', () => {
  it('gives, with insert() after random tags, the tokens of the input with that text spliced in there', () => {
    const piece = fc.constantFrom('<p>', '</p>', '<a href=x>', '<b/>', 'text', ' ', '\r\n', '&amp;', '<!--c-->', '<title>', '</title>', '<script>', '</script>', '<', '</');
    const insertion = fc.constantFrom('', 'x', '<i>', '</i>', '<em class=', '"q">', '&lt;', '<', '\r', '</script>');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 25 }), fc.array(fc.tuple(fc.nat(), insertion), { maxLength: 4 }), (pieces, plan) => {
        const input = pieces.join('');
        const at = new Map(plan.map(([n, text]) => [n % 12, text]));
        // Tokenize with insert() called from emit after the k-th tag, and note where each insertion went.
        const got: unknown[] = [];
        const splices: [number, string][] = [];
        let tags = 0;
        const t = new Tokenizer();
        const emit = (x: Token) => {
          got.push(x);
          if (x.type !== 'startTag' && x.type !== 'endTag') return;
          const text = at.get(tags++);
          if (text === undefined || text === '') return;
          splices.push([x.start + x.raw.length, text]);
          t.insert(text);
        };
        t.write(input, emit);
        t.end(emit);
        // The same text spliced into the input up front. Offsets count what the tokenizer read, inserted
        // text included, so each splice's offset is already one in the input spliced so far.
        let spliced = input;
        for (const [offset, text] of splices) spliced = spliced.slice(0, offset) + text + spliced.slice(offset);
        expect(tokensOfList(got as Token[])).toEqual(tokensOf([spliced]));
      }),
      { numRuns: 500 },
    );
  });
});

/** `tokensOf`'s comparable form for tokens already collected. */
function tokensOfList(tokens: Token[]): unknown[] {
  const out: unknown[] = [];
  for (const t of tokens) {
    const last = out[out.length - 1] as { type: string; kind: string; raw: string; value: string } | undefined;
    if (t.type === 'text' && last?.type === 'text' && last.kind === t.kind) {
      last.raw += t.raw;
      last.value += t.value;
    } else if (t.type === 'text') out.push({ type: t.type, kind: t.kind, raw: t.raw, start: t.start, value: t.value });
    else if (t.type === 'startTag' || t.type === 'endTag') {
      out.push({ type: t.type, raw: t.raw, start: t.start, name: t.name, attributes: t.attributes.map((a) => [a.name, a.value]), selfClosing: t.selfClosing });
    } else out.push({ type: t.type, raw: t.raw, start: t.start });
  }
  return out;
}
