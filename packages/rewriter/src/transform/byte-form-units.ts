/**
 * For bytes in (`ByteTransformer`), the tokens are in byte form (see `TokenizerOptions.byteInput`):
 * their raw text is the input's bytes, one character per byte, and so are their decoded fields. Handlers
 * get text: these make the text form of what a rewritable unit reads. The source text the output copies
 * stays the token's own.
 *
 * A token whose raw text is ASCII without `&` or NUL decodes the same in both forms and is used as is:
 * the usual case, and the reason the byte path costs nothing per token.
 */
import {
  type CommentToken,
  DecodedAttribute,
  type DoctypeToken,
  StartTagClass,
  type StartTagToken,
  fromByteForm,
  isAscii,
} from '@sluice/tokenizer';
import { ImpliedTag } from '../rewritable-units/element.js';

/** Whether the raw text of a token decodes the same in byte form as in text form. */
function sameInBothForms(raw: string): boolean {
  return !/[^\x01-\x7f]|&/.test(raw);
}

/** A start tag (a tokenizer's, or an implied element's) with its name and attributes as text. */
export function textStartTagOf(token: StartTagToken): StartTagToken {
  if (token instanceof ImpliedTag) {
    const attributes = token.attributes;
    // Decoded strings: ASCII is the same in both forms.
    if (isAscii(token.name) && attributes.every((a) => isAscii(a.name) && isAscii(a.value))) return token;
    return new ImpliedTag(
      fromByteForm(token.name),
      attributes.map((a) => new DecodedAttribute(fromByteForm(a.name), fromByteForm(a.value))),
      token.start,
    );
  }
  if (sameInBothForms(token.raw)) return token;
  return StartTagClass.fromRaw(fromByteForm(token.raw), token.start, token.selfClosing);
}

/** A comment with its data as text. */
export function textCommentOf(token: CommentToken): CommentToken {
  if (sameInBothForms(token.raw)) return token;
  return { type: 'comment', raw: fromByteForm(token.raw), start: token.start, data: fromByteForm(token.data) };
}

/** A DOCTYPE with its name and identifiers as text. */
export function textDoctypeOf(token: DoctypeToken): DoctypeToken {
  if (sameInBothForms(token.raw)) return token;
  const text = (s: string | null): string | null => (s === null ? null : fromByteForm(s));
  return {
    type: 'doctype',
    raw: fromByteForm(token.raw),
    start: token.start,
    name: text(token.name),
    publicId: text(token.publicId),
    systemId: text(token.systemId),
    forceQuirks: token.forceQuirks,
  };
}
