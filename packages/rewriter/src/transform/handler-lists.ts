/**
 * Which `text` and `comments` handlers a text chunk or comment reaches: those of every registration
 * whose selector matched the element it went into or one of that element's ancestors, in registration
 * order, then the document's. Cached per element (until an element moves) and per set of registrations.
 */
import type { CommentUnit } from '../rewritable-units/comment.js';
import type { TextChunkUnit } from '../rewritable-units/text-chunk.js';
import type { ElementRecord } from '../view/records.js';
import type { ViewSink } from '../view/view-sink.js';
import type { CompiledHandlers, Fn } from './handlers.js';

const NO_TEXT_FNS: readonly Fn<TextChunkUnit>[] = [];

/** The handler lists for text and comments; see the file comment. */
export class HandlerLists {
  constructor(
    private readonly config: CompiledHandlers,
    private readonly sink: ViewSink,
  ) {}

  /** Registrations matching `el` or one of its ancestors, ascending. */
  private inheritedRegistrations(el: ElementRecord): readonly number[] {
    const generation = this.sink.generation;
    if (el.cacheGeneration === generation && el.inherited !== null) return el.inherited;
    // Walk up to the first ancestor with a valid cache, then fill caches downwards (no recursion).
    const chain: ElementRecord[] = [];
    let base: readonly number[] = [];
    for (let a: ElementRecord | null = el; a !== null; a = a.parentElement) {
      if (a.cacheGeneration === generation && a.inherited !== null) {
        base = a.inherited;
        break;
      }
      chain.push(a);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const a = chain[i]!;
      const own = a.matched;
      if (own !== null) {
        const merged = new Set(base);
        for (const r of own) merged.add(r);
        base = [...merged].sort((x, y) => x - y);
      }
      a.inherited = base;
      a.cacheGeneration = generation;
    }
    return base;
  }

  // Keyed weakly by the registration lists (which the element records hold): a long document makes
  // many lists, and the caches must not keep them alive after their subtrees are done.
  private readonly docTextCache = new WeakMap<readonly number[], readonly Fn<TextChunkUnit>[]>();
  private readonly docCommentCache = new WeakMap<readonly number[], readonly Fn<CommentUnit>[]>();

  /** The `text` handlers for text inserted into `el` (null: no element, or dropped). */
  textHandlersFor(el: ElementRecord | null): readonly Fn<TextChunkUnit>[] {
    const regs = el === null ? [] : this.inheritedRegistrations(el);
    if (regs.length === 0) return this.config.docText.length === 0 ? NO_TEXT_FNS : this.config.docText;
    let fns = this.docTextCache.get(regs);
    if (fns === undefined) {
      const list: Fn<TextChunkUnit>[] = [];
      for (const r of regs) {
        const h = this.config.registrations[r]!.text;
        if (h !== null) list.push(h);
      }
      fns = list.concat(this.config.docText);
      this.docTextCache.set(regs, fns);
    }
    return fns;
  }

  /** The `comments` handlers for a comment inserted into `el` (null: not in an element). */
  commentHandlersFor(el: ElementRecord | null): readonly Fn<CommentUnit>[] {
    const regs = el === null ? [] : this.inheritedRegistrations(el);
    if (regs.length === 0) return this.config.docComments;
    let fns = this.docCommentCache.get(regs);
    if (fns === undefined) {
      const list: Fn<CommentUnit>[] = [];
      for (const r of regs) {
        const h = this.config.registrations[r]!.comments;
        if (h !== null) list.push(h);
      }
      fns = list.concat(this.config.docComments);
      this.docCommentCache.set(regs, fns);
    }
    return fns;
  }
}
