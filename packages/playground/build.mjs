#!/usr/bin/env node
// Builds the playground into dist/: src/main.ts bundled by esbuild (with sluice's packages, from their
// dist/, so run `tsc -b` first — scripts/setup.mjs does), and src/index.html and src/style.css copied.
// Cheap when nothing changed: the last build's input files (esbuild's metafile) are kept with their
// sizes and modification times, and the build is skipped while they and the outputs are unchanged.
// Usage: node packages/playground/build.mjs [--force]   (PLAYGROUND_MINIFY=0: readable output, for profiling)
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const dist = join(here, 'dist');
const stampFile = join(dist, '.build-inputs.json');
const STATIC = ['index.html', 'style.css'];
const OUTPUTS = ['index.html', 'style.css', 'app.js'];

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
  if (OUTPUTS.some((f) => !existsSync(join(dist, f)))) return false;
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return false;
  }
  // A new file in src/ is imported by a changed one, so watching the known inputs is enough.
  return Object.entries(recorded).every(([file, s]) => stat(join(root, file)) === s);
}

if (upToDate()) {
  console.error('playground: dist/ is up to date');
} else {
  const { build } = await import('esbuild');
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
  const inputs = {};
  const files = [...Object.keys(result.metafile.inputs).map((f) => join(root, f)), ...STATIC.map((f) => join(here, 'src', f))];
  for (const f of [...files, ...OUTPUTS.map((o) => join(dist, o))]) inputs[relative(root, f)] = stat(f);
  writeFileSync(stampFile, JSON.stringify(inputs, null, 1));
  const kb = (statSync(join(dist, 'app.js')).size / 1024).toFixed(0);
  console.error(`playground: built dist/ (app.js ${kb} KiB, ${Object.keys(result.metafile.inputs).length} modules)`);
}
