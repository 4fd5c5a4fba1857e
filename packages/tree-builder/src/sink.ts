/**
 * The tree sink: where the tree builder sends its DOM mutation events (WHATWG HTML §13.2.6).
 *
 * The tree builder never builds a tree. It calls these methods, synchronously and in the order the
 * standard performs the operations, and refers to nodes only through the handles the sink returns.
 * The methods are named after the DOM operations the standard's tree construction uses.
 */

import type { StartTagClass, TextToken } from '@sluice/tokenizer';

/** Namespaces (Infra §"Namespaces"). */
export const NS = {
  HTML: 'http://www.w3.org/1999/xhtml',
  MATHML: 'http://www.w3.org/1998/Math/MathML',
  SVG: 'http://www.w3.org/2000/svg',
  XLINK: 'http://www.w3.org/1999/xlink',
  XML: 'http://www.w3.org/XML/1998/namespace',
  XMLNS: 'http://www.w3.org/2000/xmlns/',
} as const;

export type Namespace = (typeof NS)[keyof typeof NS];

/** The namespaces an element can be created in by the HTML parser. */
export type ElementNamespace = typeof NS.HTML | typeof NS.SVG | typeof NS.MATHML;

/**
 * An attribute as it goes onto an element. For HTML elements `namespace` and `prefix` are null and
 * `name === localName`. Foreign content adjusts some (§13.2.6.1 "adjust foreign attributes"):
 * `xlink:href` has namespace XLINK, prefix `xlink`, localName `href`.
 */
export interface ElementAttribute {
  /** The qualified name, e.g. `class`, `xlink:href`. */
  readonly name: string;
  readonly value: string;
  readonly namespace: Namespace | null;
  readonly prefix: string | null;
  readonly localName: string;
}

/** Where a node came from: `[start, end)` offsets into the input, in UTF-16 code units. */
export interface SourceLocation {
  readonly start: number;
  readonly end: number;
}

/** The document's mode (DOM §"concept-document-mode"), set from the DOCTYPE (§13.2.6.4.1). */
export type DocumentMode = 'no-quirks' | 'quirks' | 'limited-quirks';

/**
 * A sink for the tree builder's mutation events. `N` is the sink's node handle.
 *
 * Nodes are created detached and then inserted. `insertBefore` follows DOM semantics: inserting a node
 * that already has a parent moves it (the adoption agency algorithm and foster parenting rely on this).
 */
export interface TreeSink<N> {
  /** The Document (or, for fragment parsing, whatever node stands in for it). */
  readonly document: N;

  /** Create an element (§13.2.6.1 "create an element for a token"). `location` spans its start tag. */
  createElement(
    localName: string,
    namespace: ElementNamespace,
    attributes: readonly ElementAttribute[],
    location: SourceLocation | null,
  ): N;
  /**
   * Optional: create a copy of `original` — "an element for the token for which `original` was
   * created", which reconstructing the active formatting elements (§13.2.4.3) and the adoption agency
   * algorithm (§13.2.6.4.7) make. The arguments are `createElement`'s, which a sink without this method
   * is called with instead. A sink that must tell copies apart takes it (the rewriter: a browser makes a
   * copy from the original's start tag as written, so the copy cannot be changed on its own).
   * `reason` says which algorithm makes it: `'reconstruction'` (§13.2.4.3, while a start tag or text is
   * processed) or `'adoption-agency'` (§13.2.6.4.7, steps 4.13.6 and 4.15).
   */
  createElementCopy?(
    original: N,
    localName: string,
    namespace: ElementNamespace,
    attributes: readonly ElementAttribute[],
    location: SourceLocation | null,
    reason?: CopyReason,
  ): N;
  /**
   * Optional: create an HTML element whose attributes are still source text. `rawTag` is the start tag's
   * exact text (the tokenizer token's `raw`, `<` to `>`); `attributesOfRawTag(rawTag)` from
   * `@sluice/tokenizer` decodes it to exactly the list `createElement` would have been given.
   *
   * A sink that has it is called with it instead of `createElement` for HTML elements whose attributes
   * the tree-construction rules never read (anything but the formatting elements and the few start tags
   * whose rules look at attributes), while the token's attributes are not decoded yet: a sink that may
   * never look at them (a DOM whose user reads few attributes) then neither decodes nor keeps them until
   * asked. A sink without it gets `createElement` for every element.
   */
  createElementWithRawAttributes?(localName: string, rawTag: string, location: SourceLocation | null): N;
  /**
   * @internal Optional: `createElementWithRawAttributes` with the start tag token itself (whose `raw` is
   * then not sliced unless the sink reads it); called instead of it when a sink has both.
   */
  createElementForStartTag?(localName: string, tag: StartTagClass, location: SourceLocation | null): N;
  /**
   * @internal Optional: `createElementForStartTag(localName, tag, { start: tag.start, end: tag.end })`
   * without the location object (the element's location is the tag's span), for an element whose record
   * never needs its location (anything but a formatting element: only those are copied). Called instead
   * of the other two when a sink has it. One object fewer per element parsed.
   */
  createElementFromStartTag?(localName: string, tag: StartTagClass): N;
  createComment(data: string, location: SourceLocation | null): N;
  createDocumentType(name: string, publicId: string, systemId: string, location: SourceLocation | null): N;

  /**
   * Insert characters (§13.2.6.1 "insert a character"): if the node immediately before `before` in
   * `parent` (its last child, when `before` is null) is a Text node, append `data` to it; otherwise
   * insert a new Text node holding `data` there.
   */
  insertText(parent: N, data: string, before: N | null, location: SourceLocation | null): void;

  /**
   * Optional: insert a whole text token's characters, less any U+0000, as the last child of `parent` —
   * what `insertText(parent, token.value.replaceAll('\0', ''), null, { start: token.start, end:
   * token.start + token.raw.length })` would do. ("In body" drops each NUL, §13.2.6.4.7; elsewhere a
   * value has none.) A sink that has it gets it, instead of `insertText`, for text the tree builder
   * inserts in one piece at the end of the current node (the usual cases: text "in body", in the modes
   * that use its rules for text, and in the "text" insertion mode; whitespace "in head"); it reads `token.value` only if it needs the characters, so a sink that needs
   * just where text went (a rewriter's view) decodes none of it.
   */
  insertTextToken?(parent: N, token: TextToken): void;

  /** Insert `node` into `parent` before `before`, or append it when `before` is null (DOM insertBefore). */
  insertBefore(parent: N, node: N, before: N | null): void;

  /** Remove `node` from its parent, if it has one. */
  remove(node: N): void;

  /** Move every child of `from`, in order, to the end of `to`. */
  moveChildren(from: N, to: N): void;

  /** The parent of `node`, or null. (Foster parenting asks whether the table still has a parent.) */
  parentNode(node: N): N | null;

  /** For each attribute whose name the element does not have yet, add it (`<html>`/`<body>` merging). */
  addMissingAttributes(element: N, attributes: readonly ElementAttribute[]): void;

  /** Set the document's mode: quirks, limited-quirks or no-quirks. */
  setDocumentMode(mode: DocumentMode): void;

  /** The template contents (a DocumentFragment) of a `<template>` element created by this sink. */
  templateContents(template: N): N;

  /**
   * The element was popped off the stack of open elements. `endLocation` spans the end tag that closed
   * it, when an end tag token matched it; null when it was closed implicitly or at EOF. `at`: the offset
   * of the token being processed when it was popped — where its end was implied (the end of input for
   * the elements open at the end, when the tree builder is told it, as `Parser` does) — or -1 for an
   * element that no token closed (the adoption agency replaced it on the stack with its copy); the tree
   * builder always passes it (a replayed recording may not). `openAbove`: it was taken from under elements
   * that stay open (the adoption agency algorithm's inner loop and its formatting element, an `<a>` that
   * finds one open, `</form>`: §13.2.6.4.7), not popped off the top. Optional.
   */
  elementPopped?(element: N, endLocation: SourceLocation | null, at?: number, openAbove?: boolean): void;
  /**
   * @internal Optional: `elementPopped(element, { start: endStart, end: endEnd }, at)` without the
   * location object, for an element its own end tag closed when it was the current node (most end tags
   * of a page). Called instead of `elementPopped` there when a sink has it.
   */
  elementClosedByEndTag?(element: N, endStart: number, endEnd: number, at: number): void;

  /**
   * Optional: the input's text, as the tokenizer gets it, chunk after chunk, before it is tokenized
   * (`Parser` calls it; decoded text for bytes in, where offsets count from after the byte order mark).
   * The offsets of the locations the sink is given are offsets into the concatenation of these chunks:
   * a sink that wants lines and columns (the DOM's `sourceLocations`) counts them from here.
   */
  sourceText?(text: string): void;

  /**
   * Optional: an end tag the tree builder accepted for an element it keeps open — `</body>` ("in body":
   * switch to "after body", §13.2.6.4.7) and `</html>` ("after body", "after frameset": switch to "after
   * after body" / "after after frameset"); both elements stay on the stack of open elements to the end.
   * `location` spans the end tag. (A `</html>` seen "in body" is reprocessed "after body": it comes here
   * once, for the root.)
   */
  endTagKeptOpen?(element: N, location: SourceLocation | null): void;

  /**
   * Optional: `element`'s entry left the list of active formatting elements (§13.2.4.3) while the element
   * was not closed by it — so that a later token will not copy it, though nothing in the tree changed:
   * - `'not-open'`: the adoption agency algorithm found it as the formatting element while it was no
   *   longer on the stack of open elements (§13.2.6.4.7 step 4.4: "remove the element from the list");
   * - `'noahs-ark'`: pushing an equal element removed it, the earliest of three (§13.2.4.3 "push onto the
   *   list of active formatting elements", step 2); it may still be open.
   * A consumer that keeps a second parser in step with this one (the rewriter: what a browser reading
   * its output does) needs to know; a DOM does not.
   */
  activeFormattingElementDropped?(element: N, reason: 'not-open' | 'noahs-ark'): void;

  /**
   * Optional: the adoption agency algorithm's inner loop took `element`'s entry off the list of active
   * formatting elements because its inner loop counter was past three (§13.2.6.4.7 step 4.13.4), and
   * then took the element off the stack of open elements (4.13.5) — where, three iterations earlier, it
   * would have copied it (4.13.6). `passed[0]` to `passed[count - 1]`: the elements the loop visited
   * before it in this pass, from the one right above the furthest block up (the elements as they were
   * on the stack, not the copies 4.13.6 made of them); their number is what put the counter past three.
   * The array is the algorithm's own for the pass: it grows after the call (by the element, and those
   * visited after it), and those `count` entries never change — read them, or copy them, never keep
   * `passed.length`. (One array a pass: a pass past thousands of entries tells each without a copy.)
   * Called before the element leaves the stack. A consumer that keeps a second parser in step with
   * this one (the rewriter: a browser reading output without some of those elements counts fewer, and
   * copies the element instead) needs to know; a DOM does not.
   */
  adoptionAgencyDroppedPastThree?(element: N, passed: readonly N[], count: number): void;
}

/** Which algorithm made a copy of a formatting element (`TreeSink.createElementCopy`). */
export type CopyReason = 'reconstruction' | 'adoption-agency';
