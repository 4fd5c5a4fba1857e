// What the workspace's esbuild builds share (scripts/bundle.mjs, packages/playground/build.mjs): finding
// esbuild, and skipping a build while nothing changed — the last build's inputs (esbuild's metafile) and
// outputs are kept in a stamp file with their sizes and modification times, and the build is up to date
// while they are all unchanged (and `--force` was not given).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository's root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/** `path`'s size and mtime, or null when it is missing. */
export function fileStamp(path) {
  try {
    const s = statSync(path);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return null;
  }
}

/**
 * Whether the build that wrote `stampFile` is still up to date: no `--force` on the command line, every
 * one of `outputs` (absolute paths) there, and every file the stamp names unchanged. A new source file is
 * imported by a changed one, so watching the known inputs is enough.
 */
export function upToDate(stampFile, outputs = []) {
  if (process.argv.includes('--force') || !existsSync(stampFile)) return false;
  if (outputs.some((f) => !existsSync(f))) return false;
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return false;
  }
  return Object.entries(recorded).every(([file, s]) => fileStamp(join(root, file)) === s);
}

/** Writes `stampFile`: the size and mtime of each of `files` (absolute paths: inputs and outputs), by path from the root. */
export function writeStamp(stampFile, files) {
  const stamps = {};
  for (const f of files) stamps[relative(root, f)] = fileStamp(f);
  writeFileSync(stampFile, JSON.stringify(stamps, null, 1));
}

/** The metafile's inputs as absolute paths. */
export function metafileInputs(result) {
  return Object.keys(result.metafile.inputs).map((f) => join(root, f));
}

/** esbuild, from the first workspace package that has it as a dev dependency (tests/, packages/playground/). */
export async function loadEsbuild(who) {
  for (const from of ['tests', join('packages', 'playground')]) {
    try {
      const path = createRequire(join(root, from, 'package.json')).resolve('esbuild');
      return await import(pathToFileURL(path).href);
    } catch {
      // not installed there
    }
  }
  throw new Error(`${who}: esbuild is not installed (a dev dependency of tests/ and packages/playground/): run node scripts/setup.mjs`);
}
