/**
 * Parse an html5lib tree-construction test through `Parser` + `DomTreeSink` (optionally in chunks) and
 * dump the result in the html5lib format. For fragments it does what `parseFragment` does: the result is
 * the children of the root `html` element, moved into a DocumentFragment.
 */
import { DomTreeSink, resolveContext, toTestFormat, type Node } from '@sluice/dom';
import { Parser, type ParserOptions } from '@sluice/tree-builder';

export interface DumpInput {
  readonly data: string;
  readonly fragment: string | null;
  readonly scripting: boolean | null;
}

/** Parse `input.data`, split into `chunks` when given (they must concatenate to `input.data`). */
export function parseToDump(input: DumpInput, chunks: readonly string[] = [input.data], extra: ParserOptions<Node> = {}): string {
  const sink = new DomTreeSink();
  const options: ParserOptions<Node> = { ...extra, scripting: input.scripting ?? true };
  if (input.fragment !== null) options.fragmentContext = resolveContext(input.fragment);
  const parser = new Parser<Node>(sink, options);
  for (const chunk of chunks) parser.write(chunk);
  parser.end();
  const document = sink.document;
  if (input.fragment === null) return toTestFormat(document);
  const fragment = document.createDocumentFragment();
  const root = document.documentElement;
  while (root !== null && root.firstChild !== null) fragment.appendChild(root.firstChild);
  return toTestFormat(fragment);
}
