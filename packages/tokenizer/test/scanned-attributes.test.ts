/**
 * A tag's attributes read while it is the live tag (inside `emit`, before the scanner starts the next
 * tag) are decoded from the boundaries the scanner recorded (decode/scanned-attributes.ts); read at any
 * other time, from the tag's raw text; with `onParseError`, by the error-collecting decoder. All three
 * must give the same list, whatever the chunking, across snapshot/restore, `insert()` and interleaved
 * tokenizers.
 */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Tokenizer, type Attribute, type Token, type TokenizerOptions } from '../src/index.js';
import { INITIAL_STATE, haveHtml5lib, loadTokenizerTests, tokenizerTestFiles } from '../../../tests/chunk-split/html5lib.js';

type Pairs = [string, string][];
const pairs = (attributes: readonly Attribute[]): Pairs => attributes.map((a) => [a.name, a.value]);

interface Read {
  /** Each tag's attributes as read inside `emit`. */
  live: Pairs[];
}

/** Tokenizes `chunks`, reading every tag's attributes inside `emit`; `restoreAt` restarts from a snapshot after those chunks. */
function readLive(chunks: string[], options: TokenizerOptions = {}, restoreAt: ReadonlySet<number> = new Set()): Read {
  const live: Pairs[] = [];
  const emit = (t: Token) => {
    if (t.type === 'startTag' || t.type === 'endTag') live.push(pairs(t.attributes));
  };
  let tokenizer = new Tokenizer(options);
  chunks.forEach((chunk, i) => {
    tokenizer.write(chunk, emit);
    if (restoreAt.has(i)) {
      const restored = new Tokenizer(options);
      restored.restore(JSON.parse(JSON.stringify(tokenizer.snapshot())));
      tokenizer = restored;
    }
  });
  tokenizer.end(emit);
  return { live };
}

/** The reference: every tag's attributes as the error-collecting decoder gives them (the input whole). */
function readWithErrors(input: string, options: TokenizerOptions = {}): Pairs[] {
  const out: Pairs[] = [];
  const t = new Tokenizer({ ...options, onParseError: () => {} });
  const emit = (x: Token) => {
    if (x.type === 'startTag' || x.type === 'endTag') out.push(pairs(x.attributes));
  };
  t.write(input, emit);
  t.end(emit);
  return out;
}

/** Every tag's attributes read after `end()` (no tag is live then): the raw-text decoder. */
function readLater(chunks: string[], options: TokenizerOptions = {}): Pairs[] {
  const tags: Extract<Token, { type: 'startTag' | 'endTag' }>[] = [];
  const t = new Tokenizer(options);
  const emit = (x: Token) => {
    if (x.type === 'startTag' || x.type === 'endTag') tags.push(x);
  };
  for (const chunk of chunks) t.write(chunk, emit);
  t.end(emit);
  return tags.map((x) => pairs(x.attributes));
}

/**
 * Each tag's attributes looked up one by one with `attributeValue` inside `emit` (before `attributes` is
 * read), for the names `expected` lists and one it does not.
 */
function readLiveValues(chunks: string[], options: TokenizerOptions, expected: Pairs[]): [string, string | null][][] {
  const out: [string, string | null][][] = [];
  const emit = (t: Token) => {
    if (t.type !== 'startTag' && t.type !== 'endTag') return;
    const tag = t as unknown as { attributeValue(name: string): string | null };
    const names = (expected[out.length] ?? []).map(([name]) => name);
    out.push([...names, 'absent'].map((name) => [name, tag.attributeValue(name)]));
  };
  const tokenizer = new Tokenizer(options);
  for (const chunk of chunks) tokenizer.write(chunk, emit);
  tokenizer.end(emit);
  return out;
}

function check(input: string, chunks: string[], options: TokenizerOptions = {}, restoreAt: ReadonlySet<number> = new Set()): void {
  // (`byteInput` cannot report errors: the raw-text decoder is the reference then.)
  const expected = options.byteInput ? readLater([input], options) : readWithErrors(input, options);
  expect(readLive(chunks, options, restoreAt).live).toEqual(expected);
  expect(readLater(chunks, options)).toEqual(expected);
  expect(readLiveValues(chunks, options, expected)).toEqual(expected.map((list) => [...list, ['absent', null]]));
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

describe('attributes decoded from the scanner’s spans', () => {
  it('match the raw-text decoder on crafted tags', () => {
    const inputs = [
      '<a href="x&amp;y" HREF=z Title=\'t\r\nu\' b c= d=e>',
      '<p >x</p ><br/><br / ><img src=a.png alt="">',
      '<a b=\'x\'c=d/e f=>g</a b=c>',
      '<a =b ="c" =>',
      '<a b="\0&notit;&#0;&#x110000;" c=&amp d=&ampx e=&amp=>',
      '<a\tb\n=\fc\rd\r\ne="\r\n\r">',
      '<a b c d e f g h i j b=2 k l m a=1 c=3>',
      '<title x=1>a</title y=2><script z="<">x</script w>',
      '<textarea>&lt;</textarea a=b>',
      '<a b="unterminated',
      '<a b=c',
      '<a ' + 'x'.repeat(100) + '="1" y=' + 'v'.repeat(40) + '>',
    ];
    for (const input of inputs) {
      check(input, [input]);
      check(input, [...input]); // one character per write
      for (let cut = 1; cut < input.length; cut++) check(input, [input.slice(0, cut), input.slice(cut)], {}, new Set([0]));
    }
  });

  it('match across two interleaved tokenizers and a tag read after the next one began', () => {
    const a = new Tokenizer();
    const b = new Tokenizer();
    const seen: Token[] = [];
    const emit = (t: Token) => seen.push(t);
    a.write('<p class=one id="x">', emit);
    b.write('<div title=two>', emit);
    a.write('<span data-x="a&amp;b" lang=', emit); // a's next tag is half scanned
    expect(seen.map((t) => (t.type === 'startTag' ? pairs(t.attributes) : null))).toEqual([
      [['class', 'one'], ['id', 'x']],
      [['title', 'two']],
    ]);
    a.write('en>', emit);
    expect(pairs((seen[2] as Extract<Token, { type: 'startTag' }>).attributes)).toEqual([['data-x', 'a&b'], ['lang', 'en']]);
    a.end(emit);
    b.end(emit);
  });

  it('match with insert() (document.write) cutting the input', () => {
    const t = new Tokenizer();
    const live: Pairs[] = [];
    const emit = (x: Token) => {
      if (x.type === 'startTag') expect((x as unknown as { attributeValue(n: string): string | null }).attributeValue('a')).toBe(x.name === 'i' ? '<1' : null);
      if (x.type === 'startTag') live.push(pairs(x.attributes));
      if (x.type === 'endTag' && x.name === 'script') t.insert('<i a="&lt;1">x</i><b c=2>');
    };
    t.write('<script>w()</script><u d="&amp;3" e=4>', emit);
    t.end(emit);
    expect(live).toEqual([[], [['a', '<1']], [['c', '2']], [['d', '&3'], ['e', '4']]]);
  });

  it('match on generated tag soup, in random chunks, with snapshots restored between them', () => {
    const junk = fc.constantFrom(
      '<a', '<B', '</a', '<img', ' ', '\t', '\n', '\r', '\r\n', '\f', '/', '>', '/>', '=', '"', "'", '`', '<',
      'x', 'Y', 'href', 'HREF', '&amp;', '&amp', '&', '&#65;', '&#x41', '&notin;', '&not', '\0', 'é', '-->', '<!--',
    );
    const valueText = fc.array(fc.constantFrom('v', 'W', ' ', '&amp;', '&amp', '&ampx', '&', '&#65;', '&not', '\r', '\r\n', '\0', '=', '/', '\n'), { maxLength: 5 }).map((a) => a.join(''));
    const attribute = fc
      .tuple(fc.constantFrom('a', 'B', 'href', 'Href', 'data-x', '=q', 'a\0'), fc.constantFrom('', '=', ' = ', '="', "='"), valueText)
      .map(([name, eq, value]) =>
        eq === '' ? name : eq === '="' ? `${name}="${value.replace(/"/g, '')}"` : eq === "='" ? `${name}='${value.replace(/'/g, '')}'` : `${name}${eq}${value.replace(/[\s>]/g, '') || 'u'}`,
      );
    const tag = fc
      .tuple(fc.constantFrom('<a', '</a', '<IMG', '<p'), fc.array(attribute, { maxLength: 5 }), fc.constantFrom('>', '/>', ' >', ''))
      .map(([open, attributes, close]) => open + attributes.map((a) => ' ' + a).join('') + close);
    const piece = fc.oneof(junk, tag);
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (pieces, cuts, restore) => {
        const input = pieces.join('');
        const chunks = splitAt(input, cuts);
        check(input, chunks, {}, restore ? new Set(chunks.map((_, i) => i)) : new Set());
        check(input, chunks, { byteInput: true });
      }),
      { numRuns: 400 },
    );
  });

  it.runIf(haveHtml5lib || process.env.CI)('match on every html5lib tokenizer test input, whole and one character at a time', () => {
    let runs = 0;
    for (const file of tokenizerTestFiles()) {
      for (const test of loadTokenizerTests(file)) {
        for (const name of test.initialStates) {
          const options: TokenizerOptions = {
            initialState: INITIAL_STATE[name],
            autoTextMode: false,
            ...(test.lastStartTag !== undefined ? { lastStartTag: test.lastStartTag } : {}),
          };
          check(test.input, [test.input], options);
          check(test.input, [...test.input], options);
          runs++;
        }
      }
    }
    expect(runs).toBeGreaterThan(6000);
  });
});
