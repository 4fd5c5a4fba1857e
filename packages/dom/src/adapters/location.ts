/**
 * Source locations in parse5's shape (`sourceCodeLocation`), read from a sluice node's
 * `sourceLocation`, for the adapters.
 */
import type { Node } from '../node.js';
import type { SourceCodeLocation } from '../source-location.js';

/**
 * A span of the input, as parse5 gives it: 1-based lines and columns, 0-based UTF-16 offsets, the end
 * exclusive — sluice's `SourceCodeLocation` without the byte offsets.
 */
export type Parse5Span = Omit<SourceCodeLocation, 'startByteOffset' | 'endByteOffset'>;

/** A start tag's span with its attributes' spans (by qualified name). */
export interface Parse5SpanWithAttributes extends Parse5Span {
  attrs?: Record<string, Parse5Span>;
}

/** parse5's `sourceCodeLocation` of a node: for an element also `startTag`, `endTag` and `attrs`. */
export interface Parse5Location extends Parse5SpanWithAttributes {
  startTag?: Parse5SpanWithAttributes;
  endTag?: Parse5Span;
}

/**
 * The node's source location in parse5's shape (without sluice's `start`/`end` and byte offsets), or null
 * when it has none or only offsets (parsed without `sourceLocations: true`).
 */
export function parse5Location(node: Node): Parse5Location | null {
  const loc = node.sourceLocation;
  if (loc === null || loc.startLine === undefined) return null;
  const out: Parse5Location = span(loc as SourceCodeLocation);
  if (loc.attrs !== undefined) out.attrs = spans(loc.attrs);
  if (loc.startTag !== undefined) {
    const startTag: Parse5SpanWithAttributes = span(loc.startTag);
    if (loc.startTag.attrs !== undefined) startTag.attrs = spans(loc.startTag.attrs);
    out.startTag = startTag;
  }
  if (loc.endTag !== undefined && loc.endTag !== null) out.endTag = span(loc.endTag);
  return out;
}

function span(s: Parse5Span): Parse5Span {
  return {
    startLine: s.startLine,
    startCol: s.startCol,
    startOffset: s.startOffset,
    endLine: s.endLine,
    endCol: s.endCol,
    endOffset: s.endOffset,
  };
}

function spans(record: Record<string, Parse5Span>): Record<string, Parse5Span> {
  const out: Record<string, Parse5Span> = {};
  for (const key of Object.keys(record)) out[key] = span(record[key]!);
  return out;
}
