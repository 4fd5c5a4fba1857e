/**
 * Docs for every public export (issue 16 item 9): every export of `sluice` — values and types, as its
 * published declarations list them (packages/sluice/dist/index.d.ts, read with the TypeScript compiler) —
 * has exactly one entry in docs/api.md, a table row
 *
 *     | [`name`](file.md#section) | what it is | `example` |
 *
 * whose link goes to a heading that exists, and whose example
 *
 * - type-checks (TypeScript strict, against the published declarations, every export of `sluice` in
 *   scope, and `assert` from node:assert/strict), and
 * - runs (stripped of its types by esbuild; against the sources, as the other docs examples): an example
 *   `expression // → value` also checks that the expression equals the value (`assert.deepStrictEqual`).
 *
 * A row for a name that is not exported fails too (the index must not describe what is gone).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, root } from '../packaging/workspace.js';

const API = join(root, 'docs', 'api.md');
const DECLARATIONS = join(root, 'packages', 'sluice', 'dist', 'index.d.ts');

interface Row {
  name: string;
  /** The line in docs/api.md (1-based). */
  line: number;
  file: string;
  anchor: string;
  example: string;
}

/** Every export of the built `sluice` declarations, by name. */
function declaredExports(): string[] {
  const program = ts.createProgram([DECLARATIONS], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(DECLARATIONS);
  if (source === undefined) throw new Error(`${DECLARATIONS} is missing: build first (tsc -b)`);
  const module = checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`${DECLARATIONS} is not a module`);
  return checker.getExportsOfModule(module).map((s) => s.name).sort();
}

/** GitHub's heading anchors: lowercased, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fence = !fence;
    const heading = fence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = heading[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The rows of docs/api.md's tables whose first cell links an export. */
export function rowsOf(markdown: string): { rows: Row[]; malformed: string[] } {
  const rows: Row[] = [];
  const malformed: string[] = [];
  markdown.split('\n').forEach((text, i) => {
    const head = /^\|\s*\[`([A-Za-z_$][\w$]*)`\]\(([^)\s]*)\)\s*\|/.exec(text);
    if (head === null) return;
    // The cells after the link, split at pipes that are not escaped (a pipe in a code span is `\|`).
    const cells = text.slice(head[0].length).split(/(?<!\\)\|/).map((c) => c.trim());
    if (cells.at(-1) === '') cells.pop();
    const example = cells.length === 2 ? /^(`+)\s?([\s\S]+?)\s?\1$/.exec(cells[1]!) : null;
    if (example === null || cells[0] === '') {
      malformed.push(`docs/api.md:${i + 1}: expected | [\`name\`](file.md#section) | what it is | \`example\` |`);
      return;
    }
    const [file, anchor = ''] = head[2]!.split('#');
    rows.push({ name: head[1]!, line: i + 1, file: file === '' ? 'api.md' : file!, anchor, example: example[2]!.replaceAll('\\|', '|') });
  });
  return { rows, malformed };
}

const CHECKED = ' // → ';

/** Where the last statement of `code` starts: after its last `;` outside strings, templates and brackets. */
function lastStatementStart(code: string): number {
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (quote !== '') {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ';' && depth === 0) start = i + 1;
  }
  return start;
}

/** The example as statements: `…; expr // → value` asserts that the last expression equals the value. */
export function statements(example: string): string {
  const at = example.indexOf(CHECKED);
  if (at < 0) return example;
  const code = example.slice(0, at);
  const last = lastStatementStart(code);
  return `${code.slice(0, last)}\nconst shown__ = (${code.slice(last).trim()});\nassert.deepStrictEqual(shown__, (${example.slice(at + CHECKED.length)}));`;
}

describe('docs/api.md: every export of sluice, with a link and an example', () => {
  let exported: string[] = [];
  let values: string[] = [];
  let rows: Row[] = [];
  let malformed: string[] = [];
  let scratch = '';

  beforeAll(async () => {
    build();
    exported = declaredExports();
    values = Object.keys(await import('sluice')).sort();
    ({ rows, malformed } = rowsOf(readFileSync(API, 'utf8')));
    scratch = mkdtempSync(join(tmpdir(), 'sluice-api-examples-'));
  }, 600_000);

  afterAll(() => {
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  it('reads the exports (values at run time are a subset of the declared exports)', () => {
    expect(exported.length).toBeGreaterThan(100);
    expect(values.filter((v) => !exported.includes(v))).toEqual([]);
  });

  it('every row is well formed', () => {
    expect(malformed).toEqual([]);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('every export has a row in docs/api.md', () => {
    const documented = new Set(rows.map((r) => r.name));
    const missing = exported.filter((name) => !documented.has(name));
    expect(missing, `docs/api.md has no row for ${missing.length} export(s) of sluice: ${missing.join(', ')}`).toEqual([]);
  });

  it('every row names an export, once', () => {
    const stale = rows.filter((r) => !exported.includes(r.name)).map((r) => `docs/api.md:${r.line}: ${r.name}`);
    expect(stale, 'rows for names sluice does not export').toEqual([]);
    const seen = new Map<string, number>();
    const twice: string[] = [];
    for (const r of rows) {
      if (seen.has(r.name)) twice.push(`${r.name} (lines ${seen.get(r.name)} and ${r.line})`);
      seen.set(r.name, r.line);
    }
    expect(twice).toEqual([]);
  });

  it('every link goes to a heading that exists', () => {
    const docs = new Map(readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => [f, anchorsOf(readFileSync(join(root, 'docs', f), 'utf8'))]));
    const broken = rows
      .filter((r) => r.anchor === '' || !(docs.get(r.file)?.has(r.anchor) ?? false))
      .map((r) => `docs/api.md:${r.line}: ${r.name} → ${r.file}#${r.anchor}`);
    expect(broken).toEqual([]);
  });

  it('every example type-checks against the published declarations', () => {
    let text = `import assert from 'node:assert/strict';\nimport { ${exported.join(', ')} } from 'sluice';\n`;
    const lineOf: { from: number; row: Row }[] = [];
    for (const row of rows) {
      lineOf.push({ from: text.split('\n').length, row });
      text += `{\n${statements(row.example)}\n}\n`;
    }
    const file = join(scratch, 'api-examples.mts');
    writeFileSync(file, text);
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM', 'DOM.Iterable', 'DOM.AsyncIterable'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
          paths: { sluice: [DECLARATIONS] },
        },
        files: [file],
      }),
    );
    const r = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', scratch], { encoding: 'utf8' });
    const errors = r.stdout
      .split('\n')
      .filter((l) => l.includes('error TS'))
      .map((l) => {
        const line = Number(/\((\d+),\d+\)/.exec(l)?.[1] ?? 0);
        const owner = lineOf.filter((o) => o.from <= line).at(-1);
        return owner === undefined ? l : `docs/api.md:${owner.row.line} (${owner.row.name}): ${l.replace(/^.*?error /, 'error ')}`;
      });
    expect(errors, r.stderr).toEqual([]);
    expect(r.status).toBe(0);
  });

  it('every example runs (and says the value it shows)', async () => {
    const { transformSync } = await import('esbuild');
    const failures: string[] = [];
    for (const [n, row] of rows.entries()) {
      try {
        const body = transformSync(statements(row.example), { loader: 'ts', format: 'esm', target: 'es2022' }).code;
        const file = join(scratch, `example-${n}.mjs`);
        writeFileSync(file, `import assert from 'node:assert/strict';\nimport { ${values.join(', ')} } from 'sluice';\n${body}`);
        await import(pathToFileURL(file).href);
      } catch (error) {
        failures.push(`docs/api.md:${row.line} (${row.name}): ${(error as Error).message.split('\n').slice(0, 6).join('\n')}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('the row parser and the anchors work as GitHub renders them', () => {
    const md = '# T\n## `parse(html, options?)` and more\n## A\n## A\n| [`x`](t.md#a-1) | it | `f() \\| 1 // → 1` |\n| [`y`](t.md) | bad |\n';
    expect([...anchorsOf(md)]).toEqual(['t', 'parsehtml-options-and-more', 'a', 'a-1']);
    const { rows: parsed, malformed: bad } = rowsOf(md);
    expect(parsed).toEqual([{ name: 'x', line: 5, file: 't.md', anchor: 'a-1', example: 'f() | 1 // → 1' }]);
    expect(bad).toHaveLength(1);
    expect(statements("const a = 'x;y'; f(a, [1; 2]) // → 1")).toBe("const a = 'x;y';\nconst shown__ = (f(a, [1; 2]));\nassert.deepStrictEqual(shown__, (1));");
    expect(statements('f()')).toBe('f()');
    expect(existsSync(API)).toBe(true);
  });
});
