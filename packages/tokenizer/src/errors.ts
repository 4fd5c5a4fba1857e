/**
 * Parse errors (HTML §13.2.2): the codes the tokenizer reports, and the queue that puts them in input
 * order and gives them a line and column.
 *
 * Errors come from three places, and are merged by offset:
 * - preprocessing the input stream (§13.2.3.5): control characters, noncharacters, lone surrogates —
 *   found by scanning each emitted token's raw text;
 * - the lazy decoders (character references, duplicate attributes), run eagerly when errors are wanted;
 * - the scanner's states themselves (`eof-in-tag`, `missing-whitespace-between-attributes`, …).
 * At one offset the standard raises them in that order, and then `unexpected-null-character`, which
 * always comes from the last state to look at the NUL (see {@link ErrorPriority}).
 */

import type { ParseError } from './tokens.js';

/** Every parse error code the tokenizer and input preprocessing can report (§13.2.2). */
export const ErrorCode = {
  abruptClosingOfEmptyComment: 'abrupt-closing-of-empty-comment',
  abruptDoctypePublicIdentifier: 'abrupt-doctype-public-identifier',
  abruptDoctypeSystemIdentifier: 'abrupt-doctype-system-identifier',
  absenceOfDigitsInNumericCharacterReference: 'absence-of-digits-in-numeric-character-reference',
  cdataInHtmlContent: 'cdata-in-html-content',
  characterReferenceOutsideUnicodeRange: 'character-reference-outside-unicode-range',
  controlCharacterInInputStream: 'control-character-in-input-stream',
  controlCharacterReference: 'control-character-reference',
  duplicateAttribute: 'duplicate-attribute',
  endTagWithAttributes: 'end-tag-with-attributes',
  endTagWithTrailingSolidus: 'end-tag-with-trailing-solidus',
  eofBeforeTagName: 'eof-before-tag-name',
  eofInCdata: 'eof-in-cdata',
  eofInComment: 'eof-in-comment',
  eofInDoctype: 'eof-in-doctype',
  eofInScriptHtmlCommentLikeText: 'eof-in-script-html-comment-like-text',
  eofInTag: 'eof-in-tag',
  incorrectlyClosedComment: 'incorrectly-closed-comment',
  incorrectlyOpenedComment: 'incorrectly-opened-comment',
  invalidCharacterSequenceAfterDoctypeName: 'invalid-character-sequence-after-doctype-name',
  invalidFirstCharacterOfTagName: 'invalid-first-character-of-tag-name',
  missingAttributeValue: 'missing-attribute-value',
  missingDoctypeName: 'missing-doctype-name',
  missingDoctypePublicIdentifier: 'missing-doctype-public-identifier',
  missingDoctypeSystemIdentifier: 'missing-doctype-system-identifier',
  missingEndTagName: 'missing-end-tag-name',
  missingQuoteBeforeDoctypePublicIdentifier: 'missing-quote-before-doctype-public-identifier',
  missingQuoteBeforeDoctypeSystemIdentifier: 'missing-quote-before-doctype-system-identifier',
  missingSemicolonAfterCharacterReference: 'missing-semicolon-after-character-reference',
  missingWhitespaceAfterDoctypePublicKeyword: 'missing-whitespace-after-doctype-public-keyword',
  missingWhitespaceAfterDoctypeSystemKeyword: 'missing-whitespace-after-doctype-system-keyword',
  missingWhitespaceBeforeDoctypeName: 'missing-whitespace-before-doctype-name',
  missingWhitespaceBetweenAttributes: 'missing-whitespace-between-attributes',
  missingWhitespaceBetweenDoctypePublicAndSystemIdentifiers:
    'missing-whitespace-between-doctype-public-and-system-identifiers',
  nestedComment: 'nested-comment',
  noncharacterCharacterReference: 'noncharacter-character-reference',
  noncharacterInInputStream: 'noncharacter-in-input-stream',
  nullCharacterReference: 'null-character-reference',
  surrogateCharacterReference: 'surrogate-character-reference',
  surrogateInInputStream: 'surrogate-in-input-stream',
  unexpectedCharacterAfterDoctypeSystemIdentifier: 'unexpected-character-after-doctype-system-identifier',
  unexpectedCharacterInAttributeName: 'unexpected-character-in-attribute-name',
  unexpectedCharacterInUnquotedAttributeValue: 'unexpected-character-in-unquoted-attribute-value',
  unexpectedEqualsSignBeforeAttributeName: 'unexpected-equals-sign-before-attribute-name',
  unexpectedNullCharacter: 'unexpected-null-character',
  unexpectedQuestionMarkInsteadOfTagName: 'unexpected-question-mark-instead-of-tag-name',
  unexpectedSolidusInTag: 'unexpected-solidus-in-tag',
  unknownNamedCharacterReference: 'unknown-named-character-reference',
} as const;

export type ErrorCodeString = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * Order among errors at one offset, following when the standard raises them: preprocessing sees a
 * character before any state does; a character reference ends (and reports) before the state it
 * returns to looks at the next character; the NUL error comes from the state that finally takes the NUL.
 */
export const ErrorPriority = {
  PREPROCESSING: 0,
  DECODING: 1,
  STATE: 2,
  NULL: 3,
} as const;

/** Where a decoder reports what it found: `offset` relative to the token's raw text. */
export type TokenErrorSink = (code: string, offset: number, priority: number) => void;

/** An error waiting for its token to be emitted. Plain data (it is part of a snapshot). */
export interface PendingError {
  readonly code: string;
  readonly offset: number;
  readonly priority: number;
}

/** The part of the error queue's state a snapshot keeps. */
export interface ErrorQueueState {
  readonly pending: readonly PendingError[];
  readonly line: number;
  readonly lineStart: number;
  readonly trackedTo: number;
  readonly afterCR: boolean;
}

function byOffset(a: PendingError, b: PendingError): number {
  return a.offset - b.offset || a.priority - b.priority;
}

/**
 * Holds errors until the token they belong to is emitted, then reports them in input order with a
 * 1-based line and column. Lines are counted over the emitted tokens' raw text, as the standard counts
 * them after newline normalization: CR, LF and CRLF each end a line.
 */
export class ErrorQueue {
  pending: PendingError[] = [];
  line = 1;
  /** Offset where the current line starts. */
  lineStart = 0;
  /** Everything before this offset has been counted. */
  trackedTo = 0;
  /** The character just before `trackedTo` was a CR (so an LF there does not start another line). */
  afterCR = false;

  constructor(private readonly onError: (error: ParseError) => void) {}

  add(code: string, offset: number, priority: number): void {
    this.pending.push({ code, offset, priority });
  }

  /**
   * Reports every pending error before `end`, the end offset of a token whose raw text `raw` starts at
   * `start` and was just produced; counts that text's lines. Errors at `end` itself wait for the next
   * token (unless `atEof`): the character there belongs to it, and its preprocessing error comes first.
   */
  release(raw: string, start: number, end: number, atEof: boolean): void {
    const pending = this.pending;
    if (pending.length > 0) {
      if (pending.length > 1) pending.sort(byOffset);
      let n = 0;
      while (n < pending.length && (pending[n].offset < end || (atEof && pending[n].offset === end))) n++;
      if (n > 0) {
        const due = n === pending.length ? pending : pending.slice(0, n);
        this.pending = n === pending.length ? [] : pending.slice(n);
        for (const e of due) {
          this.advance(raw, start, e.offset);
          this.onError({ code: e.code, offset: e.offset, line: this.line, col: e.offset - this.lineStart + 1 });
        }
      }
    }
    this.advance(raw, start, end);
  }

  /** Reports whatever is left (at the end of input, after the last token). */
  releaseAll(): void {
    const pending = this.pending;
    if (pending.length > 1) pending.sort(byOffset);
    this.pending = [];
    for (const e of pending) {
      this.onError({ code: e.code, offset: e.offset, line: this.line, col: e.offset - this.lineStart + 1 });
    }
  }

  /** Counts lines in `raw` (which starts at `start`) up to offset `to`. */
  private advance(raw: string, start: number, to: number): void {
    let i = this.trackedTo;
    if (i < start) i = start; // nothing to count in between (cannot happen: tokens cover the input)
    const stop = Math.min(to, start + raw.length);
    if (i >= stop) return;
    let afterCR = this.afterCR;
    for (; i < stop; i++) {
      const c = raw.charCodeAt(i - start);
      if (c === 0x0a) {
        if (!afterCR) this.line++;
        this.lineStart = i + 1;
        afterCR = false;
      } else if (c === 0x0d) {
        this.line++;
        this.lineStart = i + 1;
        afterCR = true;
      } else {
        afterCR = false;
      }
    }
    this.afterCR = afterCR;
    this.trackedTo = stop;
  }

  state(): ErrorQueueState {
    return {
      pending: this.pending.map((e) => ({ code: e.code, offset: e.offset, priority: e.priority })),
      line: this.line,
      lineStart: this.lineStart,
      trackedTo: this.trackedTo,
      afterCR: this.afterCR,
    };
  }

  restore(s: ErrorQueueState): void {
    this.pending = s.pending.map((e) => ({ code: e.code, offset: e.offset, priority: e.priority }));
    this.line = s.line;
    this.lineStart = s.lineStart;
    this.trackedTo = s.trackedTo;
    this.afterCR = s.afterCR;
  }
}
