#!/usr/bin/env node
// Builds the playground into dist/: src/main.ts bundled by esbuild (with sluice's packages, from their
// dist/, so run `tsc -b` first — scripts/setup.mjs does), and src/index.html and src/style.css copied.
// Cheap when nothing changed: the last build's input files (esbuild's metafile) are kept with their
// sizes and modification times, and the build is skipped while they and the outputs are unchanged.
// Usage: node packages/playground/build.mjs [--force]   (PLAYGROUND_MINIFY=0: readable output, for profiling)
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEsbuild, metafileInputs, root, upToDate, writeStamp } from '../../scripts/lib/esbuild.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const stampFile = join(dist, '.build-inputs.json');
const STATIC = ['index.html', 'style.css'];
const OUTPUTS = ['index.html', 'style.css', 'app.js'];

if (upToDate(stampFile, OUTPUTS.map((f) => join(dist, f)))) {
  console.error('playground: dist/ is up to date');
} else {
  const { build } = await loadEsbuild('playground');
  mkdirSync(dist, { recursive: true });
  const result = await build({
    entryPoints: [join(here, 'src', 'main.ts')],
    outfile: join(dist, 'app.js'),
    bundle: true,
    format: 'esm',
    // A browser bundle: a Node built-in pulled in by any package fails the build here, not in the page.
    platform: 'browser',
    target: 'es2022',
    minify: process.env.PLAYGROUND_MINIFY !== "0",
    sourcemap: true,
    legalComments: 'none',
    loader: { '.html': 'text' },
    metafile: true,
    absWorkingDir: root,
    logLevel: 'warning',
  });
  for (const f of STATIC) copyFileSync(join(here, 'src', f), join(dist, f));
  writeStamp(stampFile, [...metafileInputs(result), ...STATIC.map((f) => join(here, 'src', f)), ...OUTPUTS.map((o) => join(dist, o))]);
  const kb = (statSync(join(dist, 'app.js')).size / 1024).toFixed(0);
  console.error(`playground: built dist/ (app.js ${kb} KiB, ${Object.keys(result.metafile.inputs).length} modules)`);
}
