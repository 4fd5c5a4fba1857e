#!/usr/bin/env node
/** The `sluice` executable: runs the command on this process's arguments and streams. */
import { run } from './main.js';

run(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`sluice: ${(error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
