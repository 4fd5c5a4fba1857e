/**
 * The line between public and internal (issue 16 item 6): the published declaration files are built with
 * `stripInternal`, so no `@internal` member, and no `_`-prefixed member, appears in any `dist/**\/*.d.ts`
 * reachable from a package's public `exports` — only the `./internal` subpaths (docs/architecture.md,
 * "Public and internal") may hold what sluice's own packages share. A public declaration file must not
 * import an `/internal` subpath either: that would put the internal members back into every user's
 * program.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { build, publishedPackages, root, typesEntries } from './workspace.js';

/** A member declaration whose name starts with `_` (modifiers, then the name, then `(`, `:`, `?`, `<`, `;` or `=`). */
const UNDERSCORE_MEMBER = /^\s*(?:(?:public|protected|private|static|readonly|abstract|declare|override|accessor|get|set)\s+)*(_[\w$]*)\s*[(:?<;=!]/;
/** Module specifiers in a declaration file: `from '…'`, `import '…'`, `import('…')`, `/// <reference path="…">`. */
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]|<reference\s+path=["']([^"']+)["']/g;

interface Finding {
  file: string;
  line: number;
  what: string;
}

/** Scans one declaration file; returns what must not be there and the relative files it refers to. */
export function scanDeclarations(file: string, text: string): { findings: Finding[]; refers: string[] } {
  const findings: Finding[] = [];
  const refers: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? match[2]!;
    if (specifier.startsWith('.')) refers.push(resolve(dirname(file), specifier.replace(/\.js$/, '.d.ts')));
    else if (/^(?:@sluice\/[^/]+|sluice)\/internal$/.test(specifier)) {
      findings.push({ file, line: text.slice(0, match.index).split('\n').length, what: `imports ${specifier}` });
    }
  }
  text.split('\n').forEach((line, i) => {
    if (line.includes('@internal')) findings.push({ file, line: i + 1, what: `@internal: ${line.trim()}` });
    const member = UNDERSCORE_MEMBER.exec(line);
    if (member !== null) findings.push({ file, line: i + 1, what: `member ${member[1]}: ${line.trim()}` });
  });
  return { findings, refers };
}

/** Every declaration file reachable from a package's public (non-`./internal`) `exports`. */
function reachable(dir: string, entries: Iterable<string>): { files: string[]; findings: Finding[] } {
  const queue = [...entries].map((e) => resolve(dir, e));
  const seen = new Set<string>();
  const findings: Finding[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!existsSync(file)) {
      findings.push({ file, line: 0, what: 'declaration file missing (not built?)' });
      continue;
    }
    const scan = scanDeclarations(file, readFileSync(file, 'utf8'));
    findings.push(...scan.findings);
    queue.push(...scan.refers);
  }
  return { files: [...seen], findings };
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory()) stack.push(join(d, entry.name));
      else if (entry.name.endsWith('.ts')) out.push(join(d, entry.name));
    }
  }
  return out;
}

describe('published declarations hold no internal member', () => {
  beforeAll(() => build(), 600_000);

  it('the scanner finds what it must (so the checks below can fail)', () => {
    const sample = [
      "import type { X } from './x.js';",
      "import type {} from '@sluice/tree-builder/internal';",
      'export declare class A {',
      '    /** @internal */',
      '    _parent: A | null;',
      '    private readonly _context;',
      '    get _attrs(): readonly string[];',
      '    _cloneShallow(owner: A): A;',
      '    name: string;',
      '}',
    ].join('\n');
    const { findings, refers } = scanDeclarations('/d/a.d.ts', sample);
    expect(refers).toEqual(['/d/x.d.ts']);
    expect(findings.map((f) => f.line)).toEqual([2, 4, 5, 6, 7, 8]);
  });

  it('the sources do mark members @internal (stripping is what keeps them out)', () => {
    let marked = 0;
    for (const p of publishedPackages()) {
      for (const file of sourceFiles(join(p.dir, 'src'))) marked += readFileSync(file, 'utf8').split('@internal').length - 1;
    }
    expect(marked).toBeGreaterThan(100);
  });

  for (const p of publishedPackages()) {
    it(`${p.manifest.name}: no @internal or _-prefixed member in the types its public exports reach`, () => {
      const entries = [...typesEntries(p.manifest)].filter(([subpath]) => !subpath.endsWith('/internal')).map(([, types]) => types);
      expect(entries.length).toBeGreaterThan(0);
      const { files, findings } = reachable(p.dir, entries);
      expect(files.length).toBeGreaterThan(0);
      expect(findings.map((f) => `${relative(root, f.file)}:${f.line}: ${f.what}`)).toEqual([]);
    });
  }

  it('an ./internal subpath is declared only where its entry file exists, and its file is built', () => {
    const internals: string[] = [];
    for (const p of publishedPackages()) {
      const types = typesEntries(p.manifest).get('./internal');
      if (types === undefined) continue;
      internals.push(p.manifest.name);
      expect(existsSync(join(p.dir, 'src', 'internal.ts')), `${p.manifest.name}: src/internal.ts`).toBe(true);
      expect(existsSync(resolve(p.dir, types)), `${p.manifest.name}: ${types}`).toBe(true);
    }
    expect(internals.sort()).toEqual(['@sluice/tokenizer', '@sluice/tree-builder']);
  });
});
