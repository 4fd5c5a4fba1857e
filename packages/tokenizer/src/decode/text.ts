/**
 * Decoding a text token's value (§13.2.5.1–5, .69): what the standard emits as character tokens for a
 * run of raw text of one kind.
 */

import { decodeCharacterReferences } from '../character-references/index.js';
import { ErrorCode, ErrorPriority, type TokenErrorSink } from '../errors.js';
import type { TextKind } from '../tokens.js';
import { normalizeNewlines } from './normalize.js';

/**
 * The value of a text token of kind `kind` whose raw text is `raw`: character references decoded in
 * data and RCDATA (§13.2.5.72), CR and CRLF turned into LF, NUL kept in data and CDATA and U+FFFD
 * elsewhere (RCDATA, RAWTEXT, script data, PLAINTEXT).
 *
 * With `report`, also reports the character reference errors, at offsets in `raw`. The scanner itself
 * reports `unknown-named-character-reference` in text (its `;` may come in a later text token), so it
 * is not reported here.
 */
export function decodeText(raw: string, kind: TextKind, report?: TokenErrorSink): string {
  const references = kind === 'data' || kind === 'rcdata';
  const normalized = normalizeNewlines(raw, kind !== 'data' && kind !== 'cdata');
  if (!references) return normalized;
  if (report !== undefined && raw.indexOf('&') >= 0) {
    // Decoding raw text reports the same errors as decoding normalized text, at raw offsets.
    decodeCharacterReferences(raw, false, (code, index) => {
      if (code !== ErrorCode.unknownNamedCharacterReference) report(code, index, ErrorPriority.DECODING);
    });
  }
  return decodeCharacterReferences(normalized, false);
}
