/**
 * The dynamic-programming chunk-split check (DESIGN.md, "The chunk-split test").
 *
 * Feed `s` one UTF-16 code unit at a time, snapshotting the state S_0 … S_n and recording what each step
 * emitted. Then for every 0 ≤ i < j ≤ n: restore S_i, feed `s[i:j]` as one chunk, and check that the
 * state is S_j and that the emissions equal those of steps i … j-1 (text merged). Also, from every S_i,
 * feed the rest and end(): the emissions must equal steps i … n-1 plus what end() emitted after S_n.
 * If every transition agrees, all 2^(n-1) chunkings give the same tokens, errors and final state.
 */

import { Tokenizer, snapshotsEqual, type TokenizerOptions, type TokenizerSnapshot } from '@sluice/tokenizer';
import {
  appendMerged,
  concatEmissions,
  emptyEmissions,
  mergeText,
  normalizeEmissions,
  recordToken,
  sameErrors,
  sameRecords,
  type Emissions,
  type TokenRecord,
} from './emissions.js';
import type { ParseError } from '@sluice/tokenizer';

export interface DpResult {
  /** Chunk feeds checked. */
  feeds: number;
  /** The first disagreement found, described; null when none. */
  failure: string | null;
  /** The states the single-character run was in between characters. */
  statesSeen: Set<string>;
}

function describeState(s: TokenizerSnapshot): string {
  return JSON.stringify(s);
}

export function checkAllChunkings(input: string, makeOptions: () => TokenizerOptions): DpResult {
  let sink: Emissions = emptyEmissions();
  const withErrors = (): TokenizerOptions => ({ ...makeOptions(), onError: (e) => sink.errors.push(e) });
  const emit = (t: Parameters<Parameters<Tokenizer['write']>[1]>[0]) => sink.tokens.push(recordToken(t));

  // The single-character run.
  const n = input.length;
  const reference = new Tokenizer(withErrors());
  const states: TokenizerSnapshot[] = [reference.snapshot()];
  const steps: Emissions[] = [];
  for (let k = 0; k < n; k++) {
    sink = emptyEmissions();
    reference.write(input[k]!, emit);
    steps.push(sink);
    states.push(reference.snapshot());
  }
  sink = emptyEmissions();
  reference.end(emit);
  const atEnd = sink;
  const finalState = reference.snapshot();

  const statesSeen = new Set(states.map((s) => s.state));
  let feeds = 0;
  const tokenizer = new Tokenizer(withErrors());
  for (let i = 0; i < n; i++) {
    // What steps i … j-1 emitted, built up as j grows.
    const expectedTokens: TokenRecord[] = [];
    const expectedErrors: ParseError[] = [];
    for (let j = i + 1; j <= n; j++) {
      appendMerged(expectedTokens, steps[j - 1]!.tokens);
      expectedErrors.push(...steps[j - 1]!.errors);
      tokenizer.restore(states[i]!);
      sink = emptyEmissions();
      tokenizer.write(input.slice(i, j), emit);
      feeds++;
      const state = tokenizer.snapshot();
      if (!snapshotsEqual(state, states[j]!)) {
        return {
          feeds,
          statesSeen,
          failure: `state after [${i}, ${j}) differs\n  expected ${describeState(states[j]!)}\n  actual   ${describeState(state)}`,
        };
      }
      if (!sameRecords(mergeText(sink.tokens), expectedTokens) || !sameErrors(sink.errors, expectedErrors)) {
        const expected = normalizeEmissions({ tokens: expectedTokens, errors: expectedErrors });
        const actual = normalizeEmissions(sink);
        return { feeds, statesSeen, failure: `emissions of [${i}, ${j}) differ\n  expected ${expected}\n  actual   ${actual}` };
      }
    }
    // The rest as one chunk, then end().
    tokenizer.restore(states[i]!);
    sink = emptyEmissions();
    tokenizer.write(input.slice(i), emit);
    tokenizer.end(emit);
    feeds++;
    const expected = normalizeEmissions(concatEmissions([...steps.slice(i), atEnd]));
    const actual = normalizeEmissions(sink);
    if (expected !== actual) {
      return { feeds, statesSeen, failure: `emissions of [${i}, end) + end() differ\n  expected ${expected}\n  actual   ${actual}` };
    }
    if (!snapshotsEqual(tokenizer.snapshot(), finalState)) {
      return { feeds, statesSeen, failure: `final state after [${i}, end) + end() differs` };
    }
  }

  // The raw texts of the single-character run give back the input.
  const all = concatEmissions([...steps, atEnd]);
  const raw = all.tokens.map((t) => t.raw).join('');
  if (raw !== input) return { feeds, statesSeen, failure: `raw round-trip: ${JSON.stringify(raw)}` };
  return { feeds, statesSeen, failure: null };
}
