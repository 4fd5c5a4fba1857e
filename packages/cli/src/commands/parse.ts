/**
 * `sluice parse`: the input streamed through the parser (decoder, tokenizer, tree builder; `Parser.write`
 * per chunk) into the DOM, then the DOM written out piece by piece — the indented tree, the html5lib
 * test format, the serialized document, or JSON. The DOM itself is whole, as any DOM is; the input and
 * the output never are.
 */
import { Parser } from '@sluice/tree-builder';
import { Document, DomTreeSink, indentedTreeLines, serializeChunks, type Node } from '@sluice/dom';
import type { EncodingChange } from '@sluice/encoding';
import { describeEncoding, type Input } from '../input.js';
import { jsonPieces, testFormatLines } from '../output/dom-writers.js';
import { note, readChunks, type Context } from './context.js';

export type ParseFormat = 'tree' | 'html5lib' | 'html' | 'json';

export interface ParseOptions {
  chunkSize: number;
  encoding: string | undefined;
  scripting: boolean;
  format: ParseFormat;
  locations: boolean;
  showEncoding: boolean;
}

export async function parseCommand(ctx: Context, input: Input, o: ParseOptions): Promise<number> {
  let run = await parseOnce(ctx, input, o, o.encoding);
  let reparsed = false;
  if (run.change?.action === 'reparse') {
    if (input.rereadable) {
      // A <meta> after the first 1024 bytes: parse again from the first byte in its encoding, as a
      // browser restarts the page (§13.2.3.4). A file can be read again; standard input cannot.
      run = await parseOnce(ctx, input, o, run.change.to);
      reparsed = true;
    } else {
      note(ctx, `a <meta> after the first 1024 bytes names ${run.change.to}; standard input was decoded as ${run.parser.encoding} (it is not read twice; pass --encoding ${run.change.to})`);
    }
  }
  const out = ctx.out;
  if (o.showEncoding) out.line(describeEncoding(run.parser.sniffResult!, run.parser.confidence, reparsed));
  const doc = run.document;
  const pieces: Iterable<string> =
    o.format === 'tree' ? lines(indentedTreeLines(doc, { locations: o.locations }))
    : o.format === 'html5lib' ? lines(testFormatLines(doc))
    : o.format === 'html' ? serializeChunks(doc)
    : jsonPieces(doc);
  for (const piece of pieces) {
    out.write(piece);
    if (out.full) await out.ready();
  }
  if (o.format === 'html' || o.format === 'json') out.write('\n');
  return 0;
}

function* lines(source: Iterable<string>): Generator<string> {
  for (const line of source) yield line + '\n';
}

interface ParseRun {
  parser: Parser<Node>;
  document: Document;
  change: EncodingChange | null;
}

async function parseOnce(ctx: Context, input: Input, o: ParseOptions, encoding: string | undefined): Promise<ParseRun> {
  const document = new Document();
  document.scriptingEnabled = o.scripting;
  const sink = new DomTreeSink(document);
  let parser: Parser<Node> | null = null;
  await readChunks(
    ctx,
    input,
    o.chunkSize,
    (defaultEncoding) => {
      parser = new Parser(sink, { scripting: o.scripting, encoding, defaultEncoding });
    },
    (chunk) => {
      parser!.write(chunk);
    },
  );
  parser!.end();
  return { parser: parser!, document, change: parser!.encodingChange };
}
