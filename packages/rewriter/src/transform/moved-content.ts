/**
 * Content changes the output cannot express for an element the adoption agency algorithm (HTML
 * §13.2.6.4.7) moved while its output was held (held-moves.ts): refused, never written as a wrong tree.
 *
 * The output keeps the source's tags, and a browser reading it runs the same algorithm. That carries
 * attribute changes along. It does not carry content written at the source's places when the move
 * reorders them: for the *furthest block* itself (its content goes into a copy of the formatting
 * element, the block to the formatting element's parent), `before`/`prepend`/`append`/`after`,
 * `setInnerContent`, `replace`, removal and renaming land elsewhere than the final tree has them — `<b><h1>x</b>`
 * with `prepend('[')` on `h1` would reparse with `[` inside the copy of the `b`. And for any element that
 * was open when a move happened, removing its content (`remove`, `replace`, `setInnerContent`) removes
 * the end tag that made the move, so a browser would not make it.
 */
import type { ElementUnit } from '../rewritable-units/element.js';
import { WATCH_CONTENT_CHANGED, WATCH_LOST_MOVED, WATCH_MOVED, WATCH_SPANS_MOVE } from '../view/move-watch.js';
import type { ElementRecord } from '../view/records.js';

/** `where`: which element, e.g. `at offset 3` (its start tag), `ending at offset 9`. */
export function movedError(el: ElementRecord, where: string, what: string): Error {
  return new Error(
    `HTMLRewriter: the <${el.localName}> ${where} is moved by the adoption agency algorithm after its start tag ` +
      `(an end tag of a formatting element it is in; HTML §13.2.6.4.7), and a browser reading the output makes the same move: ` +
      `${what}. Attribute changes are written; content changes of such an element cannot be (docs/rewriter.md, "Held output").`,
  );
}

/**
 * The error for removing the content of an element that held one the algorithm moved out of it after
 * its start tag: the end tag that makes the move is in that content, so a browser reading the output
 * would not make it, and the moved element, outside the removed one in the tree, would be lost.
 */
function spansMoveError(el: ElementRecord, where: string, what: string, atEnd = false): Error {
  const why = atEnd
    ? 'content at its end would land in the moved element, where a browser is when it reads the token that ends it'
    : 'the end tag that makes the move would be left out with its content';
  const moves = (el.watchFlags & WATCH_LOST_MOVED) !== 0 ? 'moves an element out of it' : 'moves an element while it is open';
  return new Error(
    `HTMLRewriter: ${what} on the <${el.localName}> ${where} cannot be written so that a browser builds the same tree: ` +
      `the adoption agency algorithm (HTML §13.2.6.4.7) ${moves}, and ${why} (docs/rewriter.md, "Held output").`,
  );
}

/** Throws when `unit`'s handlers made a change the output cannot express for `el` (see the file comment). */
export function checkMovedContent(el: ElementRecord, offset: number, unit: ElementUnit): void {
  const flags = el.watchFlags;
  if ((flags & (WATCH_MOVED | WATCH_SPANS_MOVE | WATCH_LOST_MOVED)) === 0) return;
  const where = `at offset ${offset}`;
  if ((flags & WATCH_MOVED) === 0) {
    // Not moved itself: open across a move (`WATCH_SPANS_MOVE`), or an element it held was moved out of it (`WATCH_LOST_MOVED`).
    const what = unit._replacement !== null ? 'replace()' : unit._inner !== null ? 'setInnerContent()' : unit._removed && !unit._keepContent ? 'remove()' : null;
    if (what !== null) throw spansMoveError(el, where, what);
    return;
  }
  if (unit._replacement !== null) throw movedError(el, where, 'replace() cannot be written for it');
  if (unit._inner !== null) throw movedError(el, where, 'setInnerContent() cannot be written for it');
  if (unit._removed && !unit._keepContent) throw movedError(el, where, 'remove() cannot be written for it');
  if (unit._keepContent) throw movedError(el, where, 'removeAndKeepContent() cannot be written for it');
  if (unit._nameChanged) throw movedError(el, where, 'a new tag name cannot be written for it');
  if (unit._before !== null) throw movedError(el, where, 'before() cannot be written for it');
  if (unit._prepend !== null) throw movedError(el, where, 'prepend() cannot be written for it');
  if (unit._append !== null) throw movedError(el, where, 'append() cannot be written for it');
  if (unit._after !== null) throw movedError(el, where, 'after() cannot be written for it');
}

/**
 * Note, after an element's start handlers, whether they changed content at its start (what a later move
 * of it would make wrong: see `refuseMovedContent`); only for elements not held (a held one is checked
 * by `checkMovedContent` when released).
 */
export function noteContentChange(el: ElementRecord, unit: ElementUnit): void {
  if (unit._before !== null || unit._prepend !== null || unit._inner !== null || unit._replacement !== null || unit._removed || unit._nameChanged) {
    el.watchFlags |= WATCH_CONTENT_CHANGED;
  }
}

/**
 * The error for an element the algorithm moves after its handlers changed content at its start (a
 * rewrite that held nothing: its selectors cannot change with a move, but this content is misplaced by
 * it). `offset`: the token that makes the move.
 */
export function movedAfterChange(el: ElementRecord, offset: number): Error {
  return movedError(el, `(moved by the token at offset ${offset})`, 'its handlers changed its content, its tag name or removed it at its start, which a browser would place elsewhere');
}

/** At a moved element's end: what its handlers put there (`append`, `after`, an end tag handler's changes) cannot be written. */
export function checkMovedEnd(
  el: ElementRecord,
  offset: number,
  unit: ElementUnit,
  end: { _before: unknown; _after: unknown; _replacement: unknown; _removed: boolean } | null,
): void {
  const flags = el.watchFlags;
  if ((flags & (WATCH_MOVED | WATCH_LOST_MOVED)) === 0) return;
  const where = offset < 0 ? 'closed without an end tag' : `ending at offset ${offset}`;
  if ((flags & WATCH_MOVED) === 0) {
    // It lost an element to a move its end made: after that token the parser is inside the moved
    // element (`<a><a><p></a>` with `after()` on the second a: the content would land in the p).
    const what = unit._append !== null ? 'append()' : unit._after !== null ? 'after()' : end !== null && (end._before !== null || end._after !== null || end._replacement !== null || end._removed) ? 'a change of its end tag' : null;
    if (what !== null) throw spansMoveError(el, where, what, true);
    return;
  }
  if (unit._append !== null) throw movedError(el, where, 'append() cannot be written for it');
  if (unit._after !== null) throw movedError(el, where, 'after() cannot be written for it');
  if (end !== null && (end._before !== null || end._after !== null || end._replacement !== null || end._removed)) {
    throw movedError(el, where, 'its end tag handler changed its end, which cannot be written for it');
  }
}
