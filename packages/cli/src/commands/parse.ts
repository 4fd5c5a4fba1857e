import { Parser } from '@sluice/tree-builder';
import { DomTreeSink, toIndentedTree } from '@sluice/dom';
import type { EncodingChange, SniffResult } from '@sluice/encoding';
import { chunks, describeEncoding, type DecodeOptions } from '../input.js';

export interface ParseCommandOptions {
  chunkSize: number;
  scripting: boolean;
  locations: boolean;
  /** `--show-encoding`: print how the input was decoded before the tree. */
  showEncoding: boolean;
  decode: DecodeOptions;
}

/**
 * `sluice parse`: streams the input bytes through the parser (decoder, tokenizer, tree builder) into the
 * DOM, chunk by chunk as a network would deliver them, and prints the resulting document as an indented
 * tree. A `<meta>` that changes the encoding after the first 1024 bytes restarts the parse in the new
 * encoding, as a browser does: the command has the whole input, so it can take back what it parsed.
 */
export function parseCommand(bytes: Uint8Array, options: ParseCommandOptions, out: (line: string) => void): void {
  let run = parseOnce(bytes, options, options.decode);
  let reparsed = false;
  if (run.change?.action === 'reparse') {
    run = parseOnce(bytes, options, { ...options.decode, encoding: run.change.to });
    reparsed = true;
  }
  if (options.showEncoding) out(describeEncoding(run.sniff, run.confidence, reparsed));
  out(toIndentedTree(run.sink.document, { locations: options.locations }));
}

interface ParseRun {
  sink: DomTreeSink;
  sniff: SniffResult;
  confidence: string | null;
  change: EncodingChange | null;
}

function parseOnce(bytes: Uint8Array, options: ParseCommandOptions, decode: DecodeOptions): ParseRun {
  const sink = new DomTreeSink();
  sink.document.scriptingEnabled = options.scripting;
  const parser = new Parser(sink, { scripting: options.scripting, ...decode });
  for (const chunk of chunks(bytes, options.chunkSize)) parser.write(chunk);
  // No chunk at all (an empty file) is still a byte parse: the sniffing decides on nothing.
  if (bytes.length === 0) parser.write(bytes);
  parser.end();
  return { sink, sniff: parser.sniffResult!, confidence: parser.confidence, change: parser.encodingChange };
}
