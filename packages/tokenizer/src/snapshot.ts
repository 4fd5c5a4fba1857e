/**
 * Snapshots: the tokenizer's whole state as plain data (§13.2.5's automaton state plus the unflushed
 * text), for tests (the chunk-split test restores them), for comparing two tokenizers, and for resuming.
 */

import type { ErrorQueueState } from './errors.js';
import type { TextKind } from './tokens.js';

/**
 * A tokenizer's state as plain, JSON-serializable data. Take one with `Tokenizer.snapshot()`, resume
 * with `Tokenizer.restore()`, compare with {@link snapshotsEqual}.
 */
export interface TokenizerSnapshot {
  /** The automaton state, by the standard's name (§13.2.5.x), e.g. `'TAG_NAME'`. */
  readonly state: string;
  /** The character reference states' return state (`'DATA'` or `'RCDATA'`). */
  readonly returnState: string;
  /** The kind of the text being scanned. */
  readonly textKind: TextKind;
  /** How much input has been read (UTF-16 code units, inserted text included). */
  readonly offset: number;
  /** Offset of the first character not yet emitted. */
  readonly unflushedStart: number;
  /** The text read but not yet emitted: `[unflushedStart, offset)`. */
  readonly unflushed: string;
  /** Input given but not read yet (text passed to `insert()`), in reading order. */
  readonly queued: readonly string[];
  /** The registers the states use (offsets are absolute), named after what the standard calls them. */
  readonly registers: Readonly<Record<string, number | boolean | string | null>>;
  /** The name of the last start tag emitted (for the appropriate end tag), or null. */
  readonly lastStartTag: string | null;
  /** `end()` was called. */
  readonly ended: boolean;
  /** Errors held until their token is emitted, and the line count, when errors are reported. */
  readonly errors: ErrorQueueState | null;
}

/** Whether two snapshots describe the same state (deep equality of plain data). */
export function snapshotsEqual(a: TokenizerSnapshot, b: TokenizerSnapshot): boolean {
  return plainEqual(a, b);
}

function plainEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!plainEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
