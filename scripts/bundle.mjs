#!/usr/bin/env node
// Bundles the `sluice` umbrella package for browsers (its `./browser` export): packages/sluice/dist/index.js
// and everything it imports (every @sluice/* package's dist/, css-what) into one minified ES module,
// packages/sluice/dist/browser/sluice.js, with a source map (sources included: the map needs no files
// beside it). Run it after `tsc -b` (scripts/setup.mjs does). esbuild comes from the workspace's dev
// dependencies (tests/ or packages/playground/), not from the sluice package's.
// Cheap when nothing changed: the last bundle's inputs (esbuild's metafile) are kept with their sizes
// and modification times, and the bundle is skipped while they and the outputs are unchanged.
// Usage: node scripts/bundle.mjs [--force]
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'packages', 'sluice', 'dist', 'index.js');
const outdir = join(root, 'packages', 'sluice', 'dist', 'browser');
const outfile = join(outdir, 'sluice.js');
const OUTPUTS = [outfile, `${outfile}.map`];
const stampFile = join(outdir, '.bundle-inputs.json');

/** `path`'s size and mtime, or null when it is missing. */
function stat(path) {
  try {
    const s = statSync(path);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return null;
  }
}

function upToDate() {
  if (process.argv.includes('--force') || !existsSync(stampFile)) return false;
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return false;
  }
  // A module newly imported is imported by a changed one, so watching the known inputs is enough.
  return Object.entries(recorded).every(([file, s]) => stat(join(root, file)) === s);
}

/** esbuild, from the first workspace package that has it as a dev dependency. */
async function loadEsbuild() {
  for (const from of ['tests', join('packages', 'playground')]) {
    try {
      const path = createRequire(join(root, from, 'package.json')).resolve('esbuild');
      return await import(pathToFileURL(path).href);
    } catch {
      // not installed there
    }
  }
  throw new Error('bundle: esbuild is not installed (a dev dependency of tests/ and packages/playground/): run node scripts/setup.mjs');
}

if (!existsSync(entry)) {
  throw new Error(`bundle: ${relative(root, entry)} is missing: build the packages first (tsc -b)`);
}
if (upToDate()) {
  console.error('bundle: packages/sluice/dist/browser is up to date');
} else {
  const { build } = await loadEsbuild();
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
  const inputs = {};
  for (const f of [...Object.keys(result.metafile.inputs).map((f) => join(root, f)), ...OUTPUTS]) inputs[relative(root, f)] = stat(f);
  writeFileSync(stampFile, JSON.stringify(inputs, null, 1));
  const code = readFileSync(outfile);
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.error(
    `bundle: built packages/sluice/dist/browser/sluice.js: ${kib(code.length)} minified, ${kib(gzipSync(code, { level: 9 }).length)} gzipped (${Object.keys(result.metafile.inputs).length} modules)`,
  );
}
