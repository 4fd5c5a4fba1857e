/**
 * The html5lib tokenizer tests (`../shared/html5lib-tests/tokenizer/*.test`, or `$HTML5LIB_TESTS`): loading
 * them, and turning sluice's tokens into their format. Shared by the conformance suite and the
 * chunk-split test.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParseError, Token, TokenizerOptions } from '@sluice/tokenizer';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the html5lib tests are: `$HTML5LIB_TESTS`, else `../shared/html5lib-tests` from the repository root. */
export const html5libRoot: string = process.env.HTML5LIB_TESTS
  ? resolve(process.env.HTML5LIB_TESTS)
  : resolve(root, '..', 'shared', 'html5lib-tests');

export const tokenizerDir = join(html5libRoot, 'tokenizer');

/** Whether the tests are there. Under CI their absence must fail the suites, not skip them. */
export const haveHtml5lib: boolean = existsSync(tokenizerDir);

export interface ExpectedError {
  code: string;
  line: number;
  col: number;
}

/** One test of a `.test` file, with `doubleEscaped` already undone. */
export interface TokenizerTest {
  file: string;
  description: string;
  input: string;
  output: unknown[];
  initialStates: string[];
  lastStartTag: string | undefined;
  errors: ExpectedError[];
  /** xmlViolation.test: the expected output has the infoset coercions applied, and no errors are given. */
  xmlViolation: boolean;
}

/** html5lib state names → `initialState` option values. */
export const INITIAL_STATE: Record<string, NonNullable<TokenizerOptions['initialState']>> = {
  'Data state': 'data',
  'PLAINTEXT state': 'plaintext',
  'RCDATA state': 'rcdata',
  'RAWTEXT state': 'rawtext',
  'Script data state': 'scriptData',
  'CDATA section state': 'cdataSection',
};

function unescape(s: string): string {
  return s.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function unescapeDeep(v: unknown): unknown {
  if (typeof v === 'string') return unescape(v);
  if (Array.isArray(v)) return v.map(unescapeDeep);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[unescape(k)] = unescapeDeep(x);
    return out;
  }
  return v;
}

/** The `.test` files, sorted. */
export function tokenizerTestFiles(): string[] {
  return readdirSync(tokenizerDir)
    .filter((f) => f.endsWith('.test'))
    .sort();
}

/** Every test of one file. */
export function loadTokenizerTests(file: string): TokenizerTest[] {
  const json = JSON.parse(readFileSync(join(tokenizerDir, file), 'utf8')) as Record<string, Record<string, unknown>[]>;
  const tests: TokenizerTest[] = [];
  for (const [key, list] of Object.entries(json)) {
    for (const t of list) {
      const doubleEscaped = t.doubleEscaped === true;
      tests.push({
        file,
        description: String(t.description),
        input: doubleEscaped ? unescape(t.input as string) : (t.input as string),
        output: (doubleEscaped ? unescapeDeep(t.output) : t.output) as unknown[],
        initialStates: (t.initialStates as string[] | undefined) ?? ['Data state'],
        lastStartTag: t.lastStartTag as string | undefined,
        errors: ((t.errors as ExpectedError[] | undefined) ?? []).map((e) => ({ code: e.code, line: e.line, col: e.col })),
        xmlViolation: key === 'xmlViolationTests',
      });
    }
  }
  return tests;
}

/**
 * sluice tokens in html5lib's format: discarded tokens dropped, adjacent character tokens merged,
 * every field read through the token's lazy getters.
 */
export function toHtml5libTokens(tokens: readonly Token[]): unknown[] {
  const out: unknown[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case 'text': {
        const last = out[out.length - 1] as unknown[] | undefined;
        if (last !== undefined && last[0] === 'Character') last[1] = (last[1] as string) + t.value;
        else if (t.value !== '') out.push(['Character', t.value]);
        break;
      }
      case 'startTag': {
        const attributes: Record<string, string> = {};
        for (const a of t.attributes) attributes[a.name] = a.value;
        out.push(t.selfClosing ? ['StartTag', t.name, attributes, true] : ['StartTag', t.name, attributes]);
        break;
      }
      case 'endTag':
        out.push(['EndTag', t.name]);
        break;
      case 'comment':
        out.push(['Comment', t.data]);
        break;
      case 'doctype':
        out.push(['DOCTYPE', t.name, t.publicId, t.systemId, !t.forceQuirks]);
        break;
      case 'discarded':
        break;
    }
  }
  return out;
}

/**
 * §"Coercing an HTML DOM into an infoset", as xmlViolation.test expects it: U+000C becomes a space,
 * characters not allowed in XML become U+FFFD, and `--` in comments becomes `- -`.
 */
export function coerceToInfoset(tokens: unknown[]): unknown[] {
  const text = (s: string) =>
    s.replace(/\f/g, ' ').replace(/[\uFFFE\uFFFF]/g, '\uFFFD');
  return tokens.map((t) => {
    const a = t as unknown[];
    switch (a[0]) {
      case 'Character':
        return ['Character', text(a[1] as string)];
      case 'Comment':
        return ['Comment', text(a[1] as string).replace(/--/g, '- -')];
      case 'StartTag': {
        const attributes: Record<string, string> = {};
        for (const [k, v] of Object.entries(a[2] as Record<string, string>)) attributes[k] = text(v);
        return [a[0], a[1], attributes, ...a.slice(3)];
      }
      default:
        return a;
    }
  });
}

/** The errors as html5lib records them. */
export function toExpectedErrors(errors: readonly ParseError[]): ExpectedError[] {
  return errors.map((e) => ({ code: e.code, line: e.line, col: e.col }));
}
