/**
 * Shared by the playground's browser tests: Debian's Chromium through playwright-core (never a downloaded
 * browser) and the built page (packages/playground/dist/) served from a loopback node:http server
 * (packages/playground/serve.mjs).
 *
 * Without /usr/bin/chromium the suites skip locally and FAIL under CI (`beforeAll` throws); so does a
 * missing dist/ under CI. Locally dist/ is (re)built by packages/playground/build.mjs, which does nothing
 * when it is up to date.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { available, CI, launchChromium, requireChromium } from './chromium.js';

export { available, CI } from './chromium.js';
export const root = fileURLToPath(new URL('../../..', import.meta.url));
export const playground = join(root, 'packages', 'playground');
export const dist = join(playground, 'dist');
/** Where the screenshots go. */
export const shots = join(root, 'test-output', 'playground');
/** The page's views, by the id of their tab (`#tab-<id>`) and panel (`#panel-<id>`). */
export const VIEWS = ['stepper', 'tokens', 'tree', 'events', 'errors', 'serialized', 'rewrite', 'differential'];

export interface Playground {
  browser: Browser;
  page: Page;
  /** The page's address on the loopback server. */
  url: string;
  /** Console errors and warnings, page errors: a test expects none. */
  problems: string[];
  close(): Promise<void>;
}

/** In a `describe`: {@link openPlayground} before its tests (`use` gets it), closed after them. */
export function openPlaygroundForSuite(use: (opened: Playground) => void, viewport?: { width: number; height: number }): void {
  let opened: Playground | undefined;
  beforeAll(async () => {
    opened = await openPlayground(viewport);
    use(opened);
  });
  afterAll(async () => {
    await opened?.close();
  });
}

/** Builds the page when needed, serves it, launches Chromium and opens the page at `viewport`, ready. */
export async function openPlayground(viewport = { width: 1280, height: 800 }): Promise<Playground> {
  requireChromium();
  if (!existsSync(join(dist, 'index.html')) || !existsSync(join(dist, 'app.js'))) {
    if (CI) throw new Error(`${dist} is not built: npm run setup builds it (scripts/setup.mjs runs packages/playground/build.mjs)`);
  }
  // Cheap when dist/ is up to date with src/ (build.mjs compares its inputs' sizes and times).
  if (!CI) execFileSync(process.execPath, [join(playground, 'build.mjs')], { stdio: 'inherit' });
  mkdirSync(shots, { recursive: true });
  const { createPlaygroundServer } = (await import(join(playground, 'serve.mjs'))) as { createPlaygroundServer: () => Server };
  const server = createPlaygroundServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    server.close();
    throw error;
  }
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector('body[data-ready]');
  return {
    browser, page, url, problems,
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Puts `html` in the editor as typing does (an input event), and waits until the page has taken it. */
export async function typeInto(page: Page, html: string): Promise<void> {
  const before = Number(await page.getAttribute('body', 'data-revision'));
  await page.evaluate((value) => {
    const editor = document.getElementById('input') as HTMLTextAreaElement;
    editor.value = value;
    editor.dispatchEvent(new Event('input', { bubbles: true }));
  }, html);
  await page.waitForFunction((n) => Number(document.body.dataset.revision) > n, before);
}

/** Shows view `id` by clicking its tab. */
export async function showView(page: Page, id: string): Promise<void> {
  await page.click(`#tab-${id}`);
  await page.waitForSelector(`#panel-${id}:not([hidden])`);
}
