/** Text the tree builder has not placed yet, and how its raw text maps onto the characters it decoded. */
import { type TextKind, type TextToken, TextTokenClass } from '@sluice/tokenizer';
import { alignmentError } from './alignment.js';

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

/** Runs longer than this with a character reference in the way are not measured (see `decodedLengthOf`). */
const MAX_MEASURED_WITH_REFERENCES = 1024;

/**
 * `rawLengthOf` where a character reference is in the way (`<table><colgroup>&#32;z`: the colgroup takes
 * the decoded space, the table the rest): the shortest raw length from `from` whose decoding is `count`
 * characters and cuts no reference (its decoding and the rest's make the whole run's). Each try decodes
 * again, so runs past `MAX_MEASURED_WITH_REFERENCES` are refused rather than measured in quadratic time.
 */
export function decodedLengthOf(raw: string, from: number, count: number, kind: TextKind, byteForm: boolean, offset: number): number {
  if (raw.length - from > MAX_MEASURED_WITH_REFERENCES) {
    throw alignmentError(
      `the text at offset ${offset}, which the parser splits between two places`,
      `the run is longer than ${MAX_MEASURED_WITH_REFERENCES} characters with a character reference in it, where the rewriter does not measure the split`,
    );
  }
  const decode = (s: string): string => new TextTokenClass(kind, s, 0, byteForm).value;
  const whole = decode(raw.slice(from));
  for (let k = from + 1; k <= raw.length; k++) {
    const head = decode(raw.slice(from, k));
    if (head.length === count && head + decode(raw.slice(k)) === whole) return k - from;
  }
  return -1;
}
