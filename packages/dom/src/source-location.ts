/**
 * Source locations as parse5 gives them (`sourceCodeLocationInfo`): lines, columns and offsets of every
 * parsed node, its start tag, end tag and attributes — what `parse(html, { sourceLocations: true })` and
 * `new DomTreeSink(undefined, { sourceLocations: true })` add to `Node.sourceLocation`.
 *
 * The tree builder deals in offsets only (`{ start, end }`, UTF-16 code units into the input). Lines and
 * columns are worked out here, on read, from the input's text (`SourceText`, fed by the parser through
 * the sink's `sourceText`) and a table of where each line starts, built as far as it is needed and
 * searched by bisection. The parse itself only keeps the text and tags each node with it: nothing is
 * computed for a node nobody asks about.
 */
import { attributeSpansOfRawTag } from '@sluice/tokenizer';
import type { SourceLocation } from '@sluice/tree-builder';

/** One span of the source, as parse5's `Location`: 1-based lines and columns (UTF-16 code units), offsets. */
export interface SourceCodeLocation {
  startLine: number;
  startCol: number;
  startOffset: number;
  endLine: number;
  endCol: number;
  endOffset: number;
  /**
   * Bytes in (`parse(bytes, { sourceLocations: true })`): the offsets in the bytes, the byte order mark
   * included — for UTF-8 (exact for well-formed UTF-8), UTF-16 and the single-byte encodings; absent for
   * the multi-byte legacy encodings and for text in. See `ByteOffsets` in `@sluice/tree-builder`.
   */
  startByteOffset?: number;
  endByteOffset?: number;
}

/** A start tag's span with its attributes' (parse5's `LocationWithAttributes`). */
export interface StartTagSourceLocation extends SourceCodeLocation {
  /** Each attribute's span (its name to the end of its value), by name as written, lowercased; the first of duplicates. */
  attrs?: Record<string, SourceCodeLocation>;
}

/**
 * What `Node.sourceLocation` gives. Always `start` and `end`, sluice's offsets (an element's start tag;
 * a text node's whole run). With source locations on, also parse5's fields: for every node its span
 * (an element's from its start tag to its end tag — or to where its end was implied, as parse5 puts it),
 * and for elements `startTag`, `endTag` (when there was one) and `attrs` (when there are attributes).
 */
export interface NodeSourceLocation extends SourceLocation, Partial<SourceCodeLocation> {
  startTag?: StartTagSourceLocation;
  endTag?: SourceCodeLocation;
  attrs?: Record<string, SourceCodeLocation>;
}

/** Offset in the decoded text → offset in the bytes (`ByteOffsets`), or undefined. */
export interface ByteOffsetMap {
  byteOffset(offset: number): number | undefined;
}

/**
 * The input's text, chunk by chunk as the parser tokenizes it, and where its lines start. CR, LF and
 * CRLF each end a line (the input stream's newlines, HTML §13.2.3.5), as parse5 counts them.
 */
export class SourceText {
  private chunks: string[] = [];
  private joined = '';
  /** Offsets where lines start: [0, …], as far as `scanned`. */
  private readonly lineStarts: number[] = [0];
  private scanned = 0;
  /** The text scanned so far ended with a CR: an LF next belongs to the same line end. */
  private endsWithCR = false;
  /** Bytes in: the mapping to byte offsets (set by `parse` once the parse is done). */
  byteOffsets: ByteOffsetMap | null = null;

  /** The next chunk of the input. */
  add(text: string): void {
    if (text.length > 0) this.chunks.push(text);
  }

  /** The whole text so far. */
  text(): string {
    if (this.chunks.length > 0) {
      this.joined += this.chunks.join('');
      this.chunks = [];
    }
    return this.joined;
  }

  /** Extend the line table over the text added since. */
  private scan(): void {
    const text = this.text();
    const starts = this.lineStarts;
    let i = this.scanned;
    if (i >= text.length) return;
    if (this.endsWithCR && text.charCodeAt(i) === 0x0a) {
      // CRLF split across chunks: the line starts after the LF, not between.
      starts[starts.length - 1] = i + 1;
      i++;
    }
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a) starts.push(i + 1);
      else if (c === 0x0d) {
        if (i + 1 < text.length && text.charCodeAt(i + 1) === 0x0a) i++;
        starts.push(i + 1);
      }
    }
    this.endsWithCR = text.charCodeAt(text.length - 1) === 0x0d;
    this.scanned = text.length;
  }

  /** 1-based line and column of `offset`. */
  lineCol(offset: number): { line: number; col: number } {
    if (offset > this.scanned || this.chunks.length > 0) this.scan();
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo] + 1 };
  }

  /** parse5's location of `[start, end)`. */
  span(start: number, end: number): SourceCodeLocation {
    const s = this.lineCol(start);
    const e = this.lineCol(end);
    const location: SourceCodeLocation = {
      startLine: s.line,
      startCol: s.col,
      startOffset: start,
      endLine: e.line,
      endCol: e.col,
      endOffset: end,
    };
    const bytes = this.byteOffsets;
    if (bytes !== null) {
      const startByte = bytes.byteOffset(start);
      const endByte = bytes.byteOffset(end);
      if (startByte !== undefined && endByte !== undefined) {
        location.startByteOffset = startByte;
        location.endByteOffset = endByte;
      }
    }
    return location;
  }

  /** The attributes of the start tag `[start, end)`, by name (the first of duplicates), or null for none. */
  attributes(start: number, end: number): Record<string, SourceCodeLocation> | null {
    const raw = this.text().slice(start, end);
    if (raw.length < 3 || raw.charCodeAt(raw.length - 1) !== 0x3e) return null; // no `>`: cut off at the end
    const spans = attributeSpansOfRawTag(raw);
    if (spans.length === 0) return null;
    const attrs: Record<string, SourceCodeLocation> = Object.create(null) as Record<string, SourceCodeLocation>;
    for (const span of spans) {
      if (span.name in attrs) continue;
      // `name=` with no value (`missing-attribute-value`): parse5's span is the name alone.
      const nameEnd = span.start + span.name.length;
      const end = /^[\t\n\f\r ]*=[\t\n\f\r ]*$/.test(raw.slice(nameEnd, span.end)) ? nameEnd : span.end;
      attrs[span.name] = this.span(start + span.start, start + end);
    }
    return attrs;
  }
}

/** @internal What `locate` reads of a node: its offsets, and for an element its end tag's (or implied end's). */
export interface LocatedNode {
  readonly nodeType: number;
  _start: number;
  _end: number;
  _endTagStart?: number;
  _endTagEnd?: number;
}

/**
 * @internal The full location of a parsed node (`_start >= 0`) whose parse kept `source`. An element's end is its
 * end tag's end; else the offset where its end was implied (the token that closed it, or the end of
 * input: `_endTagStart === _endTagEnd`); else, for an element no token closed, its start tag's end —
 * each as parse5 sets it.
 */
export function locate(node: LocatedNode, source: SourceText): NodeSourceLocation {
  const start = node._start;
  const end = node._end;
  if (node.nodeType !== 1) return { start, end, ...source.span(start, end) };
  const startTag: StartTagSourceLocation = source.span(start, end);
  const attrs = source.attributes(start, end);
  if (attrs !== null) startTag.attrs = attrs;
  const tagStart = node._endTagStart ?? -1;
  const tagEnd = node._endTagEnd ?? -1;
  const hasEndTag = tagStart >= 0 && tagEnd > tagStart;
  const endOffset = tagStart < 0 ? end : tagEnd;
  const location: NodeSourceLocation = { start, end, ...source.span(start, endOffset), startTag };
  if (attrs !== null) location.attrs = attrs;
  if (hasEndTag) location.endTag = source.span(tagStart, tagEnd);
  return location;
}
