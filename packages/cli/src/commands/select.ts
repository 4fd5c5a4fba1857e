/**
 * `sluice select SELECTOR`: the elements a selector matches in the tree a browser builds — one a line,
 * as outer HTML, text, an attribute's value, or a count.
 *
 * Where the selector can be decided when the start tag arrives, the matching is the rewriter's
 * (`HTMLRewriter`, which matches on the tree builder's real tree) and the input streams: `--count` and
 * `--attr` need nothing more. For outer HTML and `--text`, a second parser builds the DOM beside the
 * rewriter, keeping only the subtrees of matched elements (see {@link SelectSink}); each match is
 * written when its element is closed — the moment its subtree is final — so the outer HTML is the
 * serialization of the browser's tree, what `serializeOuter` gives on the whole document's DOM.
 * Any other selector (`:last-child`, `:has()`, …, which the rewriter refuses at `.on()`) is answered
 * by `document.querySelectorAll` on the whole DOM, after the input has been read.
 */
import { Parser } from '@sluice/tree-builder';
import { HtmlDecoder } from '@sluice/encoding';
import { Document, DomTreeSink, NodeType, serializeOuter, type Element, type Node } from '@sluice/dom';
import { HTMLRewriter, type Element as RewriterElement } from '@sluice/rewriter';
import { NS, type ElementAttribute, type ElementNamespace, type SourceLocation } from '@sluice/tree-builder';
import { UsageError } from '../args.js';
import { byteRewritable, type Input } from '../input.js';
import { readChunks, readDecoded, type Context } from './context.js';

/** HTML §13.2.4.3: the formatting elements, which the adoption agency algorithm copies and moves around. */
const FORMATTING = new Set(['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u']);

export type SelectOutput = { kind: 'outer' } | { kind: 'text' } | { kind: 'attr'; name: string } | { kind: 'count' };

export interface SelectOptions {
  chunkSize: number;
  encoding: string | undefined;
  scripting: boolean;
  output: SelectOutput;
  first: boolean;
  /** Each result as a JSON string literal (so a result with newlines stays on its line). */
  json: boolean;
  /** Force the DOM path (for tests and comparison). */
  dom: boolean;
}

/**
 * Whether the rewriter can decide `selector` at the start tag (it refuses the others at `.on()`, with a
 * message naming the part); a selector that is no selector at all is a usage error.
 */
export function streamable(selector: string): boolean {
  try {
    new HTMLRewriter().on(selector, {});
    return true;
  } catch {
    return false;
  }
}

export async function selectCommand(ctx: Context, input: Input, selector: string, o: SelectOptions): Promise<number> {
  if (!o.dom && streamable(selector)) return selectStreaming(ctx, input, selector, o);
  // A selector that is no selector at all is a usage error before any input is read.
  querySelectorAllOf(new Document(), selector);
  return selectWithDom(ctx, input, selector, o);
}

/** `document.querySelectorAll(selector)`, a usage error naming the selector when it is not one. */
function querySelectorAllOf(document: Document, selector: string): Iterable<Element> {
  const qsa = (document as unknown as { querySelectorAll?: (s: string) => Iterable<Element> }).querySelectorAll;
  if (typeof qsa !== 'function') {
    throw new UsageError(`the selector ${JSON.stringify(selector)} cannot be decided while streaming, and this build of @sluice/dom has no querySelectorAll`, 'select');
  }
  try {
    return qsa.call(document, selector);
  } catch (error) {
    throw new UsageError(`${JSON.stringify(selector)}: ${(error as Error).message}`, 'select');
  }
}

function formatResult(value: string, json: boolean): string {
  return json ? JSON.stringify(value) : value;
}

/** The result for one DOM element, or null when it has none (`--attr` of an element without it). */
function resultOf(el: Element, output: SelectOutput): string | null {
  switch (output.kind) {
    case 'outer':
      return serializeOuter(el);
    case 'text':
      return el.textContent ?? '';
    case 'attr':
      return el.getAttribute(output.name);
    default:
      return null;
  }
}

/** Decodes the input (the standard's sniffing) and hands text to `onText`; stops when it returns true. */
async function readText(ctx: Context, input: Input, o: SelectOptions, onText: (text: string) => boolean | void, onEnd: () => void): Promise<boolean> {
  return (await readDecoded(ctx, input, o.chunkSize, o.encoding, onText, onEnd)).stopped;
}

async function selectWithDom(ctx: Context, input: Input, selector: string, o: SelectOptions): Promise<number> {
  const document = new Document();
  document.scriptingEnabled = o.scripting;
  // The decoder consumed a byte order mark: a U+FEFF in its text is text.
  const parser = new Parser<Node>(new DomTreeSink(document), { scripting: o.scripting, stripByteOrderMark: false });
  await readText(ctx, input, o, (text) => void parser.write(text), () => parser.end());
  const matches = querySelectorAllOf(document, selector);
  let count = 0;
  for (const el of matches) {
    if (o.output.kind === 'count') {
      count++;
      continue;
    }
    const r = resultOf(el, o.output);
    if (r === null) continue;
    count++;
    ctx.out.line(formatResult(r, o.json));
    if (ctx.out.full) await ctx.out.ready();
    if (o.first) break;
  }
  if (o.output.kind === 'count') ctx.out.line(String(o.first ? Math.min(count, 1) : count));
  return 0;
}

/**
 * What the streaming path feeds: bytes to the rewriter's byte path and to `Parser`'s (both sniff the
 * encoding alike, from the same options), the way `rewrite` reads; or, for input the byte path refuses
 * (UTF-16, ISO-2022-JP), text decoded here. Bytes make less garbage than two copies of decoded text: at
 * 1 GB, a peak RSS well under the 150 MB the strings path went past.
 */
interface Feed {
  write(chunk: Uint8Array): void;
  end(): void;
}

async function selectStreaming(ctx: Context, input: Input, selector: string, o: SelectOptions): Promise<number> {
  const out = ctx.out;
  const output = o.output;
  let count = 0;
  let done = false;
  const onlyRewriter = output.kind === 'count' || output.kind === 'attr';
  const rewriter = new HTMLRewriter({ scripting: o.scripting });
  // --count, --attr: the rewriter alone — what it gives at the start tag is the answer.
  // Outer HTML, --text: the rewriter says which elements match, a pruned DOM says what they hold.
  const seq: RewriterElement[] = [];
  const matched = new Set<RewriterElement>();
  if (onlyRewriter) {
    rewriter.on(selector, {
      element(el: RewriterElement) {
        if (done) return;
        if (output.kind === 'count') count++;
        else {
          const v = el.getAttribute(output.name);
          if (v === null) return;
          count++;
          out.line(formatResult(v, o.json));
        }
        if (o.first) done = true;
      },
    });
  } else {
    rewriter.on('*', { element: (el: RewriterElement) => void seq.push(el) }).on(selector, { element: (el: RewriterElement) => void matched.add(el) });
  }
  const document = new Document();
  document.scriptingEnabled = o.scripting;
  const sink = onlyRewriter
    ? null
    : new SelectSink(document, (el) => {
        if (done) return;
        const r = resultOf(el, output);
        if (r === null) return;
        out.line(formatResult(r, o.json));
        if (o.first) done = true;
      });
  const verdicts = (): void => {
    if (sink === null) return;
    for (const el of seq) sink.verdicts.push(matched.has(el));
    seq.length = 0;
    matched.clear();
    sink.pair();
  };
  let feed: Feed | null = null;
  await readChunks(
    ctx,
    input,
    o.chunkSize,
    (defaultEncoding, first) => {
      if (byteRewritable(first, o.encoding)) {
        const t = rewriter.createByteTransformer(() => {}, { encoding: o.encoding, defaultEncoding });
        const parser = sink === null ? null : new Parser<Node>(sink, { scripting: o.scripting, encoding: o.encoding, defaultEncoding });
        feed = {
          // The rewriter first: it says which of the elements this chunk makes match, before the DOM side makes them.
          write: (chunk) => {
            t.write(chunk);
            verdicts();
            parser?.write(chunk);
          },
          end: () => {
            t.end();
            verdicts();
            parser?.end();
          },
        };
      } else {
        const decoder = new HtmlDecoder({ encoding: o.encoding, defaultEncoding });
        const t = rewriter.createTransformer(() => {});
        // The decoder consumed a byte order mark: a U+FEFF in its text is text.
        const parser = sink === null ? null : new Parser<Node>(sink, { scripting: o.scripting, stripByteOrderMark: false });
        const text = (s: string): void => {
          if (s === '') return;
          t.write(s);
          verdicts();
          parser?.write(s);
        };
        feed = {
          write: (chunk) => text(decoder.write(chunk)),
          end: () => {
            text(decoder.end());
            t.end();
            verdicts();
            parser?.end();
          },
        };
      }
    },
    (chunk) => {
      feed!.write(chunk);
      return done;
    },
  );
  if (!done) (feed as Feed | null)!.end();
  if (output.kind === 'count') out.line(String(count));
  return 0;
}

/**
 * A `DomTreeSink` that keeps only what the matched elements hold. Every element is paired, in the
 * order the tree builder creates them, with the rewriter's verdict for it (the rewriter fires `*` on
 * every element but those in a template's contents, in the same order: both run the same tree builder
 * on the same text). Outside matched elements, text and comments are not inserted and a closed element
 * is detached, so the DOM holds the open elements and the matched subtrees only. A matched element is
 * handed to `onMatch` when it is closed — its subtree is final then (the tree builder changes only
 * open elements' children) — in the order the matches began.
 */
export class SelectSink extends DomTreeSink {
  /** The rewriter's verdicts, in creation order of the elements outside template contents. */
  readonly verdicts: boolean[] = [];
  private verdictAt = 0;
  /** Created elements not yet paired with a verdict (their place — template contents or not — unknown until inserted). */
  private readonly unpaired: Element[] = [];
  private readonly templateSide = new WeakSet<Node>();
  /** Matched elements still open. */
  private readonly live = new Set<Node>();
  /** Created, not yet known whether matched: treated as possibly matched. */
  private readonly unknown = new Set<Node>();
  /** Matches in the order they began; each written once closed, when all before it are. */
  private readonly results: { el: Element; closed: boolean }[] = [];
  private readonly pendingPops: Element[] = [];

  constructor(document: Document, private readonly onMatch: (el: Element) => void) {
    super(document);
  }

  /**
   * Open HTML formatting elements (§13.2.4.3). While one is open, the adoption agency algorithm
   * (§13.2.6.4.7) may move the children of an open element below it — closed elements and text
   * included — into a new copy of it, which a selector may match: what such an element holds is kept. (Every element that leaves the stack
   * is reported popped, the adoption agency's removals included.)
   */
  private readonly openFormatting = new Set<Node>();

  override createElement(localName: string, namespace: ElementNamespace, attributes: readonly ElementAttribute[], location: SourceLocation | null): Element {
    const el = super.createElement(localName, namespace, attributes, location);
    if (namespace === NS.HTML && FORMATTING.has(localName)) this.openFormatting.add(el);
    this.unpaired.push(el);
    this.unknown.add(el);
    return el;
  }

  /**
   * Whether what `parent` holds outside every match may be let go now: not when an open formatting
   * element is its ancestor, since then `parent` may be the adoption agency's furthest block, whose
   * children move into a copy (see {@link openFormatting}). A formatting element's own children, and
   * its ancestors', never move so.
   */
  private canDropUnder(parent: Node): boolean {
    if (this.openFormatting.size === 0) return true;
    for (let n = parent.parentNode; n !== null; n = n.parentNode) if (this.openFormatting.has(n)) return false;
    return true;
  }

  override insertBefore(parent: Node, node: Node, before: Node | null): void {
    if (node.nodeType === NodeType.ELEMENT_NODE) {
      super.insertBefore(parent, node, before);
      if (this.unknown.has(node) && !this.placed.has(node)) {
        this.placed.set(node, parent.nodeType === NodeType.DOCUMENT_FRAGMENT_NODE || this.templateSide.has(parent));
        if (this.placed.get(node) === true) this.templateSide.add(node);
        this.pair();
      }
      return;
    }
    if (this.inside(parent) || !this.canDropUnder(parent)) super.insertBefore(parent, node, before);
  }

  /** Whether each created element went into template contents, known once it is first inserted. */
  private readonly placed = new WeakMap<Node, boolean>();

  override insertText(parent: Node, data: string, before: Node | null, location: SourceLocation | null): void {
    if (this.inside(parent) || !this.canDropUnder(parent)) super.insertText(parent, data, before, location);
  }

  override elementPopped(element: Node, endLocation: SourceLocation | null): void {
    super.elementPopped(element, endLocation);
    const el = element as Element;
    this.openFormatting.delete(el);
    if (this.unknown.has(el)) this.pendingPops.push(el);
    else this.closed(el);
  }

  /** Pairs created elements with verdicts, in order, as far as their places are known. */
  pair(): void {
    const unpaired = this.unpaired;
    let i = 0;
    for (; i < unpaired.length; i++) {
      const el = unpaired[i]!;
      const inTemplate = this.placed.get(el);
      if (inTemplate === undefined) break;
      if (!inTemplate) {
        if (this.verdictAt >= this.verdicts.length) break;
        if (this.verdicts[this.verdictAt++]) {
          this.live.add(el);
          this.results.push({ el, closed: false });
        }
      }
      this.unknown.delete(el);
    }
    if (i > 0) unpaired.splice(0, i);
    if (this.verdictAt > 4096 && this.verdictAt === this.verdicts.length) {
      this.verdicts.length = 0;
      this.verdictAt = 0;
    }
    if (this.pendingPops.length > 0) {
      const pops = this.pendingPops.splice(0);
      for (const el of pops) {
        if (this.unknown.has(el)) this.pendingPops.push(el);
        else this.closed(el);
      }
    }
  }

  private closed(el: Element): void {
    if (this.live.delete(el)) {
      for (const r of this.results) if (r.el === el) r.closed = true;
      while (this.results.length > 0 && this.results[0]!.closed) this.onMatch(this.results.shift()!.el);
    }
    // Outside every match, a closed element is of no more use: let it go, and what came before it in
    // its parent (text, and what was kept while a formatting element was open).
    const parent = el.parentNode;
    if (parent !== null && !this.inside(parent) && this.canDropUnder(parent)) {
      for (let prev = el.previousSibling; prev !== null; prev = el.previousSibling) parent.removeChild(prev);
      parent.removeChild(el);
    }
  }

  /** Whether `node` is inside (or is) a matched or not yet decided element. */
  private inside(node: Node): boolean {
    if (this.live.size === 0 && this.unknown.size === 0) return false;
    for (let n: Node | null = node; n !== null; n = n.parentNode) {
      if (this.live.has(n) || this.unknown.has(n)) return true;
    }
    return false;
  }
}
