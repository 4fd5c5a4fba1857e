/**
 * §13.2.3.5 Preprocessing the input stream: the parse errors it reports. The characters themselves
 * are not changed here (newlines and NULs are handled where each token's fields are decoded).
 *
 * Run over each emitted token's raw text, only when errors are wanted, so the scanner's hot path never
 * looks at these characters. A token never splits a surrogate pair: the scanner holds back a high
 * surrogate at the end of a chunk.
 */

import { ErrorCode, ErrorPriority, type TokenErrorSink } from './errors.js';

/**
 * Reports, for `raw`: control characters, noncharacters and lone surrogates (§13.2.3.5), and, unless
 * `nulAllowed` (CDATA sections), each NUL as `unexpected-null-character` — every tokenizer state that
 * takes a NUL reports it, except the CDATA section states.
 */
export function reportInputStreamErrors(raw: string, nulAllowed: boolean, report: TokenErrorSink): void {
  const n = raw.length;
  for (let i = 0; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20) {
      if (c === 0) {
        if (!nulAllowed) report(ErrorCode.unexpectedNullCharacter, i, ErrorPriority.NULL);
      } else if (c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d) {
        report(ErrorCode.controlCharacterInInputStream, i, ErrorPriority.PREPROCESSING);
      }
    } else if (c < 0x7f) {
      // the common case
    } else if (c <= 0x9f) {
      report(ErrorCode.controlCharacterInInputStream, i, ErrorPriority.PREPROCESSING);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < n) {
        const d = raw.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          // A pair: a noncharacter if it is U+xFFFE or U+xFFFF.
          if ((d & 0x3fe) === 0x3fe && (c & 0x3f) === 0x3f) {
            report(ErrorCode.noncharacterInInputStream, i, ErrorPriority.PREPROCESSING);
          }
          i++;
          continue;
        }
      }
      report(ErrorCode.surrogateInInputStream, i, ErrorPriority.PREPROCESSING);
    } else if ((c >= 0xfdd0 && c <= 0xfdef) || c >= 0xfffe) {
      report(ErrorCode.noncharacterInInputStream, i, ErrorPriority.PREPROCESSING);
    }
  }
}
