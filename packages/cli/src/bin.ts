#!/usr/bin/env node
import { main } from './main.js';

process.exitCode = main(process.argv.slice(2), (line) => process.stdout.write(line + '\n'), (line) => process.stderr.write(line + '\n'));
