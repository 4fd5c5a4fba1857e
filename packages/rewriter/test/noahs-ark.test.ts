/**
 * Noah's Ark as a browser reading the output runs it (transform/noahs-ark.ts): the index of the list of
 * active formatting elements by output tag gives, at every push, the same answer as walking the list
 * (`noahsArkByWalk`, the definition). With `verifyNoahsArk` on, every check is made both ways and a
 * disagreement throws an error naming `NoahsArkIndex`; these properties feed it soups made of formatting
 * elements (few attribute values, so that equal ones abound), markers, misnested end tags (the adoption
 * agency's copies and moves), paragraphs (reconstruction), with handlers that make tags equal or unequal
 * in the output — sync, async, in any chunking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HTMLRewriter, type Element } from '@sluice/rewriter';
import { Slot, precedes, verified, verifyNoahsArk } from '../src/transform/noahs-ark.js';
import type { ElementRecord } from '../src/view/records.js';
import { cuts, splitAt } from './helpers/soup.js';

const FORMATTING = ['b', 'i', 'font', 'a', 'nobr', 'em', 'u', 's'];
const OTHER = ['p', 'div', 'table', 'tr', 'td', 'caption', 'object', 'template', 'marquee', 'applet', 'h1', 'li', 'span'];
const ATTRS = ['', '', '', ' c=1', ' c=1', ' c=2', ' c=1 d=2', ' d=2 c=1', ' C=1'];

const start = fc
  .tuple(fc.constantFrom(...FORMATTING, ...FORMATTING, ...FORMATTING, ...OTHER), fc.constantFrom(...ATTRS))
  .map(([t, a]) => `<${t}${a}>`);
const end = fc.constantFrom(...FORMATTING, ...OTHER).map((t) => `</${t}>`);
const other = fc.constantFrom('x', ' ', '<!--c-->');
const broad = fc
  .array(fc.oneof({ weight: 8, arbitrary: start }, { weight: 3, arbitrary: end }, { weight: 2, arbitrary: other }), { minLength: 8, maxLength: 60, size: 'max' })
  .map((parts) => parts.join(''));
// (Two formatting tags, two attribute values: four equal entries, and so removals, are common.)
const narrowStart = fc.tuple(fc.constantFrom('b', 'b', 'b', 'b', 'i', 'p', 'td', 'table', 'object', 'div'), fc.constantFrom('', '', ' c=1')).map(([t, a]) => `<${t}${a}>`);
const narrow = fc
  .array(fc.oneof({ weight: 8, arbitrary: narrowStart }, { weight: 2, arbitrary: fc.constantFrom('</b>', '</i>', '</p>', '</td>', '</table>', '</object>', '</div>') }, { weight: 2, arbitrary: other }), {
    minLength: 8,
    maxLength: 60,
    size: 'max',
  })
  .map((parts) => parts.join(''));
const soup = fc.oneof(broad, narrow);

type Change = (e: Element) => void;
const CHANGES: Record<string, Change> = {
  'set c=1': (e) => void e.setAttribute('c', '1'),
  'set c=2': (e) => void e.setAttribute('c', '2'),
  'remove c': (e) => void e.removeAttribute('c'),
  'remove d': (e) => void e.removeAttribute('d'),
  'rename b': (e) => void (e.tagName = 'b'),
  'rename i': (e) => void (e.tagName = 'i'),
  remove: (e) => void e.remove(),
  unwrap: (e) => void e.removeAndKeepContent(),
};
const handlerSet = fc.array(fc.tuple(fc.constantFrom('b', 'b', 'i', 'i', 'b[c]', ...FORMATTING, '*', 'td', 'div'), fc.constantFrom(...Object.keys(CHANGES))), { minLength: 1, maxLength: 3 });

async function rewrite(chunks: readonly string[], set: readonly (readonly [string, string])[], async: boolean): Promise<string> {
  const r = new HTMLRewriter();
  for (const [selector, change] of set) {
    const f = CHANGES[change]!;
    r.on(selector, { element: async ? async (e) => (await null, f(e)) : f });
  }
  let out = '';
  const t = r.createTransformer((s) => void (out += s));
  for (const c of chunks) await t.write(c);
  await t.end();
  return out;
}

describe("Noah's Ark: the index answers as the walk does", () => {
  beforeAll(() => verifyNoahsArk(true));
  afterAll(() => verifyNoahsArk(false));

  it('generated formatting soup, handlers that make tags equal or unequal, sync and async, any chunking', async () => {
    const before = { ...verified };
    let refused = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(soup, handlerSet, fc.boolean(), cuts, async (input, set, async, c) => {
        runs++;
        try {
          await rewrite(splitAt(input, c), set, async);
        } catch (err) {
          const message = String((err as Error).message);
          // (A refusal is the rewriter's answer; a disagreement is a bug.)
          expect(message).not.toMatch(/NoahsArkIndex/);
          refused++;
        }
      }),
      { numRuns: 2000 },
    );
    const checks = verified.checks - before.checks;
    const removals = verified.removals - before.removals;
    console.log(`Noah's Ark index against the walk: ${runs} runs, ${checks} checks compared, ${removals} with an entry removed; ${refused} runs refused`);
    // (Not vacuous: the soups reach the clause, and the index is asked.)
    expect(checks).toBeGreaterThan(2 * runs);
    expect(removals).toBeGreaterThan(runs / 20);
  });

  it('the cases written down', async () => {
    const cases: [string, [string, string][]][] = [
      // A link given rel, then many fonts (the shape that was quadratic).
      ['<a href=x>y</a>' + '<font color=c1>t'.repeat(5) + '<font color=c1>t'.repeat(3), [['a', 'set c=1']]],
      // Renamed into another's class: i renamed b counts with the b's.
      ['<b><b><i><b>x', [['i', 'rename b']]],
      ['<b c=1><b><b><b>x', [['b', 'remove c']]],
      // Markers: equal entries before a marker do not count.
      ['<b><b><b><table><td><b><b><b><b>x</td></table><b>y', [['b', 'set c=2']]],
      ['<b><object><b><b><b></object><b><b>', [['b', 'set c=1']]],
      // The adoption agency's copies and bookmark insertions.
      ['<b><i><p>x</b>y</i><b><b><b>z', [['i', 'rename b']]],
      ['<a><b><div><b><b></a><b><b>x', [['*', 'set c=1']]],
      // A bookmark insertion shares the seq of the entry it follows: the copy of <b> made at </b> comes
      // right after the copy of <i>, which the rename makes its equal.
      ['<b><i><div></b><b><b><b>x', [['i', 'rename b']]],
      ['<b><i><u><div></b><b><b><b>x', [['i', 'rename b'], ['u', 'rename b']]],
      ['<b c=1><p><b c=1><b c=1></p>x<b c=1>y', [['b', 'remove c']]],
      // Reconstruction copies, and copies written explicitly.
      ['<p><b><i><u></p><p>x<b><i><u>y', [['u', 'rename i']]],
      ['<b><p><b><b></p><p><b><b>', [['b', 'unwrap']]],
      ['<b><p><b><b></p><p><b><b>', [['b', 'remove']]],
    ];
    for (const [input, set] of cases) {
      for (const async of [false, true]) {
        for (const size of [1, 3, input.length]) {
          const chunks: string[] = [];
          for (let i = 0; i < input.length; i += size) chunks.push(input.slice(i, i + size));
          try {
            await rewrite(chunks, set, async);
          } catch (err) {
            expect(String((err as Error).message), input).not.toMatch(/NoahsArkIndex/);
          }
        }
      }
    }
  });
});

describe("Noah's Ark index: list order", () => {
  it('orders entries by seq, and entries inserted after the same entry (one seq) by the insertion tree', () => {
    // The adoption agency inserts an entry right after another, with that one's seq (§13.2.6.4.7 step
    // 4.18): R, then A after R, B after R, C after A, D after B gives R B D A C; S was pushed later.
    const el = {} as ElementRecord;
    let created = 0;
    const slot = (seq: number, anchor: Slot | null) => new Slot(el, seq, anchor, created++);
    const Q = slot(4, null);
    const R = slot(5, null);
    const A = slot(5, R);
    const B = slot(5, R);
    const C = slot(5, A);
    const D = slot(5, B);
    const S = slot(6, null);
    const order = [Q, R, B, D, A, C, S];
    const names = new Map<Slot, string>([[Q, 'Q'], [R, 'R'], [A, 'A'], [B, 'B'], [C, 'C'], [D, 'D'], [S, 'S']]);
    for (let i = 0; i < order.length; i++) {
      for (let j = 0; j < order.length; j++) {
        expect(precedes(order[i]!, order[j]!), `${names.get(order[i]!)} before ${names.get(order[j]!)}`).toBe(i < j);
      }
    }
  });
});
