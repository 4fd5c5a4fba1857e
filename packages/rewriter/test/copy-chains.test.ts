/**
 * Chains of copies stay linear. A formatting element left open is copied again and again, each copy
 * made from the one before: an unclosed `<b>` reconstructed in every paragraph that follows, or copied
 * by the adoption agency algorithm at every `</b>` over nested blocks. The rewriter walks such a chain
 * (`copiedFrom`) to learn what the output's parser has for a copy and whether a rename forbids it;
 * walked afresh for every copy, a page of 40,000 paragraphs took 8 s. The walks now remember their
 * answers (view/records.ts `CopyChain`).
 *
 * Not a timed test: the steps are counted — every read of `copiedFrom` the rewrite makes — at n and 4n,
 * and a linear rewrite makes about 4 times as many at 4n (the walks made 16 times as many).
 */
import { describe, expect, it } from 'vitest';
import { HTMLRewriter } from '@sluice/rewriter';
import { parse, serialize } from '@sluice/dom';
import { ElementRecord } from '../src/view/records.js';

/** Count every read of `copiedFrom` on the view's records while `run` runs. */
function countingReads(run: () => void): number {
  const proto = ElementRecord.prototype as unknown as Record<string, unknown>;
  const store = Symbol('copiedFrom');
  let reads = 0;
  Object.defineProperty(proto, 'copiedFrom', {
    configurable: true,
    get(this: Record<symbol, unknown>) {
      reads++;
      return this[store];
    },
    set(this: Record<symbol, unknown>, v: unknown) {
      this[store] = v;
    },
  });
  try {
    run();
  } finally {
    delete proto['copiedFrom'];
  }
  return reads;
}

function rewrite(html: string, selector: string, set: boolean): string {
  let out = '';
  const rewriter = new HTMLRewriter().on(selector, {
    element(e) {
      if (set) e.setAttribute('data-x', '1');
    },
  });
  const t = rewriter.createTransformer((s) => void (out += s));
  // In chunks, as a stream would give it.
  for (let i = 0; i < html.length; i += 1000) t.write(html.slice(i, i + 1000));
  t.end();
  return out;
}

const shapes: [string, (k: number) => string][] = [
  ['an unclosed <b> reconstructed in every paragraph', (k) => '<p><b>x</p>' + '<p>y</p>'.repeat(k)],
  ['the adoption agency copying a <b> at every </b> over nested <div>s', (k) => '<b>' + '<div>'.repeat(k) + '</b>'.repeat(k)],
];

describe('chains of copies', () => {
  for (const [name, build] of shapes) {
    for (const [selector, set] of [['a', true], ['b', false], ['b', true]] as const) {
      it(`${name}: linear steps, with ${set ? 'an attribute set on' : 'a handler on'} ${selector}`, () => {
        const n = 300;
        const small = countingReads(() => rewrite(build(n), selector, set));
        const large = countingReads(() => rewrite(build(4 * n), selector, set));
        expect(small).toBeGreaterThan(n);
        expect(large / small, `${small} reads at n = ${n}, ${large} at 4n`).toBeLessThan(4.4);
      });
    }
    it(`${name}: the output still builds the same tree`, () => {
      const html = build(40);
      // Without changes, the output is the input.
      expect(rewrite(html, 'b', false)).toBe(html);
      // With an attribute on every <b> (copies included), the output's tree is the input's with it.
      const expected = parse(html);
      for (const b of expected.querySelectorAll('b')) b.setAttribute('data-x', '1');
      expect(serialize(parse(rewrite(html, 'b', true)))).toBe(serialize(expected));
    });
  }
});
