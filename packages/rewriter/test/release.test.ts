/**
 * A finished transformer keeps nothing of its document: once `end()` has settled, no token, no element
 * record and no input chunk is reachable from it. Whoever keeps a transformer (or anything V8 keeps of
 * it) after its document would otherwise keep those too; on the corpus they were measured to survive
 * young-generation collections long after their page (bench/rewrite-gc.mjs).
 */
import { describe, expect, it } from 'vitest';
import { EndTagClass, StartTagClass, TextTokenClass } from '@sluice/tokenizer';
import { HTMLRewriter } from '@sluice/rewriter';

/** What is reachable from `root` through properties, array items and Map/Set entries (not closures). */
function leftovers(root: object): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const stack: [unknown, string][] = [[root, 'transformer']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      // Input chunks are long; the rewriter's own strings (names, small buffers) are not.
      if (value.length >= 1000) found.push(`${path}: a string of ${value.length} characters`);
      continue;
    }
    if (value === null || typeof value !== 'object' || seen.has(value) || ArrayBuffer.isView(value)) continue;
    seen.add(value);
    if (value instanceof StartTagClass || value instanceof EndTagClass || value instanceof TextTokenClass) {
      found.push(`${path}: a ${value.constructor.name} token`);
      continue;
    }
    const name = (value as { constructor?: { name?: string } }).constructor?.name;
    if (name === 'ElementRecord') {
      found.push(`${path}: an element record (<${(value as { localName: string }).localName}>)`);
      continue;
    }
    if (Array.isArray(value)) value.forEach((v, i) => stack.push([v, `${path}[${i}]`]));
    else if (value instanceof Map) for (const [k, v] of value) stack.push([k, `${path}.key`], [v, `${path}.get(${String(k)})`]);
    else if (value instanceof Set) for (const v of value) stack.push([v, `${path}.item`]);
    else for (const key of Object.getOwnPropertyNames(value)) stack.push([(value as Record<string, unknown>)[key], `${path}.${key}`]);
  }
  return found;
}

/**
 * A document that leaves something in every place the transformer keeps state: formatting elements, a
 * table, a head, a script, an adoption agency algorithm that drops elements past its inner loop's third
 * iteration, text to the end.
 */
function page(): string {
  const rows = Array.from({ length: 40 }, (_, i) => `<tr><td><a href="/r${i}">row ${i}</a> <b>bold<i>both</b> after</i></td></tr>`).join('\n');
  return `<!doctype html><html lang=en><head><title>t</title><script>var x = "</div>";</script></head><body class=page>\n<div id=main><p>text &amp; more<form><input name=q></form>\n<table>${rows}</table>\n<b><i id=1><i id=2><i id=3><i id=4><i id=5><div>past three</b>\n<p><b><i><u>open formatting at the end ${'x'.repeat(3000)}`;
}

const handlers = {
  none: (r: HTMLRewriter) => r,
  'a[href] element handler': (r: HTMLRewriter) => r.on('a[href]', { element: (el) => void el.getAttribute('href') }),
  'text and async end handlers': (r: HTMLRewriter) =>
    r.on('td', { text: () => {} }).onDocument({ end: async (end) => void end.append('<!-- end -->', { html: true }) }),
};

describe('a finished transformer lets go of its document', () => {
  for (const [label, on] of Object.entries(handlers)) {
    it(`strings in 1,000-character chunks, ${label}`, async () => {
      const input = page();
      let out = '';
      const t = on(new HTMLRewriter()).createTransformer((s) => (out += s));
      for (let i = 0; i < input.length; i += 1000) await t.write(input.slice(i, i + 1000));
      await t.end();
      expect(out.startsWith(input.slice(0, 200))).toBe(true);
      expect(leftovers(t)).toEqual([]);
    });

    it(`bytes in 4 KiB chunks, ${label}`, async () => {
      const input = new TextEncoder().encode(page());
      const parts: Uint8Array[] = [];
      const t = on(new HTMLRewriter()).createByteTransformer((b) => parts.push(b));
      for (let i = 0; i < input.length; i += 4096) await t.write(input.subarray(i, i + 4096));
      await t.end();
      expect(parts.reduce((n, p) => n + p.length, 0)).toBeGreaterThanOrEqual(input.length);
      expect(leftovers(t)).toEqual([]);
    });
  }
});
