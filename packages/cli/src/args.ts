/**
 * Strict argument parsing for the `sluice` command, on `node:util`'s `parseArgs`: an unknown option,
 * a missing value or a value that is not one of the allowed ones is a {@link UsageError} that names it.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { getEncoding } from '@sluice/encoding';

/** A mistake in how the command was called: one line on stderr, a hint, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
  /** The subcommand whose `--help` the hint points to, if any. */
  command: string | undefined;
  constructor(message: string, command?: string) {
    super(message);
    this.command = command;
  }
}

/** A file that cannot be read, or input the command cannot take: exit code 1, its name, no stack. */
export class InputError extends Error {
  override name = 'InputError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** The options every subcommand takes. */
export const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  quiet: { type: 'boolean', short: 'q' },
  'chunk-size': { type: 'string' },
  encoding: { type: 'string' },
} as const satisfies Options;

/** What `parseArgs` gave, plus the order in which options were written (for `rewrite`'s edits). */
export interface Parsed {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  /** Every option and positional in command-line order (`parseArgs`' tokens). */
  tokens: NonNullable<ReturnType<typeof parseArgs>['tokens']>;
}

/**
 * Parses `argv` (the arguments after the subcommand's name) strictly. Node's messages are reworded to
 * name the option the way it was written.
 */
export function parseStrict(command: string, argv: readonly string[], options: Options): Parsed {
  try {
    const r = parseArgs({ args: [...argv], options: { ...COMMON_OPTIONS, ...options }, strict: true, allowPositionals: true, tokens: true });
    return { values: r.values as Parsed['values'], positionals: r.positionals, tokens: r.tokens ?? [] };
  } catch (error) {
    throw new UsageError(rewordParseArgsError(error as Error & { code?: string }), command);
  }
}

function rewordParseArgsError(error: Error & { code?: string }): string {
  const quoted = /'([^']*)'/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted ?? error.message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      // "Option '--chunk-size <value>' argument missing" / "… does not take an argument".
      if (/argument missing/.test(error.message)) return `${(quoted ?? '').replace(/ <value>$/, '')} needs a value`;
      if (/does not take an argument/.test(error.message)) return `${quoted ?? 'an option'} takes no value`;
      return error.message;
    default:
      return error.message;
  }
}

/** `--chunk-size N`: a positive integer, or the default. */
export function chunkSizeOf(values: Parsed['values'], fallback: number, command: string): number {
  const raw = values['chunk-size'];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`--chunk-size must be a positive integer, got ${JSON.stringify(raw)}`, command);
  }
  return n;
}

/** `--encoding LABEL`: the label as given, or a usage error for a string that is no Encoding Standard label. */
export function encodingOf(values: Parsed['values'], command: string): string | undefined {
  const label = values.encoding;
  if (label === undefined) return undefined;
  if (typeof label !== 'string' || getEncoding(label) === null) {
    throw new UsageError(
      `--encoding: ${JSON.stringify(label)} is not an encoding label (the Encoding Standard's labels: utf-8, windows-1252, shift_jis, euc-kr, gbk, big5, utf-16le…)`,
      command,
    );
  }
  return label;
}

/** An option whose value must be one of `allowed`. */
export function oneOf<T extends string>(values: Parsed['values'], name: string, allowed: readonly T[], fallback: T, command: string): T {
  const v = values[name];
  if (v === undefined) return fallback;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw new UsageError(`--${name} must be ${allowed.join(', ').replace(/, ([^,]*)$/, ' or $1')}, got ${JSON.stringify(v)}`, command);
  }
  return v as T;
}

/** `--scripting on|off` (default on, as in browsers). */
export function scriptingOf(values: Parsed['values'], command: string): boolean {
  return oneOf(values, 'scripting', ['on', 'off'], 'on', command) === 'on';
}

/** At most `max` positionals, else a usage error naming the first extra one. */
export function atMost(positionals: readonly string[], max: number, command: string): void {
  if (positionals.length > max) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[max])}`, command);
}
