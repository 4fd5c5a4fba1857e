// Every ```js example in docs/*.md and README.md is run, so the documentation cannot drift from the
// API. Examples import from 'sluice' (or '@sluice/*'); vitest resolves those to the sources. An example
// checks itself with node:assert; an example that throws fails this test.
import { describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const scratch = join(root, 'tests', 'docs', '.examples');

function examples(): { file: string; line: number; code: string }[] {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const found: { file: string; line: number; code: string }[] = [];
  for (const file of files) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.trim() !== '```js') continue;
      const start = i + 1;
      let end = start;
      while (end < lines.length && lines[end]!.trim() !== '```') end++;
      found.push({ file, line: start, code: lines.slice(start, end).join('\n') });
      i = end;
    }
  }
  return found;
}

describe('documentation examples', () => {
  const all = examples();
  it('finds examples to run', () => {
    expect(all.length).toBeGreaterThan(0);
  });
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  for (const [n, example] of all.entries()) {
    it(`${example.file}:${example.line}`, async () => {
      const path = join(scratch, `example-${n}.mjs`);
      writeFileSync(path, example.code);
      const logged: unknown[] = [];
      const log = console.log;
      console.log = (...args: unknown[]) => logged.push(args);
      try {
        await import(pathToFileURL(path).href);
      } finally {
        console.log = log;
      }
    });
  }
});
