/**
 * `sluice check`: every parse error of each input, once, as `FILE:LINE:COL: code` (or JSON lines), like
 * a compiler; exit code 1 when there is any. Streamed: the parser takes the input chunk by chunk into a
 * sink that keeps nothing.
 */
import { Parser } from '@sluice/tree-builder';
import type { ParseError } from '@sluice/tokenizer';
import { EventSink, type EventNode } from '../sinks/event-sink.js';
import type { Input } from '../input.js';
import { MetaWatch, readDecoded, type Context } from './context.js';
import { lateMetaNote } from './events.js';

export interface CheckOptions {
  chunkSize: number;
  encoding: string | undefined;
  scripting: boolean;
  format: 'text' | 'json';
}

/**
 * One error as a line: `FILE:LINE:COL: code`, or the JSON object `{"file","line","col","offset","code"}`
 * (`offset` in UTF-16 code units of the decoded text).
 */
export function checkLine(file: string, e: ParseError, format: 'text' | 'json'): string {
  if (format === 'text') return `${file}:${e.line}:${e.col}: ${e.code}`;
  return JSON.stringify({ file, line: e.line, col: e.col, offset: e.offset, code: e.code });
}

/**
 * Checks one input; returns the number of errors found. The text is decoded here and parsed as text,
 * so the parser keeps no byte-offset mapping (see `readDecoded`): nothing of the input is held.
 */
export async function checkOne(ctx: Context, input: Input, o: CheckOptions): Promise<number> {
  const out = ctx.out;
  let count = 0;
  const meta = new MetaWatch();
  // One channel for the tokenizer's and the tree builder's errors, each once, in input order. The
  // decoder has consumed a byte order mark: a U+FEFF in its text is text.
  const parser = new Parser(new EventSink(), {
    scripting: o.scripting,
    stripByteOrderMark: false,
    onToken: meta.onToken,
    onParseError: (e) => {
      count++;
      out.line(checkLine(input.name, e, o.format));
    },
  });
  const { decoder } = await readDecoded(ctx, input, o.chunkSize, o.encoding, (text) => void parser.write(text), () => parser.end(), meta);
  lateMetaNote(ctx, meta.change, decoder.encoding);
  return count;
}
