/**
 * Content written after the end of the input — `DocumentEnd.append`, and what handlers add where the end
 * of the document closes elements (`append`, `after`, end tag handlers) — must not join what the input
 * ended inside. A document cut off inside a comment, a tag, a doctype, a CDATA section or in the middle
 * of a `</` would otherwise take the content into that construct: `<!--abc` + `x` is one comment,
 * `<p title="a` + `x` one unfinished tag, `</` + `x>` an end tag.
 *
 * So the rewriter looks at the state its tokenizer is in at the end of the input (§13.2.5) and, only if
 * content follows, first closes what a browser closes there, in the way that leaves the tree as it was:
 *
 * - a comment or bogus comment (§13.2.5.43–.57): a closer (`-->`, `->`, `>`) after which the comment's
 *   data is what the end of the input gave it (checked by tokenizing it);
 * - a CDATA section in foreign content: `]]>`;
 * - a tag (its name or attributes unfinished): the parser drops such a tag at the end of the input, so it
 *   is not written;
 * - text whose last characters may still change meaning (`<`, a partial end tag in RCDATA, a
 *   character reference's start, a CR that a following LF would join): the content's first character is
 *   written as a character reference — the same character, which cannot continue them. Where no
 *   reference exists (raw text, script data), and after `</` (which any character turns into a tag or a
 *   comment), the content is refused;
 * - script data after `<!--<script>` (double escaped): no end tag closes the script there: content is
 *   refused;
 * - a doctype: no closer keeps it as it was (the end of the input sets its force-quirks flag, which a
 *   `>` would not): content is refused.
 *
 * Refused content fails the rewrite with an error that names the construct; it is never written.
 */
import { Tokenizer, type Token } from '@sluice/tokenizer';

/** What content written after the end of the input needs first; null: nothing. */
export interface EndGuard {
  /** Written before the first content (a comment's or CDATA section's closer). */
  readonly closer: string;
  /** The content's first character is to be written as a reference (when it is a plain character). */
  readonly escapeFirst: boolean;
  /** Content is refused: why. */
  readonly refuse: string | null;
  /** The unfinished tag the input ended inside is not written when content follows. */
  readonly dropTag: boolean;
  /** For a comment closer: whether it applies (the comment was copied from the source, not rewritten). */
  readonly forComment: boolean;
}

const DATA_LIKE = new Set(['data', 'rcdata']);

function guard(partial: Partial<EndGuard>): EndGuard {
  return { closer: '', escapeFirst: false, refuse: null, dropTag: false, forComment: false, ...partial };
}

/** The tokens a fresh tokenizer makes of `text`, and whether it had to be ended to make them. */
function tokensOf(text: string, cdata: boolean): { tokens: Token[]; atEnd: Token[] } {
  const t = new Tokenizer({ autoTextMode: false, cdataAllowed: () => cdata });
  const tokens: Token[] = [];
  t.write(text, (k) => tokens.push(k));
  const atEnd: Token[] = [];
  t.end((k) => atEnd.push(k));
  return { tokens, atEnd };
}

/** The shortest closer after which the comment `held` (cut off by the end of the input) keeps its data. */
function commentCloser(held: string): string | null {
  const cut = tokensOf(held, false).atEnd.find((k) => k.type === 'comment');
  if (cut === undefined || cut.type !== 'comment') return null;
  for (const closer of ['>', '->', '-->', '!>']) {
    const { tokens, atEnd } = tokensOf(held + closer, false);
    const last = tokens[tokens.length - 1];
    if (atEnd.length === 0 && tokens.length === 1 && last !== undefined && last.type === 'comment' && last.data === cut.data) return closer;
  }
  return null;
}

/**
 * The guard for the tokenizer's state at the end of the input (`state`, `textKind`, and the text it
 * holds, `held`, from `Tokenizer.snapshot()`).
 */
export function endGuardFor(state: string, textKind: string, held: string): EndGuard | null {
  if (state.startsWith('COMMENT') || state === 'BOGUS_COMMENT' || state === 'MARKUP_DECLARATION_OPEN') {
    const closer = commentCloser(held);
    if (closer === null) return guard({ refuse: `the document ends inside a comment (${JSON.stringify(held.slice(0, 40))}) that no closer keeps as it is` });
    return guard({ closer, forComment: true });
  }
  if (state.includes('DOCTYPE')) {
    return guard({ refuse: 'the document ends inside a doctype, which content after it would join (and which no closer keeps as it is: the end of the input makes it force quirks mode)' });
  }
  if (state.startsWith('CDATA_SECTION')) {
    // The text before a `]` or `]]` the end of the input flushes stays text; `]]>` ends the section.
    return guard({ closer: ']]>' });
  }
  if (state === 'TAG_OPEN') {
    // `<`, flushed as text at the end: a letter, `!`, `/` or `?` after it would start a tag or comment.
    return guard({ escapeFirst: true });
  }
  if (state === 'END_TAG_OPEN') {
    // `</`, flushed as text at the end: after it every character starts an end tag or a bogus comment
    // (`</&` too), so no content keeps it text.
    return guard({ refuse: 'the document ends in "</", which any content after it would turn into an end tag or a comment' });
  }
  if (state === 'TAG_NAME' || state.includes('ATTRIBUTE') || state === 'SELF_CLOSING_START_TAG') {
    return guard({ dropTag: true });
  }
  if (state.startsWith('SCRIPT_DATA_DOUBLE_ESCAPED')) {
    // `<script><!--<script>`: a `</script>` there only ends the inner "script" (§13.2.5.27), so
    // nothing written after it leaves the script's text — no end tag can close the element first.
    return guard({ refuse: 'the document ends inside a script\'s "<!--<script>", where no end tag closes the script, so anything after it would be script text' });
  }
  if (held.length === 0) return null;
  // Text held back: a reference's start, a CR, `<` or a partial end tag in RCDATA, raw text or script data.
  // (In RCDATA a partial end tag, `</tit`, is broken by any character but whitespace, `/` and `>`:
  // a reference starts with `&`.)
  if (DATA_LIKE.has(textKind)) return guard({ escapeFirst: true });
  return guard({
    refuse: `the document ends in ${textKind === 'plaintext' ? 'plaintext' : 'raw text or script data'} with ${JSON.stringify(held)} held, which content after it could continue, and no character reference exists there`,
  });
}

/**
 * `content`, the first content written after the end of the input, made safe by `guard`; throws when
 * the guard refuses it.
 */
export function guardContent(guard: EndGuard, content: string, commentRewritten: boolean): string {
  if (guard.refuse !== null) throw new Error(`HTMLRewriter: cannot write content at the end of the document: ${guard.refuse}`);
  let out = content;
  if (guard.escapeFirst) {
    // `<` and `&` continue nothing held there (`<<`, `&am&`); any other character is written as its
    // reference, which reads as the same character.
    const c = out.codePointAt(0)!;
    if (c !== 0x3c /* < */ && c !== 0x26 /* & */) out = `&#${c};${out.slice(c > 0xffff ? 2 : 1)}`;
  }
  if (guard.closer !== '' && !(guard.forComment && commentRewritten)) out = guard.closer + out;
  return out;
}
