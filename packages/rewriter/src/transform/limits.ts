/** The rewriter's options, and the bound on what it may hold (`maxBufferedBytes`). */

/** Options of a rewrite. */
export interface RewriterOptions {
  /**
   * The most input the rewriter may hold at once, in the input's units (bytes for a byte input, UTF-16
   * code units for strings): an unfinished token the tokenizer keeps, table text the tree builder has
   * not placed yet, and output waiting behind an async handler. Exceeding it errors the stream.
   * Default 16 MiB.
   */
  maxBufferedBytes?: number;
  /**
   * What happens when output held until the adoption agency algorithm can no longer move an element
   * (docs/rewriter.md, "Held output") would take the rewriter past `maxBufferedBytes`:
   * - `'error'` (the default): the stream errors, with a message that names the bound and the element;
   * - `'release'`: what is held is written out at once, its elements matched on the tree as it stands
   *   (a later move of them is not followed: a handler may have fired on an element the final tree has
   *   elsewhere), and `onHoldReleased` is told. Needs `onHoldReleased`.
   */
  heldOutput?: 'error' | 'release';
  /**
   * With `heldOutput: 'release'`: called, synchronously, each time held output is released before it
   * was settled, with a message naming the element and the bound.
   */
  onHoldReleased?: (message: string) => void;
  /** The scripting flag (`<noscript>` content is raw text when on). Default true, like browsers. */
  scripting?: boolean;
}

/** Default for {@link RewriterOptions.maxBufferedBytes}. */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** `options.maxBufferedBytes`, checked. Throws when it is not a positive number. */
export function maxBufferedOf(options: RewriterOptions): number {
  const max = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  if (typeof max !== 'number' || !(max > 0)) {
    throw new Error(`HTMLRewriter: maxBufferedBytes must be a positive number, got ${String(max)}`);
  }
  return max;
}

/** `options.heldOutput` and `options.onHoldReleased`, checked: the callback to report early releases with, or null for `'error'`. */
export function holdReleaseOf(options: RewriterOptions): ((message: string) => void) | null {
  const policy = options.heldOutput ?? 'error';
  if (policy !== 'error' && policy !== 'release') {
    throw new Error(`HTMLRewriter: heldOutput must be 'error' or 'release', got ${JSON.stringify(String(policy))}`);
  }
  const report = options.onHoldReleased;
  if (report !== undefined && typeof report !== 'function') throw new TypeError('HTMLRewriter: onHoldReleased must be a function');
  if (policy === 'error') return null;
  if (report === undefined) throw new Error("HTMLRewriter: heldOutput 'release' needs onHoldReleased, which is told each time held output is released early");
  return report;
}

/**
 * The message for held output past the bound: `held` units, held since `element` (e.g. `<div> at offset
 * 12`); `released`: the report of `heldOutput: 'release'` rather than the error.
 */
export function heldMessage(max: number, held: number, element: string, released = false): string {
  return (
    `HTMLRewriter: maxBufferedBytes (${max}) exceeded: ${held} characters of output are held until the adoption agency ` +
    `algorithm can no longer move the ${element} (an open element inside an open formatting element: its matches ` +
    `may still change)` +
    (released
      ? `; released as it stands (heldOutput: 'release'): a later move of its elements is not followed`
      : `. Close the formatting element earlier in the input, raise the bound, or set heldOutput: 'release'`)
  );
}

/**
 * The error for a rewrite that holds more than `max`, naming the largest of what it holds: the
 * tokenizer's unfinished token, table text not placed yet, output queued behind an async handler. Null
 * within the bound.
 */
export function boundExceeded(max: number, tokenizerHeld: number, heldText: number, queued: number, held = 0, heldSince = ''): Error | null {
  if (tokenizerHeld + heldText + queued + held <= max) return null;
  if (held >= tokenizerHeld && held >= heldText && held >= queued) return new Error(heldMessage(max, held, heldSince));
  const what =
    tokenizerHeld >= heldText && tokenizerHeld >= queued
      ? `the tokenizer holds ${tokenizerHeld} characters of a token that has not ended`
      : heldText >= queued
        ? `${heldText} characters of table text are waiting for the tree builder to place them`
        : `${queued} characters are waiting behind an async handler`;
  return new Error(`HTMLRewriter: maxBufferedBytes (${max}) exceeded: ${what}`);
}
