// The html5lib tree-construction tests (html5lib-tests/tree-construction/*.dat): every document and
// fragment test, parsed with @sluice/dom's `parse`/`parseFragment` (the tokenizer and the tree builder
// underneath) and dumped with `toTestFormat`, must give the `#document` dump exactly.
//
// Scripting: `#script-off` tests run with the scripting flag off, `#script-on` tests and tests with
// neither line run with it on (the flag the DOM and the browser use by default).
// The `#errors` sections are not compared: the tree is the contract.
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseFragment, toTestFormat } from '@sluice/dom';
import { readDatFiles, treeConstructionDir, html5libTestsDir, type TreeConstructionTest } from '../../packages/tree-builder/test/support/html5lib-tree-tests.js';

const dir = treeConstructionDir();

function dump(test: TreeConstructionTest): string {
  const options = { scripting: test.scripting ?? true };
  return test.fragment === null
    ? toTestFormat(parse(test.data, options))
    : toTestFormat(parseFragment(test.data, test.fragment, options));
}

describe('html5lib tree-construction', () => {
  if (dir === null) {
    if (process.env.CI) {
      it('finds the html5lib tests', () => {
        throw new Error(`html5lib tree-construction tests not found under ${html5libTestsDir()} (set HTML5LIB_TESTS)`);
      });
    } else {
      it.skip(`html5lib tree-construction tests not found under ${html5libTestsDir()} (set HTML5LIB_TESTS)`, () => {});
    }
    return;
  }
  const files = readDatFiles(dir);
  let passed = 0;
  let failed = 0;
  afterAll(() => {
    console.log(`tree-construction: ${passed} passed, ${failed} failed`);
  });

  it('has tests to run', () => {
    expect(files.size).toBeGreaterThan(0);
  });

  for (const [file, tests] of files) {
    it(file, () => {
      const failures: string[] = [];
      for (const test of tests) {
        let actual: string;
        try {
          actual = dump(test);
        } catch (error) {
          actual = `threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
        }
        if (actual === test.document) {
          passed++;
          continue;
        }
        failed++;
        const context = test.fragment === null ? '' : ` (fragment, context ${test.fragment})`;
        const scripting = test.scripting === false ? ' (scripting off)' : '';
        failures.push(
          `${file}:${test.line} test #${test.index}${context}${scripting}\n#data\n${test.data}\n` +
            `#expected\n${test.document}\n#actual\n${actual}`,
        );
      }
      if (failures.length > 0) {
        throw new Error(`${failures.length} of ${tests.length} tests failed in ${file}:\n\n${failures.join('\n\n')}`);
      }
    });
  }
});
