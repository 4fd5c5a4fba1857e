#!/usr/bin/env node
// Packs every published package of the workspace (each packages/* whose manifest is not private) into
// npm tarballs, ready for a plain `npm install <tarballs…>` in any project (README, Install).
// Builds first, as scripts/setup.mjs does (tsc -b, then the browser bundle); then `pnpm pack` for each,
// through npx with the pinned pnpm, which rewrites the `workspace:*` dependencies into real versions.
// Usage: node scripts/pack.mjs [destination]   (default: sluice-packs in the OS's temporary folder).
// Prints the tarballs' paths, one a line.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const destination = resolve(process.argv[2] ?? join(tmpdir(), 'sluice-packs'));
const pnpmVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(cmd, args) {
  execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}

const published = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => JSON.parse(readFileSync(join(root, 'packages', entry.name, 'package.json'), 'utf8')))
  .filter((manifest) => manifest.private !== true);

console.error('pack: building (tsc -b, bundle)…');
run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b']);
run(process.execPath, [join(root, 'scripts', 'bundle.mjs')]);

mkdirSync(destination, { recursive: true });
console.error(`pack: packing ${published.length} packages into ${destination}…`);
const filters = published.flatMap((manifest) => ['--filter', manifest.name]);
execFileSync(npx, ['--yes', `pnpm@${pnpmVersion}`, '-r', ...filters, 'pack', '--pack-destination', destination], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
for (const manifest of published) {
  // pnpm's tarball name: the scope's @ dropped and its / made a -, then -version.tgz.
  console.log(join(destination, `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`));
}
