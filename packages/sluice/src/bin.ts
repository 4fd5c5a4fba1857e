#!/usr/bin/env node
/**
 * The `sluice` command, as the umbrella package brings it (`npx sluice …` after `npm install sluice`):
 * `@sluice/cli`'s executable, which runs the command line on this process's arguments and streams
 * (`sluice --help`, `sluice --version`, docs/cli.md).
 */
import '@sluice/cli/bin';
