/**
 * `sluice check`: every parse error of each input, once, as `FILE:LINE:COL: code` (or JSON lines), like
 * a compiler; exit code 1 when there is any. Streamed: the parser takes the input chunk by chunk into a
 * sink that keeps nothing.
 */
import { Parser } from '@sluice/tree-builder';
import type { ParseError } from '@sluice/tokenizer';
import { EventSink, type EventNode } from '../sinks/event-sink.js';
import type { Input } from '../input.js';
import { readChunks, type Context } from './context.js';
import { lateMetaNote } from './events.js';

export interface CheckOptions {
  chunkSize: number;
  encoding: string | undefined;
  scripting: boolean;
  format: 'text' | 'json';
}

/**
 * One error as a line: `FILE:LINE:COL: code`, or the JSON object `{"file","line","col","offset","code"}`
 * (`offset` in UTF-16 code units of the decoded text) with `"byteOffset"` where the parser gives one.
 */
export function checkLine(file: string, e: ParseError, format: 'text' | 'json'): string {
  if (format === 'text') return `${file}:${e.line}:${e.col}: ${e.code}`;
  const o: Record<string, unknown> = { file, line: e.line, col: e.col, offset: e.offset, code: e.code };
  if (e.byteOffset !== undefined) o.byteOffset = e.byteOffset;
  return JSON.stringify(o);
}

/** Checks one input; returns the number of errors found. */
export async function checkOne(ctx: Context, input: Input, o: CheckOptions): Promise<number> {
  const out = ctx.out;
  let parser: Parser<EventNode> | null = null;
  let count = 0;
  await readChunks(
    ctx,
    input,
    o.chunkSize,
    (defaultEncoding) => {
      // One channel for the tokenizer's and the tree builder's errors, each once, in input order.
      parser = new Parser(new EventSink(), {
        scripting: o.scripting,
        encoding: o.encoding,
        defaultEncoding,
        onParseError: (e) => {
          count++;
          out.line(checkLine(input.name, e, o.format));
        },
      });
    },
    (chunk) => {
      parser!.write(chunk);
    },
  );
  parser!.end();
  lateMetaNote(ctx, parser!.encodingChange, parser!.encoding);
  return count;
}
