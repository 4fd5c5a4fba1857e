/** Text the tree builder has not placed yet, and how its raw text maps onto the characters it decoded. */
import type { TextKind, TextToken } from '@sluice/tokenizer';

/** A piece of input the tree builder has not placed yet ("in table text"), or raw text queued behind it. */
export interface Held {
  readonly raw: string;
  readonly start: number;
  readonly end: number;
  /** null for a token that is not text (copied as is when its turn comes). */
  readonly kind: TextKind | null;
  /** The text token itself (null for a piece that is not one): its characters are decoded if read. */
  readonly token: TextToken | null;
  /** Offset up to which the piece has been turned into ops. */
  cursor: number;
}


/**
 * How many code units of `raw`, from `from`, make `count` characters of decoded text — for splitting a
 * text token where the tree builder split its characters (always after leading whitespace, which is
 * written literally; CRLF counts as one character). -1 when a character reference is in the way.
 */
export function rawLengthOf(raw: string, from: number, count: number): number {
  let i = from;
  for (let n = 0; n < count; n++) {
    if (i >= raw.length) return -1;
    const c = raw.charCodeAt(i);
    if (c === 0x26 /* & */) return -1;
    i += c === 0x0d && raw.charCodeAt(i + 1) === 0x0a ? 2 : 1;
  }
  return i - from;
}

