/**
 * The `sluice` command: `run(argv, io)` parses the arguments strictly, runs the subcommand, and returns
 * the exit code — 0 ok, 1 errors found (`check`) or a file or input problem, 2 a usage error. Errors go
 * to stderr only, as one line without a stack; a reader that closes stdout early ends the command
 * quietly.
 */
import type { Readable, Writable } from 'node:stream';
import { InputError, UsageError, atMost, chunkSizeOf, encodingOf, oneOf, parseStrict, scriptingOf, type Parsed } from './args.js';
import { HELP, USAGE } from './help.js';
import { openInput, type Input } from './input.js';
import { Output, OutputClosed } from './output/output.js';
import type { Context } from './commands/context.js';
import { tokenizeCommand } from './commands/tokenize.js';
import { eventsCommand } from './commands/events.js';
import { checkOne } from './commands/check.js';
import { parseCommand, type ParseFormat } from './commands/parse.js';
import { buildRewriter, editsOf, rewriteCommand } from './commands/rewrite.js';
import { selectCommand, type SelectOutput } from './commands/select.js';
import { version } from './version.js';

export { USAGE, HELP };

/** Where the command reads and writes. */
export interface Io {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
}

const DEFAULT_CHUNK = 16 * 1024;

const SCRIPTING = { scripting: { type: 'string' } } as const;

const OPTIONS = {
  select: { ...SCRIPTING, text: { type: 'boolean' }, attr: { type: 'string' }, count: { type: 'boolean' }, first: { type: 'boolean' }, json: { type: 'boolean' }, dom: { type: 'boolean' } },
  rewrite: {
    script: { type: 'string', multiple: true },
    remove: { type: 'string', multiple: true },
    'set-attr': { type: 'string', multiple: true },
    'remove-attr': { type: 'string', multiple: true },
    before: { type: 'string', multiple: true },
    after: { type: 'string', multiple: true },
    prepend: { type: 'string', multiple: true },
    append: { type: 'string', multiple: true },
    replace: { type: 'string', multiple: true },
  },
  check: { ...SCRIPTING, format: { type: 'string' } },
  parse: { ...SCRIPTING, format: { type: 'string' }, locations: { type: 'boolean' }, 'show-encoding': { type: 'boolean' } },
  tokenize: { ...SCRIPTING, summary: { type: 'boolean' }, errors: { type: 'boolean' } },
  events: { ...SCRIPTING },
} as const;

type Command = keyof typeof OPTIONS;

function isCommand(name: string | undefined): name is Command {
  return name !== undefined && Object.prototype.hasOwnProperty.call(OPTIONS, name);
}

/** Runs the command line `argv` (without `node` and the script); resolves to the exit code. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const err = (line: string): void => void io.stderr.write(line + '\n');
  const out = new Output(io.stdout);
  let command: Command | undefined;
  let input: Input | null = null;
  try {
    const first = argv[0];
    if (first === undefined) {
      err(USAGE.trimEnd());
      return 2;
    }
    if (first === '--help' || first === '-h' || first === 'help') {
      const topic = first === 'help' ? argv[1] : undefined;
      if (topic !== undefined && !isCommand(topic)) throw new UsageError(`unknown command ${JSON.stringify(topic)}`);
      out.write(topic === undefined ? USAGE : HELP[topic]!);
      await out.flush();
      return 0;
    }
    if (first === '--version' || first === '-V') {
      if (argv.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(argv[1])} after --version`);
      out.line(version());
      await out.flush();
      return 0;
    }
    if (first.startsWith('-')) throw new UsageError(`unknown option ${first} (a command comes first: sluice COMMAND [options])`);
    if (!isCommand(first)) throw new UsageError(`unknown command ${JSON.stringify(first)}`);
    const cmd: Command = first;
    command = cmd;
    const parsed = parseStrict(cmd, argv.slice(1), OPTIONS[cmd]);
    if (parsed.values.help === true) {
      out.write(HELP[command]!);
      await out.flush();
      return 0;
    }
    const quiet = parsed.values.quiet === true;
    const ctx: Context = { command, out, stderr: io.stderr, stdin: io.stdin, quiet, stderrIsTTY: io.stderr.isTTY === true };
    const chunkSize = chunkSizeOf(parsed.values, DEFAULT_CHUNK, command);
    const encoding = encodingOf(parsed.values, command);
    let code: number;
    if (command === 'check') {
      code = await check(ctx, parsed, chunkSize, encoding, io, err);
    } else {
      const r = await runOne(ctx, command, parsed, chunkSize, encoding, io, (i) => (input = i));
      code = r;
    }
    await out.flush();
    return code;
  } catch (error) {
    if (error instanceof OutputClosed || out.closed) return 0;
    const where = command === undefined ? 'sluice' : `sluice ${command}`;
    if (error instanceof UsageError) {
      err(`${where}: ${error.message}`);
      err(`try 'sluice ${error.command !== undefined ? error.command + ' ' : ''}--help'`);
      return 2;
    }
    if (error instanceof InputError) {
      await out.flush().catch(() => {});
      err(`${where}: ${error.message}`);
      return 1;
    }
    // Anything else — a rewriter refusal, a handler's exception, an unexpected failure — is reported in
    // one line; SLUICE_DEBUG=1 shows the stack.
    await out.flush().catch(() => {});
    const e = error as Error;
    err(`${where}: ${e?.message ?? String(error)}`);
    if (process.env.SLUICE_DEBUG) err(String(e?.stack));
    return 1;
  } finally {
    await (input as Input | null)?.close();
  }
}

async function runOne(ctx: Context, command: Command, parsed: Parsed, chunkSize: number, encoding: string | undefined, io: Io, opened: (i: Input) => void): Promise<number> {
  const v = parsed.values;
  switch (command) {
    case 'select': {
      const [selector, file] = parsed.positionals;
      if (selector === undefined) throw new UsageError('a selector is needed: sluice select SELECTOR [FILE]', command);
      atMost(parsed.positionals, 2, command);
      const kinds = [v.text === true, v.attr !== undefined, v.count === true].filter(Boolean).length;
      if (kinds > 1) throw new UsageError('--text, --attr and --count exclude each other', command);
      const output: SelectOutput = v.text === true ? { kind: 'text' } : typeof v.attr === 'string' ? { kind: 'attr', name: v.attr } : v.count === true ? { kind: 'count' } : { kind: 'outer' };
      const scripting = scriptingOf(v, command);
      const input = await openInput(file, io.stdin);
      opened(input);
      return selectCommand(ctx, input, selector, { chunkSize, encoding, scripting, output, first: v.first === true, json: v.json === true, dom: v.dom === true });
    }
    case 'rewrite': {
      const { edits, positionals } = editsOf(parsed);
      atMost(positionals, 1, command);
      const rewriter = await buildRewriter(edits);
      const input = await openInput(positionals[0], io.stdin);
      opened(input);
      return rewriteCommand(ctx, input, rewriter, { chunkSize, encoding });
    }
    case 'parse': {
      atMost(parsed.positionals, 1, command);
      const format = oneOf<ParseFormat>(v, 'format', ['tree', 'html5lib', 'html', 'json'], 'tree', command);
      const scripting = scriptingOf(v, command);
      const input = await openInput(parsed.positionals[0], io.stdin);
      opened(input);
      return parseCommand(ctx, input, { chunkSize, encoding, scripting, format, locations: v.locations === true, showEncoding: v['show-encoding'] === true });
    }
    case 'tokenize': {
      atMost(parsed.positionals, 1, command);
      const scripting = scriptingOf(v, command);
      const input = await openInput(parsed.positionals[0], io.stdin);
      opened(input);
      return tokenizeCommand(ctx, input, { chunkSize, encoding, scripting, summary: v.summary === true, errors: v.errors === true });
    }
    case 'events': {
      atMost(parsed.positionals, 1, command);
      const scripting = scriptingOf(v, command);
      const input = await openInput(parsed.positionals[0], io.stdin);
      opened(input);
      return eventsCommand(ctx, input, { chunkSize, encoding, scripting });
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  }
}

/** `check FILE...`: each file in turn; a file that cannot be read is reported and the others checked. */
async function check(ctx: Context, parsed: Parsed, chunkSize: number, encoding: string | undefined, io: Io, err: (line: string) => void): Promise<number> {
  const format = oneOf(parsed.values, 'format', ['text', 'json'], 'text', 'check');
  const scripting = scriptingOf(parsed.values, 'check');
  const files = parsed.positionals.length === 0 ? ['-'] : parsed.positionals;
  if (files.filter((f) => f === '-').length > 1) throw new UsageError('standard input (-) can be checked once', 'check');
  let failed = false;
  for (const file of files) {
    let input: Input;
    try {
      input = await openInput(file, io.stdin);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      await ctx.out.flush();
      err(`sluice check: ${error.message}`);
      failed = true;
      continue;
    }
    try {
      if ((await checkOne(ctx, input, { chunkSize, encoding, scripting, format })) > 0) failed = true;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      await ctx.out.flush();
      err(`sluice check: ${error.message}`);
      failed = true;
    } finally {
      await input.close();
    }
    await ctx.out.flush();
  }
  return failed ? 1 : 0;
}
