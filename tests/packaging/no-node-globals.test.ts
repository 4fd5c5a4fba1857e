/**
 * The library packages run in browsers too (the `sluice/browser` bundle): their sources must not reach
 * Node's globals (`process.env`, `Buffer.from`, …) directly. Where Node offers a faster path, the code
 * asks `globalThis` for it and falls back without it (see packages/encoding/src/single-byte.ts). A bare
 * `process.env` once slipped into the rewriter and failed every byte rewrite in Chromium with
 * "process is not defined"; tests/browser/bundle.test.ts catches that at run time, this at once.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const LIBRARIES = ['encoding', 'tokenizer', 'tree-builder', 'selectors', 'dom', 'rewriter', 'streams', 'sluice'];
const NODE_GLOBALS = /(?<![.\w$])(?:process\.(?:env|argv|stdout|stderr|stdin|exit|cwd|platform|versions|nextTick|hrtime|memoryUsage)|Buffer\.(?:from|alloc|allocUnsafe|isBuffer|concat|byteLength)|require\()/;

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = [dir];
  while (walk.length > 0) {
    const d = walk.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk.push(p);
      else if (e.name.endsWith('.ts')) out.push(p);
    }
  }
  return out;
}

/** The line without its `//` comment, and nothing inside a block comment line. */
function code(line: string): string {
  const t = line.trimStart();
  if (t.startsWith('*') || t.startsWith('/*') || t.startsWith('//')) return '';
  const i = line.indexOf('//');
  return i >= 0 ? line.slice(0, i) : line;
}

describe('library sources reach no Node global directly', () => {
  it.each(LIBRARIES)('packages/%s/src', (pkg) => {
    const found: string[] = [];
    const files = sources(join(ROOT, 'packages', pkg, 'src'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        if (NODE_GLOBALS.test(code(line))) found.push(`${file.slice(ROOT.length + 1)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('the check finds what it looks for', () => {
    expect(NODE_GLOBALS.test(code('  if (process.env.NO_HOLD) return null;'))).toBe(true);
    expect(NODE_GLOBALS.test(code('const b = Buffer.from(x);'))).toBe(true);
    expect(NODE_GLOBALS.test(code('const p = (globalThis as { process?: P }).process;'))).toBe(false);
    expect(NODE_GLOBALS.test(code('// process.env is not read here'))).toBe(false);
  });
});
