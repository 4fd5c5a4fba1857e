/**
 * The `sluice` command as a real process (packages/cli/dist/bin.js, built by `tsc -b`): arguments,
 * exit codes, stdin, files, closed pipes, and each subcommand's output on small inputs, exactly.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { bin, example, sluice } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-'));
const file = (name: string, content: string | Buffer): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const noStack = (err: string): void => expect(err).not.toMatch(/^\s+at /m);
const COMMANDS = ['select', 'rewrite', 'check', 'parse', 'tokenize', 'events'];

describe('Unix manners', () => {
  it('--version prints the version in package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    const r = sluice(['--version']);
    expect(r).toMatchObject({ code: 0, out: `${pkg.version}\n`, err: '' });
  });

  it('--help and -h for the whole and for each command: exit 0, stdout only', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = sluice(args);
      expect(r.code).toBe(0);
      expect(r.err).toBe('');
      for (const c of COMMANDS) expect(r.out).toContain(`  ${c} `);
    }
    for (const c of COMMANDS) {
      for (const flag of ['--help', '-h']) {
        const r = sluice([c, flag]);
        expect(r.code).toBe(0);
        expect(r.err).toBe('');
        expect(r.out.split('\n')[0]).toMatch(new RegExp(`^usage: sluice ${c}\\b`));
      }
      expect(sluice(['help', c]).out).toBe(sluice([c, '--help']).out);
    }
  });

  it('no arguments: the usage on stderr, exit 2', () => {
    const r = sluice([]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('usage: sluice COMMAND');
  });

  it('an unknown command or option is named on stderr, with a one-line hint, exit 2, nothing on stdout', () => {
    const cases: [string[], string, string][] = [
      [['frobnicate'], 'sluice: unknown command "frobnicate"', "try 'sluice --help'"],
      [['--frob'], 'sluice: unknown option --frob', "try 'sluice --help'"],
      [['tokenize', '--frob', example], 'sluice tokenize: unknown option --frob', "try 'sluice tokenize --help'"],
      [['select', '-z', 'a', example], 'sluice select: unknown option -z', "try 'sluice select --help'"],
      [['parse', '--chunk-size'], 'sluice parse: --chunk-size needs a value', "try 'sluice parse --help'"],
      [['parse', '--chunk-size', '0', example], 'sluice parse: --chunk-size must be a positive integer, got "0"', "try 'sluice parse --help'"],
      [['parse', '--format', 'yaml', example], 'sluice parse: --format must be tree, html5lib, html or json, got "yaml"', "try 'sluice parse --help'"],
      [['parse', '--scripting', 'maybe', example], 'sluice parse: --scripting must be on or off, got "maybe"', "try 'sluice parse --help'"],
      [['parse', '--encoding', 'utf-7', example], 'sluice parse: --encoding: "utf-7" is not an encoding label', "try 'sluice parse --help'"],
      [['parse', example, example], `sluice parse: unexpected argument ${JSON.stringify(example)}`, "try 'sluice parse --help'"],
      [['select'], 'sluice select: a selector is needed', "try 'sluice select --help'"],
      [['select', 'a[', example], 'sluice select: "a[": ', "try 'sluice select --help'"],
      [['select', '--text', '--count', 'a', example], 'sluice select: --text, --attr and --count exclude each other', "try 'sluice select --help'"],
      [['rewrite', '--set-attr', 'a'], 'sluice rewrite: --set-attr needs two values: SELECTOR NAME=VALUE', "try 'sluice rewrite --help'"],
      [['rewrite', '--remove', 'li:last-child', example], 'sluice rewrite: --remove: Unsupported selector "li:last-child"', "try 'sluice rewrite --help'"],
      [['check', '--format', 'xml', example], 'sluice check: --format must be text or json, got "xml"', "try 'sluice check --help'"],
    ];
    for (const [args, message, hint] of cases) {
      const r = sluice(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.out, args.join(' ')).toBe('');
      const lines = r.err.trimEnd().split('\n');
      expect(lines, args.join(' ')).toHaveLength(2);
      expect(lines[0]).toContain(message);
      expect(lines[1]).toBe(hint);
    }
  });

  it('a missing or unreadable file: exit 1, its name, no stack, for every command', () => {
    const missing = join(dir, 'no-such.html');
    for (const args of [['parse', missing], ['tokenize', missing], ['events', missing], ['check', missing], ['rewrite', missing], ['select', 'p', missing]]) {
      const r = sluice(args);
      expect(r.code, args[0]).toBe(1);
      expect(r.out).toBe('');
      expect(r.err).toBe(`sluice ${args[0]}: ${missing}: no such file or directory\n`);
      noStack(r.err);
    }
    const sub = join(dir, 'a-directory');
    mkdirSync(sub, { recursive: true });
    expect(sluice(['parse', sub])).toMatchObject({ code: 1, err: `sluice parse: ${sub}: is a directory\n` });
    if (process.getuid?.() !== 0) {
      const locked = file('locked.html', '<p>x');
      spawnSync('chmod', ['000', locked]);
      expect(sluice(['tokenize', locked])).toMatchObject({ code: 1, err: `sluice tokenize: ${locked}: permission denied\n` });
    }
  });

  it('standard input: no file argument, or -, gives what the file gives', () => {
    const page = readFileSync(example);
    for (const c of ['parse', 'tokenize', 'events', 'rewrite']) {
      const fromFile = sluice([c, example]);
      expect(fromFile.code).toBe(0);
      expect(sluice([c], page).out, c).toBe(fromFile.out);
      expect(sluice([c, '-'], page).out, c).toBe(fromFile.out);
    }
    expect(sluice(['select', 'a', '-'], page).out).toBe(sluice(['select', 'a', example]).out);
    expect(sluice(['check'], page).out).toBe(sluice(['check', example]).out.replaceAll(example, '<stdin>'));
  });

  it('output into a closed pipe ends quietly: no stack, no message, exit status 0', () => {
    // A few MB, so that the reader is gone long before the command is done.
    const big = file('big.html', '<title>t</title>' + '<div class=x><p>para <a href="/l">link</a> &amp more</i></div>\n'.repeat(60_000));
    for (const cmd of ['tokenize', 'events', 'parse --format html', 'rewrite', 'select p', 'check --format json']) {
      // A real shell pipeline; the command's own status, through bash's PIPESTATUS.
      const b = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" ${cmd} "${big}" | head -c 100 > /dev/null; echo \${PIPESTATUS[0]}`], { encoding: 'utf8' });
      expect(b.stderr, cmd).toBe('');
      expect(b.status, cmd).toBe(0);
      expect(b.stdout.trim(), cmd).toBe('0');
    }
  });
});

describe('tokenize', () => {
  it('tokens as JSON lines, exactly', () => {
    const r = sluice(['tokenize'], '<!DOCTYPE html><p class="a">x &amp; y</p><!--c--><script>1<2</script>');
    expect(r.code).toBe(0);
    expect(r.out.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([
      { type: 'doctype', start: 0, raw: '<!DOCTYPE html>', name: 'html', publicId: null, systemId: null, forceQuirks: false },
      { type: 'startTag', start: 15, raw: '<p class="a">', name: 'p', attributes: [{ name: 'class', value: 'a' }], selfClosing: false },
      { type: 'text', start: 28, raw: 'x &amp; y', kind: 'data', value: 'x & y' },
      { type: 'endTag', start: 37, raw: '</p>', name: 'p' },
      { type: 'comment', start: 41, raw: '<!--c-->', data: 'c' },
      { type: 'startTag', start: 49, raw: '<script>', name: 'script', attributes: [], selfClosing: false },
      // The tree builder switched the tokenizer to script data: "1<2" is text.
      { type: 'text', start: 57, raw: '1<2', kind: 'scriptData', value: '1<2' },
      { type: 'endTag', start: 60, raw: '</script>', name: 'script' },
    ]);
  });

  it('--errors adds the parse errors as lines, in input order', () => {
    const r = sluice(['tokenize', '--errors'], '<p a=1 a=2>&notanentity;');
    const lines = r.out.trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; code?: string; offset?: number });
    // The parser's one error channel, in the order it reports them (its business: compared by offset).
    expect(lines.filter((o) => o.type === 'error').sort((a, b) => a.offset! - b.offset!)).toEqual([
      { type: 'error', code: 'missing-doctype', offset: 0, line: 1, col: 1 },
      { type: 'error', code: 'duplicate-attribute', offset: 8, line: 1, col: 9 },
      { type: 'error', code: 'missing-semicolon-after-character-reference', offset: 15, line: 1, col: 16 },
    ]);
    expect(lines.filter((o) => o.type !== 'error').map((o) => o.type)).toEqual(['startTag', 'text']);
  });

  it('--summary: the counts and the round trip, for any chunk size (what `tokenize` printed before)', () => {
    for (const size of ['1', '7', '256', '100000']) {
      const r = sluice(['tokenize', '--summary', '--chunk-size', size, example]);
      expect(r.code).toBe(0);
      expect(r.out).toContain('round trip: exact');
      expect(r.out).toMatch(/startTag\s+\d+/);
    }
    const withErrors = sluice(['tokenize', '--summary', '--errors', example]).out;
    const count = Number(/parse errors: (\d+)/.exec(withErrors)![1]);
    expect(withErrors.split('\n').filter((l) => /^ {2}\d+:\d+ [a-z-]+$/.test(l))).toHaveLength(count);
  });
});

describe('check', () => {
  it('FILE:LINE:COL: code, one a line, exit 1; a clean file gives nothing and exit 0', () => {
    const bad = file('bad.html', '<!DOCTYPE html>\n<p>x</i>\n<a b=1 b=2>\n');
    const good = file('good.html', '<!DOCTYPE html>\n<title>t</title>\n<p>fine</p>\n');
    const r = sluice(['check', bad]);
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    expect(r.out).toBe(`${bad}:2:5: unexpected-end-tag\n${bad}:3:9: duplicate-attribute\n${bad}:4:1: eof-with-open-elements\n`);
    expect(sluice(['check', good])).toMatchObject({ code: 0, out: '', err: '' });
    const both = sluice(['check', good, bad]);
    expect(both.code).toBe(1);
    expect(both.out).toBe(r.out);
    const json = sluice(['check', '--format', 'json', bad]);
    expect(json.out.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([
      { file: bad, line: 2, col: 5, offset: 20, code: 'unexpected-end-tag' },
      { file: bad, line: 3, col: 9, offset: 33, code: 'duplicate-attribute' },
      { file: bad, line: 4, col: 1, offset: 37, code: 'eof-with-open-elements' },
    ]);
  });

  it('a missing file among several is reported and the others are checked (exit 1)', () => {
    const good = file('good2.html', '<!DOCTYPE html><title>t</title>');
    const r = sluice(['check', good, join(dir, 'gone.html')]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe(`sluice check: ${join(dir, 'gone.html')}: no such file or directory\n`);
  });
});

describe('events', () => {
  it('the mutation events as JSON lines, exactly', () => {
    const r = sluice(['events'], '<p>a<b>c</p>');
    expect(r.out.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([
      { op: 'setDocumentMode', mode: 'quirks' },
      { op: 'createElement', id: 1, localName: 'html', namespace: 'http://www.w3.org/1999/xhtml', attributes: [], location: null },
      { op: 'insertBefore', parent: 0, node: 1, before: null },
      { op: 'createElement', id: 2, localName: 'head', namespace: 'http://www.w3.org/1999/xhtml', attributes: [], location: null },
      { op: 'insertBefore', parent: 1, node: 2, before: null },
      { op: 'elementPopped', element: 2, endLocation: null },
      { op: 'createElement', id: 3, localName: 'body', namespace: 'http://www.w3.org/1999/xhtml', attributes: [], location: null },
      { op: 'insertBefore', parent: 1, node: 3, before: null },
      { op: 'createElement', id: 4, localName: 'p', namespace: 'http://www.w3.org/1999/xhtml', attributes: [], location: { start: 0, end: 3 } },
      { op: 'insertBefore', parent: 3, node: 4, before: null },
      { op: 'insertText', parent: 4, data: 'a', before: null, location: { start: 3, end: 4 } },
      { op: 'createElement', id: 5, localName: 'b', namespace: 'http://www.w3.org/1999/xhtml', attributes: [], location: { start: 4, end: 7 } },
      { op: 'insertBefore', parent: 4, node: 5, before: null },
      { op: 'insertText', parent: 5, data: 'c', before: null, location: { start: 7, end: 8 } },
      { op: 'elementPopped', element: 5, endLocation: null },
      { op: 'elementPopped', element: 4, endLocation: { start: 8, end: 12 } },
      { op: 'elementPopped', element: 3, endLocation: null },
      { op: 'elementPopped', element: 1, endLocation: null },
    ]);
  });
});

describe('parse', () => {
  it('--format tree (the default), html5lib, html, json on a small input, exactly', () => {
    const input = '<!DOCTYPE html><table><tr><td>1</table><p class=x>a &amp; b<template><i>t</i></template>';
    expect(sluice(['parse'], input).out).toBe(
      ['#document (no-quirks)', '  <!DOCTYPE html>', '  <html>', '    <head>', '    <body>', '      <table>', '        <tbody>', '          <tr>', '            <td>', '              "1"', '      <p class="x">', '        "a & b"', '        <template>', '          #content', '            <i>', '              "t"', ''].join('\n'),
    );
    expect(sluice(['parse', '--format', 'html5lib'], input).out).toBe(
      ['| <!DOCTYPE html>', '| <html>', '|   <head>', '|   <body>', '|     <table>', '|       <tbody>', '|         <tr>', '|           <td>', '|             "1"', '|     <p>', '|       class="x"', '|       "a & b"', '|       <template>', '|         content', '|           <i>', '|             "t"', ''].join('\n'),
    );
    expect(sluice(['parse', '--format', 'html'], input).out).toBe(
      '<!DOCTYPE html><html><head></head><body><table><tbody><tr><td>1</td></tr></tbody></table><p class="x">a &amp; b<template><i>t</i></template></p></body></html>\n',
    );
    const el = (name: string, children: unknown[], attributes: unknown[] = []) => ({ type: 'element', name, namespace: 'html', attributes, children });
    expect(JSON.parse(sluice(['parse', '--format', 'json'], input).out)).toEqual({
      type: 'document',
      mode: 'no-quirks',
      children: [
        { type: 'doctype', name: 'html', publicId: '', systemId: '' },
        el('html', [
          el('head', []),
          el('body', [
            el('table', [el('tbody', [el('tr', [el('td', [{ type: 'text', data: '1' }])])])]),
            el('p', [{ type: 'text', data: 'a & b' }, { ...el('template', []), content: { type: 'fragment', children: [el('i', [{ type: 'text', data: 't' }])] } }], [{ name: 'class', value: 'x' }]),
          ]),
        ]),
      ],
    });
  });

  it('the example page: the same tree for every chunk size, implied <tbody> and foreign elements', () => {
    const whole = sluice(['parse', '--chunk-size', '100000', example]);
    expect(whole.code).toBe(0);
    expect(whole.out.split('\n')[0]).toBe('#document (no-quirks)');
    expect(whole.out).toMatch(/<tbody>\n\s+<tr class="gate">/);
    expect(whole.out).toContain('<svg:foreignObject');
    for (const size of ['1', '13', '256']) expect(sluice(['parse', '--chunk-size', size, example]).out).toBe(whole.out);
  });
});

describe('rewrite', () => {
  it('edits applied in the order written; async --script', () => {
    const input = '<p id=a>one</p><p>two <a href="http://x">x</a></p>';
    const r = sluice(['rewrite', '--append', 'p', '<i>1</i>', '--append', 'p', '<i>2</i>', '--set-attr', 'a', 'rel=noopener', '--remove-attr', 'p', 'id', '--before', '#a', '<hr>'], input);
    expect(r).toMatchObject({ code: 0, err: '' });
    // --before #a was registered after --remove-attr p id, but matching is on the input's attributes.
    expect(r.out).toBe('<hr><p>one<i>1</i><i>2</i></p><p>two <a href="http://x" rel="noopener">x</a><i>1</i><i>2</i></p>');
    expect(sluice(['rewrite', '--replace', 'a', '<b>B</b>', '--remove', 'p#a'], input).out).toBe('<p>two <b>B</b></p>');
    const script = file('script.mjs', "export default async (rw) => { await new Promise((r) => setTimeout(r, 5)); rw.on('p', { async element(el) { await new Promise((r) => setTimeout(r, 1)); el.prepend('» ', { html: true }); } }); };");
    // Workers' order: each prepend goes right after the start tag, so the later one comes first.
    expect(sluice(['rewrite', '--script', script, '--prepend', 'p', '[x]'], input).out).toBe('<p id=a>[x]» one</p><p>[x]» two <a href="http://x">x</a></p>');
    const notFn = file('notfn.mjs', 'export default 42;');
    const bad = sluice(['rewrite', '--script', notFn], input);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('the module\'s default export must be a function');
    noStack(bad.err);
    const throwing = file('throws.mjs', "export default (rw) => { rw.on('p', { element() { throw new Error('handler says no'); } }); };");
    const t = sluice(['rewrite', '--script', throwing], input);
    expect(t).toMatchObject({ code: 1, err: 'sluice rewrite: handler says no\n' });
  });

  it('bytes in, bytes out: a windows-1252 page, untouched and edited, with --encoding and without', () => {
    const latin = Buffer.concat([Buffer.from('<!doctype html><p class=x>caf'), Buffer.from([0xe9, 0x20, 0x80]), Buffer.from('5</p><p>na'), Buffer.from([0xef]), Buffer.from('ve</p>')]);
    for (const enc of [[], ['--encoding', 'windows-1252']]) {
      for (const size of ['1', '3', '65536']) {
        expect(sluice(['rewrite', ...enc, '--chunk-size', size], latin).bytes.equals(latin)).toBe(true);
        const edited = sluice(['rewrite', ...enc, '--chunk-size', size, '--set-attr', 'p.x', 'title=€'], latin).bytes;
        // The untouched bytes stay as they came; the inserted € is windows-1252's 0x80.
        expect(edited.equals(Buffer.concat([Buffer.from('<!doctype html><p class=x title="'), Buffer.from([0x80]), Buffer.from('">caf'), latin.subarray(29)]))).toBe(true);
      }
    }
  });

  it('bytes in, bytes out: a UTF-16 file with a BOM is written back in UTF-16, BOM and byte order kept', () => {
    const utf16 = (s: string, le: boolean): Buffer => {
      const b = Buffer.alloc(s.length * 2);
      for (let i = 0; i < s.length; i++) le ? b.writeUInt16LE(s.charCodeAt(i), i * 2) : b.writeUInt16BE(s.charCodeAt(i), i * 2);
      return b;
    };
    for (const le of [true, false]) {
      // A lone surrogate (D800) and an odd final byte: passed as they came.
      const input = Buffer.concat([utf16('\ufeff<!doctype html><p class=x>café 日本 😀 \ud800</p>', le), Buffer.from([0x41])]);
      const path = file(`utf16${le ? 'le' : 'be'}.html`, input);
      for (const size of ['1', '3', '65536']) {
        expect(sluice(['rewrite', '--chunk-size', size, path]).bytes.equals(input)).toBe(true);
        const edited = sluice(['rewrite', '--chunk-size', size, '--set-attr', 'p.x', 'title=€😀', path]);
        expect(edited).toMatchObject({ code: 0, err: '' });
        expect(edited.bytes.equals(Buffer.concat([utf16('\ufeff<!doctype html><p class=x title="€😀">café 日本 😀 \ud800</p>', le), Buffer.from([0x41])]))).toBe(true);
      }
      // --encoding does not beat the BOM (HTML §13.2.3.2 step 1).
      expect(sluice(['rewrite', '--encoding', 'windows-1252'], input).bytes.equals(input)).toBe(true);
    }
  });
});

describe('select', () => {
  const page = '<!DOCTYPE html><table><tr><td>1<td class=c>2</table><ul><li><a href=/a>A</a><li><a>B</a><li><a href="/c?x=1&amp;y">C</a></ul>';
  it('outer HTML, --text, --attr, --count, --first, --json', () => {
    expect(sluice(['select', 'tbody > tr > td'], page).out).toBe('<td>1</td>\n<td class="c">2</td>\n');
    expect(sluice(['select', '--text', 'li'], page).out).toBe('A\nB\nC\n');
    expect(sluice(['select', '--attr', 'href', 'a'], page).out).toBe('/a\n/c?x=1&y\n');
    expect(sluice(['select', '--count', 'li a'], page).out).toBe('3\n');
    expect(sluice(['select', '--first', 'li'], page).out).toBe('<li><a href="/a">A</a></li>\n');
    expect(sluice(['select', '--json', '--first', 'td.c'], page).out).toBe('"<td class=\\"c\\">2</td>"\n');
    // Not decidable at the start tag: the whole DOM's querySelectorAll.
    expect(sluice(['select', 'li:last-child'], page).out).toBe('<li><a href="/c?x=1&amp;y">C</a></li>\n');
    expect(sluice(['select', '--count', 'li:has(a[href])'], page).out).toBe('2\n');
  });

  it('--first stops reading the input: an endless stream on stdin ends', () => {
    const r = spawnSync('bash', ['-c', `yes '<p>row</p>' | "${process.execPath}" "${bin}" select --first p; echo "status \${PIPESTATUS[1]}"`], { encoding: 'utf8', timeout: 20_000 });
    expect(r.stdout).toBe('<p>row</p>\nstatus 0\n');
  });
});

describe('select: where the tree builder rearranges what was already made', () => {
  it('an element the adoption agency moves after it was made: the streamed path waits for the move and gives the final tree', () => {
    // <b><p>x</b>: the p is inside the b when it is made; the adoption agency algorithm (§13.2.6.4.7)
    // then moves it out, to be the div's child. The rewriter holds a selector that looks beyond the
    // element (a combinator) until no move is possible, so streamed and --dom agree.
    const input = '<div><b><p>x</b>y</p></div>';
    expect(sluice(['select', 'div > p'], input).out).toBe('<p><b>x</b>y</p>\n');
    expect(sluice(['select', '--dom', 'div > p'], input).out).toBe('<p><b>x</b>y</p>\n');
    expect(sluice(['select', 'b > p'], input).out).toBe('');
    expect(sluice(['select', '--dom', 'b > p'], input).out).toBe('');
  });

  it('a copy the adoption agency fills with what an unmatched element held: the streamed DOM kept it', () => {
    // </b> makes a copy of the b inside the p and moves the p's "y" into it: p > b matches the copy only.
    const input = '<b>x<p>y</b>z</p>';
    expect(sluice(['select', '--dom', 'p > b'], input).out).toBe('<b>y</b>\n');
    expect(sluice(['select', 'p > b'], input).out).toBe('<b>y</b>\n');
  });
});

describe('progress', () => {
  it('formats bytes, percentage and rate', async () => {
    const { formatBytes, formatProgress, progressWanted } = await import('../src/output/progress.js');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(14_200)).toBe('14.2 KB');
    expect(formatBytes(3_514_000)).toBe('3.51 MB');
    expect(formatBytes(206_000_000)).toBe('206 MB');
    expect(formatProgress('parse', 12_400_000, 200_000_000, 0.3)).toBe('sluice parse: 12.4 MB of 200 MB (6%), 41.3 MB/s');
    expect(formatProgress('tokenize', 12_400_000, null, 2)).toBe('sluice tokenize: 12.4 MB, 6.2 MB/s');
    expect(progressWanted({ isTTY: true }, false)).toBe(true);
    expect(progressWanted({ isTTY: true }, true)).toBe(false);
    expect(progressWanted({ isTTY: false }, false)).toBe(false);
    expect(progressWanted({}, false)).toBe(false);
  });

  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)('on a terminal: a progress line on stderr, erased at the end; none with --quiet, none when not a terminal', () => {
    const big = file('progress.html', '<title>t</title>' + '<div class=x><p>para <a href="/l">link</a></p></div>\n'.repeat(40_000));
    // script(1) gives the command a pseudo-terminal; stdout goes to /dev/null, so what script records is stderr.
    const tty = (args: string) => spawnSync('script', ['-qec', `"${process.execPath}" "${bin}" ${args} "${big}" > /dev/null`, '/dev/null'], { encoding: 'utf8' }).stdout;
    const shown = tty('tokenize');
    expect(shown).toMatch(/\rsluice tokenize: [\d.]+ [KM]B of [\d.]+ MB \(\d+%\), [\d.]+ MB\/s\x1b\[K/);
    expect(shown.endsWith('\r\x1b[K')).toBe(true);
    expect(tty('tokenize --quiet')).toBe('');
    expect(tty('check -q')).toBe('');
    // Not a terminal: nothing on stderr.
    expect(sluice(['tokenize', big]).err).toBe('');
  });
});
