/**
 * Nothing of a finished parse stays reachable from the old generation (docs/parsing.md, "Nothing of a
 * finished parse reachable from old objects"). A callback the tokenizer keeps that reaches the parser
 * makes V8's young-generation GC copy and promote every finished document: no test fails, parsing just
 * gets slower (parse(bytes) took 1.5–1.75× TextDecoder + parse(string) that way). This counts promoted
 * bytes (`node --trace-gc-nvp`, a real process on the built packages) for the same pages parsed as UTF-8
 * bytes and as strings (the 258 corpus pages: page after page, as a crawler parses); a path that keeps
 * documents promotes their whole size each round.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const CORPUS = join(ROOT, 'bench/node_modules/htmlparser-benchmark/files');
const SCRIPT = `
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from ${JSON.stringify(join(ROOT, 'packages/dom/dist/index.js'))};
const dir = ${JSON.stringify(CORPUS)};
const pages = readdirSync(dir).map((f) => { const b = readFileSync(dir + '/' + f); return new Uint8Array(b.buffer, b.byteOffset, b.length); });
const bytesRound = () => { for (const bytes of pages) parse(bytes, { contentType: 'text/html; charset=utf-8' }); };
const stringRound = () => { const d = new TextDecoder(); for (const bytes of pages) parse(d.decode(bytes)); };
const round = process.argv.at(-1) === 'bytes' ? bytesRound : stringRound;
for (let i = 0; i < 12; i++) round();
`;

function promotedMB(kind: 'bytes' | 'string'): number {
  const r = spawnSync(process.execPath, ['--trace-gc-nvp', '--input-type=module', '-e', SCRIPT, kind], { encoding: 'utf8', maxBuffer: 64 << 20 });
  expect(r.status, r.stderr).toBe(0);
  let sum = 0;
  for (const m of r.stdout.matchAll(/promoted=(\d+)/g)) sum += Number(m[1]);
  return sum / 1e6;
}

describe('finished parses are not kept reachable', () => {
  it('parse(bytes) promotes no more than parse(string) does, far below the documents made', () => {
    const bytes = promotedMB('bytes');
    const string = promotedMB('string');
    console.log(`promoted over 12 rounds of the 258 corpus pages: bytes ${bytes.toFixed(1)} MB, string ${string.toFixed(1)} MB`);
    // Kept reachable, the documents of 12 rounds promote hundreds of MB (measured before the fix: 713 MB, against 47 MB for strings);
    // as it should be, ~20 MB for strings, the documents still being built when a GC runs.
    expect(bytes).toBeLessThan(Math.max(2 * string, 40));
    expect(string).toBeLessThan(80);
  });
});
