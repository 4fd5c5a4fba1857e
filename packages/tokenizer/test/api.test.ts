/** The Tokenizer API: text modes from emit, insert(), errors with positions, snapshots, misuse. */

import { describe, expect, it } from 'vitest';
import { Tokenizer, snapshotsEqual, type ParseError, type Token } from '../src/index.js';
import { brief, recorder, tokenize } from './helpers.js';

describe('setTextMode from inside emit (as a tree builder does)', () => {
  it('switches from the next character; the appropriate end tag is the last start tag', () => {
    const tokens: Token[] = [];
    const t = new Tokenizer({ autoTextMode: false });
    const emit = (token: Token) => {
      tokens.push(token);
      if (token.type === 'startTag' && token.name === 'title') t.setTextMode('rcdata');
      if (token.type === 'startTag' && token.name === 'script') t.setTextMode('scriptData');
    };
    t.write('<title><b>&amp;</title><script>a</b>&amp;</script>', emit);
    t.end(emit);
    expect(tokens.map(brief)).toEqual([
      'startTag:"<title>"@0',
      'text:rcdata:"<b>&amp;"@7',
      'endTag:"</title>"@15',
      'startTag:"<script>"@23',
      'text:scriptData:"a</b>&amp;"@31',
      'endTag:"</script>"@41',
    ]);
    expect(tokens[1]).toMatchObject({ value: '<b>&' });
    expect(tokens[4]).toMatchObject({ value: 'a</b>&amp;' });
  });

  it('without autoTextMode nothing switches by itself', () => {
    const r = recorder();
    const t = new Tokenizer({ autoTextMode: false });
    t.write('<title><b></title>', r.emit);
    expect(r.take()).toEqual(['startTag:"<title>"@0', 'startTag:"<b>"@7', 'endTag:"</title>"@10']);
  });

  it('autoTextMode switches like an HTML tree builder would (noscript only with scripting)', () => {
    const kinds = (input: string, scripting = true) =>
      tokenize(input, { scripting })
        .tokens.filter((x) => x.type === 'text')
        .map((x) => (x as { kind: string }).kind);
    expect(kinds('<title>a</title>')).toEqual(['rcdata']);
    expect(kinds('<textarea>a</textarea>')).toEqual(['rcdata']);
    for (const name of ['style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']) {
      expect(kinds(`<${name}>a</${name}>`)).toEqual(['rawtext']);
    }
    expect(kinds('<noscript>a</noscript>', false)).toEqual(['data']);
    expect(kinds('<script>a</script>')).toEqual(['scriptData']);
    expect(kinds('<plaintext>a</plaintext>')).toEqual(['plaintext']);
    expect(kinds('<SCRIPT>a</script>')).toEqual(['scriptData']);
    expect(kinds('<scripts>a</scripts>')).toEqual(['data']);
  });

  it('throws, naming the problem, when a token or undecided text is in progress', () => {
    const t = new Tokenizer();
    t.write('x<', () => {});
    expect(() => t.setTextMode('rcdata')).toThrow(/middle of "<"/);
    expect(() => t.setTextMode('bogus' as never)).toThrow(/mode must be one of/);
  });
});

describe('insert() (document.write)', () => {
  it('reads inserted text right after the token being emitted, before the rest of the chunk', () => {
    const tokens: Token[] = [];
    const t = new Tokenizer();
    const emit = (token: Token) => {
      tokens.push(token);
      if (token.type === 'endTag' && token.name === 'script') {
        t.insert('<b>x');
        t.insert('</b>'); // several calls insert one after the other
      }
    };
    t.write('<script>w()</script>tail', emit);
    t.end(emit);
    expect(tokens.map(brief)).toEqual([
      'startTag:"<script>"@0',
      'text:scriptData:"w()"@8',
      'endTag:"</script>"@11',
      'startTag:"<b>"@20',
      'text:data:"x"@23',
      'endTag:"</b>"@24',
      'text:data:"tail"@28',
    ]);
    expect(tokens.map((x) => x.raw).join('')).toBe('<script>w()</script><b>x</b>tail');
  });

  it('nests: text inserted while inserted text is read goes right after the current token', () => {
    const tokens: Token[] = [];
    const t = new Tokenizer();
    const emit = (token: Token) => {
      tokens.push(token);
      if (token.type === 'endTag' && token.name === 'script') t.insert('<i></i>');
      if (token.type === 'startTag' && token.name === 'u') t.insert('<s>');
    };
    t.write('<script></script>', emit);
    t.write('<u>z', emit);
    t.end(emit);
    expect(tokens.map((x) => x.raw)).toEqual(['<script>', '</script>', '<i>', '</i>', '<u>', '<s>', 'z']);
  });

  it('outside write(), queues text to be read before the next chunk', () => {
    const r = recorder();
    const t = new Tokenizer();
    t.write('a', r.emit);
    t.insert('<i>');
    t.write('b', r.emit);
    t.end(r.emit);
    expect(r.take()).toEqual(['text:data:"a"@0', 'startTag:"<i>"@1', 'text:data:"b"@4']);
  });

  it('throws after end()', () => {
    const t = new Tokenizer();
    t.end(() => {});
    expect(() => t.insert('x')).toThrow(/after the end of input/);
  });
});

describe('parse errors', () => {
  it('reports each error with its code, offset, line and column, in input order', () => {
    const { errors } = tokenize('a\nb\r\nc\r<a b="1" b=2\n\0x>&notx;</a c>');
    expect(errors).toEqual<ParseError[]>([
      // `<a` is at 7, the start of line 4 (LF, CRLF and CR each end a line).
      { code: 'duplicate-attribute', offset: 17, line: 4, col: 11 }, // the `=` after the second `b`
      { code: 'unexpected-null-character', offset: 20, line: 5, col: 1 },
      { code: 'missing-semicolon-after-character-reference', offset: 27, line: 5, col: 8 }, // after `&not`
      { code: 'end-tag-with-attributes', offset: 34, line: 5, col: 15 }, // at the `>`
    ]);
  });

  it('reports input stream errors (controls, noncharacters, lone surrogates)', () => {
    const { errors } = tokenize('\u0001\uFFFF\uD800x\uD83F\uDFFE<a b="\u007F">');
    expect(errors.map((e) => [e.code, e.offset])).toEqual([
      ['control-character-in-input-stream', 0],
      ['noncharacter-in-input-stream', 1],
      ['surrogate-in-input-stream', 2],
      ['noncharacter-in-input-stream', 4],
      ['control-character-in-input-stream', 12],
    ]);
  });

  it('reports the same errors however the input is cut', () => {
    const input = '<!DOCTYPE html PUBLIC"x"><p a=b"c>&#0;&amp\r\n<!--a--!></p x/>';
    const whole = tokenize(input).errors;
    expect(whole.length).toBeGreaterThan(5);
    expect(tokenize(input.split('')).errors).toEqual(whole);
  });

  it('reports EOF errors at the end of input', () => {
    expect(tokenize('<a b').errors).toEqual([{ code: 'eof-in-tag', offset: 4, line: 1, col: 5 }]);
    expect(tokenize('x\n<!--').errors).toEqual([{ code: 'eof-in-comment', offset: 6, line: 2, col: 5 }]);
  });
});

describe('snapshots', () => {
  it('are plain JSON data and compare by value', () => {
    const t = new Tokenizer({ onError: () => {} });
    t.write('<p>a &am', () => {});
    const snapshot = t.snapshot();
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(snapshot.state).toBe('NAMED_CHARACTER_REFERENCE');
    expect(snapshot.unflushed).toBe('&am');
    expect(snapshotsEqual(snapshot, JSON.parse(JSON.stringify(snapshot)))).toBe(true);
    t.write('p', () => {});
    expect(snapshotsEqual(snapshot, t.snapshot())).toBe(false);
  });

  it('restore into another tokenizer resumes exactly', () => {
    const a = new Tokenizer();
    const ra = recorder();
    a.write('<title>x</ti', ra.emit);
    const b = new Tokenizer();
    b.restore(a.snapshot());
    const rb = recorder();
    b.write('tle>y', rb.emit);
    b.end(rb.emit);
    expect(rb.take()).toEqual(['endTag:"</title>"@8', 'text:data:"y"@16']);
  });
});

describe('misuse throws a clear Error', () => {
  it('write or end after end', () => {
    const t = new Tokenizer();
    t.end(() => {});
    expect(() => t.write('x', () => {})).toThrow(/write: called after end\(\)/);
    expect(() => t.end(() => {})).toThrow(/end: called after end\(\)/);
  });

  it('write, end or restore from inside emit', () => {
    const t = new Tokenizer();
    let error: unknown;
    t.write('<p>', () => {
      try {
        t.write('x', () => {});
      } catch (e) {
        error = e;
      }
    });
    expect(String(error)).toMatch(/from inside emit/);
    t.write('<p>', () => expect(() => t.restore(t.snapshot())).toThrow(/inside emit/));
  });

  it('bad arguments', () => {
    expect(() => new Tokenizer({ initialState: 'script' as never })).toThrow(/initialState must be one of/);
    expect(() => new Tokenizer({ onError: 1 as never })).toThrow(/onError must be a function/);
    const t = new Tokenizer();
    expect(() => t.write(1 as never, () => {})).toThrow(/chunk must be a string/);
    expect(() => t.write('x', undefined as never)).toThrow(/emit must be a function/);
    expect(() => t.restore({} as never)).toThrow(/not a tokenizer snapshot/);
    expect(() => t.restore(new Tokenizer({ onError: () => {} }).snapshot())).toThrow(/error reporting/);
  });

  it('after emit threw, the tokenizer refuses to go on', () => {
    const t = new Tokenizer();
    expect(() =>
      t.write('<p>', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(() => t.write('x', () => {})).toThrow(/cannot go on/);
  });
});

describe('tokens as values', () => {
  it('print and serialize as their public fields, not the input they point into', async () => {
    const { inspect } = await import('node:util');
    const page = `${'<p class=x>text</p>'.repeat(100)}<!--c--><!DOCTYPE html></>`;
    const tokens: Token[] = [];
    const t = new Tokenizer();
    t.write(page, (token) => tokens.push(token));
    t.end((token) => tokens.push(token));
    expect(tokens.map((token) => token.raw).join('')).toBe(page);
    expect(JSON.parse(JSON.stringify(tokens.slice(0, 3)))).toEqual([
      { type: 'startTag', name: 'p', attributes: [{ name: 'class', value: 'x' }], selfClosing: false, raw: '<p class=x>', start: 0 },
      { type: 'text', kind: 'data', raw: 'text', start: 11, value: 'text' },
      { type: 'endTag', name: 'p', attributes: [], selfClosing: false, raw: '</p>', start: 15 },
    ]);
    const tail = tokens.slice(-3);
    expect(JSON.parse(JSON.stringify(tail))).toEqual([
      { type: 'comment', data: 'c', raw: '<!--c-->', start: 1900 },
      { type: 'doctype', name: 'html', publicId: null, systemId: null, forceQuirks: false, raw: '<!DOCTYPE html>', start: 1908 },
      { type: 'discarded', raw: '</>', start: 1923 },
    ]);
    for (const token of tokens) {
      expect(JSON.stringify(token).length).toBeLessThan(200);
      expect(inspect(token).length).toBeLessThan(200);
    }
    expect(inspect(tokens[0])).toContain("name: 'p'");
  });
});
