// The html5lib encoding tests (encoding/*.dat and encoding/scripted/*.dat): each test is a page's bytes
// (`#data`) and the encoding a browser decodes it with (`#encoding`), with no transport-layer charset.
// Every test goes through the whole byte path — `parse(bytes)` from @sluice/dom: BOM, the 1024-byte
// prescan, the default (windows-1252), and "change the encoding" when the tree builder meets a <meta>
// the prescan did not see — and `document.characterSet` must name the expected encoding. The scripted
// tests run their scripts (document.write goes to the tokenizer, as in the scripted tree-construction
// tests), so a <meta> written by a script changes the encoding too.
// Prints `encoding: N passed, M failed`. Reads $HTML5LIB_TESTS first; under CI a missing folder fails.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { getEncoding } from '@sluice/encoding';
import { DomTreeSink, parse, type Element, type Node } from '@sluice/dom';
import { Parser } from '@sluice/tree-builder';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dir = resolve(root, process.env.HTML5LIB_TESTS ?? '../shared/html5lib-tests', 'encoding');

interface EncodingTest {
  file: string;
  index: number;
  data: Uint8Array;
  encoding: string;
  scripted: boolean;
}

/** Split a .dat file, read as bytes (latin1 keeps every byte), into its tests. */
function readTests(path: string, name: string, scripted: boolean): EncodingTest[] {
  const text = readFileSync(path).toString('latin1');
  const out: EncodingTest[] = [];
  const parts = text.split(/^#data\n/m).slice(1);
  parts.forEach((part, index) => {
    const at = part.search(/^#encoding\n/m);
    if (at < 0) throw new Error(`${name} test ${index}: no #encoding`);
    const data = part.slice(0, at).replace(/\n$/, '');
    const encoding = part.slice(at + '#encoding\n'.length).split('\n')[0]!.trim();
    out.push({ file: name, index, data: new Uint8Array(Buffer.from(data, 'latin1')), encoding, scripted });
  });
  return out;
}

function allTests(): EncodingTest[] {
  const tests: EncodingTest[] = [];
  for (const f of readdirSync(dir).sort()) if (f.endsWith('.dat')) tests.push(...readTests(join(dir, f), f, false));
  const scriptedDir = join(dir, 'scripted');
  if (existsSync(scriptedDir)) {
    for (const f of readdirSync(scriptedDir).sort()) if (f.endsWith('.dat')) tests.push(...readTests(join(scriptedDir, f), `scripted/${f}`, true));
  }
  return tests;
}

/** The byte path with scripts run (document.write into the tokenizer), restarting on "change the encoding". */
function characterSetWithScripts(bytes: Uint8Array): string {
  let encoding: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const sink = new DomTreeSink();
    const document = sink.document;
    const parser = new Parser<Node>(sink, {
      scripting: true,
      ...(encoding !== undefined ? { encoding } : {}),
      onScript(script, control) {
        const api = { write: (markup: string) => control.write(String(markup)) };
        // eslint-disable-next-line @typescript-eslint/no-implied-eval
        new Function('document', (script as Element).textContent ?? '')(api);
      },
    });
    parser.write(bytes);
    parser.end();
    void document;
    const change = parser.encodingChange;
    if (change?.action !== 'reparse') return parser.encoding!;
    encoding = change.to;
  }
  return encoding!;
}

let passed = 0;
let failed = 0;

describe('html5lib encoding tests', () => {
  if (!existsSync(dir)) {
    if (process.env.CI) {
      it('finds the html5lib encoding tests', () => {
        throw new Error(`html5lib encoding tests not found at ${dir} (set HTML5LIB_TESTS)`);
      });
    } else {
      it.skip(`html5lib encoding tests not found at ${dir} (set HTML5LIB_TESTS)`, () => {});
    }
    return;
  }
  const tests = allTests();
  it('reads every test', () => {
    expect(tests.filter((t) => !t.scripted).length).toBe(82);
  });
  for (const test of tests) {
    const preview = JSON.stringify(Buffer.from(test.data).toString('latin1')).slice(0, 70);
    it(`${test.file} #${test.index}: ${preview} → ${test.encoding}`, () => {
      const expected = getEncoding(test.encoding);
      try {
        expect(expected, `the expected label ${test.encoding} is an encoding`).not.toBeNull();
        const got = test.scripted ? characterSetWithScripts(test.data) : parse(test.data).characterSet;
        expect(got).toBe(expected);
        passed++;
      } catch (e) {
        failed++;
        throw e;
      }
    });
  }
  afterAll(() => {
    console.log(`encoding: ${passed} passed, ${failed} failed`);
  });
});
