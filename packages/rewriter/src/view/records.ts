/**
 * The rewriter's own view of the tree: just enough of each node for selector matching and for knowing
 * where text and comments go. Records link to their parents only — never to children or earlier
 * siblings — so once an element is closed and its subtree finished, nothing open refers to it and it can
 * be collected.
 */
import type { ElementAttribute } from '@sluice/tree-builder';
import type { DecodedAttribute, StartTagClass } from '@sluice/tokenizer';
import type { MatchableElement } from '../selectors/match.js';
import type { ElementUnit } from '../rewritable-units/element.js';
import type { RegistrationSet } from '../transform/handler-lists.js';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * The formatting elements (§13.2.4.3, "the list of active formatting elements"): the only elements the
 * tree builder copies (reconstruction, the adoption agency algorithm), and whose end tags run the
 * adoption agency algorithm. Local names of HTML elements.
 */
export const FORMATTING_NAMES: ReadonlySet<string> = new Set(['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u']);

/**
 * Where a node's element children and the node itself stand among siblings: what `:nth-child`,
 * `:nth-of-type`, `+`, `~` and `of S` need. Kept (one per node) only when a registered selector uses one
 * of them — most rewrites never do, and their records stay small.
 */
export class Positions {
  // As a parent.
  /** Number of element children so far. */
  childCount = 0;
  /** Element children per type key (only counted when a selector uses `:nth-of-type`). */
  typeCounts: Map<string, number> | null = null;
  /** Sibling bits of the last element child. */
  lastChildBits: Uint8Array | null = null;
  /** Union of the sibling bits of all element children (never shrinks: see `detach`). */
  anyChildBits: Uint8Array | null = null;
  /** Per `of S` slot, how many element children matched S. */
  ofCounts: Int32Array | null = null;
  // As a child (elements only).
  /** 1-based index among element siblings. */
  index = 0;
  /** 1-based index among element siblings of the same type. */
  typeIndex = 0;
  /** The sibling bits of the previous element sibling, and the union of those of all previous ones. */
  prevBits: Uint8Array | null = null;
  anyPrevBits: Uint8Array | null = null;
  /** Per `of S` slot: 1-based index among siblings matching S, 0 when this element does not match S. */
  ofIndex: Int32Array | null = null;
  /** This element's own results for the registered sibling prefixes. */
  bits: Uint8Array | null = null;
}

/** A node that can have element children: the document, a template's contents, or an element. */
export class ParentRecord {
  /** The parent, or null for the document, a template's contents, or a detached element. */
  declare parent: ParentRecord | null;
  /** Whether this node is, or is inside, a template's contents (what `document.querySelectorAll` does not see). */
  declare inTemplate: boolean;
  /** Sibling positions, when selectors need them (see `Positions`); else null. */
  declare readonly pos: Positions | null;

  /**
   * Its open element children (the view's open elements whose parent it is): almost always one, the
   * next element on the stack, in `openChild`; a second only while a table is open beside a
   * foster-parented element (`moreOpenChildren`). The adoption agency moves them (`moveChildren`).
   */
  declare openChild: ElementRecord | null;
  declare moreOpenChildren: ElementRecord[] | null;

  constructor(positioned: boolean) {
    this.parent = null;
    this.inTemplate = false;
    this.pos = positioned ? new Positions() : null;
    this.openChild = null;
    this.moreOpenChildren = null;
  }

  /** `el`, an open element, is now a child of this one. */
  addOpenChild(el: ElementRecord): void {
    if (this.openChild === null) this.openChild = el;
    else (this.moreOpenChildren ??= []).push(el);
  }

  /** `el` is no longer an open child of this one (closed, or moved). */
  removeOpenChild(el: ElementRecord): void {
    const more = this.moreOpenChildren;
    if (this.openChild === el) this.openChild = more === null || more.length === 0 ? null : more.pop()!;
    else if (more !== null) {
      const i = more.lastIndexOf(el);
      if (i >= 0) more.splice(i, 1);
    }
  }
}

/** The document node. */
export class DocumentRecord extends ParentRecord {}

/** A template's contents (a DocumentFragment): what is under it is not in the document. */
export class FragmentRecord extends ParentRecord {
  /** The template whose contents it is. */
  host: ElementRecord | null = null;
  constructor(positioned: boolean) {
    super(positioned);
    this.inTemplate = true;
  }
}

/** The node `x` is in: its parent, or for a template's contents the template. */
export function containerOf(x: ParentRecord): ParentRecord | null {
  return x instanceof FragmentRecord ? x.host : x.parent;
}

/**
 * Whether `node` is, or is inside (up through template contents), an element a handler left out or
 * whose content it left out (`OUT_ABSENT`, `OUT_CONTENT_ABSENT`): a walk up, O(depth).
 */
export function insideRemovedContent(node: ParentRecord | null): boolean {
  for (let x: ParentRecord | null = node; x !== null; x = containerOf(x)) if (x instanceof ElementRecord && (x.out & (OUT_ABSENT | OUT_CONTENT_ABSENT)) !== 0) return true;
  return false;
}

/** A comment or doctype node: the sink must hand the tree builder a handle for them. */
export class LeafRecord {
  constructor(readonly kind: 'comment' | 'doctype') {}
  parent: ParentRecord | null = null;
}

export type NodeRecord = ParentRecord | LeafRecord;

/** An element as the rewriter sees it. */
/** A formatting element's start tag as written: its name and attributes (see `ElementRecord.writtenTag`). */
export interface WrittenTag {
  readonly name: string;
  readonly attributes: readonly (readonly [string, string])[];
}

/**
 * `ElementRecord.out` bits: where the element stands for a parser reading the *output*, where that
 * differs from the input's parser (transform/alignment.ts).
 */
/** Closed by an end tag the rewriter wrote, before the input's parser closed it (or where it closed it implicitly). */
export const OUT_CLOSED = 1;
/** A formatting element whose entry is not in the output parser's list of active formatting elements (closed explicitly, or taken off). */
export const OUT_DETACHED = 2;
/** Not in the output at all, nor its content: removed, replaced, its content replaced, or inside such content. */
export const OUT_ABSENT = 4;
/** Not in the output, but its content is (`removeAndKeepContent()`). */
export const OUT_UNWRAPPED = 8;
/** Made up by the tree builder, and written as an explicit start tag (the output's parser makes it from that tag). */
export const OUT_EXPLICIT = 16;
/** (Of the input's tree:) foster-parented when first inserted (§13.2.6.1): its content is read in a table's insertion mode. */
export const OUT_FOSTERED = 32;
/** Renamed to a name the tree builder treats otherwise (tag-classes.ts `checkRename`). */
export const OUT_RECLASSED = 64;
/** In the output, but not its content (`setInnerContent()`): what is inside is out of the output. */
export const OUT_CONTENT_ABSENT = 128;
/**
 * (Of the input's tree:) taken off the stack of open elements while an element inside it stayed open
 * (`<a>` inside an `a` with a table between, §13.2.6.4.7): its end is not where its content ends.
 */
export const OUT_ENDED_OPEN = 256;
/**
 * (Of the input's tree:) the element still open inside one the parser took off the stack
 * (`OUT_ENDED_OPEN`): what the parser puts in it afterwards is in that element's subtree, though no
 * longer under its stack entry.
 */
export const OUT_OUTLIVED = 512;
/**
 * Its start tag brought the parser back from "after body" or "after after body" to "in body"
 * (§13.2.6.4.19, .21): without that tag in the output, what follows stays after the body there.
 */
export const OUT_REOPENS_BODY = 1024;
/**
 * Its start tag (`<a>`, `<nobr>`) ran the adoption agency algorithm for an earlier element of its name
 * (§13.2.6.4.7), which moved elements out of it (a furthest block): a tag of another name, or none,
 * would not. (Entries that were not open it took off the list: `Executor.tagDrops`.)
 */
export const OUT_TAG_ADOPTS = 2048;
/**
 * The parser foster-parented something right before it (a table, HTML §13.2.6.1 "appropriate place for
 * inserting a node"): after what a handler put before its start tag, which a browser reading the output
 * has before the table already — between that content and the table.
 */
export const OUT_FOSTERED_BEFORE = 4096;
/**
 * (Of the input's tree:) a copy a reconstruction made for text the tree builder held "in table text"
 * (§13.2.6.4.10) and the output has already: the output's parser is to make it when it places that
 * text (transformer.ts `effectsOf`), which it can only do while it has the original's entry.
 */
export const OUT_HELD_TEXT_COPY = 8192;
/**
 * (Of the input's tree:) Noah's Ark (§13.2.4.3) took its entry off the list of active formatting
 * elements while it was open: the one way an open formatting element is not in that list.
 */
export const OUT_NOAHS_DROPPED = 16384;

/** `ElementRecord.writtenTag` of a formatting element whose start tag is not in the output. */
export const TAG_NOT_WRITTEN: WrittenTag = Object.freeze({ name: '', attributes: Object.freeze([]) });

/**
 * What the walks along a chain of copies (`ElementRecord.copiedFrom`) remember (and, for any formatting
 * element the Noah's Ark check compares, its source tag's signature). A formatting element
 * left open is copied again and again — an unclosed `<b>` into every paragraph that follows, each copy
 * made from the one before — so its chain is as long as the document; walked afresh for every new copy,
 * the rewrite was quadratic (40,000 paragraphs: 8 s). An answer is kept on the element asked about and
 * holds while the chain's original (`copyOf ?? el`) says nothing the walk reads has changed since: its
 * `version` moves whenever a member's `writtenTag` or `OUT_EXPLICIT` changes, its `reclassVersion`
 * when a member is `OUT_RECLASSED` (`ElementRecord.addChainFlags`). (Apart, so that copies that get
 * their own written tags — a handler setting an attribute on each — do not make the rename check walk.)
 */
export class CopyChain {
  /** (On a chain's original:) bumped when a member's `writtenTag` or `OUT_EXPLICIT` changes. */
  version = 0;
  /** (On a chain's original:) bumped when a member is `OUT_RECLASSED`. */
  reclassVersion = 0;
  /** `Executor.outputTagOf` of this element, while `tagVersion` is the original's `version`. */
  tag: WrittenTag | null = null;
  tagVersion = -1;
  /** The original's `reclassVersion` when this element and every element it was copied from were seen not `OUT_RECLASSED`. */
  cleanVersion = -1;
  /** (Of a formatting element:) its source tag's Noah's Ark signature, made once (`Executor.checkNoahsArk`). */
  sourceSignature: string | null = null;
  /** (Of a formatting element:) its entry in `NoahsArkIndex`'s copy of the list (transform/noahs-ark.ts `Slot`); null when it never had one. */
  noahSlot: object | null = null;
  /**
   * (On a chain's original, once `NoahsArkIndex` has a member's entry:) the index, told when `version`
   * moves, since a member's output tag may then have changed; its generation then, and the members.
   */
  noahIndex: { chainChanged(original: ElementRecord): void } | null = null;
  noahGeneration = 0;
  noahMembers: ElementRecord[] | null = null;
}

/**
 * Bumped when elements of some view's tree got other ancestors and their memos could not be voided one
 * by one (`voidAncestorMemosUnder`): what every element remembers of its ancestors
 * (`ElementRecord.ancestorMatch`) is then void. (One counter for every rewrite in the process: a bump in
 * one voids the others' memos too, which only costs a walk.)
 */
let treeGeneration = 1;
function ancestorsChanged(): void {
  treeGeneration++;
}
/**
 * Bumped at every move or removal of an element (any view's). A closed element's memos hold only while
 * it has not changed: `voidAncestorMemosUnder` reaches open elements only (through `openChild`), so a
 * closed one under a moved element keeps a memo that may be stale. Open elements' memos are voided one
 * by one instead, and outlive moves elsewhere — where the adoption agency moves an element between
 * every two walks (`<b><div>x</b>` × n), voiding every memo at each move made the walks quadratic.
 */
let moveGeneration = 1;

/** Elements at most voided one by one per change (`voidAncestorMemosUnder`); past it, all are voided at once. */
const SUBTREE_VOID_BUDGET = 64;

/**
 * Elements under `root` got other ancestors (a move or a removal, `root` included when `includeRoot`;
 * else its open children and theirs, which `moveChildren` gave to it): their memos are voided — the open
 * ones one by one, through the open-children links, while they are at most `SUBTREE_VOID_BUDGET`; past
 * that, every memo at once (`ancestorsChanged`). Closed elements' memos are void by `moveGeneration`.
 * (Sound while every open element's parent is open: the view turns this off once an element closes with
 * open children, ViewSink `close`.)
 */
export function voidAncestorMemosUnder(root: ParentRecord, includeRoot: boolean): void {
  moveGeneration++;
  let budget = SUBTREE_VOID_BUDGET;
  if (includeRoot && root instanceof ElementRecord) {
    root.ancestorMemoGeneration = 0;
    budget--;
  }
  const stack: ParentRecord[] = [root];
  while (stack.length > 0) {
    const p = stack.pop()!;
    const first = p.openChild;
    if (first === null) continue;
    if (--budget < 0) return ancestorsChanged();
    first.ancestorMemoGeneration = 0;
    stack.push(first);
    const more = p.moreOpenChildren;
    if (more === null) continue;
    for (let i = 0; i < more.length; i++) {
      if (--budget < 0) return ancestorsChanged();
      more[i]!.ancestorMemoGeneration = 0;
      stack.push(more[i]!);
    }
  }
}

/** Every element of every view got other ancestors, as far as the memos know (`voidAncestorMemosUnder` can not tell which). */
export function allAncestorsChanged(): void {
  moveGeneration++;
  treeGeneration++;
}
/** The generation of the last descendant-combinator walk (`ElementRecord.rememberWalks`). */
let walkGeneration = 0;

/** The `CopyChain` of `el`, made on first use. */
export function chainOf(el: ElementRecord): CopyChain {
  return (el.chain ??= new CopyChain());
}

export class ElementRecord extends ParentRecord implements MatchableElement {
  // Fields are declared and assigned in the constructor (one hidden class, no class-field initializer
  // pass): one record is made per element, on the hot path.
  declare readonly localName: string;
  declare readonly namespace: string;
  /** Indices of the registrations (`.on()` calls) whose selector this element matched, ascending. */
  declare matched: readonly number[] | null;
  /** Whether selectors were evaluated (at first insertion). */
  declare evaluated: boolean;
  /** Whether this element was created for a start tag of its own (else the tree builder made it up: it is implied). */
  declare fromStartTag: boolean;
  /** Whether it is on the rewriter's list of open elements. */
  declare open: boolean;
  /** Whether its end (explicit or implicit) has been handled. */
  declare ended: boolean;
  /**
   * Whether element handlers ran (or will run) for it and its end must go through the handler queue
   * (cleared again when the handlers left nothing to do at its end).
   */
  declare handled: boolean;
  /** Set by the executor while the element's handlers may still act on its end tag. */
  declare unit: ElementUnit | null;
  /** The template contents, for a `<template>`. */
  declare content: FragmentRecord | null;
  /** The registrations it inherits (see handler-lists.ts), valid while `cacheGeneration` is current. */
  declare inherited: RegistrationSet | null;
  declare cacheGeneration: number;
  /**
   * For a copy of a formatting element that the tree builder made (reconstructing the active formatting
   * elements, or the adoption agency algorithm): the element with a start tag of its own that it copies.
   * A parser reading the output copies that element's start tag as written, so the copy cannot differ
   * from it (see `Executor.checkCopy`). Null for every other element.
   */
  declare copyOf: ElementRecord | null;
  /**
   * For a formatting element with a start tag of its own (the only elements a parser copies): its start
   * tag as the output has it — null while it is the source's; else the name and attributes written, or
   * `TAG_NOT_WRITTEN` (removed, replaced, inside removed content). Set by the executor.
   */
  get writtenTag(): WrittenTag | null {
    return this.written;
  }
  set writtenTag(tag: WrittenTag | null) {
    this.written = tag;
    this.chainChanged();
  }
  declare private written: WrittenTag | null;
  /** What walks along its chain of copies remember (`CopyChain`); null until one does. */
  declare chain: CopyChain | null;
  /**
   * `OutputAlignment.present`'s memo of its walk up from here (0: none): the epoch it was made in, negated
   * when this element or one around it is left out of the output (`OUT_ABSENT`, `OUT_CONTENT_ABSENT`).
   */
  declare presentMemo: number;
  /**
   * What descendant combinators' walks found here (`ancestorMatch`), valid in `ancestorMemoGeneration`:
   * the first selector and `k * 2 + answer` in fields (no allocation: where moves void them between walks),
   * any more in `ancestorMemo` (selector, k, answer, …).
   */
  declare ancestorMemoSel: object | null;
  declare ancestorMemoKV: number;
  declare ancestorMemo: unknown[] | null;
  declare ancestorMemoGeneration: number;
  /** The `moveGeneration` of the memo's oldest entry: a closed element's memo holds only while no element moved since. */
  declare ancestorMemoMoves: number;
  /**
   * What `MoveWatch` (move-watch.ts) knows of it while the adoption agency algorithm may still move
   * elements: `WATCH_*` bits, 0 when the rewrite has no selector a move can change.
   */
  declare watchFlags: number;
  /** While it is held and open: how many moves its hold had seen when it was inserted (move-watch.ts); else -1. */
  declare watchMark: number;
  /**
   * For a copy of a formatting element: the element it was made from (an original, or an earlier copy);
   * and whether reconstructing the active formatting elements made it (else the adoption agency did).
   */
  declare copiedFrom: ElementRecord | null;
  declare reconstructed: boolean;
  /** `OUT_*` bits: how the parser reading the output has it, where that differs (transform/alignment.ts). */
  declare out: number;
  /** The name the output gives it, when a handler renamed it (its end tags then use it); else null. */
  declare outputName: string | null;

  /** The attributes once decoded (or given); null while they are still in `tagToken`. */
  declare private decoded: readonly ElementAttribute[] | null;
  /**
   * The start tag token, while its attributes are not decoded (`ViewSink.createElementForStartTag`):
   * they are decoded from it (and cached there), so that a handler's `Element`, which reads the same
   * token, does not decode them a second time.
   */
  declare private tagToken: StartTagClass | null;

  constructor(
    localName: string,
    namespace: string,
    attributes: readonly ElementAttribute[] | null,
    positioned: boolean,
    tagToken: StartTagClass | null = null,
  ) {
    super(positioned);
    this.localName = localName;
    this.namespace = namespace;
    this.matched = null;
    this.evaluated = false;
    this.fromStartTag = false;
    this.open = false;
    this.ended = false;
    this.handled = false;
    this.unit = null;
    this.content = null;
    this.inherited = null;
    this.cacheGeneration = -1;
    this.copyOf = null;
    this.written = null;
    this.chain = null;
    this.presentMemo = 0;
    this.ancestorMemoSel = null;
    this.ancestorMemoKV = 0;
    this.ancestorMemo = null;
    this.ancestorMemoGeneration = 0;
    this.ancestorMemoMoves = 0;
    this.watchFlags = 0;
    this.watchMark = -1;
    this.copiedFrom = null;
    this.reconstructed = false;
    this.out = 0;
    this.outputName = null;
    this.decoded = attributes;
    this.tagToken = tagToken;
  }

  /**
   * Set `OUT_*` bits that walks along a chain of copies read (`OUT_EXPLICIT`, `OUT_RECLASSED`): what they
   * remember of the chain is then stale (`CopyChain`).
   */
  addChainFlags(bits: number): void {
    this.out |= bits;
    const chain = (this.copyOf ?? this).chain;
    if (chain === null) return;
    if ((bits & OUT_RECLASSED) !== 0) chain.reclassVersion++;
    if ((bits & OUT_EXPLICIT) !== 0) {
      chain.version++;
      if (chain.noahIndex !== null) chain.noahIndex.chainChanged(this.copyOf ?? this);
    }
  }

  private chainChanged(): void {
    const chain = (this.copyOf ?? this).chain;
    if (chain === null) return;
    chain.version++;
    if (chain.noahIndex !== null) chain.noahIndex.chainChanged(this.copyOf ?? this);
  }

  /** The attributes, decoded from the start tag on first read: most elements' are never read. */
  get attributes(): readonly ElementAttribute[] {
    const decoded = this.decoded;
    if (decoded !== null) return decoded;
    // A tokenizer token's attributes are `DecodedAttribute`s, which have the shape of an HTML element's
    // attributes (null namespace and prefix).
    const list = this.tagToken!.attributes as readonly DecodedAttribute[];
    this.tagToken = null;
    return (this.decoded = list);
  }
  /**
   * The value of the null-namespace attribute `name` (lowercase), or null: for selectors' attribute tests
   * on HTML elements, without decoding the attributes not asked for (`MatchableElement.attributeValue`).
   */
  attributeValue(name: string): string | null {
    const decoded = this.decoded;
    if (decoded === null) return this.tagToken!.attributeValue(name);
    for (let i = 0; i < decoded.length; i++) {
      const a = decoded[i]!;
      if (a.namespace === null && a.name === name) return a.value;
    }
    return null;
  }

  set attributes(list: readonly ElementAttribute[]) {
    this.decoded = list;
    this.tagToken = null;
  }

  /**
   * False when the element certainly has no attributes, without decoding them: a raw start tag no longer
   * than `<name>` or `<name/>` has none. (True may still turn out to be none: `<p >`.)
   */
  get mayHaveAttributes(): boolean {
    const decoded = this.decoded;
    if (decoded !== null) return decoded.length > 0;
    const token = this.tagToken!;
    return token.end - token.start > this.localName.length + 3;
  }

  // MatchableElement's positions: only selectors that keep positions ask for them.
  get index(): number {
    return this.pos === null ? 0 : this.pos.index;
  }
  get typeIndex(): number {
    return this.pos === null ? 0 : this.pos.typeIndex;
  }
  get prevBits(): Uint8Array | null {
    return this.pos === null ? null : this.pos.prevBits;
  }
  get anyPrevBits(): Uint8Array | null {
    return this.pos === null ? null : this.pos.anyPrevBits;
  }
  get ofIndex(): Int32Array | null {
    return this.pos === null ? null : this.pos.ofIndex;
  }

  get parentElement(): ElementRecord | null {
    const p = this.parent;
    return p instanceof ElementRecord ? p : null;
  }

  get isRoot(): boolean {
    return this.parent instanceof DocumentRecord;
  }

  /** `MatchableElement.ancestorMatch`: -1 until a walk passed here (while the tree's shape held), or while not in the tree yet. */
  ancestorMatch(sel: object, k: number): number {
    if (this.ancestorMemoGeneration !== treeGeneration || !this.evaluated || (!this.open && this.ancestorMemoMoves !== moveGeneration)) return -1;
    if (this.ancestorMemoSel === sel && this.ancestorMemoKV >> 1 === k) return this.ancestorMemoKV & 1;
    const memo = this.ancestorMemo;
    if (memo !== null) for (let i = 0; i < memo.length; i += 3) if (memo[i] === sel && memo[i + 1] === k) return memo[i + 2] as number;
    return -1;
  }

  rememberWalks(): boolean {
    if (walkGeneration === treeGeneration) return true;
    walkGeneration = treeGeneration;
    return false;
  }

  rememberAncestorMatch(sel: object, k: number, matches: boolean): void {
    // (Not on an element the adoption agency has not put in the tree yet: its ancestors are not all there.)
    if (!this.evaluated) return;
    if (this.ancestorMemoGeneration !== treeGeneration || (!this.open && this.ancestorMemoMoves !== moveGeneration)) {
      // (A new memo: the old one is void, or — closed — may be.)
      this.ancestorMemoGeneration = treeGeneration;
      this.ancestorMemoMoves = moveGeneration;
      this.ancestorMemoSel = sel;
      this.ancestorMemoKV = k * 2 + (matches ? 1 : 0);
      this.ancestorMemo = null;
      return;
    }
    (this.ancestorMemo ??= []).push(sel, k, matches ? 1 : 0);
  }

  /** Key for counting siblings of the same type. */
  get typeKey(): string {
    return this.namespace === HTML_NS ? this.localName : `${this.namespace} ${this.localName}`;
  }

  get isHtml(): boolean {
    return this.namespace === HTML_NS;
  }
}
