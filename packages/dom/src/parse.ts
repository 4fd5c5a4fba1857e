/**
 * `parse` and `parseFragment`: HTML text to a sluice DOM, through the tree builder and `DomTreeSink`
 * (HTML §13.2 "Parsing HTML documents", §13.2.8 "Parsing HTML fragments").
 */
import type { EncodingChange } from '@sluice/encoding';
import { NS, Parser, type ElementNamespace, type FragmentContext, type ParseError } from '@sluice/tree-builder';
import type { Document } from './document.js';
import type { DocumentFragment } from './document-fragment.js';
import type { Element } from './element.js';
import { HTMLTemplateElement } from './element.js';
import { type Node, NodeType, nextInSubtree } from './node.js';
import { asciiLowercase } from './parent-node.js';
import { DomTreeSink } from './tree-sink.js';

/** Options for {@link parse} and {@link parseFragment}. */
export interface ParseOptions {
  /**
   * The scripting flag (HTML §13.2.2): whether `<noscript>` content is raw text (enabled) or parsed
   * markup (disabled). Default: true.
   */
  scripting?: boolean;
  /**
   * Whether a byte order mark (U+FEFF) that is the first character of `html` is skipped. Default: true for
   * {@link parse}, false for {@link parseFragment} — what a browser does (checked in Chromium): a page's
   * leading BOM is consumed by the decoder before tokenizing (HTML §13.2.3.1, Encoding Standard
   * "decode"), and `parse` stands for loading a page from text decoded with its BOM kept (Node's
   * `readFileSync(f, 'utf8')`); `innerHTML` (the fragment parsing algorithm, §13.2.8), `DOMParser` and
   * `document.write` are handed a string, not bytes, and keep a leading U+FEFF as text. Pass false to
   * `parse` for `DOMParser`'s tree. Source offsets count the BOM either way. See `ParserOptions`.
   */
  stripByteOrderMark?: boolean;
  /**
   * Bytes in: a `Content-Type` header value; its charset is the transport layer's encoding (HTML
   * §13.2.3.2 step 4; confidence certain). Ignored for a string.
   */
  contentType?: string;
  /**
   * Bytes in: an encoding label that overrides the sniffing (HTML §13.2.3.2 step 2; confidence certain) —
   * all but a byte order mark, which the standard puts first. A RangeError for a string that is no label.
   */
  encoding?: string;
  /** Bytes in: the label used when nothing else names an encoding (step 8). Default: windows-1252. */
  defaultEncoding?: string;
  /**
   * Every parse error (HTML §13.2.2), the tokenizer's and the tree builder's, each once, in the order the
   * standard raises them: `{ code, offset, line, col }` (1-based line and column in UTF-16 code units, as
   * parse5 gives them), plus `byteOffset` for bytes in. Never thrown: bad HTML still parses. See
   * docs/parsing.md "Parse errors" for the codes. When a `<meta>` makes `parse` start again in another
   * encoding, only the second parse's errors are reported.
   */
  onParseError?: (error: ParseError) => void;
  /**
   * Give every parsed node parse5's source locations in `sourceLocation` (`startLine`, `startCol`,
   * `startOffset`, `endLine`, `endCol`, `endOffset`; an element's `startTag`, `endTag`, `attrs`; for bytes
   * in, `startByteOffset` and `endByteOffset` too), equal to what `parse5.parse(html, {
   * sourceCodeLocationInfo: true })` gives (docs/parsing.md "Source locations"). Default false: nodes keep
   * their `{ start, end }` offsets only, and the parse does nothing more.
   */
  sourceLocations?: boolean;
}

/**
 * Parse a whole HTML document, from a string or from bytes. Every input parses (HTML §13.2: bad input is
 * not an error). A string is the page's text: a leading byte order mark is skipped, as a browser loading
 * the page does (see {@link ParseOptions.stripByteOrderMark}), and `characterSet` is 'UTF-8'. Bytes are
 * decoded as a browser decodes a page (HTML §13.2.3; docs/encoding.md): BOM, `options.encoding`, the
 * charset of `options.contentType`, the `<meta>` prescan of the first 1024 bytes, the default — and when
 * a later `<meta>` asks for another encoding while the confidence is tentative, the bytes are parsed
 * again in it ("change the encoding", §13.2.3.4 step 6, as browsers restart the navigation).
 */
export function parse(html: string | Uint8Array, options?: ParseOptions): Document {
  if (typeof html === 'string') return parseWith(html, options, {}, null).document;
  if (!(html instanceof Uint8Array)) throw new TypeError(`parse: expected a string or a Uint8Array, got ${typeof html}`);
  // The first pass's errors wait: they belong to a parse thrown away if a <meta> makes it start again.
  const held: ParseError[] | null = options?.onParseError === undefined ? null : [];
  const first = parseWith(html, options, byteOptions(options), held);
  if (first.change?.action !== 'reparse') {
    if (held !== null) for (const e of held) options!.onParseError!(e);
    return first.document;
  }
  // §13.2.3.4 step 6: start again "with the encoding set to the new encoding and the confidence certain".
  return parseWith(html, options, { encoding: first.change.to }, null).document;
}

function parseWith(
  input: string | Uint8Array,
  options: ParseOptions | undefined,
  bytes: { contentType?: string; encoding?: string; defaultEncoding?: string },
  held: ParseError[] | null,
): { document: Document; change: EncodingChange | null } {
  const scripting = options?.scripting ?? true;
  const locations = sourceLocationsOption(options);
  const sink = new DomTreeSink(undefined, locations ? { sourceLocations: true } : {});
  const doc = sink.document;
  doc.scriptingEnabled = scripting;
  const byteOffsets = locations && typeof input !== 'string';
  const parser = new Parser(sink, { scripting, ...bomOption(options), ...bytes, ...errorOption(options, held), ...(byteOffsets ? { byteOffsets } : {}) });
  parser.write(input);
  parser.end();
  if (byteOffsets && sink.source !== null) sink.source.byteOffsets = parser.byteOffsets;
  if (parser.encoding !== null) doc._encoding = parser.encoding;
  return { document: doc, change: parser.encodingChange };
}

/** `options.sourceLocations`, checked. */
function sourceLocationsOption(options: ParseOptions | undefined): boolean {
  const on = options?.sourceLocations;
  if (on !== undefined && typeof on !== 'boolean') throw new TypeError('parse: options.sourceLocations must be a boolean');
  return on === true;
}

/** `onParseError`, when given; into `held` instead when that is an array (see `parse`). */
function errorOption(
  options: ParseOptions | undefined,
  held: ParseError[] | null,
): { onParseError?: (error: ParseError) => void } {
  const report = options?.onParseError;
  if (report === undefined) return {};
  if (typeof report !== 'function') throw new TypeError('parse: options.onParseError must be a function');
  return { onParseError: held === null ? report : (e) => void held.push(e) };
}

/** The byte options of {@link ParseOptions} that were given. */
function byteOptions(options: ParseOptions | undefined): { contentType?: string; encoding?: string; defaultEncoding?: string } {
  const out: { contentType?: string; encoding?: string; defaultEncoding?: string } = {};
  if (options?.contentType !== undefined) out.contentType = options.contentType;
  if (options?.encoding !== undefined) out.encoding = options.encoding;
  if (options?.defaultEncoding !== undefined) out.defaultEncoding = options.defaultEncoding;
  return out;
}

/**
 * Parse `html` as the contents of a context element (HTML §13.2.8, what `innerHTML` does) and return the
 * resulting nodes in a DocumentFragment.
 *
 * `context` is an Element (its local name, namespace, attributes and its document's mode are used, and
 * the new nodes are given its document as their owner), or a string: an HTML tag name (`'div'`,
 * `'td'`; ASCII-lowercased), or a namespace designator and a local name as in the html5lib tests
 * (`'svg path'`, `'math mi'`). Throws an Error for a context it cannot use.
 *
 * Without a context (`parseFragment(html)`, `parseFragment(html, options)`), a `<template>` is the
 * context, as parse5's `parseFragment(html)` has it: the "in template" insertion mode takes any content
 * where it stands — table parts (`<td>`, `<tr>`), `<col>`, head elements, text — so the fragment holds
 * what the markup says, which no other context does (a `<div>` would drop a bare `<td>`'s tag).
 */
export function parseFragment(html: string, context?: string | Element | ParseOptions, options?: ParseOptions): DocumentFragment {
  if (context === undefined || (typeof context === 'object' && context !== null && !('nodeType' in context))) {
    // `parseFragment(html, options?)`: the template context.
    if (options !== undefined) throw new TypeError('parseFragment: options come second when no context is given (parseFragment(html, options))');
    options = context as ParseOptions | undefined;
    context = 'template';
  }
  const scripting = options?.scripting ?? true;
  const fragmentContext = resolveContext(context);
  const sink = new DomTreeSink(undefined, sourceLocationsOption(options) ? { sourceLocations: true } : {});
  const doc = sink.document;
  doc.scriptingEnabled = scripting;
  if (fragmentContext.documentMode !== undefined) doc.mode = fragmentContext.documentMode;
  const parser = new Parser(sink, { scripting, fragmentContext, ...bomOption(options), ...errorOption(options, null) });
  parser.write(html);
  parser.end();
  // §13.2.8 step 13 (and the tree builder's contract): the result is the children of the root `html`.
  const root = doc.documentElement;
  const fragment = doc.createDocumentFragment();
  if (root !== null) moveAll(root, fragment);
  if (typeof context !== 'string' && context.ownerDocument !== null) adopt(fragment, context.ownerDocument);
  return fragment;
}

/** `options.stripByteOrderMark` for the Parser, when given (else the Parser's default: documents strip, fragments keep). */
function bomOption(options: ParseOptions | undefined): { stripByteOrderMark?: boolean } {
  const strip = options?.stripByteOrderMark;
  return strip === undefined ? {} : { stripByteOrderMark: strip };
}

/** Turn the `context` argument of {@link parseFragment} into the tree builder's FragmentContext. */
export function resolveContext(context: string | Element): FragmentContext {
  if (typeof context === 'string') {
    const space = context.indexOf(' ');
    let namespace: ElementNamespace = NS.HTML;
    let localName = context;
    if (space >= 0) {
      const designator = context.slice(0, space);
      if (designator === 'svg') namespace = NS.SVG;
      else if (designator === 'math') namespace = NS.MATHML;
      else {
        throw new Error(
          `parseFragment: invalid context ${JSON.stringify(context)}: a namespace designator must be "svg" or "math"`,
        );
      }
      localName = context.slice(space + 1);
    } else {
      localName = asciiLowercase(context);
    }
    if (localName === '' || /[\t\n\f\r \0/>]/.test(localName)) {
      throw new Error(`parseFragment: invalid context ${JSON.stringify(context)}: expected a tag name like "div" or "svg path"`);
    }
    return { localName, namespace };
  }
  if (context === null || typeof context !== 'object' || context.nodeType !== NodeType.ELEMENT_NODE) {
    throw new Error('parseFragment: the context must be a tag name string or an Element');
  }
  const ns = context.namespaceURI;
  if (ns !== NS.HTML && ns !== NS.SVG && ns !== NS.MATHML) {
    throw new Error(
      `parseFragment: the context element <${context.localName}> is in namespace ${String(ns)}; the HTML parser needs HTML, SVG or MathML`,
    );
  }
  const doc = context.ownerDocument;
  return {
    localName: context.localName,
    namespace: ns,
    attributes: context._attrs,
    ...(doc !== null ? { documentMode: doc.mode } : {}),
  };
}

function moveAll(from: Node, to: Node): void {
  let c = from._first;
  while (c !== null) {
    const next = c._next;
    to._insertBefore(c, null);
    c = next;
  }
}

/** Give every node of `root` (template contents included) `doc` as its owner document. Iterative. */
function adopt(root: Node, doc: Document): void {
  const pending: Node[] = [root];
  while (pending.length > 0) {
    const top = pending.pop()!;
    top._owner = doc;
    for (let n = top._first; n !== null; n = nextInSubtree(n, top)) {
      n._owner = doc;
      if (n instanceof HTMLTemplateElement) pending.push(n.content);
    }
  }
}
