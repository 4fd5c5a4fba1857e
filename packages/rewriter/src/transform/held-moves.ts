/**
 * Holding output while the adoption agency algorithm (HTML §13.2.6.4.7) may still move elements whose
 * handlers would otherwise have run already: exact matches on the final tree.
 *
 * `<b><p>x</b>`: when `<p>` is processed the `p` is in the `b`, and `b p` matches it; the `</b>` then
 * moves the `p` out of the `b` (it is the algorithm's furthest block), and a browser's final tree has
 * no `p` in a `b`. So, from the moment such an element is made (view/move-watch.ts says when: a
 * *candidate*, an open special element under an open formatting element) every op waits in the
 * executor's held queue, and the elements made meanwhile get their handlers decided later
 * (`OP_HELD_START`). When the earliest open candidate closes (or no formatting element is open any
 * more), what came before it is settled: if the algorithm moved anything since the hold began, those
 * elements are matched again on the view, which mirrors the moves; then their ops run, in order.
 *
 * Output for an attribute change needs nothing more: the output has the source's tags, so a browser
 * reading it runs the same algorithm and makes the same move, and the changed attributes go with the
 * element. Only a rewrite whose element handlers have a selector that looks beyond the element itself
 * (`selectors/context.ts`), or that has `text` or `comments` handlers (on any selector but `*`), can be
 * affected; the others never hold.
 *
 * Text and comments go the same way: the algorithm takes them along with the furthest block, out of
 * the elements between it and the formatting element (`<b><span><p>x</b>`: the x ends up in a copy of
 * the b inside the p, in no span). While output is held their handlers are decided when released, from
 * where they are then (ops.ts `OP_HELD_TEXT`, `OP_HELD_COMMENT`).
 *
 * Cost: without a move, the same ops run in the same order as without the hold — same handlers, same
 * output — only later (at the candidate's end). Held ops count towards `maxBufferedBytes` (limits.ts).
 */
import { dependsOnContext, matchesEveryElement } from '../selectors/context.js';
import { MoveWatch } from '../view/move-watch.js';
import type { ElementRecord } from '../view/records.js';
import type { ViewSink } from '../view/view-sink.js';
import type { Executor } from './executor.js';
import type { CompiledHandlers } from './handlers.js';

/** A `MoveWatch` when some element handler's selector can change with a move; else null (nothing is ever held). */
export function moveWatchFor(config: CompiledHandlers): MoveWatch | null {
  // Text and comments a move takes along get other ancestors, whatever the selector (but one every
  // element matches): the furthest block leaves the elements between it and the formatting element
  // (`<b><span><p>x</b>`: the x ends up in no span).
  const watched = (r: CompiledHandlers['registrations'][number]): boolean =>
    (r.element !== null && dependsOnContext(r.list)) || ((r.text !== null || r.comments !== null) && !matchesEveryElement(r.list));
  return config.registrations.some(watched) ? new MoveWatch() : null;
}

/** Releases held output as the watch finds it settled; see the file comment. */
export class HeldMoves {
  private readonly matchAgain: (el: ElementRecord) => void;

  constructor(
    readonly watch: MoveWatch,
    sink: ViewSink,
    private readonly exec: Executor,
  ) {
    watch.onHoldStart = () => exec.beginHold();
    watch.opsHeld = () => exec.heldCount;
    this.matchAgain = (el) => sink.matchAgain(el);
    this.sink = sink;
  }
  private readonly sink: ViewSink;

  /**
   * Past the bound with `heldOutput: 'release'`: write out everything held now, matched on the tree as
   * it stands (later moves of these elements are not followed), and stop holding until the next
   * candidate. Returns what was held since, for the report.
   */
  releaseEarly(): string {
    const watch = this.watch;
    const since = watch.holdingSince();
    watch.release(Infinity, watch.moved ? this.matchAgain : null);
    this.sink.generation++;
    this.exec.releaseHeld(Infinity);
    return since;
  }

  /** After a token whose processing closed a candidate or a formatting element: release what is settled. */
  release(): void {
    const watch = this.watch;
    const settled = watch.settled();
    if (settled === null) return;
    if (watch.moved) {
      watch.release(settled.elements, this.matchAgain);
      // Registrations inherited by text (handler-lists.ts) are cached per generation.
      this.sink.generation++;
    } else watch.release(settled.elements, null);
    this.exec.releaseHeld(settled.ops);
  }
}
