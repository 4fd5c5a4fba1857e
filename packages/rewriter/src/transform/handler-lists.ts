/**
 * Which `text` and `comments` handlers a text chunk or comment reaches: those of every registration
 * whose selector matched the element it went into or one of that element's ancestors, in registration
 * order, then the document's.
 *
 * The registrations an element inherits form a `RegistrationSet`. Sets are interned (one object per
 * distinct set of registrations, however many elements share it), so each set's handler lists are
 * built once, and an element finds its set from its parent's with one lookup — not a merge, a sort
 * and a list per element. Each element caches its set until an element moves (`generation`).
 */
import type { CommentUnit } from '../rewritable-units/comment.js';
import type { TextChunkUnit } from '../rewritable-units/text-chunk.js';
import type { ElementRecord } from '../view/records.js';
import type { ViewSink } from '../view/view-sink.js';
import type { CompiledHandlers, Fn } from './handlers.js';

/** A set of registrations (`.on()` calls, by index), with the handler lists it makes. */
export class RegistrationSet {
  /** The set's handlers, built when first asked for. */
  textFns: readonly Fn<TextChunkUnit>[] | null = null;
  commentFns: readonly Fn<CommentUnit>[] | null = null;
  /**
   * This set joined with an element's own matches, by the element's `matched` list. Weak: a list
   * made for one element must not be kept; the lists elements share (see ViewSink.evaluate) hit.
   */
  readonly joined = new WeakMap<readonly number[], RegistrationSet>();

  /** @param regs ascending registration indices */
  constructor(readonly regs: readonly number[]) {}
}

/**
 * Distinct sets kept at most; past this, new sets are made without interning (still right, just not
 * shared). A document cannot make more sets than there are subsets of the registrations it uses.
 */
const MAX_INTERNED = 4096;

/** The handler lists for text and comments; see the file comment. */
export class HandlerLists {
  private readonly empty = new RegistrationSet([]);
  private readonly interned = new Map<string, RegistrationSet>();

  constructor(
    private readonly config: CompiledHandlers,
    private readonly sink: ViewSink,
  ) {}

  /** The set `base` ∪ `own`, interned. */
  private join(base: RegistrationSet, own: readonly number[]): RegistrationSet {
    const cached = base.joined.get(own);
    if (cached !== undefined) return cached;
    const merged = new Set(base.regs);
    for (const r of own) merged.add(r);
    const regs = [...merged].sort((x, y) => x - y);
    const key = regs.join(',');
    let set = this.interned.get(key);
    if (set === undefined) {
      set = new RegistrationSet(regs);
      if (this.interned.size < MAX_INTERNED) this.interned.set(key, set);
    }
    base.joined.set(own, set);
    return set;
  }

  /** Registrations matching `el` or one of its ancestors. */
  private inheritedRegistrations(el: ElementRecord): RegistrationSet {
    const generation = this.sink.generation;
    if (el.cacheGeneration === generation && el.inherited !== null) return el.inherited;
    // Walk up to the first ancestor with a valid cache, then fill caches downwards (no recursion).
    const chain: ElementRecord[] = [];
    let base = this.empty;
    for (let a: ElementRecord | null = el; a !== null; a = a.parentElement) {
      if (a.cacheGeneration === generation && a.inherited !== null) {
        base = a.inherited;
        break;
      }
      chain.push(a);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const a = chain[i]!;
      if (a.matched !== null) base = this.join(base, a.matched);
      a.inherited = base;
      a.cacheGeneration = generation;
    }
    return base;
  }

  /** The `text` handlers for text inserted into `el` (null: no element, or dropped). */
  textHandlersFor(el: ElementRecord | null): readonly Fn<TextChunkUnit>[] {
    const set = el === null ? this.empty : this.inheritedRegistrations(el);
    let fns = set.textFns;
    if (fns === null) {
      const list: Fn<TextChunkUnit>[] = [];
      for (const r of set.regs) {
        const h = this.config.registrations[r]!.text;
        if (h !== null) list.push(h);
      }
      fns = set.textFns = list.concat(this.config.docText);
    }
    return fns;
  }

  /** The `comments` handlers for a comment inserted into `el` (null: not in an element). */
  commentHandlersFor(el: ElementRecord | null): readonly Fn<CommentUnit>[] {
    const set = el === null ? this.empty : this.inheritedRegistrations(el);
    let fns = set.commentFns;
    if (fns === null) {
      const list: Fn<CommentUnit>[] = [];
      for (const r of set.regs) {
        const h = this.config.registrations[r]!.comments;
        if (h !== null) list.push(h);
      }
      fns = set.commentFns = list.concat(this.config.docComments);
    }
    return fns;
  }
}
