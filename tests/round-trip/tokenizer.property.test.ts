/**
 * Tokenizer properties, for arbitrary strings under arbitrary chunkings:
 * - the `raw` texts of the tokens concatenate to the input, and `start` is each token's offset;
 * - the normalized token stream (adjacent text of one kind merged, every decoded field read) and the
 *   errors do not depend on the chunking;
 * - `restore(snapshot())` (also through JSON) in the middle of the stream changes nothing;
 * - `write()` and `end()` after `end()` throw.
 */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Tokenizer, type ParseError, type Token, type TokenizerOptions } from '@sluice/tokenizer';
import { mergeText, recordToken, type TokenRecord } from '../chunk-split/emissions.js';

/** Any UTF-16 code units: lone surrogates, NUL, CR included. */
const anyCodeUnits = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 60 })
  .map((codes) => String.fromCharCode(...codes));

/** Any code points (astral ones as surrogate pairs). */
const anyCodePoints = fc.string({ unit: 'binary', maxLength: 60 });

/** Pieces of HTML, biased towards what changes the tokenizer's state. */
const htmlPiece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'<>&/!-="\';?[]#xX \r\n\0\t\fabAB1'.split('')) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '<script>', '</script>', '<title>', '</title>', '<textarea>', '</textarea>', '<style>', '</style>',
      '<plaintext>', '<xmp>', '<noscript>', '<iframe>', '<!--', '-->', '--!>', '<!', '<!DOCTYPE', 'PUBLIC', 'SYSTEM',
      '<![CDATA[', ']]>', '&amp;', '&amp', '&not', '&notin;', '&lt', '&#x41;', '&#65', '&#', '&#x', '\r\n',
      '<a href="', '<p class=', '</p>', '<br/>', 'script', 'title', 'é', '\uD83D\uDE00', '\uD800', '\uDC00', '\uFFFE',
    ),
  },
  {
    // Whole elements that switch text mode (with autoTextMode), so their end tags are candidates.
    weight: 2,
    arbitrary: fc.constantFrom(
      '<title>a&amp;b</tit</title>', '<textarea>\r\n&lt</TEXTAREA >', '<style>a</style/>', '<xmp></x></xmp>',
      '<script>a<!--<script>b</script>-->c</script>', '<script><!--</script>', '<noscript><p></noscript>',
      '<![CDATA[a]]b]]>', '<!DOCTYPE html PUBLIC "a" \'b\'>', '<!-- a -- b --!>',
    ),
  },
);
const htmlish = fc.array(htmlPiece, { maxLength: 40 }).map((pieces) => pieces.join(''));

const input = fc.oneof({ weight: 3, arbitrary: htmlish }, { weight: 1, arbitrary: anyCodeUnits }, { weight: 1, arbitrary: anyCodePoints });

/** Cut positions for a string of length n: sorted, distinct, inside (0, n). */
function chunksOf(s: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => (s.length === 0 ? 0 : c % (s.length + 1))))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let last = 0;
  for (const p of points) {
    chunks.push(s.slice(last, p));
    last = p;
  }
  chunks.push(s.slice(last));
  return chunks;
}

const cuts = fc.array(fc.nat(), { maxLength: 12 });
const optionsArb = fc.record({
  cdataAllowed: fc.boolean(),
  autoTextMode: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  scripting: fc.boolean(),
});

interface Run {
  tokens: Token[];
  errors: ParseError[];
}

function makeOptions(o: { cdataAllowed: boolean; autoTextMode: boolean; scripting: boolean }, errors: ParseError[]): TokenizerOptions {
  return {
    cdataAllowed: () => o.cdataAllowed,
    autoTextMode: o.autoTextMode,
    scripting: o.scripting,
    onError: (e) => errors.push(e),
  };
}

/**
 * Tokenizes `chunks`. With `restore`, after each chunk for which it returns true, the state goes through
 * `snapshot()`, JSON, and `restore()` into a new tokenizer, which carries on.
 */
function run(chunks: string[], o: Parameters<typeof makeOptions>[0], restore?: (k: number) => boolean): Run {
  const tokens: Token[] = [];
  const errors: ParseError[] = [];
  let tokenizer = new Tokenizer(makeOptions(o, errors));
  const emit = (t: Token) => tokens.push(t);
  chunks.forEach((chunk, k) => {
    tokenizer.write(chunk, emit);
    if (restore?.(k)) {
      const snapshot = JSON.parse(JSON.stringify(tokenizer.snapshot()));
      tokenizer = new Tokenizer(makeOptions(o, errors));
      tokenizer.restore(snapshot);
    }
  });
  tokenizer.end(emit);
  return { tokens, errors };
}

function normalized(r: Run): { tokens: TokenRecord[]; errors: ParseError[] } {
  return { tokens: mergeText(r.tokens.map(recordToken)), errors: r.errors };
}

describe('tokenizer properties', () => {
  it('raw texts concatenate to the input, and start is each token’s offset, under any chunking', () => {
    fc.assert(
      fc.property(input, cuts, optionsArb, (s, c, o) => {
        const { tokens } = run(chunksOf(s, c), o);
        expect(tokens.map((t) => t.raw).join('')).toBe(s);
        let offset = 0;
        for (const t of tokens) {
          expect(t.start).toBe(offset);
          expect(t.raw.length).toBeGreaterThan(0);
          offset += t.raw.length;
        }
      }),
      { numRuns: 400 },
    );
  });

  it('tokens (text merged, decoded fields read) and errors do not depend on the chunking', () => {
    fc.assert(
      fc.property(input, cuts, optionsArb, (s, c, o) => {
        const whole = normalized(run([s], o));
        const chunked = normalized(run(chunksOf(s, c), o));
        expect(chunked).toEqual(whole);
        const byCharacter = normalized(run(s.split(''), o));
        expect(byCharacter).toEqual(whole);
      }),
      { numRuns: 400 },
    );
  });

  it('restore(snapshot()) in the middle of the stream, through JSON, changes nothing', () => {
    fc.assert(
      fc.property(input, cuts, optionsArb, fc.nat(), (s, c, o, at) => {
        const chunks = chunksOf(s, c);
        const straight = normalized(run(chunks, o));
        // At one chunk boundary, …
        expect(normalized(run(chunks, o, (k) => k === at % chunks.length))).toEqual(straight);
        // … and between every two characters.
        expect(normalized(run(s.split(''), o, () => true))).toEqual(straight);
      }),
      { numRuns: 300 },
    );
  });

  it('write() and end() after end() throw', () => {
    fc.assert(
      fc.property(input, (s) => {
        const tokenizer = new Tokenizer();
        const emit = () => {};
        tokenizer.write(s, emit);
        tokenizer.end(emit);
        expect(() => tokenizer.write('x', emit)).toThrow(/after end\(\)/);
        expect(() => tokenizer.end(emit)).toThrow(/after end\(\)/);
      }),
      { numRuns: 50 },
    );
  });
});
