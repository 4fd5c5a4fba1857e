/**
 * sluice in a browser (issue 16 item 8): the bundled ES module of `sluice` (scripts/bundle.mjs →
 * packages/sluice/dist/browser/sluice.js, the package's `./browser` export) loaded by a page in Debian's
 * Chromium (playwright-core, /usr/bin/chromium, never a downloaded browser). A loopback HTTP server
 * (node:http) serves the page, the bundle and an HTML body; the page imports the bundle and `fetch`es the
 * body, then:
 *
 * - parses it as text (`parse(await res.text())`) and as bytes (`parse(new Uint8Array(await
 *   res.arrayBuffer()))`, decoded by the page's own `<meta charset>`): the two documents serialize alike;
 * - queries it (`querySelector`, `querySelectorAll`, `document.title`), and compares each selector's
 *   matches with Chromium's own `querySelectorAll` on Chromium's parse of the same body (`DOMParser`);
 * - rewrites the `Response` with `new HTMLRewriter().on('a[href]', …).transform(res)`: the output text is
 *   the input with exactly the handled tags changed.
 *
 * Without /usr/bin/chromium the suite is skipped locally and FAILS under CI.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, root } from '../packaging/workspace.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run',
  // Only loopback: any other host name fails at once.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];
const available = existsSync(CHROMIUM);
const BUNDLE = join(root, 'packages', 'sluice', 'dist', 'browser', 'sluice.js');

/** The body the page fetches: UTF-8 with non-ASCII text, links with and without href, implied elements. */
const BODY = [
  '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Café menu</title></head>',
  '<body><h1 id=top>Menu — café</h1>',
  '<ul class="links"><li><a href="http://a.test/one">one</a><li><a  href=/two class=internal>two</a><li><a name=x>no href</a></ul>',
  '<table><td>Crème brûlée &amp more<td><a HREF="http://b.test/">b</a></table>',
  '<p>Fin</p></body></html>',
].join('\n');

const SELECTORS = ['a[href]', 'ul.links > li:nth-child(2) a', 'td:first-child', 'a:not([href])', 'tbody > tr > td', '#top, p', 'li a[href^="http:"]'];

/** Runs in the page (a string, so no transpiler helper leaks into it): every answer, as JSON-ready data. */
const PAGE_SCRIPT = `(async () => {
  const { parse, serializeOuter, HTMLRewriter } = await import('/sluice.js');
  const selectors = ${JSON.stringify(SELECTORS)};
  const text = await (await fetch('/body.html')).text();
  const doc = parse(text);
  const bytesDoc = parse(new Uint8Array(await (await fetch('/body.html')).arrayBuffer()));
  const native = new DOMParser().parseFromString(text, 'text/html');
  const matches = {};
  for (const s of selectors) {
    matches[s] = {
      sluice: Array.from(doc.querySelectorAll(s), (e) => serializeOuter(e)),
      chromium: Array.from(native.querySelectorAll(s), (e) => e.outerHTML),
    };
  }
  const rewriter = new HTMLRewriter().on('a[href]', {
    element(el) {
      el.setAttribute('href', el.getAttribute('href').replace('http:', 'https:'));
      el.setAttribute('data-seen', '');
    },
  });
  const rewritten = await rewriter.transform(await fetch('/body.html')).text();
  return {
    title: doc.title,
    characterSet: bytesDoc.characterSet,
    textTree: serializeOuter(doc.documentElement),
    bytesTree: serializeOuter(bytesDoc.documentElement),
    nativeTree: native.documentElement.outerHTML,
    first: doc.querySelector('a[href]')?.getAttribute('href') ?? null,
    matches,
    rewritten,
  };
})()`;

const PAGE = '<!DOCTYPE html><meta charset="utf-8"><title>sluice bundle</title><p>sluice in a browser';

interface PageResult {
  title: string;
  characterSet: string;
  textTree: string;
  bytesTree: string;
  nativeTree: string;
  first: string | null;
  matches: Record<string, { sluice: string[]; chromium: string[] }>;
  rewritten: string;
}

describe.runIf(available || process.env.CI)('the sluice bundle in Chromium', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let browser: any = null;
  let server: Server | null = null;
  let result: PageResult | null = null;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!available) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); CI requires it`);
    build();
    const files = new Map<string, { type: string; body: Uint8Array }>([
      ['/', { type: 'text/html; charset=utf-8', body: Buffer.from(PAGE) }],
      ['/sluice.js', { type: 'text/javascript; charset=utf-8', body: readFileSync(BUNDLE) }],
      ['/sluice.js.map', { type: 'application/json', body: readFileSync(`${BUNDLE}.map`) }],
      // No charset in the header: the bytes path must find the <meta charset> (the text path: fetch's UTF-8).
      ['/body.html', { type: 'text/html', body: Buffer.from(BODY) }],
    ]);
    server = createServer((req, res) => {
      const file = files.get(req.url ?? '');
      if (file === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
    const page = await browser.newPage();
    page.on('pageerror', (error: Error) => pageErrors.push(error.message));
    await page.goto(`${origin}/`);
    result = (await page.evaluate(PAGE_SCRIPT)) as PageResult;
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  });

  it('the bundle reaches no Node built-in, and its size is printed', () => {
    const code = readFileSync(BUNDLE);
    expect(code.toString('utf8')).not.toMatch(/(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']node:/);
    console.log(`bundle: ${(code.length / 1024).toFixed(1)} KiB minified, ${(gzipSync(code, { level: 9 }).length / 1024).toFixed(1)} KiB gzipped`);
  });

  it('parses a fetched body as text and as bytes, and the trees agree with each other and with Chromium', () => {
    expect(pageErrors).toEqual([]);
    const r = result!;
    expect(r.title).toBe('Café menu');
    expect(r.characterSet).toBe('UTF-8');
    expect(r.bytesTree).toBe(r.textTree);
    expect(r.textTree).toBe(r.nativeTree);
    expect(r.textTree).toContain('<td>Crème brûlée &amp; more</td>');
  });

  it('queries it as Chromium does', () => {
    const r = result!;
    expect(r.first).toBe('http://a.test/one');
    for (const s of SELECTORS) {
      expect(r.matches[s]!.sluice, s).toEqual(r.matches[s]!.chromium);
      if (s !== 'a:not([href])') expect(r.matches[s]!.sluice.length, s).toBeGreaterThan(0);
    }
  });

  it('rewrites the fetched Response: only the handled tags change', () => {
    const expected = BODY.replace('<a href="http://a.test/one">', '<a href="https://a.test/one" data-seen="">')
      // A changed tag is written anew; the attributes nobody touched keep their source text.
      .replace('<a  href=/two class=internal>', '<a href=/two class=internal data-seen="">')
      .replace('<a HREF="http://b.test/">', '<a href="https://b.test/" data-seen="">');
    expect(expected).not.toBe(BODY);
    expect(result!.rewritten).toBe(expected);
  });
});
