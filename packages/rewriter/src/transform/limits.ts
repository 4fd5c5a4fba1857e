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

/**
 * The error for a rewrite that holds more than `max`, naming the largest of what it holds: the
 * tokenizer's unfinished token, table text not placed yet, output queued behind an async handler. Null
 * within the bound.
 */
export function boundExceeded(max: number, tokenizerHeld: number, heldText: number, queued: number): Error | null {
  if (tokenizerHeld + heldText + queued <= max) return null;
  const what =
    tokenizerHeld >= heldText && tokenizerHeld >= queued
      ? `the tokenizer holds ${tokenizerHeld} characters of a token that has not ended`
      : heldText >= queued
        ? `${heldText} characters of table text are waiting for the tree builder to place them`
        : `${queued} characters are waiting behind an async handler`;
  return new Error(`HTMLRewriter: maxBufferedBytes (${max}) exceeded: ${what}`);
}
