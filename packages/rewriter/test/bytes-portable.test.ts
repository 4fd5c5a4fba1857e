/**
 * The byte path without Node's `node:buffer` (a browser, a worker): byte form is made and UTF-8 checked
 * with portable code instead. Loaded afresh with `process.getBuiltinModule` hidden, it must give the same
 * bytes and the same handler readings as the Node path, for any bytes (malformed UTF-8 included).
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { HTMLRewriter as NodeRewriter } from '@sluice/rewriter';

type Rewriter = typeof NodeRewriter;

const hidden = process.getBuiltinModule;
(process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
vi.resetModules();
const { HTMLRewriter: PortableRewriter } = (await import('@sluice/rewriter')) as { HTMLRewriter: Rewriter };
(process as { getBuiltinModule?: unknown }).getBuiltinModule = hidden;
afterAll(() => void ((process as { getBuiltinModule?: unknown }).getBuiltinModule = hidden));

const encoder = new TextEncoder();
const bytes = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => encoder.encode(`<p title="${s}">${s}<!--${s}--><a href=${s}>é</a>`)),
  fc.uint8Array({ maxLength: 40 }),
);

async function rewrite(R: Rewriter, input: Uint8Array, cut: number): Promise<{ out: number[]; log: unknown[] }> {
  const log: unknown[] = [];
  const out: number[] = [];
  const t = new R()
    .on('*', { element: (el) => void log.push([el.tagName, [...el.attributes], el.sourceOffset]), text: (c) => void log.push(c.text) })
    .on('[title*="é"]', { element: (el) => void el.setAttribute('data-é', '✓') })
    .onDocument({ comments: (c) => void log.push(c.text) })
    .createByteTransformer((b) => out.push(...b));
  await t.write(input.subarray(0, cut));
  await t.write(input.subarray(cut));
  await t.end();
  return { out, log };
}

describe('the byte path without node:buffer', () => {
  it('is a separate module instance', () => {
    expect(PortableRewriter).not.toBe(NodeRewriter);
  });

  it('gives the same output and readings as with it', async () => {
    await fc.assert(
      fc.asyncProperty(bytes, fc.nat(), async (input, n) => {
        const cut = n % (input.length + 1);
        expect(await rewrite(PortableRewriter, input, cut)).toEqual(await rewrite(NodeRewriter, input, cut));
      }),
      { numRuns: 300 },
    );
  });
});
