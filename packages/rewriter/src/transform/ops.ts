/** The ops phase A makes of tokens and phase B executes (see transformer.ts). */
import type { CommentToken, DoctypeToken, EndTagToken, StartTagToken, TextKind } from '@sluice/tokenizer';
import type { CommentUnit } from '../rewritable-units/comment.js';
import type { ContentContext } from '../rewritable-units/content.js';
import type { ElementUnit } from '../rewritable-units/element.js';
import type { TextChunkUnit } from '../rewritable-units/text-chunk.js';
import type { ElementRecord, ParentRecord } from '../view/records.js';
import type { AlignPoint, TokenEffects } from './alignment.js';
import type { EndGuard } from './end-of-input.js';
import type { Fn } from './handlers.js';
import type { ListChange, ListLoad } from './noahs-ark.js';

export const OP_RAW = 0;
export const OP_START = 1;
export const OP_END = 2;
export const OP_TEXT = 3;
export const OP_COMMENT = 4;
export const OP_DOCTYPE = 5;
export const OP_DOC_END = 6;
/** A formatting element's start tag with no handlers: copied, and whether it was written is noted (see copies.ts). */
export const OP_FORMATTING = 7;
/** A copy of a formatting element that no handler matched: checked against the original's written tag (copies.ts). */
export const OP_COPY = 8;
/** The end of the input: what content written after it needs first (end-of-input.ts). */
export const OP_END_GUARD = 9;
/** An unfinished tag the input ended inside: written only if no content follows (end-of-input.ts). */
export const OP_EOF_TAG = 10;
/**
 * The start of an element made while output is held for the adoption agency algorithm (held-moves.ts):
 * its handlers are decided when it runs, from its matches on the tree after any move. `token` is its
 * start tag, or the `ImpliedTag` of an element the tree builder made up.
 */
export const OP_HELD_START = 11;
/**
 * The tree builder dropped a formatting element's entry from its list without closing it
 * (`TreeSink.activeFormattingElementDropped`): an end tag that made it (`token`) is copied, or left out
 * when the output's parser has no such entry (alignment.ts); a start tag is its own element's to write.
 */
export const OP_DROPPED = 12;
/** A tag the tree builder ignored (no element made, none closed): copied, or left out (alignment.ts). */
export const OP_IGNORED = 13;
/**
 * A start tag whose rule walks the stack of open elements or looks at the current node (`<li>`, `<dd>`,
 * options, headings): the elements it looked at (`seen`), checked against what the output's parser has
 * (alignment.ts `checkWalk`).
 */
export const OP_WALK = 14;
/** The tree builder took a `<frameset>` in place of the body (alignment.ts `framesetTaken`). */
export const OP_FRAMESET = 16;
/** The output has a `<plaintext>` start tag from here (alignment.ts `plaintext`). */
export const OP_PLAINTEXT = 18;
/** One thing the tree builder did for a token besides its own element (alignment.ts): checked inside removed content. */
export const OP_EFFECTS = 17;
/**
 * A start tag that only closed an element (`<select>` with a select in scope, §13.2.6.4.7): copied where
 * the output has that element under its name; else left out, since the output's parser would make one
 * (alignment.ts: the token's other effects are written explicitly).
 */
export const OP_CLOSER = 19;
/**
 * The element around `child` ended while `child` stayed open in it (`OUT_ENDED_OPEN`, `OUT_OUTLIVED`): inside removed content,
 * what the parser still puts in `child` is in that content too, so it stays left out until `child` ends
 * (`OP_OUTLIVED_END`, after its end tag).
 */
export const OP_OUTLIVED = 20;
export const OP_OUTLIVED_END = 21;
/**
 * After the ops of an end tag read after `</body>` or `</html>` (HTML §13.2.6.4.20, .22), which took the
 * parser back into the body: where the output left the tag out (removed, unwrapped, ignored), its
 * parser stays after the body, and puts a comment that follows into the document (see executor.ts).
 */
export const OP_REOPENED = 22;
/**
 * A formatting element pushed onto the list of active formatting elements, and the entry the input's
 * parser removed for it (`dropped`): once the tags are written, whether the output's parser, which
 * compares them as written, removes the same entry (Noah's Ark, §13.2.4.3) — see noahs-ark.ts. It
 * reads the index (`viaIndex`), or walks `before`, the list after its last marker before the push (with
 * `verifyNoahsArk`, both).
 */
export const OP_NOAHS_ARK = 23;
/** A change to the list of active formatting elements, for `NoahsArkIndex`'s copy of it (noahs-ark.ts). */
export const OP_LIST = 25;
/** The list of active formatting elements as it is when `NoahsArkIndex` starts (noahs-ark.ts). */
export const OP_LIST_LOAD = 26;
/** A `<pre>`, `<listing>` or `<textarea>` start tag with no handlers was copied: executor.ts `preEnd`. */
export const OP_PRE_START = 24;
/**
 * A chunk of text, or a comment, put into the tree while output is held for the adoption agency
 * algorithm (held-moves.ts): its `text` or `comments` handlers are decided when it runs, from where it
 * is then — the algorithm may yet move it, with the furthest block, out of the elements whose
 * selectors reached it (`<b><span><p>x</b>`: the x ends up in a copy of the b in the p, in no span).
 * `parent` is the element it went into; the move watch follows it when that element's children move
 * (view/move-watch.ts `movedChildren`). `OP_HELD_END_RUN`: the text node those chunks make ends there.
 */
export const OP_HELD_TEXT = 27;
export const OP_HELD_END_RUN = 28;
export const OP_HELD_COMMENT = 29;
/** Source the output must have even inside removed content: it acts on the document, `<html>` or `<body>` (alignment.ts). */
export const OP_DOCUMENT_LEVEL = 15;
/**
 * The adoption agency algorithm's inner loop took `el` off the list and the stack because its counter
 * was past three (§13.2.6.4.7 step 4.13.4), having visited the first `count` of `passed`: checked against the elements
 * the output's parser has there (alignment.ts `checkPastThree`).
 */
export const OP_PAST_THREE = 30;
/**
 * A tag read while the adjusted current node was not an HTML element (§13.2.6, the tree construction
 * dispatcher): the open elements from the current node down (`seen`), whether the dispatcher would use
 * the insertion mode's rules at each (`modes`), and whether the tag closed it (`popped`) — checked against
 * the element a browser reading the output has there (alignment.ts `checkDispatch`).
 */
export const OP_DISPATCH = 31;

/** One step of output: copy raw text, or run handlers on a unit and write what they decided. */
export type Op =
  | { readonly k: typeof OP_RAW; readonly raw: string; readonly start: number }
  | { readonly k: typeof OP_START; readonly token: StartTagToken; readonly el: ElementRecord; readonly handlers: readonly Fn<ElementUnit>[]; readonly at: AlignPoint }
  | { readonly k: typeof OP_END; readonly el: ElementRecord; readonly token: EndTagToken | null; readonly atDocumentEnd: boolean; readonly at: AlignPoint }
  | { readonly k: typeof OP_TEXT; readonly raw: string; readonly start: number; readonly last: boolean; readonly handlers: readonly Fn<TextChunkUnit>[]; readonly context: ContentContext; readonly parent: ParentRecord | null; readonly at: AlignPoint }
  | { readonly k: typeof OP_COMMENT; readonly token: CommentToken; readonly parent: ParentRecord | null; readonly handlers: readonly Fn<CommentUnit>[]; readonly closer: string | null; readonly at: AlignPoint; readonly documentLevel: boolean }
  | { readonly k: typeof OP_DOCTYPE; readonly token: DoctypeToken }
  | { readonly k: typeof OP_DOC_END; readonly context: ContentContext }
  | { readonly k: typeof OP_FORMATTING; readonly token: StartTagToken; readonly el: ElementRecord }
  | { readonly k: typeof OP_COPY; readonly el: ElementRecord; readonly offset: number; readonly at: AlignPoint }
  | { readonly k: typeof OP_END_GUARD; readonly guard: EndGuard }
  | { readonly k: typeof OP_EOF_TAG; readonly raw: string; readonly start: number }
  | { readonly k: typeof OP_HELD_START; readonly token: StartTagToken; readonly el: ElementRecord; readonly at: AlignPoint }
  | { readonly k: typeof OP_DROPPED; readonly el: ElementRecord; readonly reason: string; readonly token: EndTagToken | null; readonly listAfter: readonly ElementRecord[] | null; readonly placedWhitespace: boolean }
  | { readonly k: typeof OP_IGNORED; readonly token: StartTagToken | EndTagToken; readonly isEndTag: boolean; readonly list: readonly ElementRecord[] | null; readonly placedWhitespace: boolean }
  | { readonly k: typeof OP_FRAMESET; readonly offset: number }
  | { readonly k: typeof OP_PLAINTEXT }
  | { readonly k: typeof OP_EFFECTS; readonly effects: TokenEffects; readonly index: number }
  | { readonly k: typeof OP_WALK; readonly kind: number; readonly seen: readonly ElementRecord[]; readonly offset: number }
  | { readonly k: typeof OP_DISPATCH; readonly seen: readonly ElementRecord[]; readonly modes: readonly boolean[]; readonly popped: readonly boolean[]; readonly tag: string; readonly offset: number }
  | { readonly k: typeof OP_PAST_THREE; readonly el: ElementRecord; readonly passed: readonly ElementRecord[]; readonly count: number; readonly offset: number }
  | { readonly k: typeof OP_CLOSER; readonly token: StartTagToken; readonly closes: ElementRecord; readonly at: AlignPoint }
  | { readonly k: typeof OP_OUTLIVED; readonly child: ElementRecord }
  | { readonly k: typeof OP_OUTLIVED_END; readonly el: ElementRecord }
  | { readonly k: typeof OP_REOPENED; readonly start: number; readonly end: number }
  | { readonly k: typeof OP_PRE_START; readonly end: number }
  | { readonly k: typeof OP_NOAHS_ARK; readonly el: ElementRecord; readonly dropped: ElementRecord | null; readonly before: readonly ElementRecord[] | null; readonly viaIndex: boolean; readonly offset: number }
  | ({ readonly k: typeof OP_LIST } & ListChange)
  | ({ readonly k: typeof OP_LIST_LOAD } & ListLoad)
  | HeldTextOp
  | { readonly k: typeof OP_HELD_END_RUN; readonly at: AlignPoint }
  | HeldCommentOp
  | { readonly k: typeof OP_DOCUMENT_LEVEL; readonly raw: string; readonly start: number; readonly target: ElementRecord | null };

/** Content put into the tree during a hold; `parent` follows the moves of its parent's children (view/move-watch.ts). */
export interface HeldContent {
  parent: ParentRecord | null;
}
export interface HeldTextOp extends HeldContent {
  readonly k: typeof OP_HELD_TEXT;
  readonly raw: string;
  readonly start: number;
  readonly kind: TextKind;
  readonly at: AlignPoint;
}
export interface HeldCommentOp extends HeldContent {
  readonly k: typeof OP_HELD_COMMENT;
  readonly token: CommentToken;
  readonly closer: string | null;
  readonly at: AlignPoint;
}

/** How much input an op holds (for `maxBufferedBytes`). */
export function sizeOf(op: Op): number {
  switch (op.k) {
    case OP_RAW:
    case OP_TEXT:
    case OP_HELD_TEXT:
    case OP_EOF_TAG:
    case OP_DOCUMENT_LEVEL:
      return op.raw.length;
    case OP_START:
    case OP_HELD_START:
    case OP_FORMATTING:
    case OP_IGNORED:
    case OP_CLOSER:
    case OP_COMMENT:
    case OP_HELD_COMMENT:
    case OP_DOCTYPE:
      return op.token.raw.length;
    case OP_END:
    case OP_DROPPED:
      return op.token === null ? 0 : op.token.raw.length;
    default:
      return 0;
  }
}

