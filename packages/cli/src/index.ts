/** The sluice command line, as a function: `main(argv, out, err)` returns the exit code. */
export { main, USAGE } from './main.js';
