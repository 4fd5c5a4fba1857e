// The html5lib tokenizer tests whose input is a single run of text or a single attribute value, run
// through decodeCharacterReferences alone: output and character reference errors (with positions).
// The suites are read from ../shared/html5lib-tests (or $HTML5LIB_TESTS), never copied here.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeCharacterReferences } from '../src/character-references/index.js';

const ROOT =
  process.env.HTML5LIB_TESTS ?? fileURLToPath(new URL('../../../../shared/html5lib-tests', import.meta.url));
const DIR = join(ROOT, 'tokenizer');

const REFERENCE_ERRORS = new Set([
  'absence-of-digits-in-numeric-character-reference',
  'missing-semicolon-after-character-reference',
  'unknown-named-character-reference',
  'null-character-reference',
  'character-reference-outside-unicode-range',
  'surrogate-character-reference',
  'noncharacter-character-reference',
  'control-character-reference',
]);

interface Html5libTest {
  description: string;
  input: string;
  output: unknown[][];
  errors?: Array<{ code: string; line: number; col: number }>;
  initialStates?: string[];
  doubleEscaped?: boolean;
}

interface Case {
  name: string;
  text: string;
  inAttribute: boolean;
  /** Offset of `text` in the test's input. */
  start: number;
  expected: string;
  errors: Array<[string, number]>;
}

const unescape = (s: string) => s.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** Single-line inputs only, so that the error column is the offset plus one. */
function casesOf(file: string): Case[] {
  // xmlViolation.test holds `xmlViolationTests` only (a mode this project does not have).
  const { tests = [] } = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { tests?: Html5libTest[] };
  const cases: Case[] = [];
  for (const test of tests) {
    const input = test.doubleEscaped ? unescape(test.input) : test.input;
    if (!input.includes('&') || /[\r\n]/.test(input)) continue;
    const states = test.initialStates ?? ['Data state'];
    if (!states.includes('Data state') && !states.includes('RCDATA state')) continue;
    const output = test.doubleEscaped ? JSON.parse(unescape(JSON.stringify(test.output))) : test.output;
    const errors = (test.errors ?? [])
      .filter((error) => REFERENCE_ERRORS.has(error.code))
      .map((error): [string, number] => [error.code, error.col - 1]);
    const name = `${file}: ${test.description}`;
    if (!input.includes('<') && output.every((token: unknown[]) => token[0] === 'Character')) {
      // Text: the input is the whole run (the expected output merges the Character tokens).
      const expected = output.map((token: unknown[]) => token[1]).join('');
      cases.push({ name, text: input, inAttribute: false, start: 0, expected, errors });
      continue;
    }
    // One attribute: <name attr=value>, <name attr='value'>, <name attr="value">.
    const tag = /^<[a-z]+ [a-z]+=(?:'([^']*)'|"([^"]*)"|([^\s"'>]*))>$/.exec(input);
    const token = output[0];
    if (tag === null || output.length !== 1 || token[0] !== 'StartTag') continue;
    const text = tag[1] ?? tag[2] ?? tag[3];
    const start = input.indexOf('=') + (tag[3] === undefined ? 2 : 1);
    const expected = Object.values(token[2] as Record<string, string>)[0];
    const shifted = errors.map(([code, col]): [string, number] => [code, col - start]);
    cases.push({ name, text, inAttribute: true, start, expected, errors: shifted });
  }
  return cases;
}

const files = readdirSync(DIR).filter((file) => file.endsWith('.test'));

describe('html5lib tokenizer tests through decodeCharacterReferences', () => {
  const all = files.flatMap(casesOf);

  it('finds the suites', () => {
    expect(all.filter((c) => c.name.startsWith('namedEntities.test')).length).toBe(4210);
    expect(all.filter((c) => c.inAttribute).length).toBeGreaterThan(10);
  });

  for (const file of files) {
    const cases = all.filter((c) => c.name.startsWith(`${file}:`));
    if (cases.length === 0) continue;
    it(`${file} (${cases.length} inputs)`, () => {
      for (const c of cases) {
        const errors: Array<[string, number]> = [];
        const value = decodeCharacterReferences(c.text, c.inAttribute, (code, index) => errors.push([code, index]));
        expect({ value, errors }, c.name).toEqual({ value: c.expected, errors: c.errors });
      }
    });
  }
});
