/**
 * Keeping the parser that reads the output where the input's parser is: exact on the final tree when
 * handlers change content (issue 14).
 *
 * The rewriter copies the input's tokens and writes its handlers' changes between them. A browser
 * reading the output runs the tree construction algorithm (HTML §13.2.6) on *those* tokens. While the
 * output is the input with tags rewritten in place, both parsers do the same thing at every token. A
 * content change breaks that in a few ways, each of which this unit repairs by writing markup:
 *
 * - **Effects of a token land before content.** A token does more than make its own element: `<div>`
 *   closes an open `<p>` (§13.2.6.4.7), `</section>` closes what is still open inside it, a start tag
 *   in the "before html" mode makes `<html>`, `<head>` and `<body>` (§13.2.6.4.1–.6), text reopens the
 *   formatting elements that were closed implicitly (§13.2.4.3 "reconstruct the active formatting
 *   elements"). The output's parser does these only when it reads the token; content written before
 *   the token (an `append` at an element that the token closes, `before` at an element the token
 *   makes, …) would land inside what is not closed yet. So the token's effects so far are written
 *   first, explicitly: an end tag for each element it closed (`</p>`), a start tag for each element it
 *   made up (`<body>`, a copy of a formatting element). The same when the token itself is not written
 *   (removed, replaced, unwrapped, renamed: the output's parser never reads it).
 * - **Reconstruction would take content in.** Text reopens every formatting element that was closed
 *   implicitly and is still in the list of active formatting elements: `<p><i>x<h1>` then `[`
 *   prepended to the `h1` would reparse inside a copy of the `i`. Before such content, those entries
 *   are taken off the output parser's list with an end tag each (`</i>`: the adoption agency algorithm
 *   drops an entry whose element is not open, step 4.4), and marked *detached*.
 * - **Detached entries.** The input's parser still has them, and copies them where its input reopens
 *   them: such a copy is written as an explicit start tag (with its own attributes and handlers'
 *   changes: a copy may then differ from its original). An entry the input's parser drops without
 *   closing (§13.2.6.4.7 step 4.4) is dropped by an end tag the output must then not have: it is left
 *   out.
 * - **Copies whose original is not in the output** (removed with its content, or taken off the list as
 *   above) are written explicitly in the same way, so are copies a handler changed on their own.
 *
 * What no markup can do is refused with an error that names the element and the reason (an explicit
 * end tag that would also change the form element pointer or the list's markers, say); never written
 * as a wrong tree.
 *
 * Only the information the executor needs is kept. In phase A (transformer.ts) the tree builder's
 * events for a token become a `TokenEffects`, and each op that may write content gets an `AlignPoint`:
 * the token's effects before it, and the entries at the end of the list that are not open (what the
 * output's parser would reconstruct). In phase B (executor.ts) — possibly later, behind an async handler
 * or held output — this unit decides what to write from them and from its own record of what the
 * output's parser has been given.
 */
import { NS } from '@sluice/tree-builder';
import { BUTTON_SCOPE, IMPLIED_END_FOR_OPTION, SCOPE_BOUNDARY, RENAME_DETACH, RENAME_MATERIALIZE, WALK_DD, WALK_HEADING, WALK_HR, WALK_LI, WALK_OPTGROUP, WALK_OPTION, isSpecial, walkTarget } from './tag-classes.js';

/**
 * Whether a rule of `kind` stops at an element of this name: the walks of `<li>`, `<dd>`, `<dt>` at the
 * element they look for or a special element other than address, div, p (§13.2.6.4.7); the current-node
 * rules at once.
 */
function stopsWalk(kind: number, walks: boolean, localName: string, namespace: string): boolean {
  if (!walks) return true;
  const el = { localName, namespace };
  if (walkTarget(kind, el)) return true;
  if (!isSpecial(localName, namespace)) return false;
  return !(namespace === HTML && (localName === 'address' || localName === 'div' || localName === 'p'));
}
import type { TreeBuilder } from '@sluice/tree-builder';
import { escapeAttributeValue } from '../rewritable-units/content.js';
import {
  ElementRecord,
  FORMATTING_NAMES,
  type ParentRecord,
  containerOf,
  insideRemovedContent,
  type NodeRecord,
  OUT_ABSENT,
  OUT_CLOSED,
  OUT_CONTENT_ABSENT,
  OUT_DETACHED,
  OUT_ENDED_OPEN,
  OUT_EXPLICIT,
  OUT_HELD_TEXT_COPY,
  OUT_NOAHS_DROPPED,
  OUT_UNWRAPPED,
} from '../view/records.js';

const NO_TAIL_BEFORE: readonly ElementRecord[] = Object.freeze([]) as readonly ElementRecord[];

/** A `TokenEffects` entry: the tree builder closed the element (not by its own end tag). */
export const EFFECT_POP = 0;
/** A `TokenEffects` entry: the tree builder made the element up (implied, or a copy). */
export const EFFECT_CREATE = 1;
/**
 * A `TokenEffects` entry: the token put an element, or text, outside a table (foster parenting, §13.2.6.1);
 * the node is the element, or the element the text went into. Nothing to write: the output's parser does
 * the same reading the token; but a token inside removed content must not do it (`insideRemoved`).
 */
export const EFFECT_FOSTER = 2;

/** The effects of a token with none: shared (most tokens have none, and an effects record is made for many). */
const NO_NODES: readonly ElementRecord[] = Object.freeze([]);
const NO_KINDS: readonly number[] = Object.freeze([]);

/**
 * What the tree builder did for one token besides making or closing the token's own element, in order.
 * `done` counts the effects the output's parser has had (written explicitly); `written` is set once the
 * token itself is in the output, unchanged in what it does (the output's parser then does the rest).
 */
export class TokenEffects {
  /** The effects in order (`add`): the element, and what happened to it (`EFFECT_*`). */
  nodes: readonly ElementRecord[] = NO_NODES;
  kinds: readonly number[] = NO_KINDS;
  done = 0;
  written = false;
  /**
   * @param start @param end the token's span in the input (`end` = `start` at the end of the input)
   * @param tail the entries at the end of the list of active formatting elements (after the last
   *   marker) whose elements were not open once the tree builder had processed the token, in list
   *   order: what a parser reconstructs at the next text (§13.2.4.3)
   */
  constructor(
    readonly start: number,
    readonly end: number,
    readonly tail: readonly ElementRecord[],
    /** The end of the input: the output's parser does what it does (closes every element) by reaching it too. */
    readonly atEnd = false,
    /**
     * At the end of the input: the entries before each marker of the list (the tail's continuation,
     * from the end). The markers stay at the end of the input, where the cells that pushed them are
     * closed without clearing them; an explicit end tag for a cell clears its marker (§13.2.6.4.15),
     * which makes the entries before it the end of the list for the output's parser.
     */
    readonly beyondMarkers: readonly (readonly ElementRecord[])[] = NO_SEGMENTS,
  ) {}
  /** How many of `beyondMarkers` the output's parser sees as the end of its list (cells closed explicitly). */
  exposed = 0;
  /**
   * Before the tree builder processed the token: the entries `tail` held then, and the open element that
   * ended them (null: a marker, or the start of the list). Content written before the output's parser
   * reads the token meets its list as it was then (`detachTail`).
   */
  tailBefore: readonly ElementRecord[] = NO_TAIL_BEFORE;
  boundaryBefore: ElementRecord | null = null;
  /** After the token: the open element whose entry ends `tail` (null: a marker, or the start of the list). */
  boundary: ElementRecord | null = null;
  /** The token's tag name, when it is an end tag (a renamed element it closes may answer to it: executor.ts). */
  endTagName: string | null = null;
  /**
   * The token placed whitespace the tree builder held "in table text" (§13.2.6.4.10) in the table (not
   * foster-parented): the output's parser holds it too until it reads the token, and would take text
   * written before the token with it (`beforeContent`).
   */
  heldWhitespace = false;
  /**
   * The token placed text the tree builder held "in table text" (§13.2.6.4.10), whitespace or not (then
   * foster-parented): left out, the output's parser would still hold that text and join the text after
   * it to it — `</table><font><table>x</b> ` with the font unwrapped (`</b>`, ignored, placed the `x`):
   * "x " is not whitespace and goes before the table whole, where the input's parser kept the space in it.
   */
  heldText = false;
  /**
   * The token is text the tree builder holds "in table text" (§13.2.6.4.10), which the rewriter writes
   * later, from its source, at the token that places it: the output's parser does what this token did
   * when it reads that text (`source`). An op of a later token (a copy the placing reconstructs) must
   * not write it first (`enter`, `settleBefore`): `<table><b><col>x` with an end handler on the colgroup
   * would get a `</colgroup>` the input does not have. Content written before that text still settles
   * it (`beforeContent`): the output's parser reads the content first, where the token had not acted yet.
   * (So the check is not in `settle`, which both share.)
   */
  sourceHeld = false;

  /**
   * `copies` were reconstructed for table text the output's parser holds, before this token: to content
   * written before the token, the entries they were made of are not at the end of that parser's list.
   */
  tailReopened(copies: readonly ElementRecord[]): void {
    const before = this.tailBefore;
    if (before.length === 0) return;
    const rest = before.filter((el) => !copies.some((copy) => copy.copiedFrom === el));
    if (rest.length === before.length) return;
    this.tailBefore = rest.length === 0 ? NO_TAIL_BEFORE : rest;
    if (rest.length === 0) this.boundaryBefore = null;
  }

  add(kind: number, el: ElementRecord): void {
    if (this.nodes.length === 0) {
      this.nodes = [el];
      this.kinds = [kind];
      return;
    }
    (this.nodes as ElementRecord[]).push(el);
    (this.kinds as number[]).push(kind);
  }

  get length(): number {
    return this.nodes.length;
  }

  /** Whether `el` is an element this token closed that the output's parser has not closed yet. */
  pendingPop(el: ElementRecord): boolean {
    if (this.written) return false;
    for (let i = this.done; i < this.nodes.length; i++) if (this.nodes[i] === el && this.kinds[i] === EFFECT_POP) return true;
    return false;
  }
}

export const NO_TAIL: readonly ElementRecord[] = Object.freeze([]) as readonly ElementRecord[];
const NO_SEGMENTS: readonly (readonly ElementRecord[])[] = Object.freeze([]) as readonly (readonly ElementRecord[])[];
/** The effects of a token that had none, with nothing to reconstruct after it (never changed). */
export const NO_EFFECTS: TokenEffects = Object.freeze(new TokenEffects(-1, -1, NO_TAIL)) as TokenEffects;

/** Where an op stands among its token's effects. */
export interface AlignPoint {
  readonly effects: TokenEffects;
  /** How many of `effects` came before the op. */
  readonly upTo: number;
}

/** An op of a token that needs nothing of this. */
export const NO_ALIGN: AlignPoint = Object.freeze({ effects: NO_EFFECTS, upTo: 0 });

/** The entries a reconstruction would copy now (see `AlignPoint.tail`): usually none, found in O(1). */
export function reconstructionTail(builder: TreeBuilder<NodeRecord>): readonly ElementRecord[] {
  const tail = builder.activeFormattingTail();
  return tail.length === 0 ? NO_TAIL : (tail as ElementRecord[]);
}

/** An `AlignPoint`, or `NO_ALIGN` when there is nothing in it. */
export function alignPoint(effects: TokenEffects, upTo: number): AlignPoint {
  if (effects === NO_EFFECTS) return NO_ALIGN;
  return { effects, upTo };
}

const HTML = NS.HTML;

/** HTML elements that an explicit end tag cannot close the way the tree builder closed them implicitly. */
const UNCLOSABLE: Readonly<Record<string, string>> = {
  html: 'the html element stays open to the end of the document',
  body: 'the body element stays open to the end of the document',
  plaintext: 'nothing ends a <plaintext> element',
  applet: 'its end tag would also clear the list of active formatting elements up to its marker, which closing it implicitly keeps',
  marquee: 'its end tag would also clear the list of active formatting elements up to its marker, which closing it implicitly keeps',
  object: 'its end tag would also clear the list of active formatting elements up to its marker, which closing it implicitly keeps',
};

/** Elements whose end tag clears the list of active formatting elements up to a marker they pushed (and that `close` may write). */
const MARKER_OWNERS: ReadonlySet<string> = new Set(['td', 'th', 'caption', 'template']);

/** The elements the tree builder makes up (besides copies), which an explicit start tag makes the same way. */
const IMPLIED_NAMES: ReadonlySet<string> = new Set(['html', 'head', 'body', 'tbody', 'tr', 'colgroup', 'p']);

/**
 * Whether `content`, written where the implied element `name` (one of `IMPLIED_NAMES`) begins, makes
 * the output's parser make that element by itself (or is such that no markup could place it inside it:
 * text in a table section): then it is not written explicitly first.
 */
export function contentImplies(name: string, content: string): boolean {
  if (name === 'html' || name === 'head' || name === 'body') return impliesBody(content);
  if (content.length === 0 || !(name === 'tbody' || name === 'tr' || name === 'colgroup')) return false;
  const c = content.charCodeAt(0);
  if (c !== 0x3c) return !(c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d);
  const m = /^<([a-zA-Z][^\s/>]*)/.exec(content);
  if (m === null) return false;
  const tag = m[1]!.toLowerCase();
  // (§13.2.6.4.9, .13, .14: these start tags imply a tbody, a tr, a colgroup.)
  if (name === 'tbody') return tag === 'tr' || tag === 'td' || tag === 'th';
  if (name === 'tr') return tag === 'td' || tag === 'th';
  if (name === 'colgroup') return tag === 'col';
  return false;
}

/** Whether `s` starts with a character reference that stands for whitespace (or may: a numeric one decoded). */
function startsWithWhitespaceReference(s: string): boolean {
  const m = /^&(?:#[xX]([0-9a-fA-F]+)|#([0-9]+)|(Tab|NewLine))/.exec(s);
  if (m === null) return false;
  if (m[3] !== undefined) return true;
  const code = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2]!, 10);
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d || code === 0;
}

/** HTML elements text cannot be a child of in markup: a parser puts it elsewhere (§13.2.6.4.9–.14, .4.4, .4.18). */
const NO_TEXT_INSIDE: ReadonlySet<string> = new Set(['table', 'tbody', 'thead', 'tfoot', 'tr', 'colgroup', 'frameset', 'html', 'head']);

/** HTML elements whose text a parser holds as "in table text" (§13.2.6.4.10) until a token other than text comes. */
export const TABLE_TEXT_PARENTS: ReadonlySet<string> = new Set(['table', 'tbody', 'thead', 'tfoot', 'tr']);

/** Elements whitespace goes into without a reconstruction of the active formatting elements (`beforeContent`). */
const NO_RECONSTRUCTION_FOR_WHITESPACE: ReadonlySet<string> = new Set([...TABLE_TEXT_PARENTS, 'colgroup', 'head', 'frameset']);

/**
 * Refuse text content that no markup can put into `into`: text that is not whitespace, in a table, a
 * table section, a row (a parser foster-parents it out of the table), a `<colgroup>`, `<frameset>`,
 * `<html>` or `<head>`. (Content with markup in it is the handler's: it goes where a parser puts it.)
 */
function checkTextTarget(into: ElementRecord, content: string): void {
  if (into.namespace !== HTML || !NO_TEXT_INSIDE.has(into.localName) || content.includes('<')) return;
  if (!/[^\t\n\f\r ]/.test(content)) return;
  throw alignmentError(
    `the text ${JSON.stringify(content.length > 20 ? `${content.slice(0, 20)}…` : content)} in the <${into.localName}>`,
    into.localName === 'html' || into.localName === 'head' || into.localName === 'frameset' || into.localName === 'colgroup'
      ? `a parser puts no text but whitespace there`
      : `a parser puts text in a table elsewhere (foster parenting, HTML §13.2.6.4.10)`,
  );
}

/** What content that `impliesBody` makes the output's parser make (`<html>`, `<head>`, `<body>`) or close (`</head>`) by itself. */
const IMPLIED_BY_CONTENT: ReadonlySet<string> = new Set(['html', 'head', 'body']);

/** Start tags with rules of their own before the body (§13.2.6.4.2–.6): they do not imply a body. */
const HEAD_TAGS: ReadonlySet<string> = new Set(['html', 'head', 'body', 'base', 'basefont', 'bgsound', 'link', 'meta', 'noframes', 'script', 'style', 'template', 'title', 'noscript', 'frameset']);

/**
 * Whether `content` begins with what makes a parser, before the body, imply `<html>`, `<head>` and
 * `<body>` (closing the head) exactly as any token of the body does: a character that is not
 * whitespace (§13.2.6.4.1–.6 "anything else"), or a start tag without rules of its own there.
 */
export function impliesBody(content: string): boolean {
  if (content.length === 0) return false;
  const c = content.charCodeAt(0);
  if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0) return false;
  // A character reference may stand for whitespace (`&#32;`, `&Tab;`); `&amp;` and the like do not.
  if (c === 0x26) return !startsWithWhitespaceReference(content);
  if (c !== 0x3c) return true;
  const m = /^<([a-zA-Z][^\s/>]*)/.exec(content);
  if (m === null) return false;
  const name = m[1]!.toLowerCase();
  // A `<frameset>` takes the body's place (§13.2.6.4.6): no body is to be made for it.
  return name === 'frameset' || !HEAD_TAGS.has(name);
}

function isFormatting(el: ElementRecord): boolean {
  return el.namespace === HTML && FORMATTING_NAMES.has(el.localName);
}

/**
 * The reason given with `droppedInsideRemoved` for a reconstructed copy closed by its own end tag, which
 * takes its entry off the list (§13.2.6.4.7): inside removed content, the output's parser never made the
 * copy and still has its original's entry.
 */
export const DROPPED_COPY_CLOSED = 'copy-closed';

/**
 * An end tag that does nothing where the rewriter writes it, but end a run of table text (every table
 * insertion mode ignores it, §13.2.6.4.9, .13, .14) or take the parser from after the body back into it
 * (there it is "any other end tag", and no caption can be open: the body was in scope for the `</body>`
 * or `</html>`).
 */
export const IGNORED_END_TAG = '</caption>';

/** The error for a change the output cannot express (see the file comment). */
export function alignmentError(what: string, why: string): Error {
  return new Error(`HTMLRewriter: ${what} cannot be written so that a browser builds the same tree: ${why} (docs/rewriter.md, "Exact on the final tree").`);
}

/** How an element's start tag is written, for explicit copies and implied elements. */
export type TagWriter = (el: ElementRecord) => string;

let verifyingPresence = false;

/**
 * For tests: check every memoized answer of `OutputAlignment.present` against a walk up the ancestors,
 * and throw where they differ (O(depth) per check).
 */
export function verifyPresence(on: boolean): void {
  verifyingPresence = on;
}

/** Phase B's record of what the output's parser has, and the markup that keeps it in step; see the file comment. */
export class OutputAlignment {
  /** The effects of the token being output, while the output's parser has not had all of them. */
  private pending: TokenEffects | null = null;
  /** Where the source written so far ends (the executor keeps it: source is written in input order). */
  sourceReached = 0;
  /**
   * Set while output is dropped (inside a removed element: the executor's `suppress`): nothing the
   * tokens there did reaches the output's parser, so nothing is settled or written for them; what the
   * token before did is written at the first output after.
   */
  suppressed = false;
  /** An explicit `</form>` cleared the output parser's form element pointer, which the input's keeps. */
  formPointerDiverged = false;
  /**
   * The output parser's frameset-ok flag (§13.2.4.5) may be "not ok" where the input's is "ok": content
   * was written in the body, or an explicit `<body>`. A `<frameset>` the input's parser then takes (it
   * replaces the body) the output's would ignore: refused.
   */
  framesetOkDiverged = false;
  /**
   * The output parser's frameset-ok flag may be "ok" where the input's is "not ok": source that set it
   * (a start tag like `<img>`, text) was left out. A `<frameset>` the input's parser ignores is then left
   * out too (the output's could take it).
   */
  framesetOkLoose = false;
  /**
   * How many elements are open whose tags `removeAndKeepContent()` left out, or that a rename gave a
   * name of another class (tag-classes.ts): their ends not output yet.
   */
  openUnwrapped = 0;

  /**
   * @param write writes markup to the output (the executor's `emit`)
   * @param tagOf the start tag to write for an element made explicit (a copy's, an implied element's)
   */
  constructor(
    private readonly writeOut: (markup: string) => void,
    private readonly tagOf: TagWriter,
  ) {}

  /**
   * Set once the output has a `<plaintext>` start tag: everything after it is text to a parser
   * (§13.2.5.5), markup the alignment would write too. Then it writes nothing: refused.
   */
  plaintext = false;

  private write(markup: string): void {
    if (this.plaintext) {
      throw alignmentError(`${markup} after the <plaintext>`, 'everything after a <plaintext> start tag is text to a parser (HTML §13.2.5.5)');
    }
    this.writeOut(markup);
  }

  /**
   * Set (`leaveOut`) once an element or an element's content is left out of the output (`OUT_ABSENT`,
   * `OUT_CONTENT_ABSENT`): from then on `present` looks at the ancestors too.
   */
  removedSeen = false;

  /**
   * Set (`leaveOut`, `rename`) once an element is unwrapped or renamed in the output. With `removedSeen`:
   * until either is set, the output parser's elements are the input's, under the same names, and no
   * rule that looks at the stack (`checkWalk`) can read it otherwise (`treeChanged`).
   */
  unwrappedOrRenamed = false;

  /** `el` is left out of the output (`OUT_ABSENT`), its content is (`OUT_CONTENT_ABSENT`), or its tags are (`OUT_UNWRAPPED`). */
  leaveOut(el: ElementRecord, how: typeof OUT_ABSENT | typeof OUT_CONTENT_ABSENT | typeof OUT_UNWRAPPED): void {
    el.out |= how;
    if (how === OUT_UNWRAPPED) this.unwrappedOrRenamed = true;
    else {
      this.removedSeen = true;
      // (Memos below `el` said nothing around them was left out: void. Usually `el` has none — its
      // handler runs before anything is put in it.)
      if (el.presentMemo === this.presenceEpoch) this.presenceEpoch++;
    }
  }

  /** `el` or its children are moved (the adoption agency algorithm): memos of walks through it are void. */
  moved(el: ElementRecord): void {
    const m = el.presentMemo;
    if (m === this.presenceEpoch || m === -this.presenceEpoch) this.presenceEpoch++;
  }

  /** `present`'s memos are valid while this holds (bumped where one may have become wrong). */
  private presenceEpoch = 1;
  private readonly presencePath: ElementRecord[] = [];

  /**
   * Whether `start` or an element around it (up through template contents) is left out of the output
   * or has its content left out. The walk up is remembered on each element it passes (`presentMemo`)
   * and stops at the first that remembers: O(1) amortized, where walking every time made each check
   * O(depth) — a rewrite that removes a `<script>` and then reads n nested formatting elements was
   * quadratic (docs/rewriter.md, Cost).
   */
  private absentAround(start: ParentRecord | null): boolean {
    const epoch = this.presenceEpoch;
    const path = this.presencePath;
    let absent = false;
    for (let x: ParentRecord | null = start; x !== null; x = containerOf(x)) {
      if (!(x instanceof ElementRecord)) continue;
      const m = x.presentMemo;
      if (m === epoch) break;
      if (m === -epoch) {
        absent = true;
        break;
      }
      path.push(x);
      if ((x.out & (OUT_ABSENT | OUT_CONTENT_ABSENT)) !== 0) {
        absent = true;
        break;
      }
    }
    const memo = absent ? -epoch : epoch;
    for (let i = 0; i < path.length; i++) path[i]!.presentMemo = memo;
    path.length = 0;
    return absent;
  }

  /** `el` is in the output under the name `name`. */
  rename(el: ElementRecord, name: string): void {
    el.outputName = name;
    this.unwrappedOrRenamed = true;
  }

  /** Whether an element of the input's tree may be missing from the output parser's, or named otherwise there. */
  get treeChanged(): boolean {
    return this.removedSeen || this.unwrappedOrRenamed;
  }

  /** Whether the output has `el`'s content: it is `present`, or unwrapped (its content then in its parent's place). */
  private contentPresent(el: ElementRecord): boolean {
    if ((el.out & OUT_UNWRAPPED) === 0) return this.present(el);
    if ((el.out & OUT_ABSENT) !== 0) return false;
    return !this.removedSeen || !this.absentAround(el.parent);
  }

  /** Whether the element is in the output parser's tree (not removed, unwrapped, or inside removed content). */
  present(el: ElementRecord): boolean {
    if ((el.out & (OUT_UNWRAPPED | OUT_ABSENT)) !== 0) return false;
    // (Only once something was removed can an ancestor be: the walk is O(depth), and documents that
    // nest deep — `<a><b>` × n nests n deep — would make every check of every token quadratic.)
    if (!this.removedSeen) return true;
    // (Up through template contents to their template: removed with it.)
    const absent = this.absentAround(el.parent);
    if (verifyingPresence && absent !== insideRemovedContent(el.parent)) {
      throw new Error(`OutputAlignment.present: for a <${el.localName}>, the memo says ${absent ? '' : 'not '}inside removed content, the walk says otherwise`);
    }
    return !absent;
  }

  /** `insideRemovedContent(node)`, from the memos of `absentAround` (for the view's checks of moves: ViewSink `insideRemoved`). */
  insideRemovedMemo(node: ParentRecord | null): boolean {
    const absent = this.absentAround(node);
    if (verifyingPresence && absent !== insideRemovedContent(node)) {
      throw new Error(`OutputAlignment.insideRemovedMemo: the memo says ${absent ? '' : 'not '}inside removed content, the walk says otherwise`);
    }
    return absent;
  }

  /**
   * The element whose entry in the output parser's list stands for `el`'s entry in the input's: `el`,
   * or, for a copy a reconstruction made inside removed content (which the output's parser never made),
   * its original (that parser still has the original's entry).
   */
  entryOf(el: ElementRecord): ElementRecord {
    while (el.reconstructed && el.copiedFrom !== null && !this.present(el)) el = el.copiedFrom;
    return el;
  }

  /** Whether the output parser has `el` in its list of active formatting elements (when the input's has it). */
  inOutputList(el: ElementRecord): boolean {
    return (el.out & OUT_DETACHED) === 0 && this.present(el);
  }

  /** Whether the output's parser has not had all that the token being output did (`source` must be told). */
  get pendingToken(): boolean {
    return this.pending !== null;
  }

  // --- The token being output ------------------------------------------------------------------

  /**
   * An op of the token whose effects are `effects` runs now. The effects of an earlier token that the
   * output never had (the token was not written) are written first.
   */
  enter(effects: TokenEffects): void {
    const p = this.pending;
    if (p === effects) return;
    if (this.suppressed) return;
    if (p !== null) {
      if (p.sourceHeld) this.pending = null;
      else this.settle(p);
    }
    // Some of the token's own text written already (a text token split between elements, before the
    // op of what it made): the output's parser has read it.
    if (this.sourceReached > effects.start && effects.start >= 0) effects.written = true;
    this.pending = effects.length > 0 && !effects.written ? effects : null;
  }

  /**
   * What an earlier token did that the output has not had (`pending`, a token left out before `start`)
   * is written now, before a decision that reads the output parser's list: an end tag at `start` that
   * takes an entry off (step 4.4, `dropped`) finds it there only if the pending end tags have not closed
   * it (`<p><font><section></font>` with the section unwrapped: the section's `</font>` comes first, and
   * the input's `</font>` then has nothing of the output's to take off).
   */
  settleEarlier(start: number, next: string): void {
    const p = this.pending;
    if (p !== null && !this.suppressed && start >= p.end) this.settle(p, impliesBody(next));
  }

  /**
   * Source is written inside removed content (document-level source: a `<html>` start tag, whose
   * attributes go to the html element). What the token before the removed content did that the output
   * has not had is written first, as for any output after it: `<svg><dd><html>` with the dd removed
   * must close the svg, or the output's parser makes an svg element of the `<html>` (§13.2.6.5). (The
   * caller lets the markup through while content is dropped.)
   */
  settleInsideRemoved(next: string): void {
    const p = this.pending;
    if (p !== null) this.settle(p, impliesBody(next));
  }

  /**
   * An op of the token of `effects` is about to write `next`: if another token is pending, what it did
   * that the output has not had is written first (`next` may make the output's parser imply the body).
   */
  settleBefore(effects: TokenEffects, next: string): void {
    const p = this.pending;
    if (p !== null && p !== effects && !this.suppressed && !p.sourceHeld) this.settle(p, impliesBody(next));
  }

  /**
   * The token of `effects` is about to be read by the output's parser, which does what the token did
   * that it has not had yet — except where the input's parser did it for an element the output's
   * parser does not have (its tags left out), or a formatting element not in its list: a `<a>` inside
   * an `a` whose tags are gone makes the input's parser close that `a` and what is open in it
   * (§13.2.6.4.7), the output's nothing. What is closed up to there is closed explicitly first.
   */
  beforeTokenRead(effects: TokenEffects): void {
    if (effects.written) return;
    let upTo = -1;
    for (let i = effects.length - 1; i >= effects.done && upTo < 0; i--) {
      if (effects.kinds[i] !== EFFECT_POP) continue;
      const el = effects.nodes[i]!;
      // (Also any element the output lacks: `<section>` closes the `p` its tags were left out of, and
      // with it what is open inside it, which the output's parser, without that `p`, keeps open.)
      if ((isFormatting(el) && !this.inOutputList(el)) || (el.out & OUT_UNWRAPPED) !== 0) upTo = i;
    }
    if (upTo >= 0) {
      this.flush(effects, upTo + 1);
      // The token's reconstruction, after more pops, copies an original just taken off the output
      // parser's list: those pops are written too, then the copies, where the input's parser made them
      // (`<button><span><a><button>` with the span unwrapped: `</a></button><a>`, then the tag) — all of
      // that reconstruction, as the copies after such a one cannot be made by that parser before it
      // (`<select><i><span><b><input>`: `</b></select></i><i><b>`, then the tag).
      // (A copy foster-parented comes after its foster-parenting entry.)
      for (let j = effects.done; j < effects.length; j++) {
        if (effects.kinds[j] === EFFECT_POP || effects.kinds[j] === EFFECT_FOSTER) continue;
        if (this.reconstructionLost(effects, j)) {
          this.flush(effects, j);
          this.materializeCopies(effects, j);
        }
        break;
      }
      this.lostCopies(effects);
    }
  }

  /** Whether the reconstruction's copies from `index` on copy an original the output parser's list lacks. */
  private reconstructionLost(effects: TokenEffects, index: number): boolean {
    for (let k = index; k < effects.length && (effects.kinds[k] === EFFECT_CREATE || effects.kinds[k] === EFFECT_FOSTER); k++) {
      if (effects.kinds[k] === EFFECT_FOSTER) continue;
      const copy = effects.nodes[k]!;
      if (copy.copiedFrom === null || !copy.reconstructed) return false;
      if ((copy.out & OUT_EXPLICIT) === 0 && !this.inOutputList(this.entryOf(copy.copiedFrom))) return true;
    }
    return false;
  }

  /**
   * The copies the token's reconstruction made next, whose originals an end tag just written took off
   * the output parser's list (a formatting element's own end tag runs the adoption agency algorithm,
   * which drops its entry): that parser would not make them, so they are written explicitly.
   */
  private lostCopies(effects: TokenEffects): void {
    while (effects.done < effects.length) {
      // (A foster-parenting entry before a copy: the output's parser does it, reading the copy's tag.)
      let i = effects.done;
      if (effects.kinds[i] === EFFECT_FOSTER && i + 1 < effects.length && effects.kinds[i + 1] === EFFECT_CREATE) i++;
      const copy = effects.nodes[i]!;
      if (effects.kinds[i] !== EFFECT_CREATE || copy.copiedFrom === null || !copy.reconstructed) return;
      if (this.inOutputList(this.entryOf(copy.copiedFrom)) || (copy.out & OUT_EXPLICIT) !== 0) return;
      effects.done = i;
      this.materializeCopies(effects, i);
    }
  }


  /**
   * A token inside removed content (which the output does not have) did something to an element the
   * output has: closed it (`<a>` drops an open `a` from the stack, §13.2.6.4.7), or made one outside the
   * removed element. The output's parser cannot be made to do that without the token: refused.
   */
  insideRemoved(effects: TokenEffects, index: number): void {
    if (effects.written) return;
    for (let i = index; i <= index; i++) {
      const el = effects.nodes[i]!;
      // (The end of the input closes and makes what it does for the output's parser too; what it
      // foster-parents, text held in a table, is the table's content's.)
      if (effects.atEnd && effects.kinds[i] !== EFFECT_FOSTER) continue;
      const kind = effects.kinds[i];
      // (What is foster-parented into an unwrapped element is in the output where its content is: in
      // its parent, `<font><table>x` with the font unwrapped and the table removed.)
      if (!(kind === EFFECT_FOSTER ? this.contentPresent(el) : this.present(el)) || (el.out & OUT_CLOSED) !== 0) continue;
      // (A pop of an element outside: it is closed for the output's parser where its content ends.)
      throw alignmentError(
        `removing content that holds the token at offset ${effects.start}`,
        kind === EFFECT_FOSTER
          ? `the parser puts what that token makes outside the table it is in (foster parenting, HTML §13.2.6.1), in the <${el.localName}>, ${(el.out & OUT_UNWRAPPED) !== 0 ? 'whose content is kept' : 'which is not removed'}`
          : `that token ${kind === EFFECT_POP ? 'closes' : 'makes'} the <${el.localName}> outside the removed content, which a browser reading the output would not do`,
      );
    }
  }

  /**
   * Source text starting at `start` is about to be written: if it is the pending token's own text, the
   * output's parser reads the token and does its remaining effects itself; otherwise the pending token
   * was not written, and its remaining effects are written first.
   */
  source(start: number, text: string): void {
    const p = this.pending;
    if (p === null || this.suppressed) return;
    if (start >= p.end) this.settle(p, impliesBody(text));
    else if (start >= p.start) {
      this.beforeTokenRead(p);
      p.written = true;
      this.pending = null;
    } else {
      // Source from before the token: text the tree builder held "in table text" (§13.2.6.4.10) and
      // placed only at this token. The output's parser holds it too, and makes the copies the token's
      // reconstruction made for it first (the effects it begins with) when it reads the token.
      // (A copy foster-parented comes with its foster-parenting entry first.)
      let upTo = p.done;
      while (upTo < p.length && (p.kinds[upTo] === EFFECT_FOSTER || (p.kinds[upTo] === EFFECT_CREATE && p.nodes[upTo]!.reconstructed))) upTo++;
      this.heldTextPlaced(p, upTo);
    }
  }

  /**
   * An implied element (the effect at `index`) is written as an explicit start tag of its own name: the
   * output's parser, reading it where the token was, does what the token did before making it (a
   * `<body>` in "in head" closes the head as the text that implied it did), and makes it.
   */
  impliedWritten(effects: TokenEffects, index: number): void {
    if (index < effects.length && effects.done <= index) effects.done = index + 1;
  }

  /** The token of `effects` is written (its tag, with the same name): the output's parser does the rest. */
  written(effects: TokenEffects): void {
    if (effects.length === 0) return;
    this.beforeTokenRead(effects);
    effects.written = true;
    if (this.pending === effects) this.pending = null;
  }

  /**
   * The end of the output: what the last token did and the output has not had is written — what the
   * end of the input does not do by itself: it closes every element and makes `<html>`, `<head>` and
   * `<body>`, but no copy of a formatting element.
   */
  finish(): void {
    const p = this.pending;
    if (p === null) return;
    this.pending = null;
    if (p.written) return;
    p.written = true;
    const written = (i: number): boolean => p.kinds[i] === EFFECT_CREATE && (p.nodes[i]!.copiedFrom !== null || !(p.nodes[i]!.namespace === HTML && IMPLIED_BY_CONTENT.has(p.nodes[i]!.localName)));
    // The elements it closed before making one that is written are closed first: the end of the input
    // closes them only after (`<a><b><a>` with the second a removed: `</b></a>`, then the copy `<b>`).
    let lastWritten = -1;
    for (let i = p.done; i < p.length; i++) if (written(i)) lastWritten = i;
    for (let i = p.done; i < p.length; i++) {
      const el = p.nodes[i]!;
      if (p.kinds[i] === EFFECT_POP && i < lastWritten) this.close(el, p);
      if (!written(i)) continue;
      if (el.copiedFrom !== null) this.materializeCopies(p, i);
      else this.materialize(el, p, i);
    }
  }

  /** Write every effect of `effects` the output's parser has not had. */
  private settle(effects: TokenEffects, bodyImplied = false): void {
    if (this.pending === effects) this.pending = null;
    if (effects.atEnd) {
      // The end of the input: the output's parser closes what it closes by reaching it too.
      this.pending = effects;
      this.finish();
      return;
    }
    if (!effects.written) {
      // The token placed whitespace held "in table text" in the table and is not in the output: the
      // output's parser still holds it, and would join what comes next to it (`<table> <span></span>x`
      // with the span removed: " x", all foster-parented). An end tag every table insertion mode ignores
      // places it, as the token did.
      // Likewise for text it foster-parented (`heldText`): whitespace after it would join it.
      if (effects.heldText) this.write(IGNORED_END_TAG);
      this.flush(effects, effects.length, bodyImplied);
    }
    effects.written = true;
  }

  // --- Writing effects -------------------------------------------------------------------------

  /**
   * Write the effects of `effects` before index `upTo` that the output's parser has not had, in order.
   * `bodyImplied`: what is written next makes the output's parser imply `<html>`, `<head>` and `<body>`
   * the way the input's did (see `impliesBody`): those are not written.
   */
  flush(effects: TokenEffects, upTo: number, bodyImplied = false, popsOnly = false): void {
    if (effects.written) return;
    while (effects.done < upTo) {
      const i = effects.done;
      const el = effects.nodes[i]!;
      // (What the output's parser will make by itself stays for it: the effects from here are its.)
      if (popsOnly && effects.kinds[i] !== EFFECT_POP) return;
      effects.done++;
      if (bodyImplied && el.namespace === HTML && el.copiedFrom === null && IMPLIED_BY_CONTENT.has(el.localName)) continue;
      if (effects.kinds[i] === EFFECT_POP) {
        if (isFormatting(el) && this.clearedByTableTag(effects, i, upTo)) {
          // The explicit tag written next closes it as the token did, its entry kept.
          if (this.present(el)) el.out |= OUT_CLOSED;
          continue;
        }
        this.close(el, effects);
      } else if (effects.kinds[i] === EFFECT_CREATE) this.materialize(el, effects, i);
    }
  }

  /**
   * Whether the pop at `index` is one of those right before the implied `<tbody>`, `<tr>` or
   * `<colgroup>` of the same token (before `upTo`), which is about to be written as an explicit start
   * tag: the token made it after clearing the stack back to a table (or table body) context
   * (§13.2.6.4.9, §13.2.6.4.13), and that tag, read in the same insertion mode, clears the stack the same
   * way — closing what is open above the table, a formatting element foster-parented there included,
   * while its entry stays in the list. Its end tag would also take the entry off (the adoption agency
   * algorithm), so that a browser would not copy it for the text after it
   * (`<table><a><table>x<td><a></td>x` with the td removed).
   */
  private clearedByTableTag(effects: TokenEffects, index: number, upTo: number): boolean {
    let j = index + 1;
    while (j < upTo && effects.kinds[j] === EFFECT_POP) j++;
    if (j >= upTo || effects.kinds[j] !== EFFECT_CREATE) return false;
    const next = effects.nodes[j]!;
    if (next.namespace !== HTML || next.copiedFrom !== null || (next.out & OUT_EXPLICIT) !== 0 || !this.present(next)) return false;
    return next.localName === 'tbody' || next.localName === 'tr' || next.localName === 'colgroup';
  }

  /**
   * A renamed tag is written for the token of `effects` (its element the effect at `upTo`): the elements
   * the token closed before making it are closed first — a name breaks out of foreign content, say
   * (§13.2.6.5), where the new one would not. What it made up before (copies a reconstruction made) the
   * output's parser makes as it reads the new tag, whose name is read alike (tag-classes.ts).
   */
  beforeRenamedTag(effects: TokenEffects, upTo: number, tag: string, reconstruction: number): void {
    this.enter(effects);
    // The old name's tag reconstructed and the new one's does not: the copies made are written too.
    this.flush(effects, upTo, impliesBody(tag), reconstruction !== RENAME_MATERIALIZE);
    this.lostCopies(effects);
    // The new one's reconstructs and the old one's did not: nothing may be copied for it.
    if (reconstruction === RENAME_DETACH) this.detachTail(effects);
  }

  /**
   * Content is about to be written at an op (`at`): first the effects of its token before it, then
   * the list entries a parser would reconstruct at the content's first character are taken off
   * (`detachTail`). `closeToo`: an element the input's parser closed at this point, which the content
   * must come after (`after()` at an implicit end).
   */
  beforeContent(at: AlignPoint, closeToo: ElementRecord | null = null, content = '', escapedForData = true, into: NodeRecord | null = null): void {
    const effects = at.effects;
    if (into instanceof ElementRecord) checkTextTarget(into, content);
    if (!escapedForData && (closeToo !== null || this.popsBefore(effects, at.upTo))) {
      // Content escaped for raw text, RCDATA or script data must land there: closing an element first
      // could take it out (and make its text markup). Never expected; refused rather than risked.
      throw new Error('HTMLRewriter: internal error: content escaped for the inside of a text element would be written after an element closes');
    }
    if (/[^\t\n\f\r ]/.test(content)) this.framesetOkDiverged = true;
    const implied = impliesBody(content);
    // (What an earlier token did that the output has not had comes first: `enter` writes it.)
    const p = this.pending;
    if (p !== null && p !== effects) this.settle(p, implied);
    this.enter(effects);
    if (effects.heldWhitespace && !effects.written && /[^\t\n\f\r ]/.test(content) && !content.startsWith('<')) {
      // Text now would join the whitespace the output's parser holds in a table, and take it out of the
      // table with it (foster parenting). An end tag every table insertion mode ignores
      // (`IGNORED_END_TAG`) makes it place the whitespace first, as the input's parser did.
      effects.heldWhitespace = false;
      this.write(IGNORED_END_TAG);
    }
    this.flush(effects, at.upTo, implied);
    if (closeToo !== null && !effects.written && (closeToo.out & OUT_CLOSED) === 0) {
      // Its pop is the effect right at the op (an implicit end): written now, and counted as done.
      if (effects.nodes[at.upTo] === closeToo && effects.done === at.upTo) effects.done++;
      this.close(closeToo, effects);
    }
    // Whitespace a parser puts into a table, a table section, a row, a `<colgroup>`, the head or a
    // frameset reconstructs nothing (§13.2.6.4.10 "in table text", .12, .4, .20): the list stays as the
    // input's parser has it, and what that parser copies later the output's copies alike.
    if (into instanceof ElementRecord && into.namespace === HTML && NO_RECONSTRUCTION_FOR_WHITESPACE.has(into.localName) && !/[^\t\n\f\r ]/.test(content)) return;
    // (The content goes into `into`, the output parser's current node then: `detachRun` checks it.)
    this.detachCurrent = into instanceof ElementRecord ? into : null;
    try {
      this.detachTail(effects);
    } finally {
      this.detachCurrent = null;
    }
  }

  /** While `beforeContent` detaches: the element the content goes into (see `detachRun`). */
  private detachCurrent: ElementRecord | null = null;

  /** Whether effects before `upTo` that the output's parser has not had close an element it has. */
  private popsBefore(effects: TokenEffects, upTo: number): boolean {
    if (effects.written) return false;
    for (let i = effects.done; i < upTo; i++) {
      if (effects.kinds[i] === EFFECT_POP && this.present(effects.nodes[i]!) && (effects.nodes[i]!.out & OUT_CLOSED) === 0) return true;
    }
    return false;
  }

  /**
   * Take off the output parser's list the entries at its end that it would reconstruct now — those of
   * `tail` it has and has not open — with an end tag each, from the last: the adoption agency algorithm
   * drops an entry whose element is not open (§13.2.6.4.7 step 4.4). The input's parser keeps them
   * (they are *detached*): where it copies them, the copies are written explicitly (`materialize`).
   */
  detachTail(effects: TokenEffects, stopAt: ElementRecord | null = null): void {
    if (!effects.written && !effects.atEnd) {
      // Before the output's parser reads the token: its list is as it was before the token, with what
      // was written since (an element closed explicitly is off it, and the walk goes on past it).
      if (!this.detachRun(effects, effects.tailBefore, effects.tailBefore.length, stopAt, effects.boundaryBefore)) return;
      let boundary = effects.boundaryBefore;
      // (The entry the input's tail stopped at, open for the input's parser, may not be for the output's:
      // detached already, or an element in removed content — a copy made there stands for its
      // original, which the output's parser has closed: `<table><h1><p><b><p><dd>x</table>` with the dd
      // removed and content at the end of the h1, which `</table>` closes with the copy of the b. The
      // walk goes on past it, from it.)
      while (boundary !== null && ((boundary.out & OUT_DETACHED) !== 0 || !this.present(boundary))) {
        const i = effects.tail.indexOf(boundary);
        if (i < 0) return;
        if (!this.detachRun(effects, effects.tail, i + 1, stopAt, null)) return;
        boundary = null;
      }
      return;
    }
    // A `<template>` the end of the input closes cleared the list up to its marker (§13.2.6.4.18, "end of
    // file"), so `tail` is what lies before that marker; while the output's parser still has the template
    // open, the marker ends its list and nothing there can be taken off yet (`<li><b><li><template><a>`
    // with content appended to the second li: `</b>` goes after `</template>`, not inside it).
    if (this.templatePending(effects)) return;
    for (let k = -1; k < effects.exposed; k++) {
      const tail = k < 0 ? effects.tail : effects.beyondMarkers[k]!;
      if (!this.detachRun(effects, tail, tail.length, stopAt, k < 0 && !effects.atEnd ? effects.boundary : null)) return;
    }
  }

  /** Whether the end of the input closes a `<template>` that the output's parser has open still. */
  private templatePending(effects: TokenEffects): boolean {
    for (let i = effects.done; i < effects.length; i++) {
      const el = effects.nodes[i]!;
      if (effects.kinds[i] === EFFECT_POP && el.isHtml && el.localName === 'template' && (el.out & OUT_CLOSED) === 0 && this.present(el)) return true;
    }
    return false;
  }

  /**
   * `detachTail` over `tail` from before index `from` backwards. Returns false where the walk stops (an
   * element the output's parser has open, or `stopAt`), true when it ran through. `boundary`: the open
   * element whose entry ends `tail` (the rest of the list is before it).
   */
  private detachRun(effects: TokenEffects, tail: readonly ElementRecord[], from: number, stopAt: ElementRecord | null, boundary: ElementRecord | null): boolean {
    for (let i = from - 1; i >= 0; i--) {
      if (tail[i] === stopAt) return false;
      const el = this.entryOf(tail[i]!);
      if (!this.inOutputList(el)) continue;
      // Still open for the output's parser (the token that closes it is not read yet): the walk stops here.
      if ((el.out & OUT_CLOSED) === 0 && effects.pendingPop(el)) return false;
      const name = this.nameOf(el);
      this.checkCurrentNode(name, boundary);
      this.checkCopyParent(this.copyParent, name);
      this.write(`</${name}>`);
      this.markDetached(el);
    }
    return true;
  }

  /**
   * An end tag `</name>` is about to take an entry off the output parser's list (`detachRun`) before
   * content that goes into `detachCurrent`, that parser's current node. Where that node has the name and
   * no entry in the list, the adoption agency algorithm pops it instead (§13.2.6.4.7, step 2):
   * `<b><font class=k><b><b><b></font>` with content after the font — Noah's Ark (§13.2.4.3) took the
   * outer b's entry off, and `</b>` would close it. No markup takes those entries off while it is the
   * current node: refused. (In the list means the entry that ends the tail, `boundary`: an element
   * in the list but before another open one is refused too, though its end tag would not pop it.)
   */
  private checkCurrentNode(name: string, boundary: ElementRecord | null): void {
    const current = this.detachCurrent;
    if (current === null || current.namespace !== HTML || this.nameOf(current) !== name) return;
    if ((current.out & (OUT_CLOSED | OUT_UNWRAPPED)) !== 0 || !this.present(current)) return;
    if (current === boundary && this.inOutputList(current)) return;
    throw alignmentError(
      `content in the <${current.localName}> here`,
      `a browser reading the output would reconstruct closed <${name}> elements for it (HTML §13.2.4.3), and the </${name}> that would take them off its list of active formatting elements first closes this <${current.localName}>, which is open and not in that list (§13.2.6.4.7, the adoption agency algorithm's step 2)`,
    );
  }

  /**
   * Close `el` with an end tag of its own, where the input's parser closed it implicitly (or is about
   * to): for the current node of the output's parser, which every element above it was closed before.
   */
  close(el: ElementRecord, effects: TokenEffects): void {
    if ((el.out & OUT_CLOSED) !== 0 || !this.present(el)) return;
    if ((el.out & OUT_ENDED_OPEN) !== 0) {
      throw alignmentError(
        `content after the <${el.localName}> the parser closes here`,
        'the parser took it off the stack of open elements while an element inside it stayed open (HTML §13.2.6.4.7), which no end tag does',
      );
    }
    if (el.namespace === HTML) {
      const why = UNCLOSABLE[el.localName];
      if (why !== undefined) throw alignmentError(`content after the <${el.localName}> the parser closes implicitly here`, why);
      if (el.localName === 'form') this.formPointerDiverged = true;
    }
    if (isFormatting(el)) {
      // Its end tag runs the adoption agency algorithm, which takes the last entry of its name: first
      // take off the entries after it that the output's parser has and has not open (one of them could
      // be taken instead). The ones closed before it (top-down) are off already; the walk stops at it.
      this.detachTail(effects, el);
      this.markDetached(el);
    }
    el.out |= OUT_CLOSED;
    this.write(`</${this.nameOf(el)}>`);
    // A cell's or caption's end tag clears the list up to its marker, which the input's parser left in
    // place (it closed the element at the end of the input): the entries before it are at the end now.
    // (The entries it clears are off the output parser's list: none is taken off again with an end tag,
    // which would run the adoption agency algorithm on an element of the same name before the marker.)
    if (el.namespace === HTML && MARKER_OWNERS.has(el.localName) && effects.exposed < effects.beyondMarkers.length) {
      for (const cleared of effects.exposed === 0 ? effects.tail : effects.beyondMarkers[effects.exposed - 1]!) this.markDetached(cleared);
      effects.exposed++;
    }
  }

  /**
   * Make `el`, which the tree builder made up for the token of `effects` (the effect at `index`), with
   * an explicit start tag: an implied `<html>`, `<head>`, `<body>`, `<tbody>`, `<tr>`, `<colgroup>`, or a
   * copy of a formatting element (the rest of its reconstruction with it: see `materializeCopies`).
   */
  materialize(el: ElementRecord, effects: TokenEffects, index: number): void {
    if ((el.out & OUT_EXPLICIT) !== 0 || !this.present(el)) return;
    if (el.copiedFrom !== null) {
      this.materializeCopies(effects, index);
      return;
    }
    if (el.namespace !== HTML || !IMPLIED_NAMES.has(el.localName)) {
      throw alignmentError(`the <${el.localName}> the parser makes up here`, 'no start tag makes it the way the parser does');
    }
    if (el.localName === 'body') this.framesetOkDiverged = true;
    el.addChainFlags(OUT_EXPLICIT);
    this.write(this.tagOf(el));
  }

  /**
   * Write the copy a reconstruction made for the token of `effects` at `index` as an explicit start tag
   * — with the originals of it and of the copies after it in the same reconstruction taken off the
   * output parser's list first, from the last, so that the output's parser neither copies them again
   * nor (reading the explicit tag, which reconstructs) copies any of the later ones before it. The later
   * ones are then written explicitly by their own ops, once their handlers have run.
   */
  materializeCopies(effects: TokenEffects, index: number): void {
    // (The copies go into the output parser's current node: the end tags written first must not close
    // it, `checkCopyParent`.)
    const outer = this.copyParent;
    this.copyParent = effects.nodes[index]!.parent;
    try {
      this.materializeCopiesInto(effects, index);
    } finally {
      this.copyParent = outer;
    }
  }

  /** While `materializeCopies` writes: the parent of the copies (see `checkCopyParent`). */
  private copyParent: ParentRecord | null = null;

  private materializeCopiesInto(effects: TokenEffects, index: number): void {
    this.detachCopyOriginals(effects, index);
    const copy = effects.nodes[index]!;
    if ((copy.out & OUT_EXPLICIT) === 0 && this.present(copy)) {
      if (copy.localName === 'nobr' && copy.namespace === HTML) checkNobrStartTag(this, copy);
      // The start tag reconstructs first: entries the output parser has and has not open, which the
      // input's reconstruction did not copy (the token dropped them: `<a>` takes an `a` that is not open
      // off the list, §13.2.6.4.7), are taken off before it.
      this.detachTail(effects);
      copy.addChainFlags(OUT_EXPLICIT);
      this.write(this.tagOf(copy));
    }
    if (index < effects.length && effects.done === index) effects.done = index + 1;
  }

  /**
   * Take the originals of the reconstruction's copies from `index` on off the output parser's list
   * (from the last), so that it makes none of them itself (see `materializeCopies`).
   */
  detachCopyOriginals(effects: TokenEffects, index: number): void {
    let end = index;
    while (end < effects.length && ((effects.kinds[end] === EFFECT_CREATE && effects.nodes[end]!.copiedFrom !== null) || effects.kinds[end] === EFFECT_FOSTER)) end++;
    for (let i = end - 1; i >= index; i--) {
      if (effects.kinds[i] === EFFECT_FOSTER) continue;
      const copy = effects.nodes[i]!;
      if (!copy.reconstructed) {
        throw alignmentError(`the copy of <${copy.localName}> the adoption agency algorithm makes here`, 'a browser makes it while reading the end tag that moves it, from the original it has');
      }
      const from = this.entryOf(copy.copiedFrom!);
      if ((copy.out & OUT_EXPLICIT) !== 0 || !this.inOutputList(from)) continue;
      this.checkCopyParent(this.copyParent, this.nameOf(from));
      this.write(`</${this.nameOf(from)}>`);
      this.markDetached(from);
    }
  }

  /**
   * An end tag `</name>` is about to take the entry of a copy's original off the output parser's list,
   * before the copies are written into `parent` (that parser's current node then). Where that node has
   * the name and no entry in its list, the adoption agency algorithm pops it instead (§13.2.6.4.7, step
   * 2): `<font class=k><a><font class=k><font class=k><font class=k></a>x` with `prepend()` on `.k` —
   * Noah's Ark (§13.2.4.3) took the first font's entry off, and the first `</font>` would close it, so
   * the copies would go after it. Refused, as `checkCurrentNode` refuses for content.
   */
  private checkCopyParent(parent: ParentRecord | null, name: string): void {
    if (!(parent instanceof ElementRecord) || parent.namespace !== HTML || this.nameOf(parent) !== name) return;
    // (Open and not in the list: Noah's Ark took its entry off, or an end tag written for it did.)
    if ((parent.out & (OUT_CLOSED | OUT_UNWRAPPED)) !== 0 || !this.present(parent)) return;
    if ((parent.out & OUT_NOAHS_DROPPED) === 0 && this.inOutputList(parent)) return;
    throw alignmentError(
      `the copies of <${name}> the parser makes in the <${parent.localName}> here`,
      `each is written with a start tag of its own, and the </${name}> that would first take its original off a browser's list of active formatting elements closes this <${parent.localName}>, which is open and not in that list (§13.2.6.4.7, the adoption agency algorithm's step 2)`,
    );
  }

  /**
   * Text the tree builder held ("in table text", §13.2.6.4.10) and placed while reading the token of
   * `at` is written: the output's parser holds it too and, reading that token, makes the copies the
   * input's parser made for it (the effects before `at`).
   */
  heldTextWritten(at: AlignPoint): void {
    this.heldTextPlaced(at.effects, at.upTo);
  }

  /**
   * Held table text is written before the token of `effects`: the effects before `upTo` (the copies a
   * reconstruction made for it, their foster parenting) are the output parser's to make when it places
   * that text — before any content written next, which joins the text it holds. The copies' entries are
   * then not at the end of its list, to be taken off (`<table><a><table>x<i>` with `before()` on the i
   * and a text handler: no `</a>` before the content).
   */
  private heldTextPlaced(effects: TokenEffects, upTo: number): void {
    if (effects.done >= upTo) return;
    let copies: ElementRecord[] | null = null;
    for (let i = effects.done; i < upTo; i++) {
      const el = effects.nodes[i]!;
      if (effects.kinds[i] === EFFECT_CREATE && el.reconstructed) (copies ??= []).push(el);
    }
    if (copies !== null) effects.tailReopened(copies);
    effects.done = upTo;
  }

  /**
   * A copy the tree builder made (reconstruction) at op `at`, whose own effect is `at.upTo`: the
   * output's parser makes it too when it reads the token — unless its original is not in that parser's
   * list (detached, removed), or `differs` (a handler changed the copy on its own, or it needs content
   * of its own): then it is written explicitly now. Returns whether it was.
   */
  copy(copy: ElementRecord, at: AlignPoint, differs: boolean): boolean {
    const effects = at.effects;
    this.enter(effects);
    if ((copy.out & OUT_EXPLICIT) !== 0) return true;
    const from = copy.copiedFrom;
    if (from === null || !copy.reconstructed) return false;
    const listed = this.inOutputList(this.entryOf(from));
    if (!differs && listed) return false;
    if (!listed && (copy.out & OUT_HELD_TEXT_COPY) !== 0 && this.present(copy)) {
      // Made for table text the output has already: its parser was to make it when it places that text,
      // but its list no longer has the original (an end tag written for it took it off:
      // `<table><a><table>x<td><a></td>x` with the td removed, whose `</a>` closes the copy the first x
      // made), and no tag can come before text already written.
      throw alignmentError(
        `the text the parser holds in the table before offset ${effects.start}`,
        `the parser puts it in a copy of <${copy.localName}> (foster parenting with the active formatting elements reconstructed, HTML §13.2.6.4.10, §13.2.4.3), whose original a browser reading the output no longer has in its list of active formatting elements`,
      );
    }
    // The effects before it first (what the token closed, the copies before it that must come first).
    this.flush(effects, at.upTo);
    this.materializeCopies(effects, at.upTo);
    return true;
  }

  /**
   * A reconstructed copy left out with its content kept (`removeAndKeepContent()`): the output's parser
   * must not make it, so its original leaves that parser's list (with those of the copies after it in
   * the same reconstruction, which are then written explicitly by their own ops).
   */
  unwrapCopy(copy: ElementRecord, at: AlignPoint): void {
    const effects = at.effects;
    this.enter(effects);
    this.leaveOut(copy, OUT_UNWRAPPED);
    this.flush(effects, at.upTo);
    if (effects.written) {
      throw alignmentError(`removeAndKeepContent() on the copy of <${copy.localName}> the parser makes here`, 'the output already has the token that makes it');
    }
    let end = at.upTo;
    while (end < effects.length && effects.kinds[end] === EFFECT_CREATE && effects.nodes[end]!.copiedFrom !== null) end++;
    for (let i = end - 1; i >= at.upTo; i--) {
      const from = this.entryOf(effects.nodes[i]!.copiedFrom!);
      if (!this.inOutputList(from)) continue;
      this.write(`</${this.nameOf(from)}>`);
      this.markDetached(from);
    }
    if (at.upTo < effects.length && effects.done === at.upTo) effects.done++;
  }

  /**
   * A tag the input's parser ignored (it made and closed nothing). Returns whether the output must leave
   * it out because the output's parser would not ignore it: a `<form>` while that parser's form element
   * pointer was cleared by an explicit `</form>` (the input's parser still has it, which is why it
   * ignored the tag). A `</form>` brings the two pointers together again (both null).
   */
  ignoredTag(name: string, isEndTag: boolean, list: readonly ElementRecord[] | null = null): boolean {
    if (!isEndTag && name === 'frameset') return this.framesetOkLoose;
    // An end tag the input's parser ignored because an element was open that the output lacks (the
    // walk of "any other end tag" stops at a special element, §13.2.6.4.7): the output's parser could
    // close something with it.
    if (isEndTag && (this.openUnwrapped > 0 || (this.renamedOpen.get(name) ?? 0) > 0)) return true;
    // An end tag of the new name of a renamed formatting element whose entry the output parser's list
    // still has, closed or not: that parser's adoption agency algorithm finds the entry and takes it
    // off (step 4.4) or closes it, where the input's parser found no entry of that name
    // (`<p><i></p></em><p>` with the `i` renamed `em`). Left out, the tag changes nothing for either:
    // the input's parser ignored it. (A list too long to take along, null: left out once any
    // formatting element's tag was written otherwise.)
    if (isEndTag && this.formattingDiffers && this.renamedEntryNamed(name, list)) return true;
    if (name !== 'form' || !this.formPointerDiverged) return false;
    if (isEndTag) {
      this.formPointerDiverged = false;
      return false;
    }
    return true;
  }

  /**
   * A tag (`tag`, at `offset`) the input's parser read with `seen[0]` as the adjusted current node, not
   * an HTML element, by the insertion mode's rules where `modes[0]` (an integration point) or else by
   * the rules for foreign content (§13.2.6). A browser reading the output reads it at the first of
   * `seen` the output has open: where that is another element, whose rules differ, the tag makes
   * another element there (`<table><svg><font><title><td>` with the font removed: the `<td>`, read at
   * the svg, is an SVG `td`) — refused.
   */
  checkDispatch(seen: readonly ElementRecord[], modes: readonly boolean[], tag: string, offset: number): void {
    for (let i = 0; i < seen.length; i++) {
      const el = seen[i]!;
      if (!this.present(el) || (el.out & OUT_CLOSED) !== 0) continue;
      if (i === 0 || modes[i] === modes[0]) return;
      const gone = seen[0]!;
      const rules = (inMode: boolean) => (inMode ? 'the insertion mode' : 'foreign content');
      throw alignmentError(
        `the tag ${tag} at offset ${offset}, which the parser reads in the <${gone.localName}> the output leaves out,`,
        `a browser reading the output reads that tag in the <${el.localName}> instead, by the rules for ${rules(modes[i]!)}, where the input's parser used those for ${rules(modes[0]!)} (HTML §13.2.6, the tree construction dispatcher), and makes another element of it`,
      );
    }
  }

  /** `checkPastThree`'s count over the pass it checked last. */
  private readonly pastThree: { passed: readonly ElementRecord[] | null; counted: number; absent: number; first: ElementRecord | null } = { passed: null, counted: 0, absent: 0, first: null };

  /** After the document's end (transformer.ts `releaseDocument`): let go of the last pass's elements. */
  releaseDocument(): void {
    this.pastThree.passed = null;
    this.pastThree.first = null;
  }

  /**
   * The adoption agency algorithm of the token at `offset` took `el` off its list and the stack of open
   * elements on its inner loop's iteration `count + 1`, past the third (§13.2.6.4.7 step 4.13.4), after
   * visiting the first `count` of `passed`. The output's parser visits only the elements that are in the
   * output: with `k` of them left out (unwrapped, removed, replaced) it reaches `el` `k` iterations
   * earlier, and on the third or before it copies `el` (4.13.6) instead — one more element in the tree
   * than the input's (`<a><i><i><i><span><div><a>` with the span unwrapped: a third copy of an `i`
   * around the div). Refused there.
   */
  checkPastThree(el: ElementRecord, passed: readonly ElementRecord[], count: number, offset: number): void {
    // The elements left out among the first `count` passed, counted on from the last check of the same
    // pass (one array a pass, only appended to): a pass that drops thousands stays linear.
    const run = this.pastThree;
    if (run.passed !== passed) {
      run.passed = passed;
      run.counted = 0;
      run.absent = 0;
      run.first = null;
    }
    for (; run.counted < count; run.counted++) {
      const x = passed[run.counted]!;
      if (this.present(x)) continue;
      run.absent++;
      run.first ??= x;
    }
    const absent = run.absent;
    const first = run.first;
    // (An element the output does not have is not visited there either: no copy of it to make.)
    if (!this.present(el)) return;
    const counter = count + 1;
    if (first === null || counter - absent > 3) return;
    throw alignmentError(
      `leaving out the <${first.localName}> that the adoption agency algorithm of the token at offset ${offset} passes on its way to a <${el.localName}>`,
      `that algorithm's inner loop takes the <${el.localName}> off the list of active formatting elements and the stack of open elements on its iteration ${counter}, past the third (HTML §13.2.6.4.7 step 4.13.4), and a browser reading the output, which has ${absent === 1 ? 'one element' : `${absent} elements`} fewer there, reaches it on iteration ${counter - absent} and makes a copy of it instead`,
    );
  }

  /**
   * A start tag whose rule walked the stack or looked at the current node (`kind`, tag-classes.ts): the
   * elements from the current node down that it looked at, and some below (`seen`). The output's
   * parser has only the elements that are in the output, and looks at those: where it would change the
   * tree otherwise than the input's parser did — close an element the input's parser did not, which an
   * `<li>` inside a `<section>` whose tags are left out would do to an `li` around it — refused.
   */
  checkWalk(kind: number, seen: readonly ElementRecord[], offset: number): void {
    if (kind === WALK_HEADING || kind === WALK_HR) {
      // A heading's start tag closes a `<p>` in button scope first (both parsers: the output has the
      // elements above it too, or they were closed explicitly), then looks at the current node.
      for (let i = 0; i < seen.length; i++) {
        const el = seen[i]!;
        if (el.namespace !== HTML) continue;
        if (el.localName === 'p') seen = seen.slice(i + 1);
        if (el.localName === 'p' || BUTTON_SCOPE.has(el.localName)) break;
      }
    }
    if (seen.length === 0) return;
    if ((kind === WALK_OPTION || kind === WALK_OPTGROUP || kind === WALK_HR) && this.checkOptionInSelect(seen, offset, kind === WALK_OPTION ? 'option' : kind === WALK_OPTGROUP ? 'optgroup' : 'hr')) return;
    // (Outside a select an `<hr>` looks at nothing more.)
    if (kind === WALK_HR) return;
    const walks = kind === WALK_LI || kind === WALK_DD;
    // The input's parser: where its rule stops, and what it closes (its stop and what is above it, when
    // the stop is the element looked for).
    let mine = -1;
    for (let i = 0; i < seen.length && mine < 0; i++) if (stopsWalk(kind, walks, seen[i]!.localName, seen[i]!.namespace)) mine = i;
    const closesMine = mine >= 0 && walkTarget(kind, seen[mine]!);
    // The output's parser: it has only the elements in the output, under their output names — and
    // those the input's parser closed here that were renamed get an explicit end tag before this tag.
    let theirs = -1;
    for (let i = 0; i < seen.length && theirs < 0; i++) {
      const el = seen[i]!;
      if (!this.present(el) || (el.outputName !== null && closesMine && i <= mine)) continue;
      if (stopsWalk(kind, walks, this.nameOf(el), el.namespace)) theirs = i;
    }
    const closesTheirs = theirs >= 0 && walkTarget(kind, { localName: this.nameOf(seen[theirs]!), namespace: seen[theirs]!.namespace });
    // Compare what each closes of what the output has (renamed ones closed explicitly count for it).
    let same = true;
    for (let i = 0; i < seen.length && same; i++) {
      const el = seen[i]!;
      if (!this.present(el)) continue;
      const inMine = closesMine && i <= mine;
      const inTheirs = (closesTheirs && i <= theirs) || (el.outputName !== null && inMine);
      same = inMine === inTheirs;
    }
    if (same) return;
    const looked = seen[mine < 0 ? 0 : mine]!;
    throw alignmentError(
      `the start tag at offset ${offset}`,
      `its rule (HTML §13.2.6.4.7) looks at the <${looked.localName}>${!this.present(looked) ? ', which the output does not have (its tags were removed),' : looked.outputName !== null ? `, which the output names <${looked.outputName}>,` : ''} ` +
        `and a browser reading the output would close ${closesTheirs ? `the <${this.nameOf(seen[theirs]!)}>` : 'nothing'} ` +
        `where the input's parser closed ${closesMine ? `the <${looked.localName}>` : 'nothing'}`,
    );
  }

  /**
   * An `<option>` with a `<select>` in scope (in `seen`, before a scope boundary) closes every element
   * from the current node down that implies its end (§13.2.6.4.7, "generate implied end tags" but
   * optgroup): refused where the output's parser, which has only the elements in the output, would close
   * others. Returns whether a select was in scope (else the current-node rule applies).
   */
  private checkOptionInSelect(seen: readonly ElementRecord[], offset: number, name: 'option' | 'optgroup' | 'hr'): boolean {
    let select = false;
    for (const el of seen) {
      if (el.namespace !== HTML) continue;
      if (el.localName === 'select') select = true;
      if (select || SCOPE_BOUNDARY.has(el.localName)) break;
    }
    if (!select) return false;
    let mine = true;
    let theirs = true;
    // (`<optgroup>` and `<hr>`: "generate implied end tags" closes optgroups too.)
    const implies = (n: string): boolean => IMPLIED_END_FOR_OPTION.has(n) || (name !== 'option' && n === 'optgroup');
    for (const el of seen) {
      mine &&= el.namespace === HTML && implies(el.localName);
      if (!this.present(el)) continue;
      theirs &&= el.namespace === HTML && implies(this.nameOf(el));
      if (mine !== theirs) {
        throw alignmentError(
          `the <${name}> at offset ${offset}`,
          `in a <select> its rule closes the elements that imply their end from the current node down (HTML §13.2.6.4.7), and a browser reading the output would ${theirs ? '' : 'not '}close the <${el.localName}>`,
        );
      }
      if (!mine) break;
    }
    return true;
  }

  /** The input's parser took a `<frameset>` in place of the body: refused when the output's would not. */
  framesetTaken(offset: number): void {
    if (!this.framesetOkDiverged) return;
    throw alignmentError(
      `the <frameset> at offset ${offset}`,
      'the parser takes it in place of the body only while nothing has set its frameset-ok flag (HTML §13.2.6.4.7), and content written before it (or an explicit <body>) sets it',
    );
  }

  /** Renamed elements open, by their new names: an end tag of such a name the input ignored is left out. */
  private readonly renamedOpen = new Map<string, number>();

  renamedOpened(name: string): void {
    this.renamedOpen.set(name, (this.renamedOpen.get(name) ?? 0) + 1);
  }

  renamedClosed(name: string): void {
    const n = this.renamedOpen.get(name) ?? 0;
    if (n <= 1) this.renamedOpen.delete(name);
    else this.renamedOpen.set(name, n - 1);
  }

  /** Names of the formatting elements whose entries the output's parser does not have (for Noah's Ark). */
  private readonly detachedNames = new Set<string>();

  /** `el`'s entry is not in the output parser's list (see the file comment). */
  markDetached(el: ElementRecord): void {
    el.out |= OUT_DETACHED;
    this.detachedNames.add(el.localName);
    this.formattingDiffers = true;
  }

  /**
   * Set once a formatting element's tag is written otherwise than the source has it (renamed, other
   * attributes, left out) or its entry is not in the output parser's list: from then on Noah's Ark may
   * count otherwise for that parser (`OP_NOAHS_ARK`).
   */
  formattingDiffers = false;

  /** The name of `el` in the output: a handler's new name, or its own. */
  nameOf(el: ElementRecord): string {
    return el.outputName ?? el.localName;
  }

  /**
   * The input's parser dropped `el`'s entry from its list without closing it (`reason`, see
   * `TreeSink.activeFormattingElementDropped`). Returns whether the token that did it must be left out
   * of the output: an end tag that dropped an entry the output's parser does not have (detached) would
   * make that parser's adoption agency algorithm take another entry, or close an open element.
   */
  /**
   * A token inside removed content made the input's parser take `el`'s entry off its list without
   * closing it (`reason`). The output's parser, without that token, would keep the entry and copy the
   * element into what follows (`<p><b>x</p><div></b></div>y` without the div: a `<b>` around "y").
   * Returns the end tag that makes it take the same entry off — an element not open is only taken off
   * the list by its end tag (§13.2.6.4.7 step 4.4) — or null when the output's parser has no entry for
   * it. Refused for Noah's Ark (§13.2.4.3): there the entry goes because the removed content pushed
   * another, and an end tag could close the one taken off instead.
   */
  droppedInsideRemoved(el: ElementRecord, reason: string): string | null {
    // A copy a reconstruction made inside the removed content stands, in the output parser's list, for
    // its original (that parser never made the copy): the original's entry is the one to take off.
    el = this.entryOf(el);
    if (!this.inOutputList(el)) return null;
    if (reason !== 'not-open' && reason !== DROPPED_COPY_CLOSED) {
      throw alignmentError(
        `removing content that holds a <${el.localName}>`,
        `the parser drops the earliest of three equal <${el.localName}> elements from its list of active formatting elements for it (HTML §13.2.4.3), which a browser reading the output, without that content, keeps`,
      );
    }
    this.markDetached(el);
    return `</${this.nameOf(el)}>`;
  }

  /**
   * Whether `list` (entries after the last marker; null: not known, taken as yes) has an entry the output's
   * parser finds under `name` and the input's parser does not: renamed to it, or a copy of one renamed so.
   */
  private renamedEntryNamed(name: string, list: readonly ElementRecord[] | null): boolean {
    if (list === null) return true;
    for (const x of list) {
      if (x.localName === name || !this.inOutputList(x)) continue;
      if (x.outputName === name || (x.copyOf !== null && x.copyOf.outputName === name)) return true;
    }
    return false;
  }

  /** Whether `el` was renamed and its entry is in the output parser's list (see `renamedDropTag`). */
  renamedInOutputList(el: ElementRecord): boolean {
    return el.outputName !== null && this.inOutputList(el);
  }

  /**
   * An end tag whose adoption agency algorithm found `el`, renamed, closed already and took its entry off
   * the list (§13.2.6.4.7 step 4.4): the output's parser does that only for an end tag of the new name,
   * which finds the last entry of that name after the last marker. Written so where no other entry of
   * the output parser's has that name there (`listAfter`: the list after the last marker once the entry
   * was taken off; null when not known); else refused — it could be after this one.
   */
  renamedDropTag(el: ElementRecord, listAfter: readonly ElementRecord[] | null): string {
    const name = el.outputName!;
    // (An entry may have the name by its own tag, its new name, or as a copy of an element renamed so.)
    const named = (x: ElementRecord) => x.localName === name || x.outputName === name || (x.copyOf !== null && x.copyOf.outputName === name);
    const other = listAfter === null || listAfter.some((x) => this.inOutputList(x) && named(x));
    if (other) {
      throw alignmentError(
        `the end tag that takes the <${el.localName}> renamed <${name}> off the list of active formatting elements`,
        `an end tag of either name would not take that entry off for a browser reading the output (the list has ${listAfter === null ? 'entries this rewrite cannot see' : `another <${name}>`}), which would copy it into what follows (HTML §13.2.4.3, §13.2.6.4.7)`,
      );
    }
    return `</${name}>`;
  }

  dropped(el: ElementRecord, reason: string, isEndTag: boolean): boolean {
    // (A copy the output's parser did not make — removed, `<table><b><table>x<table></b>` with the
    // copy of the b the text made removed — has the entry of what it copied there: the end tag drops that.)
    const detached = !this.inOutputList(this.entryOf(el));
    if (detached) this.markDetached(el);
    if (reason === 'not-open') return detached && isEndTag;
    // Noah's Ark: the output's parser counts the entries it has; with one of this name taken off, it may
    // count fewer and keep one the input's parser drops. (Tags written otherwise: `OP_NOAHS_ARK`.)
    if (!detached && this.detachedNames.has(el.localName)) {
      throw alignmentError(
        `the <${el.localName}> the parser drops from its list of active formatting elements (the earliest of three equal ones, HTML §13.2.4.3)`,
        `a browser reading the output does not have every <${el.localName}> the input's parser counts there (some were closed or taken off for content written before)`,
      );
    }
    return false;
  }
}

/** `<name attr="value" …>` for an element's attributes as they stand (already in text form). */

/**
 * A copy of `<nobr>` is about to be written as an explicit start tag. A reconstruction makes the copy
 * without more ado; a `<nobr>` start tag, while a `nobr` is in scope, runs the adoption agency algorithm
 * on it first (§13.2.6.4.7, 'A start tag whose tag name is "nobr"'), which the input's parser did not:
 * refused. (The copy's ancestors are the open elements around it.)
 */
function checkNobrStartTag(align: OutputAlignment, copy: ElementRecord): void {
  for (let x: ParentRecord | null = copy.parent; x instanceof ElementRecord; x = x.parent) {
    if (x.namespace !== HTML || SCOPE_BOUNDARY.has(x.localName)) return;
    if (x.localName === 'nobr' && align.present(x) && (x.out & OUT_CLOSED) === 0) {
      throw alignmentError(
        'the copy of <nobr> the parser makes here',
        'a <nobr> start tag written for it would run the adoption agency algorithm on the <nobr> in scope around it (HTML §13.2.6.4.7), which the copy did not',
      );
    }
  }
}

export function startTagText(name: string, attributes: readonly (readonly [string, string])[]): string {
  let s = `<${name}`;
  for (const [n, v] of attributes) s += ` ${n}="${escapeAttributeValue(v)}"`;
  return `${s}>`;
}
