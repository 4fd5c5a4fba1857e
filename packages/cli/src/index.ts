/** The sluice command line, as a function: `run(argv, { stdin, stdout, stderr })` resolves to the exit code. */
export { run, USAGE, HELP, type Io } from './main.js';
