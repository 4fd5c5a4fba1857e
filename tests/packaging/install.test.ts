/**
 * Installable (issue 16 item 7), as a user installs sluice today: every published package packed into a
 * tarball (scripts/pack.mjs: `pnpm pack`, which turns `workspace:*` into real versions), the tarballs
 * installed with plain `npm install` into a fresh folder outside the workspace (the OS's temporary
 * folder; the one external runtime dependency, css-what, comes from the npm registry or npm's cache),
 * then:
 *
 * - the packed manifests name no `workspace:` version and carry the MIT license and its LICENSE file;
 * - `sluice` imports as ESM in Node (`node --input-type=module -e …`), parses and rewrites; its
 *   `./browser` export (the bundle) imports and parses too;
 * - a TypeScript sample using the documented API compiles (`tsc --noEmit`, the workspace's TypeScript,
 *   `skipLibCheck: false` and no `@types/node`: the published declarations must type-check as a user's
 *   compiler sees them), and internal members are not visible (`@ts-expect-error` on them);
 * - `npx sluice --version` prints the version, and the command runs.
 *
 * Without npm on the machine the suite is skipped locally and FAILS under CI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedPackages, root, type Manifest } from './workspace.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npmAvailable = spawnSync(npm, ['--version'], { encoding: 'utf8' }).status === 0;

/** Runs a command; returns its standard output, or throws with everything it printed. */
function run(cmd: string, args: string[], cwd: string, input?: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', input, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited with ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}${r.error ? `\n${r.error.message}` : ''}`);
  }
  return r.stdout;
}

const ESM_SAMPLE = `
import { parse, parseFragment, serialize, HTMLRewriter, Tokenizer } from 'sluice';
const doc = parse('<!DOCTYPE html><title>Hi</title><p class=x>One<table><td>cell</table>');
const tokens = [];
const tokenizer = new Tokenizer();
tokenizer.write('<p>a &amp', (t) => tokens.push(t.raw));
tokenizer.end((t) => tokens.push(t.raw));
const rewriter = new HTMLRewriter().on('a[href]', {
  element(el) { el.setAttribute('href', el.getAttribute('href').replace('http:', 'https:')); },
});
const rewritten = await rewriter.transform(new Response('<P>Go <a  href="http://x.test/">there</a>&amp back')).text();
console.log(JSON.stringify({
  title: doc.head.firstChild.textContent,
  body: serialize(doc.body),
  fragment: parseFragment('<td>a<td>b', 'tr').childNodes.length,
  tokens: tokens.join(''),
  rewritten,
}));
`;

const BROWSER_SAMPLE = `
import { parse, serialize } from 'sluice/browser';
console.log(serialize(parse('<p>a<b>b</p>c').body));
`;

/** Uses the documented API with its types; the ts-expect-error lines fail if an internal member shows. */
const TS_SAMPLE = `
import {
  parse,
  parseFragment,
  serialize,
  HTMLRewriter,
  Tokenizer,
  Parser,
  DomTreeSink,
  TreeBuilder,
  type Document,
  type Token,
  type ElementUnit,
} from 'sluice';

const doc: Document = parse('<!DOCTYPE html><p class=x>One');
const body = doc.body;
export const html: string = body === null ? '' : serialize(body);
export const cells: number = parseFragment('<td>a<td>b', 'tr').childNodes.length;

const tokens: Token[] = [];
const tokenizer = new Tokenizer();
tokenizer.write('<p>a &amp', (t) => tokens.push(t));
tokenizer.end((t) => tokens.push(t));

const sink = new DomTreeSink();
new Parser(sink).write('<ul><li>one<li>two</ul>').end();
export const items: number = sink.document.body?.firstChild?.childNodes.length ?? 0;

function secure(el: ElementUnit): void {
  const href = el.getAttribute('href');
  if (href !== null) el.setAttribute('href', href.replace('http:', 'https:'));
}
const rewriter = new HTMLRewriter().on('a[href]', { element: secure });
export const response: Response = rewriter.transform(new Response('<a href="http://x.test/">x</a>'));

// The line between public and internal, as a user's compiler sees it.
declare const builder: TreeBuilder<unknown>;
// @ts-expect-error internal (stripped from the published types)
builder.processTextToken;
// @ts-expect-error internal (stripped from the published types)
doc._first;
`;

const TS_CONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: [],
  },
  files: ['sample.ts'],
};

describe.runIf(npmAvailable || process.env.CI)('packed tarballs installed with npm', () => {
  let packs = '';
  let project = '';
  const published = publishedPackages();

  beforeAll(() => {
    if (!npmAvailable) throw new Error('npm is missing: CI requires it to install the packed tarballs');
    packs = mkdtempSync(join(tmpdir(), 'sluice-packs-'));
    project = mkdtempSync(join(tmpdir(), 'sluice-install-'));
    const tarballs = run(process.execPath, [join(root, 'scripts', 'pack.mjs'), packs], root).trim().split('\n');
    expect(tarballs).toHaveLength(published.length);
    for (const t of tarballs) expect(existsSync(t), t).toBe(true);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sluice-install-check', version: '1.0.0', private: true, type: 'module' }, null, 2));
    // --prefer-offline: css-what from npm's cache when it is there, from the registry otherwise.
    run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs], project);
  }, 600_000);

  afterAll(() => {
    for (const dir of [packs, project]) if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('installs every published package, with real versions, the license and the files the manifest names', () => {
    for (const p of published) {
      const dir = join(project, 'node_modules', ...p.manifest.name.split('/'));
      const installed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
      expect(installed.version).toBe(p.manifest.version);
      expect(installed.license).toBe('MIT');
      expect(installed.engines?.node).toBe('>=20.19');
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));
      for (const [name, version] of Object.entries(installed.dependencies ?? {})) {
        expect(version, `${p.manifest.name} → ${name}`).not.toMatch(/^workspace:/);
      }
      for (const types of Object.values(installed.exports ?? {}).flatMap((t) => (typeof t === 'object' ? [t.types, t.default] : [t]))) {
        if (types !== undefined) expect(existsSync(join(dir, types)), `${p.manifest.name}: ${types}`).toBe(true);
      }
      expect(existsSync(join(dir, 'dist', '.tsbuildinfo'))).toBe(false);
    }
    const sluice = JSON.parse(readFileSync(join(project, 'node_modules', 'sluice', 'package.json'), 'utf8')) as Manifest;
    expect(Object.keys(sluice.dependencies ?? {}).sort()).toEqual(published.filter((p) => p.manifest.name !== 'sluice').map((p) => p.manifest.name).sort());
  });

  it('imports sluice as ESM in Node: parses, tokenizes and rewrites', () => {
    const out = JSON.parse(run(process.execPath, ['--input-type=module', '-e', ESM_SAMPLE], project));
    expect(out).toEqual({
      title: 'Hi',
      body: '<p class="x">One</p><table><tbody><tr><td>cell</td></tr></tbody></table>',
      fragment: 2,
      // The raw tokens give back the input.
      tokens: '<p>a &amp',
      rewritten: '<P>Go <a href="https://x.test/">there</a>&amp back',
    });
  });

  it('imports sluice/browser (the bundle) and parses', () => {
    expect(run(process.execPath, ['--input-type=module', '-e', BROWSER_SAMPLE], project).trim()).toBe('<p>a<b>b</b></p><b>c</b>');
  });

  it('type-checks a TypeScript sample against the published declarations (tsc --noEmit)', () => {
    writeFileSync(join(project, 'sample.ts'), TS_SAMPLE);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TS_CONFIG, null, 2));
    run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], project);
  });

  it('npx sluice --version prints the version; the command runs', () => {
    const version = published.find((p) => p.manifest.name === 'sluice')!.manifest.version;
    expect(run(npx, ['--no-install', 'sluice', '--version'], project).trim()).toBe(version);
    writeFileSync(join(project, 'page.html'), '<!DOCTYPE html><title>t</title><p>x');
    expect(run(npx, ['--no-install', 'sluice', 'parse', 'page.html'], project)).toContain('<p>');
  });
});
