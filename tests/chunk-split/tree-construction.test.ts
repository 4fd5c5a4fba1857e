// Chunk-split invariance of tree construction: every html5lib tree-construction input, fed to the
// streaming Parser one character at a time and in random chunkings, must build the same tree as when it
// is written in one piece. The tree builder must never depend on where a text token starts or ends
// (the <pre>/<textarea> newline skip, "in table text", whitespace splitting in the head, after the body,
// in framesets and column groups…).
//
// One `it` per .dat file; random chunkings come from fast-check with a fixed seed and a fixed number of
// runs per input, so a failure reproduces.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseToDump } from '../../packages/tree-builder/test/support/parse-dump.js';
import { readDatFiles, treeConstructionDir, html5libTestsDir } from '../../packages/tree-builder/test/support/html5lib-tree-tests.js';

const dir = treeConstructionDir();
const RUNS_PER_INPUT = 4;

/** Split `s` at the given cut points (sorted, deduplicated, inside the string). */
function splitAt(s: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let previous = 0;
  for (const point of points) {
    chunks.push(s.slice(previous, point));
    previous = point;
  }
  chunks.push(s.slice(previous));
  return chunks;
}

describe('tree construction is the same for any chunking', () => {
  if (dir === null) {
    if (process.env.CI) {
      it('finds the html5lib tests', () => {
        throw new Error(`html5lib tree-construction tests not found under ${html5libTestsDir()}`);
      });
    } else {
      it.skip(`html5lib tree-construction tests not found under ${html5libTestsDir()} (set HTML5LIB_TESTS)`, () => {});
    }
    return;
  }
  for (const [file, tests] of readDatFiles(dir)) {
    it(file, () => {
      for (const test of tests) {
        const whole = parseToDump(test);
        const label = `${file}:${test.line} ${JSON.stringify(test.data)}`;
        // One character (UTF-16 code unit) at a time: lone surrogate halves included.
        expect(parseToDump(test, [...test.data.split('')]), `${label}, one code unit per chunk`).toBe(whole);
        if (test.data.length < 2) continue;
        fc.assert(
          fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (cuts) => {
            const chunks = splitAt(test.data, cuts);
            expect(parseToDump(test, chunks), `${label}, chunks ${JSON.stringify(chunks)}`).toBe(whole);
          }),
          { seed: 0x5eed + test.index, numRuns: RUNS_PER_INPUT, endOnFailure: true },
        );
      }
    });
  }
});
