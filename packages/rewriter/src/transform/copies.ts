/**
 * Copies of formatting elements the adoption agency algorithm makes, and why the output cannot give them
 * a life of their own. (A copy "reconstruct the active formatting elements" makes is written as an
 * explicit start tag where it must differ: transform/alignment.ts; these checks are for the others, and
 * for a reconstruction's copy the output's parser makes itself.)
 *
 * The tree builder copies formatting elements (`<b>`, `<a>`, `<font>`, … — HTML §13.2.4.3) in two
 * places: "reconstruct the active formatting elements" (§13.2.4.3, `<p><b>x<p>y` puts a copy of the `b`
 * around `y`) and the adoption agency algorithm (§13.2.6.4.7, `<b><p>x</b>` puts a copy inside the
 * `p`). Each copy is "an element for the token for which the formatting element was created": a browser
 * reading the rewriter's output makes it from the original's start tag *as written in the output*. No
 * markup can make the copy differ from that tag, and none can remove it while the original stays, or
 * give it content of its own at a place the parser does not put content into it.
 *
 * So the output is exact on the final tree only when each copy, after its handlers, is what the
 * original's written start tag makes of it: the same name and attributes, or — when the original's start
 * tag is not in the output (removed, replaced, inside removed content) — removed with its content kept.
 * Anything else is refused with an error that names the copy, the element it copies and the change,
 * never written as an explicit start tag (which a browser reads as one more element).
 */
import type { ElementUnit } from '../rewritable-units/element.js';
import { type ElementRecord, TAG_NOT_WRITTEN, type WrittenTag } from '../view/records.js';

/** Name and attributes, in order, as `Element.attributes` iterates them. */
type TagValue = WrittenTag;

/** Whether two tags have the same name and attributes, in order. */
export function sameTag(a: TagValue, b: TagValue): boolean {
  if (a.name !== b.name || a.attributes.length !== b.attributes.length) return false;
  for (let i = 0; i < a.attributes.length; i++) {
    const x = a.attributes[i]!;
    const y = b.attributes[i]!;
    if (x[0] !== y[0] || x[1] !== y[1]) return false;
  }
  return true;
}

function describe(tag: TagValue): string {
  return `<${tag.name}${tag.attributes.map(([n, v]) => ` ${n}="${v.replace(/"/g, '&quot;')}"`).join('')}>`;
}

/** The tag of a unit after its handlers: its name and attributes. */
export function tagOfUnit(unit: ElementUnit): WrittenTag {
  return { name: unit.tagName, attributes: [...unit.attributes] };
}

/** The error for a copy the output cannot express. */
function copyError(copy: ElementRecord, offset: number, what: string): Error {
  return new Error(
    `HTMLRewriter: the <${copy.localName}> the parser makes at offset ${offset} is a copy of an earlier <${copy.localName}> ` +
      `that the adoption agency algorithm makes while it reads an end tag, from the original's start tag as written in the ` +
      `output; the change cannot be written so that a browser builds the same tree: ${what}. Give the copy exactly the ` +
      `original's change (el.implied is true on the copy), or change neither.`,
  );
}

/** What an element unit did that a copy cannot do (content, removal with content), or null. */
function contentChange(unit: ElementUnit): string | null {
  if (unit._replacement !== null) return 'replace() cannot be written for it';
  if (unit._removed && !unit._keepContent) return 'remove() cannot be written for it (the parser makes it again)';
  if (unit._before !== null) return 'before() cannot be written for it';
  if (unit._prepend !== null) return 'prepend() cannot be written for it';
  if (unit._inner !== null) return 'setInnerContent() cannot be written for it';
  if (unit._append !== null) return 'append() cannot be written for it';
  if (unit._after !== null) return 'after() cannot be written for it';
  return null;
}

/**
 * Check a copy against the start tag the output has for the element it copies. `unit` is the copy's
 * element unit after its handlers (null: no handler matched it, so it is the source's copy); `source`
 * is the copy as the tree builder made it (the original's source tag, as a unit would show it);
 * `written` the tag the output's parser makes it from (Executor `outputTagOf` of what it copies: the
 * original's start tag as written, or an earlier copy's written as an explicit start tag — the list
 * holds that one: `<table><b><table><span><div></b>` with an attribute set on the reconstructed copy
 * of the b, written `<b data-x>`, whose copy `</b>` makes has the attribute too; null: the source's).
 * Throws the error to fail the rewrite with.
 */
export function checkCopy(copy: ElementRecord, offset: number, unit: ElementUnit | null, source: () => WrittenTag, written: WrittenTag | null): void {
  if (unit !== null) {
    const change = contentChange(unit);
    if (change !== null) throw copyError(copy, offset, change);
    if (unit._removed) {
      // removeAndKeepContent: the copy goes, its content stays — what the output gives when the
      // original's start tag is not there either.
      if (written !== TAG_NOT_WRITTEN) throw copyError(copy, offset, 'removeAndKeepContent() cannot be written for it while the original stays');
      return;
    }
  }
  if (written === TAG_NOT_WRITTEN) throw copyError(copy, offset, "the original's start tag is not in the output (removed, replaced or inside removed content), so a browser makes no copy");
  // With no handler, or handlers that changed nothing, the copy is the source tag; a copy of an
  // original whose tag is the source's must be that too.
  const unchanged = unit === null || (unit._attrs === null && !unit._nameChanged);
  if (unchanged && written === null) return;
  const mine = unchanged ? source() : tagOfUnit(unit!);
  const theirs = written ?? source();
  if (!sameTag(mine, theirs)) {
    throw copyError(copy, offset, `it would be ${describe(mine)}, but the original's start tag is written ${describe(theirs)}`);
  }
}

/**
 * The end of a copy: an end tag handler may not insert, replace, remove or rename there (the copy's end
 * is where the parser closes it, and its end tag, if any, closes the original's copies alike).
 */
export function checkCopyEnd(copy: ElementRecord, offset: number, end: { _before: unknown; _after: unknown; _replacement: unknown; _removed: boolean }, renamed: boolean): void {
  if (end._before !== null || end._after !== null || end._replacement !== null || end._removed || renamed) {
    throw copyError(copy, offset, 'its end tag handler changed its end, which cannot be written for it');
  }
}
