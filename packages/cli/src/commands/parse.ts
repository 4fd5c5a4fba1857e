import { Parser } from '@sluice/tree-builder';
import { DomTreeSink, toIndentedTree } from '@sluice/dom';
import { chunks } from '../input.js';

export interface ParseCommandOptions {
  chunkSize: number;
  scripting: boolean;
  locations: boolean;
}

/**
 * `sluice parse`: streams the input through the parser (tokenizer + tree builder) into the DOM, chunk by
 * chunk as a network would deliver it, and prints the resulting document as an indented tree.
 */
export function parseCommand(html: string, options: ParseCommandOptions, out: (line: string) => void): void {
  const sink = new DomTreeSink();
  sink.document.scriptingEnabled = options.scripting;
  const parser = new Parser(sink, { scripting: options.scripting });
  for (const chunk of chunks(html, options.chunkSize)) parser.write(chunk);
  parser.end();
  out(toIndentedTree(sink.document, { locations: options.locations }));
}
