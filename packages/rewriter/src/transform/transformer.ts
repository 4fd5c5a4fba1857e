/**
 * `Transformer`: one rewrite of one document. Strings in, strings out, through the tokenizer, the tree
 * builder (into the rewriter's own view, `ViewSink`) and the handlers. This file routes each token and
 * reads what the tree builder did with it; the units it hands that to have one job each:
 * `text-placement.ts` (where text goes), `implied-elements.ts` (elements the tree builder made up),
 * `elements.ts` (elements' starts and ends, copies), `limits.ts` (options, the buffer bound), and
 * `executor.ts` (phase B).
 *
 * Two phases run per token:
 * - A (synchronous, inside `Tokenizer.write`): the tree builder processes the token; the view records
 *   where it put things; the token becomes one or more *ops* (copy raw text, run element handlers, …)
 *   whose handler lists are decided now, from the tree as it stands at this token.
 * - B (executor.ts): ops are executed in order. While no handler has returned a promise this happens at once, inside
 *   phase A; when one has, later ops queue up until it settles (so order is kept), and `write()` returns a
 *   promise. Output is released at the end of every `write()` and before every wait.
 *
 * Everything a handler did not touch is copied from the tokens' `raw` text, so passthrough is exact.
 *
 * Elements the tree builder makes up (implied `<body>`, `<tbody>`, reconstructed formatting elements, …)
 * get their handlers too, at the point in the output where they were created: see implied-elements.ts.
 */
import { EndTagClass, StartTagClass, TextTokenClass, Tokenizer, type CommentToken, type DoctypeToken, type TextToken, type Token } from '@sluice/tokenizer';
import { TreeBuilder } from '@sluice/tree-builder';
import { contentContextOf } from '../rewritable-units/content.js';
import { ElementRecord, type NodeRecord, OUT_FOSTERED, OUT_HELD_TEXT_COPY, OUT_REOPENS_BODY, OUT_TAG_ADOPTS, type ParentRecord } from '../view/records.js';
import { EV_COMMENT, EV_CREATE, EV_DROPPED, EV_FOSTERED_TEXT, EV_KEPT_OPEN, EV_POP, EV_TEXT, ViewSink, WHOLE_TOKEN } from '../view/view-sink.js';
import { type AlignPoint, DROPPED_COPY_CLOSED, EFFECT_CREATE, EFFECT_FOSTER, EFFECT_POP, NO_EFFECTS, TABLE_TEXT_PARENTS, TokenEffects, alignPoint, alignmentError, reconstructionTail } from './alignment.js';
import { BUTTON_SCOPE, SCOPE_BOUNDARY, WALK_DD, WALK_HEADING, WALK_HR, WALK_LI, WALK_OPTGROUP, WALK_OPTION, isSpecial, walkKindOf, walkTarget } from './tag-classes.js';
import { ElementOps } from './elements.js';
import { endGuardFor } from './end-of-input.js';
import { Executor } from './executor.js';
import { HandlerLists } from './handler-lists.js';
import { HeldMoves, moveWatchFor } from './held-moves.js';
import { movedAfterChange } from './moved-content.js';
import type { CompiledHandlers } from './handlers.js';
import { ImpliedElements } from './implied-elements.js';
import { ListEvents, verifyingNoahsArk } from './noahs-ark.js';
import { type RewriterOptions, boundExceeded, heldMessage, holdReleaseOf, maxBufferedOf } from './limits.js';
import { type Output, StringOutput } from './output.js';
import { type HeldCommentOp, OP_COMMENT, OP_DOC_END, OP_DOCTYPE, OP_HELD_COMMENT } from './ops.js';
import { TextPlacement } from './text-placement.js';

/** The longest list of active formatting elements an ignored end tag takes along (`listForIgnored`). */
const MAX_LIST_FOR_IGNORED = 64;

export { type RewriterOptions, DEFAULT_MAX_BUFFERED_BYTES, maxBufferedOf } from './limits.js';

/**
 * What the callback a transformer hands its tokenizer (`cdataAllowed`) reaches the tree builder through;
 * `end()` cuts it. Measured: while such callbacks still reached a finished transformer, V8's
 * young-generation GCs kept it (and what it held) alive until the next full GC — the same effect
 * `Parser`'s `BuilderLink` in @sluice/tree-builder describes.
 */
class TransformerLink {
  builder: TreeBuilder<NodeRecord> | null = null;
}

/** The transformer whose `tokenize` is running (the innermost, when a handler runs a rewrite of its own). */
let tokenizing: Transformer | null = null;

/**
 * The tokenizer's emit callback, one function for every transformer (a closure per transformer would
 * make the tokenizer's call to it see a new target each document). An exception (a handler's) leaves
 * `Tokenizer.write` and is caught in `tokenize`.
 */
function receiveToken(token: Token): void {
  tokenizing!.receive(token);
}

/** What the token whose events `applyEvents` reads is: a start tag, an end tag, or anything else. */
const OWN_NONE = 0;
const OWN_START = 1;
const OWN_END = 2;

/** How many open elements, from the current node down, a tag read in foreign content records for `checkDispatch`. */
const MAX_DISPATCH_SEEN = 24;

/** One rewrite of one document. Create it through `HTMLRewriter`; feed it with `write` and `end`. */
export class Transformer {
  private readonly tokenizer: Tokenizer;
  private readonly builder: TreeBuilder<NodeRecord>;
  private readonly sink: ViewSink;
  private readonly maxBuffered: number;
  private readonly scripting: boolean;
  private readonly commentHandlersExist: boolean;
  /** Whether any handler exists (else nothing is ever written but the input: no effects are recorded). */
  private readonly aligning: boolean;

  private written = 0;
  /** The last token the tokenizer emitted: the tokenizer holds what comes after it. */
  private lastToken: Token | null = null;
  private endCalled = false;
  /** Phase B. */
  private readonly exec: Executor;
  private readonly output: Output;
  private readonly lists: HandlerLists;

  // Phase A's units: where text goes, elements the tree builder made up, elements' starts and ends.
  private readonly text: TextPlacement;
  private readonly implied: ImpliedElements;
  private readonly elements: ElementOps;

  /** What the tokenizer's callback reaches the tree builder through; cut by `end()` (see `TransformerLink`). */
  private readonly link: TransformerLink;

  /** Output held while the adoption agency algorithm may move elements (held-moves.ts); null: never. */
  private readonly moves: HeldMoves | null;
  /** `heldOutput: 'release'`: how an early release is reported (null: past the bound is an error). */
  private readonly onHoldReleased: ((message: string) => void) | null;

  /**
   * What the tree builder did for the token being processed besides its own element (alignment.ts),
   * made when an op first needs it; and how many of those effects come before the event being read.
   */
  private effects: TokenEffects | null = null;
  private effectIndex = 0;
  /** Before the token being processed: `TokenEffects.tailBefore` and `boundaryBefore`. */
  private tailBefore: readonly ElementRecord[] = [];
  private boundaryBefore: ElementRecord | null = null;
  /** Elements the token made that are not effects to write (`effectsOf`: copies for held table text). */
  private readonly notEffects: ElementRecord[] = [];

  /** Where the op being made stands among the effects of the token being processed (alignment.ts). */
  at(): AlignPoint {
    let effects = this.effects;
    if (effects === null) {
      // A token read on a fast path: nothing but its own element; what a reconstruction would copy after it.
      const tail = reconstructionTail(this.builder);
      if (tail.length === 0 && this.tailBefore.length === 0) effects = NO_EFFECTS;
      else {
        const token = this.lastToken;
        const start = token === null ? this.written : token.start;
        effects = new TokenEffects(start, token === null ? start : start + token.raw.length, tail);
        effects.tailBefore = this.tailBefore;
        effects.boundaryBefore = this.boundaryBefore;
      }
      this.effects = effects;
    }
    return alignPoint(effects, this.effectIndex);
  }

  /**
   * The effects of the token whose events `applyEvents` is about to read: every element the tree builder
   * closed other than by the token's own end tag, and every element it made other than the token's own.
   */
  private effectsOf(own: number, ownStart: number, endToken: EndTagClass | null, atEnd: boolean): TokenEffects {
    const sink = this.sink;
    const n = sink.eventCount;
    const token = this.lastToken;
    const start = atEnd || token === null ? this.written : token.start;
    let effects: TokenEffects;
    if (atEnd) {
      const segments = this.builder.activeFormattingSegments() as ElementRecord[][];
      effects = new TokenEffects(start, start, segments[0]!, true, segments.slice(1));
    } else {
      effects = new TokenEffects(start, token === null ? start : start + token.raw.length, reconstructionTail(this.builder));
      if (endToken !== null) effects.endTagName = endToken.name;
      if (effects.tail.length > 0) effects.boundary = this.builder.activeFormattingTailBoundary() as ElementRecord | null;
      effects.tailBefore = this.tailBefore;
      effects.boundaryBefore = this.boundaryBefore;
    }
    let madeByEndTag: ParentRecord | null = null;
    let ownElement: ParentRecord | null = null;
    let consumed = false;
    // Text the tree builder held "in table text" and places now, which the output has already (no text
    // handler held it back): the output's parser holds it too, and makes what the input's made for it
    // (copies reconstructed for it) when it reads this token — those are not effects to write.
    let heldTextCopies = 0;
    if (!this.text.holding) {
      let copies = 0;
      for (let i = 0; i < n; i++) {
        const kind = sink.eventKind[i]!;
        if (kind === EV_CREATE && (sink.eventNode[i] as ElementRecord).reconstructed) copies++;
        else if (kind === EV_TEXT) {
          const location = sink.eventLocation[i]!;
          if (location !== null && location !== WHOLE_TOKEN && location.start < start) heldTextCopies = copies;
        } else if (kind !== EV_POP) break;
      }
    }
    // Whitespace held "in table text" and placed in the table now (alignment.ts `heldWhitespace`).
    for (let i = 0; i < n; i++) {
      if (sink.eventKind[i] !== EV_TEXT) continue;
      const location = sink.eventLocation[i]!;
      if (location === null || location === WHOLE_TOKEN || location.start >= start) break;
      const parent = sink.eventNode[i]!;
      effects.heldText = true;
      if (parent instanceof ElementRecord && parent.isHtml && TABLE_TEXT_PARENTS.has(parent.localName) && !/[^\t\n\f\r ]/.test(sink.eventData[i]!)) effects.heldWhitespace = true;
    }
    for (let i = 0; i < n; i++) {
      const kind = sink.eventKind[i]!;
      const location = sink.eventLocation[i]!;
      const node = sink.eventNode[i]!;
      if (kind === EV_CREATE && heldTextCopies > 0 && (node as ElementRecord).reconstructed) {
        heldTextCopies--;
        (node as ElementRecord).out |= OUT_HELD_TEXT_COPY;
        this.notEffects.push(node as ElementRecord);
        continue;
      }
      if (kind === EV_FOSTERED_TEXT) {
        effects.add(EFFECT_FOSTER, node as ElementRecord);
        continue;
      }
      if (kind === EV_CREATE && ((node as ElementRecord).out & OUT_FOSTERED) !== 0) effects.add(EFFECT_FOSTER, node.parent as ElementRecord);
      if (kind === EV_CREATE) {
        if (own === OWN_START && location !== null && location !== WHOLE_TOKEN && location.start === ownStart) ownElement = node;
        else if (own === OWN_END && location !== null && location !== WHOLE_TOKEN && location.start === ownStart) madeByEndTag = node;
        else effects.add(EFFECT_CREATE, node as ElementRecord);
      } else if (kind === EV_POP) {
        if (node === ownElement) continue;
        if (endToken !== null && !consumed && ((location !== null && location.start === ownStart) || node === madeByEndTag)) {
          consumed = true;
          continue;
        }
        effects.add(EFFECT_POP, node as ElementRecord);
      }
    }
    // Content written before the token then meets the output parser's list as that parser leaves it once
    // it places the text it holds: the entries those copies were made of are open again (as the copies),
    // not at the end of the list to be taken off (`<table><a><table>x<b>` with `before()` on the b: the
    // content joins the held `x`, in the copy of the a).
    if (this.notEffects.length > 0 && !atEnd) effects.tailReopened(this.notEffects);
    return effects;
  }

  /** @internal Token by token, from the tokenizer (through `receiveToken`). */
  receive(token: Token): void {
    if (this.exec.failed) return;
    this.processToken(token);
    if (this.sink.movedFrom.length > 0) this.sink.spansMoves();
    const moves = this.moves;
    if (moves !== null && moves.watch.releasePending) moves.release();
  }

  /** Run the tokenizer over `chunk` (or to its end), recording a thrown error as the failure. */
  private tokenize(chunk: string | null): void {
    // The emit callback reaches this transformer through `tokenizing` (see `receiveToken`); a handler
    // may run another rewrite inside this one, so the one it replaces is put back.
    const outer = tokenizing;
    tokenizing = this;
    try {
      if (chunk === null) this.tokenizer.end(receiveToken);
      else this.tokenizer.write(chunk, receiveToken);
    } catch (err) {
      this.fail(err);
    } finally {
      tokenizing = outer;
    }
  }

  /**
   * @param config the rewriter's compiled handlers
   * @param options see {@link RewriterOptions}
   * @param onOutput receives each piece of output, in order, as soon as it is decided
   * @param output @internal what assembles the output instead (the byte transformer's); `onOutput` is then unused
   * @param byteInput @internal the chunks are UTF-8 in byte form (the byte transformer's; see
   *   `TokenizerOptions.byteInput`): offsets count bytes, and `config`'s selectors must be in byte form
   */
  constructor(
    private readonly config: CompiledHandlers,
    options: RewriterOptions,
    onOutput: (chunk: string) => void,
    output: Output = new StringOutput(onOutput),
    byteInput = false,
  ) {
    this.maxBuffered = maxBufferedOf(options);
    this.onHoldReleased = holdReleaseOf(options);
    this.scripting = options.scripting ?? true;
    const watch = moveWatchFor(config);
    this.sink = new ViewSink(config.registry, config.registrations, config.byTag, config.anyTag, watch);
    const link = new TransformerLink();
    this.link = link;
    // discardByteOrderMark: a leading BOM is not text to the tree (the decoder consumes it, HTML §13.2.3.1)
    // but comes as a 'discarded' token, which `afterOtherToken` copies to the output unchanged.
    this.tokenizer = new Tokenizer({ autoTextMode: false, cdataAllowed: () => link.builder !== null && link.builder.cdataAllowed(), byteInput, discardByteOrderMark: true });
    this.builder = new TreeBuilder<NodeRecord>(this.sink, this.tokenizer, { scripting: this.scripting });
    link.builder = this.builder;
    this.output = output;
    this.exec = new Executor(config, this.scripting, output, byteInput);
    this.moves = watch === null ? null : new HeldMoves(watch, this.sink, this.exec);
    if (watch !== null) watch.offsetNow = () => (this.lastToken === null ? this.written : this.lastToken.start);
    this.sink.onMovedAfterChange = (el) => {
      throw movedAfterChange(el, this.lastToken === null ? this.written : this.lastToken.start);
    };
    this.sink.onMovedOutOfRemoved = (el) => {
      throw alignmentError(
        `removing content that holds the <${el.localName}> the adoption agency algorithm moves out of it at offset ${this.lastToken === null ? this.written : this.lastToken.start}`,
        'the moved element is outside the removed element in the tree, and its tags are not in the output (HTML §13.2.6.4.7)',
      );
    };
    this.sink.removedSeen = () => this.exec.align.removedSeen;
    this.sink.onMove = (el) => this.exec.align.moved(el);
    this.sink.insideRemoved = (node) => this.exec.align.insideRemovedMemo(node);
    this.lists = new HandlerLists(config, this.sink);
    this.commentHandlersExist = config.docComments.length > 0 || config.registrations.some((r) => r.comments !== null);
    this.aligning = config.registrations.length > 0 || config.docComments.length > 0 || config.docText.length > 0 || config.docDoctype.length > 0 || config.docEnd.length > 0;
    // Noah's Ark: where a formatting element's tag may differ in the output — one did already, handlers
    // are pending (they may yet change one), or the element pushed has handlers of its own — the push
    // is checked (`OP_NOAHS_ARK`, noahs-ark.ts) once its tag is written: against the list before the
    // push while it is short, through `Executor.noahs`, an index of the list, while it is long.
    if (this.aligning) {
      this.builder.onActiveFormattingPush((node: NodeRecord) => {
        const el = node as ElementRecord;
        const exec = this.exec;
        if (!exec.align.formattingDiffers && exec.idle && el.matched === null) return;
        this.noahsArk = el;
        const noahs = exec.noahs;
        // (Stopped only while ops run as they come: none waits that would read it.)
        if (noahs.started && exec.idle && this.builder.activeFormattingLength() < noahs.short) this.stopNoahsArkIndex();
        if (!noahs.started && this.builder.activeFormattingAtLeast(noahs.long)) this.startNoahsArkIndex();
        this.noahsArkViaIndex = noahs.started;
        // (Fewer than `long` entries after the last marker when not indexed: the walk is short.)
        if (verifyingNoahsArk()) this.noahsArkBefore = this.builder.activeFormattingSinceMarker(0) as ElementRecord[];
        else if (!noahs.started) this.noahsArkBefore = this.builder.activeFormattingSinceMarker(3) as ElementRecord[] | null;
      });
      // (Checked in order: whether the elements the inner loop passed are in the output is decided by
      // their own ops, all before this token's.)
      this.sink.onDroppedPastThree = (el, passed, count) => this.exec.droppedPastThree(el, passed, count, this.lastToken === null ? 0 : this.lastToken.start);
    }
    const textHandlersExist = config.docText.length > 0 || config.registrations.some((r) => r.text !== null);
    this.text = new TextPlacement(this.exec, this.lists, textHandlersExist, watch);
    this.exec.textHandlersFor = (el) => this.lists.textHandlersFor(el);
    this.exec.commentHandlersFor = (el) => this.lists.commentHandlersFor(el);
    this.implied = new ImpliedElements(this.exec, () => this.text.endRun());
    this.text.implied = this.implied;
    this.elements = new ElementOps(config, this.sink, this.exec, this.text, this.implied, () => this.at());
    this.text.at = () => this.at();
  }

  /**
   * Rewrite the next chunk. Returns nothing when every handler ran synchronously (the chunk's output has
   * been passed to `onOutput`), or a promise that settles when the async handlers it waits for have.
   * Throws (or rejects) with a handler's error, or an Error when `maxBufferedBytes` is exceeded.
   */
  write(chunk: string): void | Promise<void> {
    if (this.exec.failed) throw this.exec.failure;
    if (this.endCalled) throw new Error('HTMLRewriter: write() called after end()');
    if (typeof chunk !== 'string') throw new TypeError(`HTMLRewriter: expected a string chunk, got ${typeof chunk}`);
    this.output.setChunk(chunk, this.written);
    this.written += chunk.length;
    this.exec.synchronous = true;
    this.tokenize(chunk);
    this.exec.synchronous = false;
    if (!this.exec.failed) this.checkBound();
    return this.exec.settle();
  }

  /** End of input: flush what is held, close open elements, run document `end` handlers. */
  end(): void | Promise<void> {
    if (this.exec.failed) throw this.exec.failure;
    if (this.endCalled) throw new Error('HTMLRewriter: end() called twice');
    this.endCalled = true;
    const open = this.builder.openElements;
    const top = open.length > 0 ? open[open.length - 1]! : null;
    const context = top === null ? 'data' : contentContextOf(top.localName, top.namespace, this.scripting);
    // What the tokenizer still holds is written as text, not as a run of the last chunk (whose owner
    // may have reused its bytes since that write returned).
    this.output.setChunk('', this.written);
    // What the input ends inside, for content written after it (end-of-input.ts).
    const snapshot = this.tokenizer.snapshot();
    const guard = endGuardFor(snapshot.state, snapshot.textKind, snapshot.unflushed);
    this.dropUnfinishedTag = guard !== null && guard.dropTag;
    this.eofCommentCloser = guard !== null && guard.forComment ? guard.closer : null;
    this.atEnd = true;
    this.tokenize(null);
    if (guard !== null) this.exec.endOfInput(guard);
    if (!this.exec.failed) {
      try {
        this.elements.atDocumentEnd = true;
        this.builder.processEnd();
        // The end of the input is a token of its own for the effects (it closes what is open).
        this.effects = null;
        this.notEffects.length = 0;
        this.applyEvents(OWN_NONE, this.written, null, true, true);
        this.text.resolve();
        const effects = this.effects as TokenEffects | null;
        if (effects !== null) this.effectIndex = effects.length;
        // Whatever the tree builder did not report popped is closed here, innermost first.
        const still = this.sink.open;
        for (let i = still.length - 1; i >= 0; i--) if (still[i]!.open) this.elements.end(still[i]!, null);
        still.length = 0;
        // Every element is closed: nothing can move any more, all held output is settled.
        if (this.moves !== null) this.moves.release();
        this.text.endRun();
        this.exec.push({ k: OP_DOC_END, context });
      } catch (err) {
        this.fail(err);
      }
    }
    this.link.builder = null;
    const settled = this.exec.settle();
    if (settled === undefined) {
      this.releaseDocument();
      return;
    }
    return settled.then(() => this.releaseDocument());
  }

  /**
   * Once the document is done (its output written, its end handlers run): let go of the records and
   * tokens that the transformer's parts still point at. Nothing reads them after the end; and a finished
   * document's objects, kept reachable from the transformer's objects, were measured to survive V8's
   * young-generation collections long after the document (so each was copied, then promoted): on the
   * corpus, 0.9 MB survived each collection, against 0.25 MB with these references cut
   * (`bench/rewrite-gc.mjs`; docs/rewriter.md "Benchmarks"). A token kept keeps the whole input chunk it
   * was sliced from.
   */
  private releaseDocument(): void {
    this.lastToken = null;
    this.lastPopped = null;
    this.effects = null;
    this.tailBefore = [];
    this.boundaryBefore = null;
    this.noahsArk = null;
    this.noahsArkBefore = null;
    // (The index of the list of active formatting elements, kept while the list is long: no op waits.)
    if (this.exec.noahs.started) this.stopNoahsArkIndex();
    this.builder.releaseDocument();
    this.sink.releaseDocument();
    this.exec.releaseDocument();
  }

  // --- Phase A ----------------------------------------------------------------------------------------

  /**
   * One token through the tree builder and into ops. The token classes are told apart by prototype
   * (`instanceof`), not by reading `type`: with six token classes that read would be megamorphic, and
   * each branch then reads the fields of one class only and calls the tree builder's entry point for it.
   * The common outcomes of tags (one element made, one element closed, nothing) are read straight from
   * the sink's events, without the general loop of `applyEvents`.
   */
  private processToken(token: Token): void {
    this.lastToken = token;
    this.effects = null;
    this.effectIndex = 0;
    // (Only when there are some: setting an array's length is a call into the runtime, on every token.)
    if (this.notEffects.length !== 0) this.notEffects.length = 0;
    if (this.aligning) {
      // What a reconstruction would copy before this token (alignment.ts `TokenEffects.tailBefore`).
      this.tailBefore = reconstructionTail(this.builder);
      this.boundaryBefore = this.builder.activeFormattingTailBoundary() as ElementRecord | null;
    }
    // (One method per token class: each is compiled on its own, and the one this dispatch inlines stays small.)
    if (token instanceof TextTokenClass) this.processText(token);
    else if (token instanceof StartTagClass) this.processStartTag(token);
    else if (token instanceof EndTagClass) this.processEndTag(token);
    else {
      this.builder.processToken(token);
      this.afterOtherToken(token);
    }
  }

  private processText(token: TextTokenClass): void {
    // (Text other than whitespace after `</body>` or `</html>` takes the parser back into the body,
    // §13.2.6.4.19, .21: where a handler leaves it out, `OP_REOPENED` does that for the output.)
    const reopens = this.aligning && this.text.textHandlersExist && this.builder.afterTheBody();
    this.builder.processTextToken(token);
    this.afterText(token);
    if (reopens && !this.builder.afterTheBody()) this.exec.reopenedBody(token.start, token.end);
  }

  private processStartTag(token: StartTagClass): void {
    // (`<li>`, `<dd>`, options, headings: what their rule looks at on the stack, for alignment.ts.)
    // Until an element is left out, unwrapped or renamed, the output's parser has the input's stack and
    // its rule reads it alike (alignment.ts `checkWalk`, `treeChanged`): no walk, and the tag's kind is
    // not even looked up. (Only when ops run as they come: a pending handler may yet change what the
    // stack holds.)
    let walk = 0;
    let seen: ElementRecord[] | null = null;
    if (this.aligning && !(this.exec.idle && !this.exec.align.treeChanged)) {
      walk = walkKindOf(token.name);
      if (walk !== 0) seen = this.walkedElements(walk);
    }
    const reopens = this.aligning && this.builder.afterTheBody();
    const dispatch = this.aligning && !this.builder.adjustedCurrentNodeIsHtml() ? this.dispatchSeen(token.name) : null;
    this.builder.processStartTagToken(token);
    if (dispatch !== null) this.dispatched(dispatch, `<${token.name}>`, token.start);
    if (reopens) this.markReopensBody(token);
    this.afterStartTag(token, walk, seen);
    const pushed = this.noahsArk;
    if (pushed !== null) {
      this.noahsArk = null;
      this.pushedFormatting(pushed, token.start);
    }
  }

  private processEndTag(token: EndTagClass): void {
    // (After `</body>` or `</html>` any end tag but `</html>` takes the parser back into the body.)
    const reopens = this.aligning && this.builder.afterTheBody() && token.name !== 'html';
    this.builder.processEndTagToken(token);
    this.afterEndTag(token);
    if (reopens) this.exec.reopenedBody(token.start, token.start + token.raw.length);
  }

  /**
   * What the rule of a start tag of `kind` (tag-classes.ts) looks at before it runs: for `<li>`, `<dd>`,
   * `<dt>` the elements its walk passes, down to where it stops (§13.2.6.4.7: the element it looks for,
   * or a special element other than address, div, p); for options and headings the current node and a
   * few below it.
   */
  private walkedElements(kind: number): ElementRecord[] {
    const seen: ElementRecord[] = [];
    const walks = kind === WALK_LI || kind === WALK_DD;
    // Past where the rule stops, too: the output's parser may not have that element, and look further
    // (alignment.ts `checkWalk`). A few stops, or a few elements, are enough to tell.
    let stops = 0;
    // In foreign content a `<li>`, `<dd>`, `<dt>` or heading first breaks out: the tree builder pops the
    // foreign elements down to an HTML element or an integration point (§13.2.6.5), and its rule runs
    // there; an `<option>` there is a foreign element, no rule of the kind runs.
    let foreign = true;
    // A heading's start tag first closes a `<p>` in button scope, then looks at the current node: the
    // elements up to that `p` do not count (its rule looks below them; `checkWalk` cuts them off).
    let pending = kind === WALK_HEADING;
    this.builder.forEachOpenElementFromTop((node) => {
      const el = node as ElementRecord;
      if (foreign && !el.isHtml && !isSpecial(el.localName, el.namespace)) {
        if (kind === WALK_OPTION || kind === WALK_OPTGROUP) {
          seen.length = 0;
          return false;
        }
        return true;
      }
      foreign = false;
      seen.push(el);
      if (kind === WALK_OPTION || kind === WALK_OPTGROUP || kind === WALK_HR) {
        // In a `<select>` (in scope) an option's rule closes what implies its end first (§13.2.6.4.7
        // "option"; "optgroup" and "hr" alike, optgroups too): down to the scope's boundary, to see
        // whether there is one.
        return seen.length < 24 && !(el.isHtml && SCOPE_BOUNDARY.has(el.localName));
      }
      if (pending) {
        if (el.isHtml && (el.localName === 'p' || BUTTON_SCOPE.has(el.localName))) pending = false;
        return seen.length < 24;
      }
      if (!walks || walkTarget(kind, el) || (isSpecial(el.localName, el.namespace) && !(el.isHtml && (el.localName === 'address' || el.localName === 'div' || el.localName === 'p')))) stops++;
      return stops < 4 && seen.length < 24;
    });
    return seen;
  }

  /**
   * Before the start tag `name` is processed while the adjusted current node is not an HTML element: the
   * open elements from the current node down (at most `MAX_DISPATCH_SEEN`), each with whether the
   * dispatcher would use the insertion mode's rules there (`TreeBuilder.forEachDispatchFromTop`;
   * alignment.ts `checkDispatch`). End tags there are read by the rules for foreign content whatever
   * that element is, down to an HTML one; text differs only by reconstructing formatting elements:
   * neither is checked.
   */
  private dispatchSeen(name: string): { seen: ElementRecord[]; modes: boolean[] } {
    const seen: ElementRecord[] = [];
    const modes: boolean[] = [];
    this.builder.forEachDispatchFromTop('start', name, (node, inMode) => {
      seen.push(node as ElementRecord);
      modes.push(inMode);
      return seen.length < MAX_DISPATCH_SEEN;
    });
    return { seen, modes };
  }

  /** After the tag: which of `seen` it closed, and the check in order (`OP_DISPATCH`). */
  private dispatched(d: { seen: ElementRecord[]; modes: boolean[] }, tag: string, offset: number): void {
    this.exec.dispatched(d.seen, d.modes, d.seen.map((el) => !el.open), tag, offset);
  }

  /** The entries whose elements were not open that the token being processed took off the list of active formatting elements (null: none). */
  private droppedNotOpen(): ElementRecord[] | null {
    const sink = this.sink;
    let drops: ElementRecord[] | null = null;
    for (let i = 0; i < sink.eventCount; i++) {
      if (sink.eventKind[i] === EV_DROPPED && sink.eventData[i] === 'not-open') (drops ??= []).push(sink.eventNode[i] as ElementRecord);
    }
    return drops;
  }

  /** The element the start tag made took the parser back into the body (`OUT_REOPENS_BODY`). */
  private markReopensBody(token: StartTagClass): void {
    const sink = this.sink;
    for (let i = 0; i < sink.eventCount; i++) {
      const loc = sink.eventLocation[i];
      if (sink.eventKind[i] === EV_CREATE && loc !== null && loc !== undefined && loc.start === token.start) (sink.eventNode[i] as ElementRecord).out |= OUT_REOPENS_BODY;
    }
  }

  /**
   * For an end tag the tree builder ignored: the list of active formatting elements after its last
   * marker (alignment.ts `ignoredTag`), or null when it is longer than a real page's ever is — taking
   * it must not make a document of many entries and many ignored end tags quadratic.
   */
  private listForIgnored(): ElementRecord[] | null {
    if (this.builder.activeFormattingAtLeast(MAX_LIST_FOR_IGNORED + 1)) return null;
    return this.builder.activeFormattingSinceMarker(0) as ElementRecord[];
  }

  /** Whether a `<template>` is on the stack of open elements. */
  private templateOpen(): boolean {
    let found = false;
    this.builder.forEachOpenElementFromTop((node) => {
      const el = node as ElementRecord;
      if (el.isHtml && el.localName === 'template') found = true;
      return !found;
    });
    return found;
  }

  /**
   * After a start tag went through the tree builder: ops for what it did. `seen` (with its `walk` kind):
   * what the tag's rule looked at, checked (`OP_WALK`) after the ops of the elements the tag closed
   * first — breaking out of foreign content, closing a `p` — and before its own element's: whether the
   * tag is inside removed content is known only after those (`<span><svg><x><h1>` with the x removed:
   * the h1 is not inside it, and its rule looks at the span).
   */
  private afterStartTag(token: StartTagClass, walk: number, seen: readonly ElementRecord[] | null): void {
    const sink = this.sink;
    const n = sink.eventCount;
    if ((n === 1 || n === 2) && this.text.empty && sink.eventKind[0] === EV_CREATE) {
      // The common cases: the token made one element, and nothing else happened; or it made one and
      // closed it at once (a void element, `<img>`, `<br>`; a self-closing foreign one) — what
      // `applyEvents` would find, without its loop. (Not foster-parented: that is an effect for
      // alignment.ts.)
      const loc = sink.eventLocation[0]!;
      const el = sink.eventNode[0] as ElementRecord;
      if (
        loc !== null &&
        loc.start === token.start &&
        (el.out & OUT_FOSTERED) === 0 &&
        (n === 1 || (sink.eventKind[1] === EV_POP && sink.eventNode[1] === el && this.implied.count === 0))
      ) {
        // Neither the element nor its own pop is an effect, but the ops of an element closed at once
        // that handlers may write content into, or whose handlers a hold decides later, read where its
        // end stands: they get the token's effects as `applyEvents` makes them (an empty list is not
        // `NO_EFFECTS` there: `<br>x<img>` with `setInnerContent()` on the img wrote `</img>` without
        // them). Other elements make no op that reads them.
        if (n === 2 && this.aligning && (el.matched !== null || this.moves !== null)) this.effects = this.effectsOf(OWN_START, token.start, null, false);
        sink.clearEvents();
        el.fromStartTag = true;
        if (seen !== null) this.exec.walked(walk, seen, token.start);
        // (An element whose location is the tag token itself was made by `createElementFromStartTag`,
        // which the tree builder calls for elements other than formatting ones: no name lookup.)
        this.elements.start(token, el, loc !== token);
        // (After its start tag: the output is text from there, alignment.ts `plaintext`.)
        if (this.aligning && token.name === 'plaintext' && el.isHtml) this.exec.plaintextStarted();
        if (n === 2) {
          this.lastPopped = el;
          this.elements.end(el, null);
        }
        return;
      }
    }
    // (Before `applyEvents` reads them: the entries that were not open the tag's own rule took off the
    // list — `<a>`'s adoption agency algorithm for an earlier a, `Executor.tagDrops`.)
    const drops = token.name === 'a' || token.name === 'nobr' ? this.droppedNotOpen() : null;
    this.applyEvents(OWN_START, token.start, null, true);
    this.text.resolve();
    if (seen !== null) this.exec.walked(walk, seen, token.start);
    const el = this.ownElement;
    if (el !== null) {
      if (el.isHtml && (token.name === 'a' || token.name === 'nobr')) {
        // (The moves of this token, until `receive` marks what they took elements out of.)
        if (this.sink.movedFrom.length > 0) el.out |= OUT_TAG_ADOPTS;
        if (drops !== null) this.exec.tagDrops.set(el, drops);
      }
      // A frameset in place of the body (§13.2.6.4.7 "frameset"): the output's parser must take it too.
      if (this.aligning && token.name === 'frameset' && el.parent === this.sink.root && this.sink.body !== null) this.exec.framesetTaken(token.start);
      this.elements.start(token, el);
      // (After its start tag: the output is text from there, alignment.ts `plaintext`.)
      if (this.aligning && token.name === 'plaintext' && el.isHtml) this.exec.plaintextStarted();
      if (this.ownPopped) this.elements.end(el, null);
    } else if (this.aligning && (token.name === 'form' || token.name === 'frameset')) {
      // Ignored (the form element pointer is set; the frameset-ok flag is not ok): the output's parser
      // may not have that pointer or flag (alignment.ts `ignoredTag`).
      this.text.endRun();
      this.exec.ignored(token, false, null, this.effects !== null && this.effects.heldText);
    } else if (this.aligning && (token.name === 'html' || token.name === 'body') && !this.templateOpen()) {
      // Its attributes go to the html or body element: written even inside removed content. (With a
      // template open the tree builder ignores it, §13.2.6.4.7: then it is copied as any tag.)
      this.text.endRun();
      this.exec.documentLevel(token.raw, token.start, token.name === 'html' ? this.sink.root : this.sink.body);
    } else if (this.aligning && token.name === 'select' && this.lastPopped !== null && this.lastPopped.localName === 'select' && this.lastPopped.isHtml) {
      // It closed the select in scope and was ignored (§13.2.6.4.7): a parser without that select makes one.
      this.text.endRun();
      this.exec.closer(token, this.lastPopped, this.at());
    } else {
      this.elements.copyToken(token);
    }
  }

  private afterEndTag(token: EndTagClass): void {
    const sink = this.sink;
    if (this.text.empty) {
      // The common cases: the token closed its element and nothing else, or was ignored.
      const n = sink.eventCount;
      if (n === 0) {
        if (this.aligning) {
          // Ignored (or, `</form>`, it cleared the form element pointer): the output's parser may not
          // ignore it where the output lacks an element the input has (alignment.ts `ignoredTag`).
          this.text.endRun();
          this.exec.ignored(token, true, this.listForIgnored());
        } else this.elements.copyToken(token);
        return;
      }
      if (n === 1 && sink.eventKind[0] === EV_POP) {
        const loc = sink.eventLocation[0]!;
        if (loc !== null && loc.start === token.start) {
          const el = sink.eventNode[0] as ElementRecord;
          sink.clearEvents();
          this.elements.end(el, token);
          return;
        }
      }
    }
    // (Ignored, after placing text the tree builder held "in table text": as an ignored tag, below.)
    const placedTextOnly = this.aligning && this.eventsPlaceTextOnly();
    this.applyEvents(OWN_END, token.start, token, true);
    this.text.resolve();
    if (this.ownConsumed) return;
    if (placedTextOnly) {
      this.text.endRun();
      this.exec.ignored(token, true, this.listForIgnored(), this.effects !== null && this.effects.heldText);
    } else this.elements.copyToken(token);
  }

  /** Whether every event of the token so far places text (none makes, closes or drops an element). */
  private eventsPlaceTextOnly(): boolean {
    const sink = this.sink;
    for (let i = 0; i < sink.eventCount; i++) {
      const kind = sink.eventKind[i];
      if (kind !== EV_TEXT && kind !== EV_FOSTERED_TEXT) return false;
    }
    return true;
  }

  /** Comments, doctypes, discarded text, and tokens of classes other than the tokenizer's own. */
  private afterOtherToken(token: Token): void {
    switch (token.type) {
      case 'comment': {
        const sink = this.sink;
        if (sink.eventCount === 1 && sink.eventKind[0] === EV_COMMENT && this.text.empty && !this.commentHandlersExist) {
          // The common case: the comment went into one parent and nothing else happened (what
          // `applyEvents` would find, without its loop or the token's effects: with no comment handlers
          // no op reads them).
          const parent = sink.eventNode[0] as ParentRecord;
          sink.clearEvents();
          this.emitComment(token, parent);
          return;
        }
        this.applyEvents(OWN_NONE, token.start, null, true);
        this.text.resolve();
        this.emitComment(token, this.ownCommentParent);
        return;
      }
      case 'doctype':
        this.applyEvents(OWN_NONE, token.start, null, true);
        this.text.resolve();
        this.emitDoctype(token);
        return;
      case 'discarded':
        // An unfinished tag at the end of the input: written only if no content follows (end-of-input.ts).
        if (this.dropUnfinishedTag) {
          this.text.resolve();
          this.text.endRun();
          this.exec.unfinishedTag(token.raw, token.start);
          return;
        }
        // Not a token to the tree builder; in the DOM the text around it stays one node. Behind text the
        // tree builder has not placed yet, it waits with that text.
        if (this.text.holding) this.text.hold({ raw: token.raw, start: token.start, end: -1, kind: null, token: null, cursor: 0 });
        else this.exec.raw(token.raw, token.start);
        return;
      default:
        // The transformer's own tokenizer makes its text and tag tokens with the classes above.
        throw new Error(`HTMLRewriter: internal error, a ${token.type} token not of the tokenizer's class`);
    }
  }

  private afterText(token: TextTokenClass): void {
    const sink = this.sink;
    const text = this.text;
    if (!text.holding) {
      // The common cases, without the general placement machinery: the whole token went to one
      // parent, or nowhere (and the tree builder is not keeping it as table text).
      const n = sink.eventCount;
      if (n === 1) {
        const loc = sink.eventLocation[0]!;
        if (
          sink.eventKind[0] === EV_TEXT &&
          (loc === WHOLE_TOKEN ||
            ((loc === null || (loc.start === token.start && loc.end === token.end)) && sink.eventData[0]!.length === token.value.length))
        ) {
          sink.clearEvents();
          text.emitToken(token, sink.eventNode[0]!);
          return;
        }
      } else if (n === 0 && (!this.builder.holdsTableText || this.copiesTableTextAtOnce())) {
        // Table text ("in table text") waits for the tree builder to decide where it goes — but only
        // when a text handler needs to know, or the copies made for it must be written first
        // (`copiesTableTextAtOnce`); otherwise it is copied at once.
        text.emitToken(token, null);
        return;
      }
    }
    this.placeTextToken(token);
  }

  /**
   * Whether text the tree builder holds "in table text" (§13.2.6.4.10) can be copied to the output at
   * once. Not when a text handler needs to know where it goes; nor when the reconstruction that places
   * it (foster-parented, §13.2.6.1) would copy an element the output's parser does not have in its list
   * (its tags left out: `<table><div><b></div>x` with the div removed): the copy must then be written
   * before the text, which waits until it is placed. (While ops wait for a handler, the output's list
   * is not known yet: it waits too.)
   */
  private copiesTableTextAtOnce(): boolean {
    if (this.text.textHandlersExist) return false;
    if (!this.aligning) return true;
    const tail = reconstructionTail(this.builder);
    if (tail.length === 0) return true;
    if (!this.exec.idle) return false;
    for (const el of tail) if (!this.exec.align.inOutputList(el) || this.elementHandlersMayMatch(el.localName)) return false;
    return true;
  }

  /** Per local name: whether an element handler's selector may match an element of that name (`elementHandlersMayMatch`). */
  private readonly mayMatchByName = new Map<string, boolean>();

  /**
   * Whether an `element` handler's selector may match an element named `localName` (its rightmost
   * compound names it, or no name). A copy the reconstruction makes for held table text may then be
   * changed by a handler — content before it, attributes — and must be written explicitly before the
   * text (`<table><a><table>x` with `before()` on every `a`): the text waits until it is placed.
   */
  private elementHandlersMayMatch(localName: string): boolean {
    let may = this.mayMatchByName.get(localName);
    if (may === undefined) {
      const { registrations, byTag, anyTag } = this.config;
      const hasElement = (i: number): boolean => registrations[i]!.element !== null;
      may = anyTag.some(hasElement) || (byTag.get(localName) ?? []).some(hasElement);
      this.mayMatchByName.set(localName, may);
    }
    return may;
  }

  /**
   * `afterText` off its fast paths: the token waits as held text until the tree builder's events say
   * where its parts went. (Apart so that the fast paths, run for every text token, stay small.)
   */
  private placeTextToken(token: TextToken): void {
    const raw = token.raw;
    const start = token.start;
    this.text.hold({ raw, start, end: start + raw.length, kind: token.kind, token, cursor: start });
    this.applyEvents(OWN_NONE, start, null, false);
    // As above: table text waits only when a text handler needs to know where it goes (here the token
    // also did something else first, e.g. closed a <colgroup>).
    if (!this.builder.holdsTableText || this.copiesTableTextAtOnce()) this.text.resolve();
    else {
      // (Its source is written when it is placed: see `TokenEffects.sourceHeld`.)
      if (this.effects !== null && this.effects !== NO_EFFECTS) this.effects.sourceHeld = true;
      if (this.implied.count > 0 && !this.text.holding) this.implied.start();
    }
  }

  /**
   * What `applyEvents` found for the token being processed: the element created for it, whether the
   * token itself closed that element, whether an end tag closed an element (it is then that element's
   * end tag), and where a comment went.
   */
  private ownElement: ElementRecord | null = null;
  private ownPopped = false;
  private ownConsumed = false;
  private ownCommentParent: ParentRecord | null = null;
  /** The formatting element the token being processed pushed, where the push is to be checked (see the constructor). */
  private noahsArk: ElementRecord | null = null;
  /** The list after its last marker before that push (null: fewer than three entries, or the index answers). */
  private noahsArkBefore: readonly ElementRecord[] | null = null;
  /** Whether the index answers for that push. */
  private noahsArkViaIndex = false;

  /** The start tag at `offset` pushed `el` onto the list of active formatting elements: the check, once its tag is written (`OP_NOAHS_ARK`). */
  private pushedFormatting(el: ElementRecord, offset: number): void {
    const before = this.noahsArkBefore;
    const viaIndex = this.noahsArkViaIndex;
    this.noahsArkBefore = null;
    const dropped = this.builder.noahsArkDropped();
    // (Fewer than three entries before the push: neither parser removes one.)
    if (viaIndex ? before === null && !this.builder.activeFormattingAtLeast(dropped === null ? 4 : 3) : before === null) return;
    this.exec.noahsArk(el, dropped as ElementRecord | null, before, viaIndex, offset);
  }

  /**
   * Keep `Executor.noahs` from now on (a push is about to happen: the list before it, then each change as
   * an op, so that the index is at each op as the list was when its token was parsed).
   */
  private startNoahsArkIndex(): void {
    const exec = this.exec;
    exec.noahs.started = true;
    const nodes: (ElementRecord | null)[] = [];
    const seqs: number[] = [];
    this.builder.forEachActiveFormattingEntry((node, seq) => {
      nodes.push(node as ElementRecord | null);
      seqs.push(seq);
    });
    exec.listLoad({ nodes, seqs });
    this.builder.activeFormattingListener(this.listEvents ??= new ListEvents((e, node, other, seq) => exec.listChange(e, node, other, seq)));
  }
  private listEvents: ListEvents | null = null;

  private stopNoahsArkIndex(): void {
    this.builder.activeFormattingListener(null);
    this.exec.noahs.started = false;
    this.exec.noahs.reset();
  }
  /** The last element the token's events popped. */
  private lastPopped: ElementRecord | null = null;
  /** Set at the end of the input when it ends inside a tag: that tag waits (end-of-input.ts). */
  private dropUnfinishedTag = false;
  /** Set once `end()` flushes the tokenizer. */
  private atEnd = false;
  /** The closer of the comment the input ends inside, for its own handlers' `after` content. */
  private eofCommentCloser: string | null = null;

  /**
   * Turn the tree builder's events for one token (read from the sink, then cleared) into ops. For a tag
   * token (`own`, starting at `ownStart`; `endToken` for an end tag), finds the element created for it
   * (`create` with the token's own location), and whether the token itself closed an element; the
   * findings are left in the `own*` fields. `resolveOnPop`: held text is placed before a pop.
   */
  private applyEvents(own: number, ownStart: number, endToken: EndTagClass | null, resolveOnPop: boolean, atEnd = false): void {
    const sink = this.sink;
    const n = sink.eventCount;
    // The token's effects, counted as the events are read (`at`): ops made at an event stand after the
    // effects before it.
    if (this.aligning && this.effects === null) this.effects = this.effectsOf(own, ownStart, endToken, atEnd);
    this.effectIndex = 0;
    let ownIndex = 0;
    let element: ElementRecord | null = null;
    let popped = false;
    let consumed = false;
    let commentParent: ParentRecord | null = null;
    let madeByEndTag: ElementRecord | null = null;
    let lastPopped: ElementRecord | null = null;
    for (let i = 0; i < n; i++) {
      const kind = sink.eventKind[i]!;
      const node = sink.eventNode[i]!;
      let location = sink.eventLocation[i]!;
      if (location === WHOLE_TOKEN) {
        // The text token being processed went whole into `node` (see `ViewSink.insertTextToken`).
        const token = this.lastToken as TextToken;
        location = { start: token.start, end: token.start + token.raw.length };
        sink.eventLocation[i] = location;
        sink.eventData[i] = token.value;
      }
      // (Each effect, in order: inside removed content it must not reach outside it, alignment.ts `insideRemoved`.)
      if (kind === EV_FOSTERED_TEXT) {
        if (this.effects !== null) this.exec.effect(this.effects, this.effectIndex);
        this.effectIndex++;
        continue;
      }
      if (kind === EV_CREATE) {
        const el = node as ElementRecord;
        // (A copy the output's parser makes for table text it already has is no effect, nor is its
        // foster parenting: `effectsOf` left both out.)
        const notEffect = this.notEffects.length !== 0 && this.notEffects.includes(el);
        if (this.effects !== null && (el.out & OUT_FOSTERED) !== 0 && !notEffect) this.exec.effect(this.effects, this.effectIndex++);
        if (own === OWN_START && location !== null && location.start === ownStart) {
          element = el;
          element.fromStartTag = true;
          ownIndex = this.effectIndex;
        } else {
          // `</br>` makes a <br> with the end tag's location: that tag is the element's.
          if (own === OWN_END && location !== null && location.start === ownStart) madeByEndTag = el;
          this.elements.created(el, ownStart);
          if (el !== madeByEndTag && !notEffect) {
            if (this.effects !== null) this.exec.effect(this.effects, this.effectIndex);
            this.effectIndex++;
          }
        }
      } else if (kind === EV_DROPPED) {
        // The tree builder took a formatting element off its list without closing it: an end tag that
        // did it may have to be left out of the output (alignment.ts `dropped`); it is this op's to write.
        const isEnd = endToken !== null && !consumed;
        this.text.endRun();
        // (Step 4.4 of the adoption agency algorithm, for an end tag: the list as it is then, which the
        // output's parser reads if the entry was renamed, alignment.ts `renamedDropTag`.)
        const listAfter = isEnd && sink.eventData[i] === 'not-open' ? (this.builder.activeFormattingSinceMarker(0) as ElementRecord[]) : null;
        this.exec.dropped(node as ElementRecord, sink.eventData[i]!, isEnd ? endToken : null, listAfter, isEnd && this.effects !== null && this.effects.heldText);
        if (isEnd) consumed = true;
      } else if (kind === EV_TEXT) {
        // A run the tree builder split (whitespace here, the rest elsewhere) reports the same span for
        // each part; the part's own length says where the split falls.
        let split = false;
        for (let j = i + 1; j < n; j++) {
          if (sink.eventKind[j] !== EV_TEXT) continue;
          const next = sink.eventLocation[j]!;
          split = location !== null && next !== null && next.start === location.start && next.end === location.end;
          break;
        }
        // Or the rest of the run is held "in table text", placed later under the same span: whitespace
        // in a colgroup, the rest for the table (§13.2.6.4.12, `<table><colgroup> z`).
        if (!split && location !== null && this.builder.holdsTableText && this.builder.heldTableTextStart === location.start) split = true;
        this.text.place(node, location, sink.eventData[i]!, split);
      } else if (kind === EV_COMMENT) {
        this.text.resolve();
        commentParent = node;
      } else if (kind === EV_POP) {
        // A tag's pops come after any pending table text was placed; a text token's pops (head closed
        // by text, say) fall inside the token, between its parts.
        if (resolveOnPop) this.text.resolve();
        if (this.implied.count > 0) this.implied.start();
        const el = node as ElementRecord;
        lastPopped = el;
        if (el === element) popped = true;
        else if (endToken !== null && !consumed && ((location !== null && location.start === ownStart) || el === madeByEndTag)) {
          this.elements.end(el, endToken);
          consumed = true;
        } else {
          this.elements.end(el, null);
          if (this.effects !== null) this.exec.effect(this.effects, this.effectIndex);
          this.effectIndex++;
          // An `<a>` or `<nobr>` start tag whose adoption agency algorithm closed a copy of its name took
          // the copy off the list too (§13.2.6.4.7): where the copy is in removed content, the output's
          // parser has the original's entry there, which must go as well (alignment.ts `droppedInsideRemoved`).
          const token = this.lastToken;
          if (el.reconstructed && token instanceof StartTagClass && token.name === el.localName && (token.name === 'a' || token.name === 'nobr') && this.builder.activeFormattingSinceMarker(0)?.includes(el) !== true) {
            this.exec.dropped(el, DROPPED_COPY_CLOSED, null);
          }
        }
      } else if (kind === EV_KEPT_OPEN) {
        // `</body>` or `</html>`, accepted: the end tag of an element that stays open.
        if (resolveOnPop) this.text.resolve();
        if (this.implied.count > 0) this.implied.start();
        if (endToken !== null && !consumed) consumed = this.elements.endTagKeptOpen(node as ElementRecord, endToken);
      }
    }
    sink.clearEvents();
    // The token's own element starts after the effects before it.
    if (element !== null) this.effectIndex = ownIndex;
    this.ownElement = element;
    this.ownPopped = popped;
    this.ownConsumed = consumed;
    this.ownCommentParent = commentParent;
    this.lastPopped = lastPopped;
  }

  private emitComment(token: CommentToken, parent: ParentRecord | null): void {
    this.text.endRun();
    // A comment in the document or the html element (before `<html>`, after `</body>`): not inside any
    // element a handler could remove with its content, so written even inside removed content.
    const documentLevel = this.aligning && (parent === this.sink.document || (parent !== null && parent === this.sink.root));
    if (!this.commentHandlersExist) {
      if (documentLevel) this.exec.documentLevel(token.raw, token.start, parent === this.sink.document ? null : this.sink.root);
      else this.exec.raw(token.raw, token.start);
      return;
    }
    const watch = this.moves === null ? null : this.moves.watch;
    if (watch !== null && watch.holding && !documentLevel) {
      // The adoption agency algorithm may yet move it out of the elements whose selectors reach it now:
      // its handlers are decided when the hold releases it (ops.ts `OP_HELD_COMMENT`).
      const op: HeldCommentOp = { k: OP_HELD_COMMENT, token, parent, closer: this.atEnd ? this.eofCommentCloser : null, at: this.at() };
      watch.heldContent(op);
      this.exec.push(op);
      return;
    }
    const handlers = this.lists.commentHandlersFor(parent instanceof ElementRecord ? parent : null);
    if (handlers.length === 0) {
      if (documentLevel) this.exec.documentLevel(token.raw, token.start, parent === this.sink.document ? null : this.sink.root);
      else this.exec.raw(token.raw, token.start);
    }
    else this.exec.push({ k: OP_COMMENT, token, parent, handlers, closer: this.atEnd ? this.eofCommentCloser : null, at: this.at(), documentLevel });
  }

  private emitDoctype(token: DoctypeToken): void {
    this.text.endRun();
    if (this.config.docDoctype.length === 0) this.exec.raw(token.raw, token.start);
    else this.exec.push({ k: OP_DOCTYPE, token });
  }

  /** After each write: the bound on what the rewriter holds (limits.ts). */
  private checkBound(): void {
    const last = this.lastToken;
    const tokenizerHeld = this.written - (last === null ? 0 : last.start + last.raw.length);
    const exec = this.exec;
    const held = exec.heldSize;
    const heldText = this.text.heldSize();
    const queued = exec.queuedSize - held;
    const moves = this.moves;
    if (held > 0 && moves !== null && this.onHoldReleased !== null && tokenizerHeld + heldText + queued + held > this.maxBuffered) {
      // The user chose to have held output written out rather than the stream errored: reported.
      try {
        const since = moves.releaseEarly();
        this.onHoldReleased(heldMessage(this.maxBuffered, held, since, true));
      } catch (err) {
        this.fail(err);
      }
      if (exec.failed) return;
      const err = boundExceeded(this.maxBuffered, tokenizerHeld, heldText, exec.queuedSize - exec.heldSize);
      if (err !== null) this.fail(err);
      return;
    }
    const err = boundExceeded(this.maxBuffered, tokenizerHeld, heldText, queued, held, moves === null ? '' : moves.watch.holdingSince());
    if (err !== null) this.fail(err);
  }

  private fail(err: unknown): void {
    this.exec.fail(err);
  }
}
