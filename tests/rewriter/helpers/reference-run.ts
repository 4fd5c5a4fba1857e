/**
 * Parse with `@sluice/dom` while watching the tree builder: which elements each token made (its own
 * element for a start tag, and the elements the tree builder made up), what selectors match each at that
 * moment, and whether the tree later changed in ways a stream cannot see coming (elements moved,
 * inserted before an existing sibling, removed, attributes merged in).
 *
 * Elements are identified by a key the rewriter's handlers can give too (`keyOfUnit`): the offset of the
 * start tag for an element that has one; for an implied element, the offset of the token that made it
 * (the input's length at its end) and its local name. Text comes in more than one token where a chunk
 * boundary falls in it: pass the chunks the rewriter was given, so that the tokens are the same.
 */
import { Tokenizer, type Token } from '@sluice/tokenizer';
import { TreeBuilder, type ElementAttribute, type ElementNamespace, type SourceLocation } from '@sluice/tree-builder';
import { Document, DomTreeSink, Element, type Node } from '@sluice/dom';
import type { Element as ElementUnit, SelectorList } from '@sluice/rewriter';
import { querySelectorAll, refMatchesList } from './reference-query.js';

class WatchingSink extends DomTreeSink {
  /** Set when the tree changed after the fact in a way that can change earlier elements' matches: the first reason. */
  late: string | null = null;
  /** Every reason seen. */
  readonly reasons = new Set<string>();
  created: Element[] = [];
  /** The token being processed (null: the end of the input). */
  token: Token | null = null;
  endOffset = 0;
  readonly keyOf = new Map<Element, string>();

  private note(reason: string): void {
    this.late ??= reason;
    this.reasons.add(reason);
  }

  override createElement(localName: string, namespace: ElementNamespace, attributes: readonly ElementAttribute[], location: SourceLocation | null): Element {
    const el = super.createElement(localName, namespace, attributes, location);
    this.created.push(el);
    const t = this.token;
    const own = t !== null && t.type === 'startTag' && location !== null && location.start === t.start;
    this.keyOf.set(el, own ? String(t.start) : `${t === null ? this.endOffset : t.start}+${localName}`);
    return el;
  }
  override insertBefore(parent: Node, node: Node, before: Node | null): void {
    if (node instanceof Element && node.parentNode !== null) this.note('moved');
    if (node instanceof Element && before !== null) this.note('inserted before a sibling');
    super.insertBefore(parent, node, before);
  }
  override remove(node: Node): void {
    if (node instanceof Element) this.note('removed');
    super.remove(node);
  }
  override moveChildren(from: Node, to: Node): void {
    this.note('children moved');
    super.moveChildren(from, to);
  }
  override addMissingAttributes(element: Node, attributes: readonly ElementAttribute[]): void {
    const el = element as Element;
    if (attributes.some((a) => !el.hasAttribute(a.name))) this.note('attributes merged');
    super.addMissingAttributes(element, attributes);
  }
}

function inDocument(el: Element): boolean {
  let n: Node | null = el;
  while (n !== null && !(n instanceof Document)) n = n.parentNode;
  return n !== null;
}

/** The key of the element a handler received (see the file comment). */
export function keyOfUnit(el: ElementUnit): string {
  return el.implied ? `${el.sourceOffset}+${el.tagName}` : String(el.sourceOffset);
}

/** What the reference says for `input` and each selector list. */
export interface ReferenceResult {
  /** Per selector: offsets of the start-tag elements matching when their start tag was processed. */
  atTime: number[][];
  /** Per selector: offsets of the start-tag elements `querySelectorAll` returns on the final DOM. */
  final: number[][];
  /**
   * Per selector: keys of all elements — implied ones included — matching when the token that made
   * them was processed, in the order the tree builder made them.
   */
  atTimeAll: string[][];
  /** Per selector: keys of the elements `querySelectorAll` returns on the final DOM, sorted. */
  finalAll: string[][];
  /** Null when the final DOM agrees with the DOM at each start tag; else what changed first. */
  late: string | null;
  /** Everything that changed after the fact. */
  reasons: ReadonlySet<string>;
  /** The key of each element of the document. */
  keyOf: ReadonlyMap<Element, string>;
  document: Document;
}

export function referenceRun(source: string | readonly string[], selectors: readonly SelectorList[], scripting = true): ReferenceResult {
  const chunks = typeof source === 'string' ? [source] : source;
  const input = chunks.join('');
  const sink = new WatchingSink();
  sink.document.scriptingEnabled = scripting;
  sink.endOffset = input.length;
  let builder: TreeBuilder<Node> | null = null;
  const tokenizer = new Tokenizer({ autoTextMode: false, cdataAllowed: () => builder !== null && builder.cdataAllowed() });
  const tb = new TreeBuilder<Node>(sink, tokenizer, { scripting });
  builder = tb;
  const atTime: number[][] = selectors.map(() => []);
  const atTimeAll: string[][] = selectors.map(() => []);
  const originals = new Set<Element>();
  const made = (token: Token | null, before: number): void => {
    const quirks = sink.document.mode === 'quirks';
    for (const el of sink.created.slice(before)) {
      if (!inDocument(el)) continue;
      const own = token !== null && token.type === 'startTag' && el.sourceLocation !== null && el.sourceLocation.start === token.start;
      if (own) originals.add(el);
      selectors.forEach((list, i) => {
        if (!refMatchesList(list, el, quirks)) return;
        atTimeAll[i]!.push(sink.keyOf.get(el)!);
        if (own) atTime[i]!.push(token.start);
      });
    }
  };
  const emit = (token: Token): void => {
    const before = sink.created.length;
    sink.token = token;
    tb.processToken(token);
    made(token, before);
  };
  for (const chunk of chunks) tokenizer.write(chunk, emit);
  tokenizer.end(emit);
  const before = sink.created.length;
  sink.token = null;
  tb.processEnd();
  made(null, before);
  const final = selectors.map((list) =>
    querySelectorAll(sink.document, list)
      .filter((el) => originals.has(el))
      .map((el) => el.sourceLocation!.start)
      .sort((a, b) => a - b),
  );
  const finalAll = selectors.map((list) => querySelectorAll(sink.document, list).map((el) => sink.keyOf.get(el)!).sort());
  return { atTime, final, atTimeAll, finalAll, late: sink.late, reasons: sink.reasons, keyOf: sink.keyOf, document: sink.document };
}
