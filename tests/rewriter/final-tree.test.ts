/**
 * Exact on the final tree: parsing the rewriter's output (as a browser parses a page, scripting on) gives
 * the tree `parse(input)` builds with the handlers' changes applied to its nodes.
 *
 * The reference applies the same changes to `@sluice/dom`'s parse of the input: every element that the
 * reference `querySelectorAll` (tests/rewriter/helpers/reference-query.ts) finds on the *final* tree
 * gets them — copies of formatting elements included — and the result is compared, node for node
 * (adjacent text merged, as any parser merges it), with `parse(output)`.
 *
 * The handlers change every kind of node: attributes (on copies too, the same change as on the
 * original), tag names, content at an element's start and end, removal with and without the content,
 * text and comments.
 *
 * Content changes (renames, removal, `removeAndKeepContent`, text at elements' ends, text removal) are
 * checked by content-changes.test.ts.
 *
 * Elements the adoption agency algorithm *moves* after their start tags (`<b><p>x</b>`: the `p` leaves
 * the `b`) are matched on the tree after the move (issue 14 item 3: the output is held until they
 * cannot move any more, transform/held-moves.ts). Inputs with such a move (the reference run reports
 * it) are counted apart, and must be exact too; `moving` generates them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from '@sluice/dom';
import { type Changes, expectedTree, moving, normalized, rearranging, rewrite } from './helpers/final-tree.js';
import { referenceRun } from './helpers/reference-run.js';
import { cuts, splitAt, tagSoup } from './helpers/soup.js';

interface Tally {
  runs: number;
  refused: number;
  moved: number;
  movedWrong: number;
}

async function check(input: string, chunks: readonly string[], tally: Tally, changes: Changes = 'tags'): Promise<void> {
  tally.runs++;
  let out: string;
  try {
    out = await rewrite(chunks, changes);
  } catch (err) {
    // A change markup cannot express is refused with an error that says so; the handlers here make
    // none (a copy gets the same change as its original), so any error is a failure.
    tally.refused++;
    throw new Error(`rewrite of ${JSON.stringify(input)} in ${JSON.stringify(chunks)} threw: ${(err as Error).message}`);
  }
  const got = normalized(parse(out));
  const want = normalized(expectedTree(input, changes));
  const reasons = referenceRun(input, []).reasons;
  if (reasons.has('moved') || reasons.has('children moved')) {
    tally.moved++;
    if (got !== want) tally.movedWrong++;
  }
  if (got !== want) {
    throw new Error(`input ${JSON.stringify(input)} in ${JSON.stringify(chunks)}\noutput ${JSON.stringify(out)}\nreparsed:\n${got}\nexpected:\n${want}`);
  }
}

describe('exact on the final tree', () => {
  it('fixed cases: implied elements, copies from reconstruction and the adoption agency, foster parenting, templates', async () => {
    const tally: Tally = { runs: 0, refused: 0, moved: 0, movedWrong: 0 };
    for (const input of [
      '<p><b class=c>x<p>y',
      '<table><tr><td>x<b>y</table>z',
      '<table><span>f</span><tr><td>c</table>',
      '<template><p>t</p></template><p>a',
      '<svg><desc><span>s</span></desc></svg><math><mi>m</mi></math>',
      '<ul><li>1<li><i>2<li>3</ul><h1>h<section>s</section></h1><dl><dd>gone<dt>kept</dl><pre>\ntext</pre><!--c-->',
      '<p><i><b>x<p>y<p>z',
    ]) {
      await check(input, [input], tally);
    }
    expect(tally.moved).toBe(0);
  });

  it('generated tag soup, any chunking (fast-check)', async () => {
    const tally: Tally = { runs: 0, refused: 0, moved: 0, movedWrong: 0 };
    await fc.assert(
      fc.asyncProperty(fc.oneof(tagSoup, rearranging, { arbitrary: moving, weight: 2 }), cuts, async (input, c) => {
        await check(input, splitAt(input, c), tally);
      }),
      { numRuns: 1500 },
    );
    // Inputs where the adoption agency algorithm moves elements: exact too (asserted in `check`).
    expect(tally.movedWrong).toBe(0);
    expect(tally.moved).toBeGreaterThan(100);
    console.log(
      `final tree: ${tally.runs} runs, all exact; ${tally.moved} of them with an adoption-agency move`,
    );
  });

  it('the 258 corpus pages (htmlparser-benchmark)', async () => {
    const dir = join(import.meta.dirname, '../../bench/node_modules/htmlparser-benchmark/files');
    const names = readdirSync(dir).filter((n) => n.endsWith('.html')).sort();
    expect(names.length).toBe(258);
    const tally: Tally = { runs: 0, refused: 0, moved: 0, movedWrong: 0 };
    const wrong: string[] = [];
    for (const name of names) {
      const input = readFileSync(join(dir, name), 'utf8');
      try {
        await check(input, [input], tally);
      } catch (err) {
        wrong.push(`${name}: ${(err as Error).message.slice(0, 300)}`);
      }
    }
    console.log(`final tree, corpus: ${tally.runs} pages, ${tally.moved} with an adoption-agency move (${tally.movedWrong} of them differ), ${wrong.length} differ in all`);
    expect(wrong).toEqual([]);
    expect(tally.movedWrong).toBe(0);
  }, 120_000);
});
