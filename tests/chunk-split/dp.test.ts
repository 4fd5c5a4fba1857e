/**
 * The chunk-split test (DESIGN.md): for each input, every way of cutting it into chunks gives the same
 * tokens (text merged), the same errors and the same state — checked with O(n²) chunk feeds.
 *
 * Inputs: every html5lib tokenizer test input, in each initial state it lists (as the conformance suite
 * runs them), and the crafted inputs of crafted-inputs.ts, which between them visit every state.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { State, type TokenizerOptions } from '@sluice/tokenizer';
import { checkAllChunkings } from './dp.js';
import { craftedInputs } from './crafted-inputs.js';
import {
  INITIAL_STATE,
  haveHtml5lib,
  html5libRoot,
  loadTokenizerTests,
  tokenizerTestFiles,
} from './html5lib.js';

const totals = { inputs: 0, feeds: 0 };

describe('every chunking gives the same result (dynamic programming over chunk splits)', () => {
  it('crafted inputs, which visit every state', () => {
    const failures: string[] = [];
    const seen = new Set<string>();
    for (const c of craftedInputs) {
      const result = checkAllChunkings(c.input, () => ({
        ...(c.cdataAllowed ? { cdataAllowed: () => true } : {}),
      }));
      totals.inputs++;
      totals.feeds += result.feeds;
      for (const s of result.statesSeen) seen.add(s);
      if (result.failure !== null) failures.push(`${c.name}: ${JSON.stringify(c.input)}\n  ${result.failure}`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
    // States the scanner passes through only within a character (reconsume) never show between two.
    const transient = new Set(['DECIMAL_CHARACTER_REFERENCE_START', 'NUMERIC_CHARACTER_REFERENCE_END']);
    const missing = Object.keys(State).filter((s) => !seen.has(s) && !transient.has(s));
    expect(missing, `states no crafted input visits: ${missing.join(', ')}`).toEqual([]);
  });

  if (!haveHtml5lib) {
    if (process.env.CI) {
      it('finds the html5lib tests', () => expect.fail(`html5lib tests not found at ${html5libRoot}`));
    } else {
      it.skip(`html5lib tests not found at ${html5libRoot} (set HTML5LIB_TESTS)`, () => {});
    }
    return;
  }

  for (const file of tokenizerTestFiles()) {
    it(`html5lib ${file}`, () => {
      const failures: string[] = [];
      for (const test of loadTokenizerTests(file)) {
        for (const initialState of test.initialStates) {
          const options = (): TokenizerOptions => ({
            initialState: INITIAL_STATE[initialState],
            autoTextMode: false,
            ...(test.lastStartTag !== undefined ? { lastStartTag: test.lastStartTag } : {}),
          });
          const result = checkAllChunkings(test.input, options);
          totals.inputs++;
          totals.feeds += result.feeds;
          if (result.failure !== null) {
            failures.push(`${test.description} [${initialState}] ${JSON.stringify(test.input)}\n  ${result.failure}`);
          }
        }
      }
      expect(failures.length, failures.slice(0, 10).join('\n')).toBe(0);
    });
  }

  afterAll(() => {
    console.log(`chunk-split: ${totals.inputs} inputs, ${totals.feeds} chunk feeds checked`);
  });
});
