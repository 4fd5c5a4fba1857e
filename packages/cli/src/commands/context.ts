/**
 * What every subcommand gets: the output, stderr, stdin, the progress decision; and the loop that reads
 * the input in chunks, hands each to the command, and waits for the output between chunks.
 */
import type { Readable, Writable } from 'node:stream';
import type { Output } from '../output/output.js';
import { Progress } from '../output/progress.js';
import { withDefaultEncoding, type Input } from '../input.js';

export interface Context {
  /** The subcommand's name (for messages and the progress line). */
  readonly command: string;
  readonly out: Output;
  readonly stderr: Writable;
  readonly stdin: Readable;
  /** `--quiet`: no progress line, no notes on stderr. */
  readonly quiet: boolean;
  /** Whether stderr is a terminal (the progress line is drawn only then). */
  readonly stderrIsTTY: boolean;
}

/** A note on stderr (not an error): suppressed by `--quiet`. */
export function note(ctx: Context, text: string): void {
  if (!ctx.quiet) ctx.stderr.write(`sluice ${ctx.command}: ${text}\n`);
}

/**
 * Reads `input` in chunks of `chunkSize` bytes and calls `onChunk` with each (`onDefault` first, with
 * the default encoding decided from the first bytes); between chunks waits while stdout is full. At
 * least one chunk is passed, empty for an empty input (a byte parse still decides on nothing). Returns
 * early when `onChunk` returns true (`select --first`).
 */
export async function readChunks(
  ctx: Context,
  input: Input,
  chunkSize: number,
  onDefault: (defaultEncoding: string) => void,
  onChunk: (chunk: Uint8Array) => boolean | void | Promise<boolean | void>,
): Promise<void> {
  const progress = new Progress(ctx.stderrIsTTY && !ctx.quiet ? ctx.stderr : null, ctx.command, input.size);
  let any = false;
  try {
    for await (const chunk of withDefaultEncoding(input.chunks(chunkSize, progress), onDefault)) {
      any = true;
      let stop = onChunk(chunk);
      if (stop instanceof Promise) stop = await stop;
      if (ctx.out.full || ctx.out.closed) await ctx.out.ready();
      if (stop === true) return;
    }
    if (!any) {
      const stop = onChunk(new Uint8Array(0));
      if (stop instanceof Promise) await stop;
    }
  } finally {
    progress.clear();
  }
}
