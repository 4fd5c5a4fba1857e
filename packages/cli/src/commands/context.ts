/**
 * What every subcommand gets: the output, stderr, stdin, the progress decision; and the loop that reads
 * the input in chunks, hands each to the command, and waits for the output between chunks.
 */
import type { Readable, Writable } from 'node:stream';
import type { Output } from '../output/output.js';
import { Progress } from '../output/progress.js';
import { HtmlDecoder, changeTheEncoding, encodingOfMeta, type EncodingChange } from '@sluice/encoding';
import type { Token } from '@sluice/tokenizer';
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
  onDefault: (defaultEncoding: string, first: Uint8Array) => void,
  onChunk: (chunk: Uint8Array) => boolean | void | Promise<boolean | void>,
): Promise<void> {
  const progress = new Progress(ctx.stderrIsTTY && !ctx.quiet ? ctx.stderr : null, ctx.command, input.size);
  let any = false;
  try {
    for await (const chunk of withDefaultEncoding(input.chunks(chunkSize, progress), onDefault)) {
      any = true;
      let stop = onChunk(chunk);
      if (stop instanceof Promise) stop = await stop;
      // Each chunk's output is written before the next chunk is read: what a chunk's output refers to
      // (attribute values are slices of the chunk's text) then dies young, instead of surviving into
      // the old generation and raising the peak memory.
      await ctx.out.ready(true);
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

/**
 * Reads `input` and decodes it as a browser would (HTML §13.2.3: BOM, `--encoding`, a `<meta>` in the
 * first 1024 bytes, then the default for these bytes), handing the text to `onText` as it is decoded;
 * stops early when `onText` returns true (and then returns true, without `onEnd`).
 *
 * The commands that parse decoded text themselves use this rather than `Parser`'s byte input when the
 * parser's byte-offset bookkeeping is not wanted: with `onParseError`, `Parser` keeps every decoded
 * chunk of a UTF-8 input to answer `byteOffset` (ByteOffsets), which a stream of any size cannot.
 */
export async function readDecoded(
  ctx: Context,
  input: Input,
  chunkSize: number,
  encoding: string | undefined,
  onText: (text: string) => boolean | void,
  onEnd: () => void,
  meta?: MetaWatch,
): Promise<{ decoder: HtmlDecoder; stopped: boolean }> {
  let decoder: HtmlDecoder | null = null;
  let stopped = false;
  await readChunks(
    ctx,
    input,
    chunkSize,
    (defaultEncoding) => {
      decoder = new HtmlDecoder({ encoding, defaultEncoding });
      if (meta !== undefined) meta.decoder = decoder;
    },
    (chunk) => {
      const text = decoder!.write(chunk);
      if (text !== '' && onText(text) === true) stopped = true;
      return stopped;
    },
  );
  if (stopped) return { decoder: decoder!, stopped };
  const rest = decoder!.end();
  if (rest !== '' && onText(rest) === true) return { decoder: decoder!, stopped: true };
  onEnd();
  return { decoder: decoder!, stopped: false };
}

/**
 * For text decoded by {@link readDecoded}: what `Parser` does with a `<meta>` for bytes in (§13.2.6.4.4
 * "in head", §13.2.3.4 "change the encoding"), as an `onToken` hook — the first `<meta>` naming an
 * encoding while the confidence is tentative confirms it, or asks for a reparse (`change`).
 */
export class MetaWatch {
  change: EncodingChange | null = null;
  decoder: HtmlDecoder | null = null;
  readonly onToken = (token: Token): void => {
    const decoder = this.decoder;
    if (this.change !== null || decoder === null || decoder.confidence !== 'tentative' || token.type !== 'startTag' || token.name !== 'meta') return;
    const requested = encodingOfMeta(token.attributes);
    this.change = requested === null ? null : changeTheEncoding(decoder.encoding!, 'tentative', requested);
    if (this.change !== null) decoder.confirm();
  };
}
