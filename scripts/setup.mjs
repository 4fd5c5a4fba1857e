#!/usr/bin/env node
// Makes a fresh clone ready to run: installs the workspace's dependencies with the pinned pnpm (through
// npx, so a machine with only Node.js and npm works), builds every package (tsc -b) and bundles `sluice`
// for browsers (scripts/bundle.mjs).
// Cheap when nothing changed: the install is skipped while node_modules matches pnpm-lock.yaml, tsc -b
// is incremental, and the bundle is skipped while its inputs are unchanged.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pnpmVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(cmd, args) {
  execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}

// pnpm keeps a copy of the lockfile it installed from; equal copies mean node_modules is current.
const lock = join(root, 'pnpm-lock.yaml');
const installed = join(root, 'node_modules', '.pnpm', 'lock.yaml');
const upToDate = existsSync(installed) && readFileSync(installed, 'utf8') === readFileSync(lock, 'utf8');
if (!upToDate) {
  console.error(`setup: installing dependencies with pnpm ${pnpmVersion}…`);
  run(npx, ['--yes', `pnpm@${pnpmVersion}`, 'install', '--frozen-lockfile']);
}
console.error('setup: building packages (tsc -b)…');
run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b']);
// The browser build of `sluice` (its `./browser` export), skipped while its inputs are unchanged.
run(process.execPath, [join(root, 'scripts', 'bundle.mjs')]);
// The playground page (packages/playground/dist/, `npm run playground`), skipped while its inputs are unchanged.
run(process.execPath, [join(root, 'packages', 'playground', 'build.mjs')]);
