import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
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
