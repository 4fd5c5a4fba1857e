import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Parser } from '@sluice/tree-builder';
import { DomTreeSink, toIndentedTree } from '@sluice/dom';
import { main } from '../src/main.js';

const example = new URL('../../../examples/page.html', import.meta.url).pathname;

function run(argv: string[]): { code: number; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(argv, (l) => out.push(l), (l) => err.push(l));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('sluice tokenize', () => {
  it('summarizes the example page and checks the round trip, for any chunk size', () => {
    for (const size of ['1', '7', '256', '100000']) {
      const { code, out } = run(['tokenize', '--chunk-size', size, example]);
      expect(code).toBe(0);
      expect(out).toContain('round trip: exact');
      expect(out).toMatch(/startTag\s+\d+/);
    }
  });

  it('lists parse errors with positions under --errors', () => {
    const { out } = run(['tokenize', '--errors', example]);
    const count = Number(/parse errors: (\d+)/.exec(out)![1]);
    expect(out.split('\n').filter((l) => /^ {2}\d+:\d+ [a-z-]+$/.test(l))).toHaveLength(count);
  });
});

describe('sluice parse', () => {
  it('prints the DOM of the example page as an indented tree, the same for every chunk size', () => {
    const whole = run(['parse', '--chunk-size', '100000', example]);
    expect(whole.code).toBe(0);
    expect(whole.out.split('\n')[0]).toBe('#document (no-quirks)');
    expect(whole.out).toContain('\n    <body class="notes">');
    // The implied <tbody> and the SVG/MathML namespaces come from tree construction, not the source.
    expect(whole.out).toMatch(/<tbody>\n\s+<tr class="gate">/);
    expect(whole.out).toContain('<svg:foreignObject');
    expect(readFileSync(example, 'utf8')).not.toContain('<tbody>');
    for (const size of ['1', '13', '256']) expect(run(['parse', '--chunk-size', size, example]).out).toBe(whole.out);
  });
});

describe('usage errors', () => {
  it('name what was wrong and exit with 2', () => {
    expect(run([])).toMatchObject({ code: 2 });
    expect(run(['frobnicate', example]).err).toContain('unknown command "frobnicate"');
    expect(run(['tokenize']).err).toContain('no input file given');
    expect(run(['tokenize', '--chunk-size', '0', example]).err).toContain('--chunk-size must be a positive integer');
    expect(run(['parse', '--scripting', 'maybe', example]).err).toContain('--scripting must be on or off');
    expect(run(['tokenize', '/no/such/file.html']).err).toContain('cannot read /no/such/file.html');
  });
});

/**
 * Bytes in, through real processes (the built command, packages/cli/dist/bin.js: `node scripts/setup.mjs`
 * builds it): files and standard input are read as bytes and decoded with the standard's sniffing.
 */
describe('sluice reads bytes and sniffs their encoding', () => {
  const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-'));
  const file = (name: string, ...parts: (string | number[])[]): string => {
    const path = join(dir, name);
    writeFileSync(path, Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p)))));
    return path;
  };
  const sluice = (args: string[], input?: Buffer): { code: number | null; out: string; err: string } => {
    const r = spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8' });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  // No charset anywhere, and the bytes are not UTF-8: windows-1252, the standard's default.
  const latin = file('latin.html', '<!doctype html><p>caf', [0xe9], ' ', [0x80], '5</p>');
  // 日本語 in Shift_JIS; the <meta> says so.
  const sjis = file('sjis.html', '<meta charset=shift_jis><p>', [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea], '</p>');

  it('a windows-1252 file: 0xE9 is é, for any chunk size; from standard input too', () => {
    for (const size of ['1', '5', '256']) {
      const r = sluice(['parse', '--chunk-size', size, latin]);
      expect(r.code).toBe(0);
      expect(r.out).toContain('"café €5"');
      expect(r.out.split('\n')[0]).toBe('#document (no-quirks)');
    }
    expect(sluice(['parse', '-'], readFileSync(latin)).out).toContain('"café €5"');
    expect(sluice(['parse', '--show-encoding', latin]).out.split('\n')[0]).toBe('encoding: windows-1252 (tentative: nothing said; the default for this input)');
    const t = sluice(['tokenize', latin]);
    expect(t.code).toBe(0);
    expect(t.out).toContain('encoding: windows-1252');
    expect(t.out).toContain('round trip: exact');
  });

  it('a Shift_JIS file with <meta charset=shift_jis>, cut anywhere', () => {
    for (const size of ['1', '2', '3', '27', '256']) expect(sluice(['parse', '--chunk-size', size, sjis]).out).toContain('"日本語"');
    // Tentative after the prescan; the tree builder meeting the same <meta> makes it certain (§13.2.3.4 step 4).
    expect(sluice(['parse', '--show-encoding', sjis]).out.split('\n')[0]).toBe('encoding: Shift_JIS (certain: a <meta> in the first 1024 bytes)');
    expect(sluice(['tokenize', '--chunk-size', '1', sjis]).out).toMatch(/encoding: Shift_JIS[^]*round trip: exact/);
  });

  it('a <meta> after the first 1024 bytes: the input is parsed again in the encoding it names', () => {
    const late = file('late.html', '<p>', 'x'.repeat(1100), '</p><meta charset=shift_jis><p>', [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea], '</p>');
    const r = sluice(['parse', '--show-encoding', late]);
    expect(r.out.split('\n')[0]).toBe('encoding: Shift_JIS (certain: a later <meta>, input decoded again)');
    expect(r.out).toContain('"日本語"');
    expect(sluice(['tokenize', late]).out).toMatch(/encoding: Shift_JIS \(certain: a later <meta>/);
  });

  it('--encoding overrides the <meta> and the default, but not a byte order mark', () => {
    expect(sluice(['parse', '--encoding', 'windows-1252', sjis]).out).toContain('"“ú–{Œê"');
    expect(sluice(['parse', '--encoding', 'sjis', latin]).out).not.toContain('café');
    expect(sluice(['parse', '--encoding=latin1', '--show-encoding', sjis]).out.split('\n')[0]).toBe('encoding: windows-1252 (certain: --encoding)');
    const bom = file('bom.html', [0xef, 0xbb, 0xbf], '<p>', [0xc3, 0xa9], '</p>');
    expect(sluice(['parse', '--encoding', 'windows-1252', bom]).out).toContain('"é"');
  });

  it('an unknown --encoding label is a usage error: a clear message, exit code 2, nothing on stdout', () => {
    const r = sluice(['parse', '--encoding', 'utf-7', latin]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('sluice: --encoding: "utf-7" is not an encoding label');
    expect(sluice(['tokenize', '--encoding', 'klingon', latin]).code).toBe(2);
  });

  it('UTF-8 with no <meta>: still UTF-8 (the whole file is valid UTF-8), and the tree is the string parse\'s', () => {
    const utf8 = join(dir, 'utf8.html');
    writeFileSync(utf8, '<!doctype html><p>é 日本 😀</p>');
    const r = sluice(['parse', utf8]);
    expect(r.out).toContain('"é 日本 😀"');
    expect(r.out.trimEnd()).toBe(run(['parse', utf8]).out.trimEnd());
    // The example page (UTF-8, <meta charset=utf-8>): the same tree as the string parser gives.
    const sink = new DomTreeSink();
    const parser = new Parser(sink, {});
    parser.write(readFileSync(example, 'utf8'));
    parser.end();
    expect(sluice(['parse', example]).out.trimEnd()).toBe(toIndentedTree(sink.document, { locations: false }).trimEnd());
  });
});
