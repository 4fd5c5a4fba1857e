/**
 * The single-byte decoders in a browser, where there is no `Buffer` and no `isAscii`: the decoders'
 * source bundled with esbuild (from tests/node_modules) and run in a page of Debian's Chromium
 * (playwright-core, never a downloaded browser). There `createDecoder` must take the platform's
 * TextDecoder for all three (Chromium has them, and gets them right: the one-time self-test passes), and
 * the Latin-1 pass with `String.fromCharCode` and the fix-ups, forced, must work without Buffer; every
 * path must give the Encoding Standard's index for every byte, whole and streamed in chunks. Without /usr/bin/chromium the
 * suite is skipped locally and FAILS under CI.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { launchChromium, runsInChromium } from '../../../tests/browser/helpers/chromium.js';

const testsRequire = createRequire(fileURLToPath(new URL('../../../tests/package.json', import.meta.url)));

/** The Encoding Standard's character for every byte, from iconv-lite and §14.4 (as in single-byte.test.ts). */
const REFERENCE: Record<string, string> = {
  'windows-1252': Array.from({ length: 256 }, (_, b) =>
    [0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(b) ? String.fromCharCode(b) : iconv.decode(Buffer.from([b]), 'windows-1252'),
  ).join(''),
  'ISO-8859-16': Array.from({ length: 256 }, (_, b) => iconv.decode(Buffer.from([b]), 'iso-8859-16')).join(''),
  'x-user-defined': Array.from({ length: 256 }, (_, b) => String.fromCharCode(b < 0x80 ? b : 0xf780 + b - 0x80)).join(''),
};

/** Runs in the page: for each encoding, the path taken and the decoded text of `inputs`, whole and in 7-byte chunks. */
const PAGE_FUNCTION = `(inputs) => {
  const { createDecoder, tableOf, SingleByteDecoder } = globalThis.sluiceEncoding;
  const out = { hasBuffer: typeof globalThis.Buffer !== 'undefined', results: {} };
  const ways = {
    createDecoder: (encoding) => createDecoder(encoding),
    'Latin-1 + fix-ups': (encoding) => new SingleByteDecoder(tableOf(encoding), { platformTextDecoder: false }),
  };
  for (const [way, make] of Object.entries(ways))
  for (const encoding of ['windows-1252', 'ISO-8859-16', 'x-user-defined']) {
    const texts = [];
    let path = null;
    for (const values of inputs) {
      const bytes = Uint8Array.from(values);
      const whole = make(encoding);
      path = whole.path;
      const streamed = make(encoding);
      let s = '';
      for (let i = 0; i < bytes.length; i += 7) s += streamed.decode(bytes.subarray(i, i + 7), { stream: true });
      texts.push([whole.decode(bytes), s + streamed.decode()]);
    }
    out.results[way + ' ' + encoding] = { path, texts };
  }
  return out;
}`;

describe.runIf(runsInChromium)('single-byte decoders in Chromium (no Buffer)', () => {
  let browser: Browser | null = null;
  let page: Page;

  beforeAll(async () => {
    const esbuild = testsRequire('esbuild') as typeof import('esbuild');
    const bundle = await esbuild.build({
      // The package's decoders, and the single-byte decoder itself to force its portable path.
      stdin: {
        contents: "export { createDecoder, tableOf } from './decoders.ts'; export { SingleByteDecoder } from './single-byte.ts';",
        resolveDir: fileURLToPath(new URL('../src', import.meta.url)),
        loader: 'ts',
      },
      bundle: true,
      write: false,
      format: 'iife',
      globalName: 'sluiceEncoding',
      platform: 'browser',
      target: 'es2022',
    });
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto('about:blank');
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('takes the self-tested TextDecoder where Chromium has the encoding, and every path matches the index for every byte', async () => {
    // All 256 bytes; a run of C1 bytes dense enough to switch to the table lookup; a long mostly-ASCII page
    // past the 8 KiB runs of String.fromCharCode, with a high byte now and then.
    const all = Array.from({ length: 256 }, (_, b) => b);
    const dense = Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? 0x41 : 0x80 + ((i * 7) % 128)));
    const long = Array.from({ length: 20_000 }, (_, i) => (i % 997 === 0 ? 0x80 + (i % 128) : 0x20 + (i % 95)));
    const inputs = [all, dense, long];
    const got = (await page.evaluate(`(${PAGE_FUNCTION})(${JSON.stringify(inputs)})`)) as {
      hasBuffer: boolean;
      results: Record<string, { path: string; texts: [string, string][] }>;
    };
    expect(got.hasBuffer).toBe(false);
    // Chromium decodes all three (only Node lacks ISO-8859-16 and x-user-defined), right: the self-test passes.
    expect(Object.fromEntries(Object.entries(got.results).map(([k, v]) => [k, v.path]))).toEqual({
      'createDecoder windows-1252': 'TextDecoder',
      'createDecoder ISO-8859-16': 'TextDecoder',
      'createDecoder x-user-defined': 'TextDecoder',
      'Latin-1 + fix-ups windows-1252': 'Latin-1 + fix-ups',
      'Latin-1 + fix-ups ISO-8859-16': 'Latin-1 + fix-ups',
      'Latin-1 + fix-ups x-user-defined': 'Latin-1 + fix-ups',
    });
    for (const [key, { texts }] of Object.entries(got.results)) {
      const encoding = key.slice(key.lastIndexOf(' ') + 1);
      const table = REFERENCE[encoding]!;
      inputs.forEach((values, k) => {
        const expected = values.map((b) => table[b]).join('');
        expect(texts[k]![0] === expected, `${key} input ${k}, whole`).toBe(true);
        expect(texts[k]![1] === expected, `${key} input ${k}, streamed`).toBe(true);
      });
    }
  });
});
