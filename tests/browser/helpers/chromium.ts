/**
 * Debian's Chromium for the browser tests, through playwright-core (from tests/node_modules; never a
 * downloaded browser): where it is, the flags every suite launches it with, and the rule for when it is
 * missing — a suite is skipped locally (`describe.runIf(runsInChromium)`) but FAILS under CI
 * (`launchChromium` throws, naming the fix).
 */
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';
/**
 * Headless, no sandbox (root in a container), nothing fetched in the background, and only loopback:
 * any other host name fails at once (a navigation away, e.g. a meta refresh, goes nowhere).
 */
export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];
/** Whether this is a CI run (`CI` set, and not to `false`). */
export const CI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
/** Whether Debian's Chromium is installed. */
export const available = existsSync(CHROMIUM);
/** Whether the browser suites run: wherever Chromium is, and always under CI (where a missing one fails them). */
export const runsInChromium = available || CI;

/** Throws, naming the fix, when Debian's Chromium is not installed (under CI a browser suite fails so). */
export function requireChromium(): void {
  if (!available) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); CI requires it`);
}

/** Launches Debian's Chromium with {@link FLAGS} (and `extraArgs`); throws, naming the fix, when it is not installed. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  requireChromium();
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...FLAGS, ...extraArgs] });
}

/** Chromium with one page open on about:blank, for suites that evaluate in a page. */
export async function openBlankPage(): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto('about:blank');
  return { browser, page };
}

/** In a `describe`: {@link openBlankPage} before its tests (`use` gets the page), the browser closed after them. */
export function openBlankPageForSuite(use: (page: Page) => void): void {
  let browser: Browser | null = null;
  beforeAll(async () => {
    const opened = await openBlankPage();
    browser = opened.browser;
    use(opened.page);
  });
  afterAll(async () => {
    await browser?.close();
  });
}
