/**
 * Parse with `@sluice/dom` while watching the tree builder: which element each start tag made, what
 * selectors match it at that moment, and whether the tree later changed in ways a stream cannot see
 * coming (elements moved, inserted before an existing sibling, removed, attributes merged in).
 */
import { Tokenizer } from '@sluice/tokenizer';
import { TreeBuilder, type ElementAttribute, type ElementNamespace, type SourceLocation } from '@sluice/tree-builder';
import { Document, DomTreeSink, Element, type Node } from '@sluice/dom';
import type { SelectorList } from '@sluice/rewriter';
import { querySelectorAll, refMatchesList } from './reference-query.js';

class WatchingSink extends DomTreeSink {
  /** Set when the tree changed after the fact in a way that can change earlier elements' matches. */
  late: string | null = null;
  created: Element[] = [];

  override createElement(localName: string, namespace: ElementNamespace, attributes: readonly ElementAttribute[], location: SourceLocation | null): Element {
    const el = super.createElement(localName, namespace, attributes, location);
    this.created.push(el);
    return el;
  }
  override insertBefore(parent: Node, node: Node, before: Node | null): void {
    if (node instanceof Element && node.parentNode !== null) this.late ??= 'moved';
    if (node instanceof Element && before !== null) this.late ??= 'inserted before a sibling';
    super.insertBefore(parent, node, before);
  }
  override remove(node: Node): void {
    if (node instanceof Element) this.late ??= 'removed';
    super.remove(node);
  }
  override moveChildren(from: Node, to: Node): void {
    this.late ??= 'children moved';
    super.moveChildren(from, to);
  }
  override addMissingAttributes(element: Node, attributes: readonly ElementAttribute[]): void {
    const el = element as Element;
    if (attributes.some((a) => !el.hasAttribute(a.name))) this.late ??= 'attributes merged';
    super.addMissingAttributes(element, attributes);
  }
}

function inDocument(el: Element): boolean {
  let n: Node | null = el;
  while (n !== null && !(n instanceof Document)) n = n.parentNode;
  return n !== null;
}

/** What the reference says for `input` and each selector list. */
export interface ReferenceResult {
  /** Per selector: offsets of the start-tag elements matching when their start tag was processed. */
  atTime: number[][];
  /** Per selector: offsets of the start-tag elements `querySelectorAll` returns on the final DOM. */
  final: number[][];
  /** Null when the final DOM agrees with the DOM at each start tag; else what changed. */
  late: string | null;
  document: Document;
}

export function referenceRun(input: string, selectors: readonly SelectorList[], scripting = true): ReferenceResult {
  const sink = new WatchingSink();
  sink.document.scriptingEnabled = scripting;
  let builder: TreeBuilder<Node> | null = null;
  const tokenizer = new Tokenizer({ autoTextMode: false, cdataAllowed: () => builder !== null && builder.cdataAllowed() });
  const tb = new TreeBuilder<Node>(sink, tokenizer, { scripting });
  builder = tb;
  const atTime: number[][] = selectors.map(() => []);
  const originals = new Set<Element>();
  tokenizer.write(input, (token) => {
    const before = sink.created.length;
    tb.processToken(token);
    if (token.type !== 'startTag') return;
    const own = sink.created.slice(before).find((el) => el.sourceLocation !== null && el.sourceLocation.start === token.start);
    if (own === undefined || !inDocument(own)) return;
    originals.add(own);
    const quirks = sink.document.mode === 'quirks';
    selectors.forEach((list, i) => {
      if (refMatchesList(list, own, quirks)) atTime[i]!.push(token.start);
    });
  });
  tokenizer.end((token) => tb.processToken(token));
  tb.processEnd();
  const final = selectors.map((list) =>
    querySelectorAll(sink.document, list)
      .filter((el) => originals.has(el))
      .map((el) => el.sourceLocation!.start)
      .sort((a, b) => a - b),
  );
  return { atTime, final, late: sink.late, document: sink.document };
}
