/**
 * `debugState`: a snapshot read back in the standard's words (HTML §13.2.5) — the state's name and
 * section, the text held back, and the token it is becoming. For debugging tools (the playground's
 * chunk stepper); it reads a snapshot, so it is never on the tokenizer's hot path.
 */

import type { TokenizerSnapshot } from './snapshot.js';
import { State } from './states/state.js';
import type { TextKind } from './tokens.js';

/** What the held text is becoming: the token the tokenizer is in the middle of. */
export interface PendingToken {
  /**
   * - `'startTag'`, `'endTag'`, `'comment'`, `'doctype'`: a token being scanned (§13.2.5's "current tag
   *   token", "comment token", "DOCTYPE token");
   * - `'markupDeclaration'`: `<!` and what follows, before the word that decides comment, DOCTYPE or CDATA;
   * - `'characterReference'`: `&…` that may still become a character reference;
   * - `'endTagCandidate'`: `</…` in RCDATA, RAWTEXT or script data that may still be the appropriate end tag;
   * - `'undecided'`: a `<` or `</` whose role the next character decides;
   * - `'text'`: text that may still change (a final CR before a possible LF, a high surrogate, `]]` in CDATA).
   */
  readonly type:
    | 'startTag'
    | 'endTag'
    | 'comment'
    | 'doctype'
    | 'markupDeclaration'
    | 'characterReference'
    | 'endTagCandidate'
    | 'undecided'
    | 'text';
  /** Its source text so far: the held text. */
  readonly raw: string;
  /** The offset of `raw` in the whole input (UTF-16 code units). */
  readonly start: number;
  /** A tag's name so far (ASCII-lowercased), a DOCTYPE's name once read; null otherwise. */
  readonly name: string | null;
}

/** A tokenizer's state for a reader: see {@link debugState}. */
export interface TokenizerDebugState {
  /** The automaton state by the standard's name, lowercased, without "state": `'tag name'`, `'attribute value (double-quoted)'`. */
  readonly state: string;
  /** Its section of the standard, e.g. `'13.2.5.8'`. */
  readonly section: string;
  /** The kind of text being scanned (`'data'`, `'rcdata'`, …). */
  readonly textKind: TextKind;
  /** How much input has been read (UTF-16 code units). */
  readonly offset: number;
  /** The text read but not emitted yet (the unflushed-text queue). */
  readonly heldText: string;
  /** The token the held text is becoming, or null when nothing is held. */
  readonly pendingToken: PendingToken | null;
}

/**
 * Reads a snapshot (`Tokenizer.snapshot()`) in the standard's words. `Tokenizer.debugState()` is this of
 * its own snapshot. The result is plain data; a snapshot from another tokenizer works as well.
 * @throws Error for a snapshot whose state is no tokenizer state.
 */
export function debugState(snapshot: TokenizerSnapshot): TokenizerDebugState {
  const id = (State as Record<string, number>)[snapshot.state];
  if (id === undefined) throw new Error(`debugState: not a tokenizer snapshot (state ${String(snapshot.state)})`);
  const raw = snapshot.unflushed;
  return {
    state: standardName(snapshot.state),
    section: `13.2.5.${id}`,
    textKind: snapshot.textKind,
    offset: snapshot.offset,
    heldText: raw,
    pendingToken: raw === '' ? null : pendingToken(id, snapshot),
  };
}

/** `'ATTRIBUTE_VALUE_DOUBLE_QUOTED'` → `'attribute value (double-quoted)'`, as §13.2.5 titles the states. */
function standardName(constant: string): string {
  return constant
    .toLowerCase()
    .replaceAll('_', ' ')
    .replace(/\b(doctype|rcdata|rawtext|plaintext|cdata)\b/g, (w) => w.toUpperCase())
    .replace('less than sign', 'less-than sign')
    .replace('self closing', 'self-closing')
    .replace(/ (double|single) quoted$/, ' ($1-quoted)')
    .replace(/ (unquoted|quoted)$/, ' ($1)');
}

function pendingToken(id: number, s: TokenizerSnapshot): PendingToken {
  const raw = s.unflushed;
  const start = s.unflushedStart;
  const r = s.registers;
  const make = (type: PendingToken['type'], name: string | null = null): PendingToken => ({ type, raw, start, name });
  if (id === State.TAG_OPEN || id === State.END_TAG_OPEN) return make('undecided');
  if (id === State.TAG_NAME || (id >= State.BEFORE_ATTRIBUTE_NAME && id <= State.SELF_CLOSING_START_TAG)) {
    const isEnd = r.tagIsEnd === true;
    // In the tag name state the name runs to the read position; after it, `nameEnd` marks its end.
    const end = id === State.TAG_NAME ? raw.length : (r.nameEnd as number) - start;
    return make(isEnd ? 'endTag' : 'startTag', tagName(raw.slice(isEnd ? 2 : 1, end)));
  }
  if ((id >= State.RCDATA_LESS_THAN_SIGN && id <= State.SCRIPT_DATA_END_TAG_NAME) ||
      (id >= State.SCRIPT_DATA_ESCAPED_LESS_THAN_SIGN && id <= State.SCRIPT_DATA_ESCAPED_END_TAG_NAME)) {
    return make('endTagCandidate', tagName(raw.slice(2)));
  }
  if (id === State.MARKUP_DECLARATION_OPEN) return make('markupDeclaration');
  if (id >= State.BOGUS_COMMENT && id <= State.COMMENT_END_BANG) return make('comment');
  if (id >= State.DOCTYPE && id <= State.BOGUS_DOCTYPE) {
    const from = r.doctypeNameStart as number;
    const to = r.doctypeNameEnd as number;
    const name = from < 0 ? null : tagName(raw.slice(from - start, to < 0 ? raw.length : to - start));
    return make('doctype', name);
  }
  if (id >= State.CHARACTER_REFERENCE && id <= State.NUMERIC_CHARACTER_REFERENCE_END) return make('characterReference');
  return make('text');
}

/** A tag or DOCTYPE name as the standard builds it: ASCII upper alpha lowercased, U+0000 as U+FFFD. */
function tagName(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase()).replaceAll('\0', '\uFFFD');
}
