/**
 * `MoveWatch`: which elements the adoption agency algorithm (HTML §13.2.6.4.7) may still move, so that
 * their handlers wait until their place is final (transform/held-moves.ts holds the output meanwhile).
 *
 * The algorithm moves elements only in one way: the *furthest block* — the topmost special element
 * (§13.2.4.2 "special" category) above the formatting element on the stack of open elements, that
 * formatting element being on the stack and in the list of active formatting elements — goes, with
 * its subtree, to the common ancestor (step 14), its children go into a new copy of the formatting
 * element (steps 15–17), and copies of formatting elements between them wrap it (step 13). So an
 * element's ancestors (and thus its matches) can change only while it is, or is inside, an open special
 * element that has an open formatting element below it. Such an element is a *candidate* here.
 *
 * What is tracked, conservatively (holding longer than needed is only latency; releasing too early
 * would be a wrong match):
 * - open formatting elements: every open HTML element with a formatting name, in the list of active
 *   formatting elements or not (the list's markers are not looked at either);
 * - an element is *under formatting* when its parent, at its first insertion, was an open formatting
 *   element or under formatting itself (never cleared: a formatting element closed since keeps it);
 * - a candidate is a special element that can still be on the stack when an end tag arrives — not a
 *   void element (popped at once) nor one whose content is text (`script`, `title`, …) — inserted under
 *   formatting while a formatting element is open.
 *
 * The hold starts when a candidate is inserted. The output before the earliest candidate still open is
 * settled (no element made before it can be moved into a furthest block's subtree: the algorithm moves a
 * subtree whole and never puts earlier elements into it), so it is released as soon as that candidate
 * closes; all of it once no candidate or no formatting element is open.
 *
 * The view mirrors the moves (view-sink.ts); the one thing its parent links did not follow is the
 * furthest block's *closed* children going into the copy (`moveChildren`), since only open elements get
 * new content: for the held elements it follows that here, so that they can be matched again on the
 * tree after the move.
 */
import { NS } from '@sluice/tree-builder';
import { ElementRecord, FORMATTING_NAMES, type ParentRecord } from './records.js';

/** Text or a comment whose handlers wait for the hold (transform/ops.ts `HeldContent`): its parent, which the watch follows. */
export interface WatchedContent {
  parent: ParentRecord | null;
}

/** `ElementRecord.watchFlags`: an open formatting element, counted in `formattingOpen`. */
export const WATCH_FORMATTING = 1;
/** Its parent was an open formatting element or under one when it was inserted. */
export const WATCH_UNDER_FORMATTING = 2;
/** An open candidate (see the file comment), counted in `candidatesOpen`. */
export const WATCH_CANDIDATE = 4;
/** Its handlers are decided when the hold releases it, not when it was made (transform/elements.ts). */
export const WATCH_DEFERRED = 8;
/** Moved during a hold: a furthest block (`insertBefore` of a placed element, or `moveChildren` from it). */
export const WATCH_MOVED = 16;
/** Open (held) while the algorithm moved something: the end tag that made the move is in its content. */
export const WATCH_SPANS_MOVE = 32;
/** Its start handlers changed content at its start, renamed or removed it (transform/moved-content.ts). */
export const WATCH_CONTENT_CHANGED = 64;
/**
 * The algorithm moved an element out of it (it held the furthest block, and does not hold it now:
 * ViewSink `spansMoves`). The token that made the move closed it: that token is its end.
 */
export const WATCH_LOST_MOVED = 128;


/**
 * HTML special elements (§13.2.4.2) that can be a furthest block: all but the void elements (area,
 * base, basefont, bgsound, br, col, embed, frame, hr, img, input, keygen, link, meta, param, source,
 * track, wbr — popped as soon as they are inserted) and those whose content the tokenizer reads as text
 * (iframe, noembed, noframes, plaintext, script, style, textarea, title, xmp — no end tag of a
 * formatting element reaches the tree builder while they are open). `noscript` stays (it has element
 * content when scripting is off).
 */
const HTML_BLOCKS: ReadonlySet<string> = new Set([
  'address', 'applet', 'article', 'aside', 'blockquote', 'body', 'button', 'caption', 'center', 'colgroup', 'dd', 'details', 'dir',
  'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head',
  'header', 'hgroup', 'html', 'li', 'listing', 'main', 'marquee', 'menu', 'nav', 'noscript', 'object', 'ol', 'p', 'pre', 'search',
  'section', 'select', 'summary', 'table', 'tbody', 'td', 'template', 'tfoot', 'th', 'thead', 'tr', 'ul',
]);
/** The special MathML and SVG elements (§13.2.4.2). */
const MATHML_BLOCKS: ReadonlySet<string> = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml']);
const SVG_BLOCKS: ReadonlySet<string> = new Set(['foreignObject', 'desc', 'title']);

function canBeFurthestBlock(el: ElementRecord): boolean {
  const ns = el.namespace;
  if (ns === NS.HTML) return HTML_BLOCKS.has(el.localName);
  return ns === NS.MATHML ? MATHML_BLOCKS.has(el.localName) : SVG_BLOCKS.has(el.localName);
}

/** A candidate and where the hold stood when it was inserted. */
interface Candidate {
  readonly el: ElementRecord;
  /** Held elements before it (absolute count since the hold began). */
  readonly elementMark: number;
  /** Held ops before it (the executor's count, see `opsHeld`). */
  readonly opMark: number;
  /** The offset of the token that made it (for messages). */
  readonly offset: number;
}

/** See the file comment. One per rewrite whose element handlers have a selector a move can change. */
export class MoveWatch {
  /** Open formatting elements. */
  formattingOpen = 0;
  /** Whether output is held. */
  holding = false;
  /** Set when a candidate or a formatting element closed during the hold: the transformer looks after the token. */
  releasePending = false;
  /** Whether the algorithm moved an element since the hold began (the held elements are then matched again). */
  moved = false;
  /** Moves seen while not holding: none if the analysis above is right (the tests read it). */
  movesUnheld = 0;
  /** The largest number of elements held at once (for the tests and measurements). */
  peakHeld = 0;

  /** Called when a hold begins (the executor starts holding ops). */
  onHoldStart: () => void = () => {};
  /** The executor's count of ops held so far in this hold. */
  opsHeld: () => number = () => 0;
  /** The offset of the token being processed. */
  offsetNow: () => number = () => -1;

  /** Open candidates in insertion order, closed ones dropped from the front (`head`) lazily. */
  private candidates: Candidate[] = [];
  private head = 0;
  /** Elements first inserted during the hold, in order; `released` of them (from `base`) are gone. */
  private held: (ElementRecord | undefined)[] = [];
  private heldHead = 0;
  /** Absolute count of held elements before `held[0]`. */
  private heldBase = 0;
  /**
   * The closed held children of each open candidate: whose parent links `moveChildren` must follow when
   * that candidate is a furthest block (only a candidate can be one; its open children the view moves).
   */
  private children = new Map<ParentRecord, ElementRecord[]>();
  /** Likewise the held text and comments in each open candidate (`heldContent`). */
  private content = new Map<ParentRecord, WatchedContent[]>();
  /** Moves during this hold (held elements remember the count when they were inserted: `watchMark`). */
  private moveCount = 0;

  /** `el`, held, is closed or released: `WATCH_SPANS_MOVE` if a move happened while it was open. */
  private noteSpan(el: ElementRecord): void {
    const at = el.watchMark;
    if (at < 0) return;
    el.watchMark = -1;
    if (at !== this.moveCount) el.watchFlags |= WATCH_SPANS_MOVE;
  }

  /** `node` entered the tree (its first insertion, into `parent`). */
  inserted(parent: ParentRecord, node: ElementRecord): void {
    let flags = 0;
    if (parent instanceof ElementRecord && (parent.watchFlags & (WATCH_FORMATTING | WATCH_UNDER_FORMATTING)) !== 0) flags = WATCH_UNDER_FORMATTING;
    if (node.namespace === NS.HTML && FORMATTING_NAMES.has(node.localName)) {
      flags |= WATCH_FORMATTING;
      this.formattingOpen++;
    } else if (flags !== 0 && this.formattingOpen > 0 && !node.inTemplate && canBeFurthestBlock(node)) {
      flags |= WATCH_CANDIDATE;
      if (!this.holding) {
        this.holding = true;
        this.moved = false;
        this.onHoldStart();
      }
      this.candidates.push({ el: node, elementMark: this.heldBase + this.held.length, opMark: this.opsHeld(), offset: this.offsetNow() });
    }
    node.watchFlags = flags;
    if (!this.holding) return;
    node.watchMark = this.moveCount;
    this.held.push(node);
    const n = this.held.length - this.heldHead;
    if (n > this.peakHeld) this.peakHeld = n;
  }

  /**
   * Text or a comment went into `item.parent` during the hold, its handlers to be decided when released.
   * When that parent is a candidate, its children may yet go into a copy (`movedChildren`): the item
   * goes with them.
   */
  heldContent(item: WatchedContent): void {
    const parent = item.parent;
    if (!(parent instanceof ElementRecord) || (parent.watchFlags & WATCH_CANDIDATE) === 0) return;
    const list = this.content.get(parent);
    if (list === undefined) this.content.set(parent, [item]);
    else list.push(item);
  }

  /** `el` left the stack of open elements. */
  closed(el: ElementRecord): void {
    const flags = el.watchFlags;
    if ((flags & WATCH_FORMATTING) !== 0) {
      el.watchFlags = flags & ~WATCH_FORMATTING;
      if (--this.formattingOpen === 0 && this.holding) this.releasePending = true;
    }
    if ((flags & WATCH_CANDIDATE) !== 0) {
      el.watchFlags &= ~WATCH_CANDIDATE;
      if (this.holding) {
        this.releasePending = true;
        // A closed element's children never get a new parent: only an open furthest block's do.
        this.children.delete(el);
        this.content.delete(el);
      }
    }
    if (this.holding && el.watchMark >= 0) {
      this.noteSpan(el);
      const parent = el.parent;
      if (parent instanceof ElementRecord && (parent.watchFlags & WATCH_CANDIDATE) !== 0) {
        const siblings = this.children.get(parent);
        if (siblings === undefined) this.children.set(parent, [el]);
        else siblings.push(el);
      }
    }
  }

  /**
   * The algorithm moved `node`, an element in the tree already (`insertBefore` of a placed node: steps
   * 13.8 and 14). It is open (a furthest block): the view has its new parent.
   */
  movedElement(node: ElementRecord): void {
    if (!this.holding) {
      this.movesUnheld++;
      return;
    }
    this.moved = true;
    this.moveCount++;
    node.watchFlags |= WATCH_MOVED;
  }

  /**
   * The closed held children of `from`, an open candidate, whose parent links `movedChildren` will
   * follow (the view reads their names first: ViewSink `childrenMoveVoidsMemos`); undefined when none.
   */
  closedChildrenOf(from: ParentRecord): readonly ElementRecord[] | undefined {
    return this.children.get(from);
  }

  /** Every child of `from` went to `to` (step 17: the furthest block's children into the copy). */
  movedChildren(from: ParentRecord, to: ParentRecord): void {
    if (!this.holding) {
      this.movesUnheld++;
      return;
    }
    this.moved = true;
    this.moveCount++;
    if (from instanceof ElementRecord) from.watchFlags |= WATCH_MOVED;
    const content = this.content.get(from);
    if (content !== undefined) {
      this.content.delete(from);
      for (const item of content) item.parent = to;
    }
    const list = this.children.get(from);
    if (list === undefined) return;
    this.children.delete(from);
    // (`to` is the copy of a formatting element, never a furthest block: its children need no list.)
    for (const child of list) child.parent = to;
  }

  /**
   * After a token: what the hold may release now. Returns null when nothing; else how far: the held
   * elements settled (their count from the hold's start, to be matched again when `moved`) and the held
   * ops to run (the executor's count; `Infinity`: all, and the hold ends).
   */
  settled(): { elements: number; ops: number } | null {
    this.releasePending = false;
    if (!this.holding) return null;
    const candidates = this.candidates;
    let head = this.head;
    while (head < candidates.length && (candidates[head]!.el.watchFlags & WATCH_CANDIDATE) === 0) head++;
    this.head = head;
    if (head === candidates.length || this.formattingOpen === 0) return { elements: Infinity, ops: Infinity };
    // (Releasing up to the same candidate again releases nothing more.)
    const first = candidates[head]!;
    return { elements: first.elementMark, ops: first.opMark };
  }

  /** The earliest candidate still open, as a message names it (`<div> at offset 12`); '' when none. */
  holdingSince(): string {
    for (let i = this.head; i < this.candidates.length; i++) {
      const c = this.candidates[i]!;
      if ((c.el.watchFlags & WATCH_CANDIDATE) !== 0) return `<${c.el.localName}> at offset ${c.offset}`;
    }
    return '';
  }

  /**
   * Hand the held elements up to `upTo` (absolute count) to `each`, in order, and forget them; with
   * `Infinity`, end the hold.
   */
  release(upTo: number, each: ((el: ElementRecord) => void) | null): void {
    const held = this.held;
    const end = upTo === Infinity ? held.length : Math.min(held.length, upTo - this.heldBase);
    for (let i = this.heldHead; i < end; i++) {
      const el = held[i]!;
      held[i] = undefined;
      // (Released while open: a later move is not noted on it; its handlers have run by then.)
      this.noteSpan(el);
      if (each !== null) each(el);
    }
    if (end > this.heldHead) this.heldHead = end;
    if (upTo === Infinity) {
      for (let i = this.head; i < this.candidates.length; i++) this.candidates[i]!.el.watchFlags &= ~WATCH_CANDIDATE;
      this.candidates = [];
      this.head = 0;
      this.held = [];
      this.heldBase += end;
      this.heldHead = 0;
      this.children.clear();
      this.content.clear();
      this.moveCount = 0;
      this.holding = false;
      this.moved = false;
      return;
    }
    // Compact what was released (and the closed candidates passed), so that a long hold stays bounded.
    if (this.heldHead > 1024 && this.heldHead * 2 > held.length) {
      this.held = held.slice(this.heldHead);
      this.heldBase += this.heldHead;
      this.heldHead = 0;
    }
    if (this.head > 1024 && this.head * 2 > this.candidates.length) {
      this.candidates = this.candidates.slice(this.head);
      this.head = 0;
    }
  }
}
