#!/usr/bin/env node
// Bundles the `sluice` umbrella package for browsers (its `./browser` export): packages/sluice/dist/index.js
// and everything it imports (every @sluice/* package's dist/, css-what) into one minified ES module,
// packages/sluice/dist/browser/sluice.js, with a source map (sources included: the map needs no files
// beside it). Run it after `tsc -b` (scripts/setup.mjs does). esbuild comes from the workspace's dev
// dependencies (tests/ or packages/playground/), not from the sluice package's.
// Cheap when nothing changed: the last bundle's inputs (esbuild's metafile) are kept with their sizes
// and modification times, and the bundle is skipped while they and the outputs are unchanged.
// Usage: node scripts/bundle.mjs [--force]
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadEsbuild, metafileInputs, root, upToDate, writeStamp } from './lib/esbuild.mjs';

const entry = join(root, 'packages', 'sluice', 'dist', 'index.js');
const outdir = join(root, 'packages', 'sluice', 'dist', 'browser');
const outfile = join(outdir, 'sluice.js');
const OUTPUTS = [outfile, `${outfile}.map`];
const stampFile = join(outdir, '.bundle-inputs.json');

if (!existsSync(entry)) {
  throw new Error(`bundle: ${relative(root, entry)} is missing: build the packages first (tsc -b)`);
}
if (upToDate(stampFile, OUTPUTS)) {
  console.error('bundle: packages/sluice/dist/browser is up to date');
} else {
  const { build } = await loadEsbuild('bundle');
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    // A browser bundle: a Node built-in that any package imports fails the build here, not in the page.
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: 'linked',
    sourcesContent: true,
    metafile: true,
    absWorkingDir: root,
    logLevel: 'warning',
  });
  const builtins = Object.keys(result.metafile.inputs).filter((f) => f.startsWith('node:'));
  if (builtins.length > 0) throw new Error(`bundle: Node built-ins reached from sluice: ${builtins.join(', ')}`);
  writeStamp(stampFile, [...metafileInputs(result), ...OUTPUTS]);
  const code = readFileSync(outfile);
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.error(
    `bundle: built packages/sluice/dist/browser/sluice.js: ${kib(code.length)} minified, ${kib(gzipSync(code, { level: 9 }).length)} gzipped (${Object.keys(result.metafile.inputs).length} modules)`,
  );
}
