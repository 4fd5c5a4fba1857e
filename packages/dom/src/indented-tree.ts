/**
 * `toIndentedTree`: a DOM tree for people to read (the CLI demo prints a parsed page with it).
 */
import { NS } from '@sluice/tree-builder';
import type { Comment, Text } from './character-data.js';
import type { Document } from './document.js';
import type { DocumentType } from './document-type.js';
import type { Element } from './element.js';
import { HTMLTemplateElement } from './element.js';
import { type Node, NodeType } from './node.js';

/** Options for {@link toIndentedTree} and {@link indentedTreeLines}. */
export interface IndentedTreeOptions {
  /** Longer text and comment data is cut here and ends with `…` (default 60; Infinity for all of it). */
  maxTextLength?: number;
  /** Append each node's source location, `@start-end` (and an element's end tag's), when known (default false). */
  locations?: boolean;
  /** Indent at most this many levels; deeper lines are prefixed with their depth, `[123]` (default 40). */
  maxIndent?: number;
}

/**
 * Render `node` and its subtree as an indented outline, two spaces per level:
 *
 * ```text
 * #document (no-quirks)
 *   <!DOCTYPE html>
 *   <html lang="en">
 *     <head>
 *       <title>
 *         "Example"
 *     <body>
 *       <!-- a comment -->
 *       <template>
 *         #content
 *           <p>
 * ```
 *
 * Text is shown as a JSON string literal (newlines escaped), attributes in source order, SVG and MathML
 * elements as `<svg:circle>` / `<math:mi>`. Iterative; indentation is capped (`maxIndent`) so a very
 * deep tree stays readable and the output stays linear in the tree's size.
 */
export function toIndentedTree(node: Node, options: IndentedTreeOptions = {}): string {
  const lines: string[] = [];
  for (const line of indentedTreeLines(node, options)) lines.push(line);
  return lines.join('\n');
}

/**
 * The lines of {@link toIndentedTree} (without their newlines), one at a time, so that a big document's
 * outline can be written out (with backpressure: the caller pulls the next line when it is ready)
 * without ever being one string; `toIndentedTree` joins them with `\n`. Attributes are read from the
 * element's own list, never through `el.attributes` (which would make and keep an Attr node per
 * attribute: a whole page's worth doubles the DOM's memory).
 */
export function* indentedTreeLines(node: Node, options: IndentedTreeOptions = {}): Generator<string, void, undefined> {
  const maxText = options.maxTextLength ?? 60;
  const withLocations = options.locations ?? false;
  const maxIndent = options.maxIndent ?? 40;
  // Explicit stack of (node, depth); a null node is the `#content` label of the template below it.
  const nodes: (Node | null)[] = [node];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const n = nodes.pop()!;
    const depth = depths.pop()!;
    const indent = depth <= maxIndent ? '  '.repeat(depth) : `${'  '.repeat(maxIndent)}[${depth}] `;
    if (n === null) {
      yield indent + '#content';
      continue;
    }
    yield indent + describe(n, maxText) + (withLocations ? locationOf(n) : '');
    for (let c = n._last; c !== null; c = c._prev) {
      nodes.push(c);
      depths.push(depth + 1);
    }
    if (n instanceof HTMLTemplateElement) {
      for (let c = n.content._last; c !== null; c = c._prev) {
        nodes.push(c);
        depths.push(depth + 2);
      }
      nodes.push(null);
      depths.push(depth + 1);
    }
  }
}

function describe(n: Node, maxText: number): string {
  switch (n.nodeType) {
    case NodeType.ELEMENT_NODE: {
      const el = n as Element;
      const prefix = el.namespaceURI === NS.SVG ? 'svg:' : el.namespaceURI === NS.MATHML ? 'math:' : '';
      let s = `<${prefix}${el.localName}`;
      for (const a of el._attrs) s += ` ${a.name}=${JSON.stringify(cut(a.value, maxText))}`;
      return s + '>';
    }
    case NodeType.TEXT_NODE:
      return JSON.stringify(cut((n as Text).data, maxText));
    case NodeType.COMMENT_NODE:
      return `<!-- ${JSON.stringify(cut((n as Comment).data, maxText)).slice(1, -1)} -->`;
    case NodeType.DOCUMENT_TYPE_NODE: {
      const d = n as DocumentType;
      let s = `<!DOCTYPE ${d.name}`;
      if (d.publicId !== '') s += ` PUBLIC ${JSON.stringify(d.publicId)}`;
      if (d.systemId !== '') s += `${d.publicId === '' ? ' SYSTEM' : ''} ${JSON.stringify(d.systemId)}`;
      return s + '>';
    }
    case NodeType.DOCUMENT_NODE:
      return `#document (${(n as Document).mode})`;
    default:
      return n.nodeName;
  }
}

function cut(s: string, max: number): string {
  return s.length > max ? s.slice(0, max) + '…' : s;
}

function locationOf(n: Node): string {
  const loc = n.sourceLocation;
  let s = loc === null ? '' : `  @${loc.start}-${loc.end}`;
  if (n.nodeType === NodeType.ELEMENT_NODE) {
    const end = (n as Element).endTagLocation;
    if (end !== null) s += `${s === '' ? '  ' : ' '}</>@${end.start}-${end.end}`;
  }
  return s;
}
