/**
 * Tree-construction parse errors (HTML §13.2.6): their names, and where they are (line and column).
 *
 * The standard says "this is a parse error" in tree construction without naming the error (only the
 * tokenizer's errors have codes, §13.2.2). The tree builder names each one after the rule that raised it;
 * {@link TreeConstructionErrorCode} is the whole list. They reach the same `onParseError` as the
 * tokenizer's errors, in the same `ParseError` shape.
 */

/** Every code the tree builder reports (tree construction has no codes in the standard; these are ours). */
export const TreeConstructionErrorCode = {
  /** A `<base>`, `<link>`, `<meta>`, `<script>` … start tag "after head" (§13.2.6.4.6): it goes into the head. */
  abandonedHeadElementChild: 'abandoned-head-element-child',
  /** Adoption agency (§13.2.6.4.7) step 4.4: the formatting element is not in the stack of open elements. */
  adoptionAgency1_2: 'adoption-agency-1.2',
  /** Adoption agency step 4.6: the formatting element is not the current node. */
  adoptionAgency1_3: 'adoption-agency-1.3',
  /** Adoption agency step 4.5: the formatting element is on the stack but not in scope. */
  adoptionAgency4_4: 'adoption-agency-4.4',
  /** An end tag for which no element is open to close (or whose closing skips other open elements). */
  endTagWithoutMatchingOpenElement: 'end-tag-without-matching-open-element',
  /**
   * End of input "in body" (and the modes that use its rules there: in table, in select …) while an
   * element other than dd, dt, li, optgroup, option, p, rb, rp, rt, rtc, tbody, td, tfoot, th, thead, tr,
   * body, html is open.
   */
  eofWithOpenElements: 'eof-with-open-elements',
  /** End of input in the "text" insertion mode (inside `<script>`, `<style>`, `<textarea>` …). */
  eofInElementThatCanContainOnlyText: 'eof-in-element-that-can-contain-only-text',
  /** End of input "in frameset" with the frameset still open. */
  eofInFrameset: 'eof-in-frameset',
  /** End of input "in template" with a template still open. */
  eofInTemplate: 'eof-in-template',
  /** Text that is not whitespace, or a start tag, "in table" (§13.2.6.4.9): it is foster-parented. */
  fosterParenting: 'foster-parenting',
  /** Anything but a DOCTYPE first, outside an iframe srcdoc document ("initial" insertion mode). */
  missingDoctype: 'missing-doctype',
  /** A start tag with `/>` whose element is not void and not foreign (the flag is not acknowledged). */
  nonVoidHtmlElementStartTagWithTrailingSolidus: 'non-void-html-element-start-tag-with-trailing-solidus',
  unexpectedCharacterAfterAfterFrameset: 'unexpected-character-after-after-frameset',
  unexpectedCharacterAfterFrameset: 'unexpected-character-after-frameset',
  unexpectedCharacterInFrameset: 'unexpected-character-in-frameset',
  /** A DOCTYPE anywhere but first. */
  unexpectedDoctype: 'unexpected-doctype',
  /** A DOCTYPE first that is not `<!DOCTYPE html>` (or an about:legacy-compat one). */
  unexpectedDoctypeInInitialMode: 'unexpected-doctype-in-initial-mode',
  /** An end tag the insertion mode ignores or that closes elements it should not. */
  unexpectedEndTag: 'unexpected-end-tag',
  /** An HTML start tag that breaks out of foreign content (§13.2.6.5). */
  unexpectedHtmlElementInForeignContent: 'unexpected-html-element-in-foreign-content',
  /**
   * A U+0000 in text "in body", "in table text" or foreign content: the tree builder's second report of a
   * NUL the tokenizer reports too (the standard raises both: one in the data state, one in tree
   * construction), at the same offset.
   */
  unexpectedNullCharacter: 'unexpected-null-character',
  /** A start tag the insertion mode ignores or handles as an error. */
  unexpectedStartTag: 'unexpected-start-tag',
  unexpectedToken: 'unexpected-token',
  unexpectedTokenAfterAfterBody: 'unexpected-token-after-after-body',
  unexpectedTokenAfterAfterFrameset: 'unexpected-token-after-after-frameset',
  unexpectedTokenAfterBody: 'unexpected-token-after-body',
  unexpectedTokenInColumnGroup: 'unexpected-token-in-column-group',
  unexpectedTokenInHeadNoscript: 'unexpected-token-in-head-noscript',
} as const;

export type TreeConstructionErrorCodeString = (typeof TreeConstructionErrorCode)[keyof typeof TreeConstructionErrorCode];

/**
 * Lines and columns for the tree builder's errors, counted over the tokens' raw text as they pass (only
 * when errors are wanted). CR, LF and CRLF each end a line, as the tokenizer's `ErrorQueue` counts them.
 * The token being processed is kept uncounted, so an error anywhere in it (its start, a NUL inside a run
 * of text) gets its own position.
 */
export class LineCounter {
  private line = 1;
  /** Offset where the line holding `start` begins. */
  private lineStart = 0;
  private afterCR = false;
  /** The token being processed: its raw text and where it starts. */
  private raw = '';
  private start = 0;

  /** Whether the current token is text, and where the run of adjacent text tokens it belongs to ends. */
  private currentIsText = false;
  private textRunEnd = -1;
  /** The codes already reported for the current run of text. */
  private runCodes: string[] = [];

  /** The next token: count the previous one, make this one current. */
  next(raw: string, start: number, isText: boolean): void {
    if (this.raw.length > 0) this.count();
    this.raw = raw;
    this.start = start;
    if (isText) {
      if (start !== this.textRunEnd) this.runCodes.length = 0;
      this.textRunEnd = start + raw.length;
    } else this.textRunEnd = -1;
    this.currentIsText = isText;
  }

  /**
   * Whether an error with `code` for the current token is the first of its run: a run of text split into
   * several tokens (by where the chunks ended) gets its per-run errors once, as if it were one token, so
   * the errors do not depend on the chunking. Other tokens: always true.
   */
  firstInRun(code: string): boolean {
    if (!this.currentIsText) return true;
    if (this.runCodes.includes(code)) return false;
    this.runCodes.push(code);
    return true;
  }

  /** The end of the last token seen: where the end of input is. */
  get end(): number {
    return this.start + this.raw.length;
  }

  /** The raw text of the token being processed and its start (for errors at each NUL in it). */
  get currentRaw(): string {
    return this.raw;
  }
  get currentStart(): number {
    return this.start;
  }

  private count(): void {
    const after = this.advance(this.raw.length);
    this.line = after.line;
    this.lineStart = after.lineStart;
    this.afterCR = after.afterCR;
    this.start += this.raw.length;
    this.raw = '';
  }

  /** The 1-based line and column (UTF-16 code units) of `offset`, which is in or after the current token. */
  position(offset: number): { line: number; col: number } {
    const { line, lineStart } = this.advance(Math.min(offset - this.start, this.raw.length));
    return { line, col: Math.max(1, offset - lineStart + 1) };
  }

  /** The line state after the current token's first `stop` code units (CR, LF and CRLF each end a line). */
  private advance(stop: number): { line: number; lineStart: number; afterCR: boolean } {
    const raw = this.raw;
    let line = this.line;
    let lineStart = this.lineStart;
    let afterCR = this.afterCR;
    for (let i = 0; i < stop; i++) {
      const c = raw.charCodeAt(i);
      if (c === 0x0a) {
        if (!afterCR) line++;
        lineStart = this.start + i + 1;
        afterCR = false;
      } else if (c === 0x0d) {
        line++;
        lineStart = this.start + i + 1;
        afterCR = true;
      } else afterCR = false;
    }
    return { line, lineStart, afterCR };
  }
}
