import { intFlag, parseArgs, UsageError } from './args.js';
import { decodeOptions, encodingFlag, readInput } from './input.js';
import { tokenize } from './commands/tokenize.js';
import { parseCommand } from './commands/parse.js';

export const USAGE = `usage: sluice <command> [options] <file | ->

commands:
  parse      stream the file through the parser into the DOM and print the DOM as an indented tree
             --chunk-size N   bytes per chunk (default 256)
             --scripting on|off   the scripting flag (default on)
             --locations      show each node's source offsets
             --show-encoding  print the encoding the input was decoded with, and why, first
  tokenize   stream the file through the tokenizer and summarize the token stream
             --chunk-size N   bytes per chunk (default 256)
             --errors         list every parse error with its line and column

both:        --encoding LABEL  decode the input with this encoding (an Encoding Standard label) unless
                               it starts with a byte order mark; by default the encoding is sniffed as a
                               browser does (BOM, <meta> in the first 1024 bytes), else UTF-8 when the
                               whole input is valid UTF-8, else windows-1252
`;

/** Runs the `sluice` command line; returns the process exit code. */
export function main(argv: readonly string[], out: (line: string) => void, err: (line: string) => void): number {
  try {
    const { command, flags, positional } = parseArgs(argv);
    if (command === undefined || flags.has('help') || command === 'help') {
      out(USAGE);
      return command === undefined ? 2 : 0;
    }
    const chunkSize = intFlag(flags, 'chunk-size', 256);
    const encoding = encodingFlag(flags);
    switch (command) {
      case 'parse': {
        const scripting = flags.get('scripting') ?? 'on';
        if (scripting !== 'on' && scripting !== 'off') throw new UsageError(`--scripting must be on or off, got ${JSON.stringify(scripting)}`);
        const bytes = readInput(positional[0]);
        const options = { chunkSize, scripting: scripting === 'on', locations: flags.has('locations'), showEncoding: flags.has('show-encoding'), decode: decodeOptions(bytes, encoding) };
        parseCommand(bytes, options, out);
        return 0;
      }
      case 'tokenize': {
        const bytes = readInput(positional[0]);
        return tokenize(bytes, { chunkSize, showErrors: flags.has('errors'), decode: decodeOptions(bytes, encoding) }, out) ? 0 : 1;
      }
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      err(`sluice: ${error.message}\n`);
      err(USAGE);
      return 2;
    }
    throw error;
  }
}
