/**
 * Low latency (each chunk's output is released when the chunk is processed), bounded memory
 * (`maxBufferedBytes`), and errors (a handler's exception errors the output with that very error).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Tokenizer, type Token } from '@sluice/tokenizer';
import { TreeBuilder } from '@sluice/tree-builder';
import { DomTreeSink, type Node } from '@sluice/dom';
import { HTMLRewriter } from '@sluice/rewriter';
import { runRewriter } from './helpers/run.js';
import { cuts, splitAt, tagSoup } from './helpers/soup.js';

/** The raw text the parser (tokenizer + tree builder) has emitted by the end of each chunk. */
function emittedPerChunk(chunks: string[]): string[] {
  let builder: TreeBuilder<Node> | null = null;
  const tokenizer = new Tokenizer({ autoTextMode: false, cdataAllowed: () => builder !== null && builder.cdataAllowed() });
  const tb = new TreeBuilder<Node>(new DomTreeSink(), tokenizer, {});
  builder = tb;
  let emitted = '';
  const emit = (t: Token) => {
    emitted += t.raw;
    tb.processToken(t);
  };
  const out: string[] = [];
  for (const c of chunks) {
    tokenizer.write(c, emit);
    out.push(emitted);
  }
  tokenizer.end(emit);
  out.push(emitted);
  return out;
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('low latency', () => {
  it('after each write, everything the tokenizer has released is output (no tables: no table text held)', async () => {
    const noTables = tagSoup.filter((s) => !/<\/?(table|tbody|tr|td|th|caption|colgroup|col|template)\b/i.test(s));
    await fc.assert(
      fc.asyncProperty(noTables, cuts, async (input, c) => {
        const chunks = splitAt(input, c);
        const { perWrite } = await runRewriter((r) => {
          r.on('*', { element(e) { void e.tagName; }, text(t) { void t.text; } });
          r.onDocument({ comments() {} });
        }, chunks);
        expect(perWrite).toEqual(emittedPerChunk(chunks));
      }),
      { numRuns: 300 },
    );
  });

  it('without text handlers, tables included: after each write, everything the tokenizer released is output', async () => {
    await fc.assert(
      fc.asyncProperty(tagSoup, cuts, async (input, c) => {
        const chunks = splitAt(input, c);
        const { perWrite } = await runRewriter((r) => {
          r.on('*', { element(e) { void e.tagName; if (e.canHaveContent) e.onEndTag(() => {}); } });
          r.onDocument({ comments() {}, doctype() {} });
        }, chunks);
        expect(perWrite).toEqual(emittedPerChunk(chunks));
      }),
      { numRuns: 300 },
    );
  });

  it('without text handlers, text that closes a column group and then waits as table text is output at once', async () => {
    const chunks = ['<table><col>x', 'y</table>'];
    const { perWrite } = await runRewriter((r) => r.on('col', { element() {} }), chunks);
    expect(perWrite).toEqual(emittedPerChunk(chunks));
    expect(perWrite[0]).toBe('<table><col>x');
  });

  it('output before an element whose async handler is pending is released at once', async () => {
    const gate = deferred();
    let out = '';
    const t = new HTMLRewriter().on('div', { element: () => gate.promise }).createTransformer((s) => (out += s));
    const pending = t.write('<p>before</p><div>x</div><p>after');
    expect(pending).toBeInstanceOf(Promise);
    await new Promise((r) => setTimeout(r, 5));
    expect(out).toBe('<p>before</p>');
    gate.resolve();
    await pending;
    expect(out).toBe('<p>before</p><div>x</div><p>after');
    await t.end();
  });

  it('nothing waits for the end of the document', async () => {
    const chunks = ['<html><body>', '<p>one</p>', '<p>two', '</p>'];
    const { perWrite } = await runRewriter((r) => r.on('p', { element(e) { e.setAttribute('x', '1'); } }), chunks);
    expect(perWrite.slice(0, 4)).toEqual(['<html><body>', '<html><body><p x="1">one</p>', '<html><body><p x="1">one</p><p x="1">two', '<html><body><p x="1">one</p><p x="1">two</p>']);
  });
});

describe('bounded memory', () => {
  it('a tag that never ends errors with a message naming the bound', async () => {
    const t = new HTMLRewriter({ maxBufferedBytes: 1000 }).createTransformer(() => {});
    t.write('<p>ok</p><a href="');
    let error: unknown = null;
    try {
      for (let i = 0; i < 20; i++) t.write('x'.repeat(100));
    } catch (e) {
      error = e;
    }
    expect(String(error)).toMatch(/maxBufferedBytes \(1000\) exceeded: the tokenizer holds \d+ characters of a token that has not ended/);
  });

  it('output held behind a pending handler is bounded', async () => {
    const gate = deferred();
    const t = new HTMLRewriter({ maxBufferedBytes: 500 }).on('div', { element: () => gate.promise }).createTransformer(() => {});
    const first = t.write('<div>x</div>');
    first.catch(() => {});
    expect(() => {
      for (let i = 0; i < 10; i++) t.write('<p>'.padEnd(100, 'y'))?.catch(() => {});
    }).toThrow(/maxBufferedBytes \(500\) exceeded: \d+ characters are waiting behind an async handler/);
    gate.resolve();
  });

  it('table text is not held when no text handler needs its parent', async () => {
    let out = '';
    const t = new HTMLRewriter({ maxBufferedBytes: 300 }).on('td', { element() {} }).createTransformer((s) => (out += s));
    t.write('<table>');
    for (let i = 0; i < 10; i++) t.write('text '.repeat(10));
    expect(out).toBe('<table>' + 'text '.repeat(100));
    t.write('<tr><td>x</table>');
    t.end();
    expect(out).toBe('<table>' + 'text '.repeat(100) + '<tr><td>x</table>');
  });

  it('table text the tree builder holds for text handlers is bounded', async () => {
    const t = new HTMLRewriter({ maxBufferedBytes: 300 }).on('body', { text() {} }).createTransformer(() => {});
    t.write('<table>');
    expect(() => {
      for (let i = 0; i < 10; i++) t.write('text '.repeat(10));
    }).toThrow(/maxBufferedBytes \(300\) exceeded: \d+ characters of table text/);
  });

  it('the bound must be a positive number', () => {
    expect(() => new HTMLRewriter({ maxBufferedBytes: 0 }).createTransformer(() => {})).toThrow(/maxBufferedBytes must be a positive number/);
  });
});

describe('handler exceptions', () => {
  const boom = new Error('boom');

  it('a sync throw comes out of write() as the same error', () => {
    const t = new HTMLRewriter().on('p', { element() { throw boom; } }).createTransformer(() => {});
    expect(() => t.write('<p>x')).toThrow(boom);
    expect(() => t.write('more')).toThrow(boom);
  });

  it('an async rejection rejects write() with the same error', async () => {
    const t = new HTMLRewriter().on('p', { async element() { await Promise.resolve(); throw boom; } }).createTransformer(() => {});
    await expect(t.write('<p>x')).rejects.toBe(boom);
    expect(() => t.end()).toThrow(boom);
  });

  it('errors the output stream with the original error and cancels the input', async () => {
    let cancelled: unknown = null;
    const input = new ReadableStream<string>({
      start(c) { c.enqueue('<p>a</p>'); c.enqueue('<div>b</div>'); },
      cancel(reason) { cancelled = reason; },
    });
    const output = new HTMLRewriter().on('div', { text() { throw boom; } }).transform(input);
    const reader = output.getReader();
    const seen: string[] = [];
    let error: unknown = null;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        seen.push(value);
      }
    } catch (e) {
      error = e;
    }
    expect(error).toBe(boom);
    expect(cancelled).toBe(boom);
    expect(seen.join('')).toBe('<p>a</p>');
  });

  it('an end handler error errors a Response body', async () => {
    const res = new HTMLRewriter().onDocument({ end() { throw boom; } }).transform(new Response('<p>x</p>', { headers: { 'content-type': 'text/html' } }));
    await expect(res.text()).rejects.toBe(boom);
  });
});
