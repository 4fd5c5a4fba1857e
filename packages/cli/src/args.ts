/** Minimal argument parsing for the `sluice` command: `sluice <command> [--flag value]… [file]`. */

export interface ParsedArgs {
  command: string | undefined;
  flags: Map<string, string>;
  positional: string[];
}

/** Flags that take no value. */
const BOOLEAN_FLAGS = new Set(['help', 'errors', 'locations', 'show-encoding']);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      if (eq !== -1) flags.set(name, arg.slice(eq + 1));
      else if (BOOLEAN_FLAGS.has(name)) flags.set(name, 'true');
      else {
        const value = argv[++i];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        flags.set(name, value);
      }
    } else if (command === undefined) command = arg;
    else positional.push(arg);
  }
  return { command, flags, positional };
}

/** A mistake in how the command was called: printed with the usage text, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A positive integer flag, or the default. */
export function intFlag(flags: Map<string, string>, name: string, fallback: number): number {
  const raw = flags.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}
