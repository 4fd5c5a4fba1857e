/**
 * `discardByteOrderMark`: a byte order mark that is the first character of the whole input becomes a
 * 'discarded' token (the decoder's part, HTML §13.2.3.1: a tree builder never sees it as text), whatever
 * the chunking; raw text still round-trips and offsets still count it. Without the option, a leading
 * U+FEFF is text (html5lib's tokenizer test "leading U+FEFF must pass through").
 */
import { describe, expect, it } from 'vitest';
import { Tokenizer, toByteForm, type ParseError, type Token } from '../src/index.js';
import { brief } from './helpers.js';

const BOM = '\uFEFF';

function run(chunks: readonly string[], options: ConstructorParameters<typeof Tokenizer>[0] = {}): Token[] {
  const tokens: Token[] = [];
  const t = new Tokenizer(options);
  for (const c of chunks) t.write(c, (x) => tokens.push(x));
  t.end((x) => tokens.push(x));
  return tokens;
}

/** Every way to cut `s` into non-empty chunks (2^(n-1) of them), each also with empty chunks around. */
function* chunkings(s: string): Generator<string[]> {
  const n = s.length;
  for (let mask = 0; mask < 1 << (n - 1); mask++) {
    const chunks: string[] = [];
    let from = 0;
    for (let i = 1; i < n; i++) {
      if (mask & (1 << (i - 1))) {
        chunks.push(s.slice(from, i));
        from = i;
      }
    }
    chunks.push(s.slice(from));
    yield chunks;
    yield ['', ...chunks.flatMap((c) => [c, ''])];
  }
}

describe('Tokenizer: a leading byte order mark', () => {
  it('is text by default (a bare tokenizer tokenizes what it is given)', () => {
    expect(run([BOM + 'a<b>']).map(brief)).toEqual(['text:data:"\uFEFFa"@0', 'startTag:"<b>"@2']);
  });

  it('with discardByteOrderMark, is a discarded token of its own; offsets count it', () => {
    const tokens = run([BOM + '<title>x</title>'], { discardByteOrderMark: true });
    expect(tokens.map(brief)).toEqual(['discarded:"\uFEFF"@0', 'startTag:"<title>"@1', 'text:rcdata:"x"@8', 'endTag:"</title>"@9']);
  });

  it('is discarded for every chunking of a small input, empty chunks included; raw round-trips', () => {
    const input = BOM + '<p>a' + BOM;
    const expected = ['discarded:"\uFEFF"@0', 'startTag:"<p>"@1', `text:data:"a${BOM}"@4`];
    let count = 0;
    for (const chunks of chunkings(input)) {
      const tokens = run(chunks, { discardByteOrderMark: true });
      expect(tokens.map((t) => t.raw).join('')).toBe(input);
      // Text may be split differently by the chunking: merge adjacent text before comparing.
      const merged: string[] = [];
      let text: Token | null = null;
      let textRaw = '';
      for (const t of tokens) {
        if (t.type === 'text') {
          if (text === null) text = t;
          textRaw += t.raw;
        } else {
          if (text !== null) merged.push(`text:data:${JSON.stringify(textRaw)}@${text.start}`);
          text = null;
          textRaw = '';
          merged.push(brief(t));
        }
      }
      if (text !== null) merged.push(`text:data:${JSON.stringify(textRaw)}@${text.start}`);
      expect(merged, JSON.stringify(chunks)).toEqual(expected);
      count++;
    }
    expect(count).toBe(2 * 2 ** (input.length - 1));
  });

  it('is discarded only as the very first character, once', () => {
    expect(run([BOM + BOM + 'x'], { discardByteOrderMark: true }).map(brief)).toEqual(['discarded:"\uFEFF"@0', 'text:data:"\uFEFFx"@1']);
    expect(run(['', BOM, BOM], { discardByteOrderMark: true }).map(brief)).toEqual(['discarded:"\uFEFF"@0', 'text:data:"\uFEFF"@1']);
    expect(run(['x' + BOM], { discardByteOrderMark: true }).map(brief)).toEqual(['text:data:"x\uFEFF"@0']);
    expect(run([' ', BOM + '<p>'], { discardByteOrderMark: true }).map(brief)).toEqual(['text:data:" "@0', 'text:data:"\uFEFF"@1', 'startTag:"<p>"@2']);
  });

  it('in byte form, is the three bytes EF BB BF', () => {
    const input = toByteForm(BOM + '<p>é');
    expect(input.slice(0, 3)).toBe('\xef\xbb\xbf');
    const tokens = run([input], { discardByteOrderMark: true, byteInput: true });
    expect(tokens.map(brief)).toEqual(['discarded:"\xef\xbb\xbf"@0', 'startTag:"<p>"@3', 'text:data:"\xc3\xa9"@6']);
    // Without the option the bytes are text, as before.
    expect(run([input], { byteInput: true })[0]!.type).toBe('text');
  });

  it('shifts parse error positions by the BOM: they stay positions in the input as given', () => {
    const errors: ParseError[] = [];
    run([BOM + '</>'], { discardByteOrderMark: true, onError: (e) => errors.push(e) });
    expect(errors.map((e) => [e.code, e.offset, e.col])).toEqual([['missing-end-tag-name', 3, 4]]);
  });

  it('survives a snapshot taken before anything was read', () => {
    const a = new Tokenizer({ discardByteOrderMark: true });
    const b = new Tokenizer({ discardByteOrderMark: true });
    a.write('', () => {});
    b.restore(a.snapshot());
    const tokens: Token[] = [];
    b.write(BOM + 'x', (t) => tokens.push(t));
    b.end((t) => tokens.push(t));
    expect(tokens.map(brief)).toEqual(['discarded:"\uFEFF"@0', 'text:data:"x"@1']);
  });

  it('checks the option', () => {
    expect(() => new Tokenizer({ discardByteOrderMark: 'yes' as unknown as boolean })).toThrow(/discardByteOrderMark must be a boolean/);
  });
});
