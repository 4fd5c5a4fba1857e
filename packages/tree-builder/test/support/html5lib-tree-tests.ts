/**
 * Reads the html5lib tree-construction tests (`tree-construction/*.dat`, format in that folder's
 * README.md). Shared by the conformance, chunk-split and round-trip suites in `tests/`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TreeConstructionTest {
  /** The `.dat` file name, e.g. `tests1.dat`. */
  readonly file: string;
  /** 0-based index of the test in its file. */
  readonly index: number;
  /** 1-based line of the `#data` line, for messages. */
  readonly line: number;
  readonly data: string;
  /** The `#document` dump, lines joined with `\n`. */
  readonly document: string;
  /** The `#document-fragment` context (`div`, `svg path`, `math mi`), or null for a document test. */
  readonly fragment: string | null;
  /** `#script-on` → true, `#script-off` → false, neither → null. */
  readonly scripting: boolean | null;
  /** The `#errors` lines (html5lib's own error names, `(line,col): name`). */
  readonly errors: readonly string[];
  /** The `#new-errors` lines: errors of the current standard that html5lib's list lacks. */
  readonly newErrors: readonly string[];
}

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** The html5lib-tests checkout: `$HTML5LIB_TESTS`, else `../shared/html5lib-tests` from the repository root. */
export function html5libTestsDir(): string {
  return resolve(repositoryRoot, process.env.HTML5LIB_TESTS ?? '../shared/html5lib-tests');
}

/** `tree-construction` (or its `scripted` subfolder) of the checkout, or null when it is not there. */
export function treeConstructionDir(sub = ''): string | null {
  const dir = join(html5libTestsDir(), 'tree-construction', sub);
  return existsSync(dir) ? dir : null;
}

/** Parse one `.dat` file's text. */
export function parseDatFile(file: string, text: string): TreeConstructionTest[] {
  const lines = text.split('\n');
  const tests: TreeConstructionTest[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i] !== '#data') {
      i++;
      continue;
    }
    const line = i + 1;
    i++;
    const data: string[] = [];
    while (i < lines.length && lines[i] !== '#errors') data.push(lines[i++]);
    let fragment: string | null = null;
    let scripting: boolean | null = null;
    const errors: string[] = [];
    const newErrors: string[] = [];
    let errorList: string[] | null = null;
    while (i < lines.length && lines[i] !== '#document') {
      if (lines[i] === '#errors' || lines[i] === '#new-errors') {
        errorList = lines[i] === '#errors' ? errors : newErrors;
        i++;
        continue;
      }
      if (lines[i] === '#document-fragment') {
        errorList = null;
        fragment = lines[i + 1];
        i += 2;
        continue;
      }
      if (lines[i] === '#script-on') scripting = true;
      else if (lines[i] === '#script-off') scripting = false;
      else if (lines[i].startsWith('#')) errorList = null;
      else if (errorList !== null && lines[i] !== '') errorList.push(lines[i]);
      i++;
    }
    i++;
    // The dump runs to the blank line before the next test; text nodes may hold blank lines themselves,
    // so read up to the next `#data` and drop the trailing separator.
    const document: string[] = [];
    while (i < lines.length && lines[i] !== '#data') document.push(lines[i++]);
    while (document.length > 0 && document[document.length - 1] === '') document.pop();
    tests.push({ file, index: tests.length, line, data: data.join('\n'), document: document.join('\n'), fragment, scripting, errors, newErrors });
  }
  return tests;
}

/** Every test of every `.dat` file directly in `dir`, grouped by file (sorted by name). */
export function readDatFiles(dir: string): Map<string, TreeConstructionTest[]> {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.dat'))
    .sort();
  const out = new Map<string, TreeConstructionTest[]>();
  for (const file of files) out.set(file, parseDatFile(file, readFileSync(join(dir, file), 'utf8')));
  return out;
}
