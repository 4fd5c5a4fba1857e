/**
 * html5lib tokenizer conformance: every test of every `tokenizer/*.test` file, in every initial state it
 * lists, with `lastStartTag` and `doubleEscaped` honoured. Tokens are compared (character tokens merged,
 * as the format requires), and so are the parse errors: codes in order, with line and column.
 *
 * xmlViolation.test expects the output coerced into an XML infoset; that coercion is applied to our
 * tokens before comparing, and that file records no errors, so errors are not compared there.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { Tokenizer, type ParseError, type Token } from '@sluice/tokenizer';
import {
  INITIAL_STATE,
  coerceToInfoset,
  haveHtml5lib,
  html5libRoot,
  loadTokenizerTests,
  toExpectedErrors,
  toHtml5libTokens,
  tokenizerTestFiles,
  type TokenizerTest,
} from '../chunk-split/html5lib.js';

/** Runs one test in one initial state; returns a description of the difference, or null. */
function runOne(test: TokenizerTest, initialState: string): string | null {
  const state = INITIAL_STATE[initialState];
  if (state === undefined) return `unknown initial state ${initialState}`;
  const tokens: Token[] = [];
  const errors: ParseError[] = [];
  const tokenizer = new Tokenizer({
    initialState: state,
    autoTextMode: false, // the html5lib tokenizer tests run without a tree builder
    onParseError: (e) => errors.push(e),
    ...(test.lastStartTag !== undefined ? { lastStartTag: test.lastStartTag } : {}),
  });
  const emit = (t: Token) => tokens.push(t);
  tokenizer.write(test.input, emit);
  tokenizer.end(emit);

  const problems: string[] = [];
  const raw = tokens.map((t) => t.raw).join('');
  if (raw !== test.input) problems.push(`raw round-trip: ${JSON.stringify(raw)}`);
  let actual = toHtml5libTokens(tokens);
  if (test.xmlViolation) actual = coerceToInfoset(actual);
  if (!isDeepStrictEqual(actual, test.output)) {
    problems.push(`tokens\n      expected ${JSON.stringify(test.output)}\n      actual   ${JSON.stringify(actual)}`);
  }
  if (!test.xmlViolation) {
    const actualErrors = toExpectedErrors(errors);
    if (!isDeepStrictEqual(actualErrors, test.errors)) {
      problems.push(`errors\n      expected ${JSON.stringify(test.errors)}\n      actual   ${JSON.stringify(actualErrors)}`);
    }
  }
  return problems.length === 0 ? null : problems.join('\n    ');
}

const totals = { tests: 0, testsFailed: 0, runs: 0, runsFailed: 0 };

describe('html5lib tokenizer tests', () => {
  if (!haveHtml5lib) {
    if (process.env.CI) {
      it('finds the html5lib tests', () => {
        expect.fail(`html5lib tests not found at ${html5libRoot} (set HTML5LIB_TESTS)`);
      });
    } else {
      it.skip(`html5lib tests not found at ${html5libRoot} (set HTML5LIB_TESTS)`, () => {});
    }
    return;
  }

  for (const file of tokenizerTestFiles()) {
    it(file, () => {
      const failures: string[] = [];
      for (const test of loadTokenizerTests(file)) {
        totals.tests++;
        let failed = false;
        for (const initialState of test.initialStates) {
          totals.runs++;
          const problem = runOne(test, initialState);
          if (problem !== null) {
            totals.runsFailed++;
            failed = true;
            failures.push(`${test.description} [${initialState}] input ${JSON.stringify(test.input)}\n    ${problem}`);
          }
        }
        if (failed) totals.testsFailed++;
      }
      const shown = failures.slice(0, 30).join('\n');
      expect(failures.length, `${failures.length} failing runs in ${file}:\n${shown}`).toBe(0);
    });
  }

  afterAll(() => {
    console.log(`tokenizer: ${totals.tests - totals.testsFailed} passed, ${totals.testsFailed} failed`);
    console.log(
      `tokenizer runs (test × initial state): ${totals.runs - totals.runsFailed} passed, ${totals.runsFailed} failed`,
    );
  });
});
