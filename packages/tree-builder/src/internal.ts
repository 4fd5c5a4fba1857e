/**
 * `@sluice/tree-builder/internal`: NOT public API. The members of `TreeBuilder` and `TreeSink` that
 * sluice's rewriter uses and users do not see — the published declarations are built with
 * `stripInternal`, so `@internal` members are absent from `@sluice/tree-builder`'s types. Importing this
 * module (for types: `import type {} from '@sluice/tree-builder/internal'`) puts them back through
 * declaration merging, for sluice's own packages only. It may change in any release; see
 * docs/architecture.md, "Public and internal".
 *
 * Each member is declared here with the same type as in the class or interface; this package's build
 * type-checks the two against each other, so this file cannot drift from them.
 */
// The tree builder reads the tokenizer's internal token fields (`end`, `source`, `offset`): this import
// brings them into this package's build, and into the build of any package that imports this module.
import type {} from '@sluice/tokenizer/internal';
import type { EndTagClass, StartTagClass, TextTokenClass } from '@sluice/tokenizer';
import type { SourceLocation } from './sink.js';
import type { ActiveFormattingListener } from './active-formatting-elements.js';

declare module './tree-builder.js' {
  interface TreeBuilder<N> {
    /**
     * `processToken` for a caller that has already told the token classes apart (the rewriter's
     * transformer branches on them anyway): one of the tokenizer's text tokens.
     */
    processTextToken(token: TextTokenClass): void;
    /** `processToken` for one of the tokenizer's start tag tokens (see `processTextToken`). */
    processStartTagToken(token: StartTagClass): void;
    /** `processToken` for one of the tokenizer's end tag tokens (see `processTextToken`). */
    processEndTagToken(token: EndTagClass): void;
    /**
     * The elements "reconstruct the active formatting elements" would copy if it ran now (§13.2.4.3):
     * the entries at the end of the list, after the last marker, whose elements are not open; in list
     * order. (The rewriter: what a parser reading its output would reconstruct.)
     */
    activeFormattingTail(): N[];
    /** The open element right before `activeFormattingTail`'s entries (null: a marker or the list's start). */
    activeFormattingTailBoundary(): N | null;
    /** The open elements from the current node down, while `visit` returns true. */
    forEachOpenElementFromTop(visit: (node: N) => boolean): void;
    /**
     * Before a tag or text named `name` is processed: the open elements from the current node down, each
     * with whether the dispatcher would use the insertion mode's rules were it the adjusted current node
     * (§13.2.6), while `visit` returns true.
     */
    forEachDispatchFromTop(kind: 'start' | 'end' | 'text', name: string, visit: (node: N, insertionMode: boolean) => boolean): void;
    /** Whether the adjusted current node is an element in the HTML namespace (or there is none). */
    adjustedCurrentNodeIsHtml(): boolean;
    /**
     * `activeFormattingTail` continued across markers: segments from the last marker back, each in list
     * order, up to an open entry.
     */
    activeFormattingSegments(): N[][];
    /** Whether the insertion mode is "after body" or "after after body" (§13.2.6.4.19, .21). */
    afterTheBody(): boolean;
    /** Called with each element pushed onto the list of active formatting elements, before Noah's Ark runs (§13.2.4.3). */
    onActiveFormattingPush(fn: ((node: N) => void) | null): void;
    /** The elements of the list of active formatting elements after its last marker, in list order; null when fewer than `atLeast`. */
    activeFormattingSinceMarker(atLeast: number): N[] | null;
    /** Tell `listener` of every change to the list of active formatting elements from now on (null: stop). */
    activeFormattingListener(listener: ActiveFormattingListener<N> | null): void;
    /** Every entry of the list of active formatting elements, in list order: the node (null: a marker) and the entry's seq. */
    forEachActiveFormattingEntry(visit: (node: N | null, seq: number) => void): void;
    /** The number of entries (markers included) in the list of active formatting elements. */
    activeFormattingLength(): number;
    /** Whether at least `k` entries follow the list's last marker (O(k)). */
    activeFormattingAtLeast(k: number): boolean;
    /** The element Noah's Ark removed in the last push; null when none. */
    noahsArkDropped(): N | null;
  }
}

declare module './sink.js' {
  interface TreeSink<N> {
    /**
     * Optional: `createElementWithRawAttributes` with the start tag token itself (whose `raw` is then not
     * sliced unless the sink reads it); called instead of it when a sink has both.
     */
    createElementForStartTag?(localName: string, tag: StartTagClass, location: SourceLocation | null): N;
    /**
     * Optional: `createElementForStartTag(localName, tag, { start: tag.start, end: tag.end })` without the
     * location object, for an element whose record never needs its location (not a formatting element).
     */
    createElementFromStartTag?(localName: string, tag: StartTagClass): N;
    /**
     * Optional: `elementPopped(element, { start: endStart, end: endEnd }, at)` without the location
     * object, for an element its own end tag closed when it was the current node.
     */
    elementClosedByEndTag?(element: N, endStart: number, endEnd: number, at: number): void;
  }
}

export {};
