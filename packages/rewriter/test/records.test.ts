/**
 * The rewriter's view keeps what open elements need and no more: records of finished subtrees become
 * garbage while the document is still streaming.
 */
import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HTMLRewriter } from '@sluice/rewriter';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('view records', () => {
  it('finished subtrees are collectable while streaming', async () => {
    let fired = 0;
    const rewriter = new HTMLRewriter()
      .on('section > div p + p a[href]', { element: () => void fired++ })
      .on('li:nth-of-type(2n) ~ li:nth-child(2 of .x)', { element: () => void fired++ })
      .on('div', { text() {} });
    const transformer = rewriter.createTransformer(() => {});
    // Record every element record the view makes, weakly.
    type Create = (...a: unknown[]) => object;
    const sink = (transformer as unknown as { sink: { createElement: Create; createElementForStartTag: Create; createElementFromStartTag: Create } }).sink;
    const refs: WeakRef<object>[] = [];
    // Every way the tree builder creates the view's elements (with decoded attributes, with the tag's
    // token and a location, with the tag's token alone).
    for (const method of ['createElement', 'createElementForStartTag', 'createElementFromStartTag'] as const) {
      const create = sink[method].bind(sink);
      sink[method] = (...a: unknown[]) => {
        const r = create(...a);
        refs.push(new WeakRef(r));
        return r;
      };
    }
    await transformer.write('<!doctype html><html><body><section>');
    for (let i = 0; i < 2000; i++) {
      await transformer.write(`<div class=d${i}><p>a</p><p><a href="/${i}">b</a></p><ul><li>1<li class=x>2<li class=x>3</ul><table><tr><td>t</table></div>`);
    }
    // Still streaming: section, body, html are open.
    await new Promise((r) => setTimeout(r, 0));
    gc();
    gc();
    const alive = refs.filter((r) => r.deref() !== undefined).length;
    expect(refs.length).toBeGreaterThan(2000 * 10);
    expect(fired).toBe(4000);
    // The open elements and a handful of recent ones (the sink's reused event slots), not 20 000.
    expect(alive).toBeLessThan(50);
    await transformer.end();
  });

  it('the heap does not grow with the document (text handlers, many distinct tag names)', async () => {
    const transformer = new HTMLRewriter()
      .on('div', { text() {} })
      .on('section *', { comments() {} })
      .onDocument({ text() {} })
      .createTransformer(() => {});
    await transformer.write('<!doctype html><body><section>');
    const block = (i: number) => `<div id=d${i}>text <x-e${i}>custom</x-e${i}><!--c--> <b>more</b></div>`;
    const measure = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    for (let i = 0; i < 5000; i++) await transformer.write(block(i));
    const before = measure();
    for (let i = 5000; i < 65000; i++) await transformer.write(block(i));
    const after = measure();
    await transformer.end();
    // 60 000 more elements, each with its own tag name, text and comments: the heap stays flat.
    expect(after - before).toBeLessThan(2 * 1024 * 1024);
  });
});
