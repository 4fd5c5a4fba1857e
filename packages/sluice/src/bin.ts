#!/usr/bin/env node
/**
 * The `sluice` command, as the umbrella package brings it (`npx sluice …` after `npm install sluice`):
 * `@sluice/cli`'s `main`, plus `--version`, which prints this package's version.
 */
import { readFileSync } from 'node:fs';
import { main } from '@sluice/cli';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  // dist/bin.js → the package's own manifest, wherever the package is installed.
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  process.stdout.write(`${manifest.version}\n`);
} else {
  process.exitCode = main(argv, (line) => process.stdout.write(line + '\n'), (line) => process.stderr.write(line + '\n'));
}
