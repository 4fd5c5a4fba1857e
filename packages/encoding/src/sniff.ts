/**
 * HTML §13.2.3 "The input byte stream": determining the character encoding of a page from its bytes.
 *
 * - §13.2.3.1 / Encoding Standard "BOM sniff": EF BB BF is UTF-8, FE FF UTF-16BE, FF FE UTF-16LE.
 * - §13.2.3.2 "the encoding sniffing algorithm": BOM (certain), a user override (certain), the transport
 *   layer's charset (certain), the prescan of the first 1024 bytes (tentative), the default (tentative).
 * - §13.2.3.2 "prescan a byte stream to determine its encoding", with "get an attribute", the UTF-16 XML
 *   declaration check and "get an XML encoding".
 * - §2.5.? "algorithm for extracting a character encoding from a meta element" (the `content` value).
 */
import { encodingFromContentType } from './content-type.js';
import { getEncoding, type EncodingName } from './labels.js';

/**
 * How sure the parser is of the encoding (HTML §13.2.3.1): `tentative` may still be changed by a
 * `<meta>` the tree builder meets ("change the encoding"); `certain` may not; `irrelevant` is for input
 * that was never bytes (a string handed to the parser).
 */
export type Confidence = 'tentative' | 'certain' | 'irrelevant';

/** The number of bytes the prescan looks at (§13.2.3.2: "user agents are encouraged to … 1024 bytes"). */
export const PRESCAN_LIMIT = 1024;

/** Encoding Standard §6 "BOM sniff": the encoding a byte order mark names and the BOM's length, or null. */
export function bomSniff(bytes: Uint8Array): { encoding: EncodingName; length: number } | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'UTF-8', length: 3 };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'UTF-16BE', length: 2 };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'UTF-16LE', length: 2 };
  return null;
}

/**
 * Whether `bytes` (the start of the stream) could still grow into a BOM: the BOM sniff must wait for up to
 * three bytes before it can say "no BOM" (EF BB could become EF BB BF).
 */
export function couldBeBomPrefix(bytes: Uint8Array): boolean {
  const n = bytes.length;
  if (n === 0) return true;
  if (n === 1) return bytes[0] === 0xef || bytes[0] === 0xfe || bytes[0] === 0xff;
  if (n === 2) return bytes[0] === 0xef && bytes[1] === 0xbb;
  return false;
}

const isAsciiWhitespace = (c: string) => c === '\t' || c === '\n' || c === '\f' || c === '\r' || c === ' ';

/**
 * The encoding a `<meta>` start tag with these (decoded) attributes names, as the tree builder reads it
 * (§13.2.6.4.4 "in head", the `<meta>` rule): its `charset`, else the encoding a
 * `http-equiv=content-type` `<meta>`'s `content` names; null for none.
 */
export function encodingOfMeta(attributes: readonly { readonly name: string; readonly value: string }[]): EncodingName | null {
  const charset = attributes.find((a) => a.name === 'charset');
  const named = charset === undefined ? null : getEncoding(charset.value);
  if (named !== null) return named;
  const httpEquiv = attributes.find((a) => a.name === 'http-equiv');
  const content = attributes.find((a) => a.name === 'content');
  if (httpEquiv === undefined || content === undefined) return null;
  if (httpEquiv.value.replace(/[A-Z]/g, (c) => c.toLowerCase()) !== 'content-type') return null;
  return extractEncodingFromMetaContent(content.value);
}

/**
 * HTML §2.5.? "algorithm for extracting a character encoding from a meta element" (the value of a
 * `<meta http-equiv=content-type>`'s `content` attribute): the encoding named after the first "charset"
 * that is followed (whitespace allowed) by "=", quoted or not; null for "nothing" (no such charset, an
 * unmatched quote, nothing after "=", or a value that is no label).
 */
export function extractEncodingFromMetaContent(s: string): EncodingName | null {
  let position = 0;
  for (;;) {
    // Loop: the first "charset" after position, ASCII case-insensitively.
    const found = s.slice(position).search(/[cC][hH][aA][rR][sS][eE][tT]/);
    if (found < 0) return null;
    position += found + 7;
    // Skip any ASCII whitespace that immediately follows "charset".
    while (position < s.length && isAsciiWhitespace(s[position]!)) position++;
    // If the next character is not "=", go back to the loop from just before that character.
    if (s[position] !== '=') continue;
    position++;
    while (position < s.length && isAsciiWhitespace(s[position]!)) position++;
    const next = s[position];
    if (next === undefined) return null;
    if (next === '"' || next === "'") {
      const close = s.indexOf(next, position + 1);
      if (close < 0) return null; // an unmatched quote: nothing
      return getEncoding(s.slice(position + 1, close));
    }
    let end = position;
    while (end < s.length && !isAsciiWhitespace(s[end]!) && s[end] !== ';') end++;
    return getEncoding(s.slice(position, end));
  }
}

/** Bytes the prescan treats as whitespace-or-slash around attributes: TAB LF FF CR SPACE "/". */
const isSpaceOrSlash = (b: number) => b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20 || b === 0x2f;
const isSpace = (b: number) => b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
const isAsciiUpper = (b: number) => b >= 0x41 && b <= 0x5a;
const isAsciiAlpha = (b: number) => isAsciiUpper(b) || (b >= 0x61 && b <= 0x7a);

/** Thrown inside the prescan when it reaches the end of the bytes it may read ("abort the prescan"). */
const END_OF_INPUT = Symbol('end of input');

/**
 * The prescan's byte reader: reading past the end of what it may look at aborts the whole prescan
 * (§13.2.3.2: "if at any point … the algorithm … reaches the end of the input, … the prescan is aborted").
 */
class ByteCursor {
  position = 0;
  constructor(readonly bytes: Uint8Array, readonly end: number) {}
  /** The byte at the position; aborts the prescan at the end of input. */
  byte(): number {
    if (this.position >= this.end) throw END_OF_INPUT;
    return this.bytes[this.position]!;
  }
  startsWith(...sequence: number[]): boolean {
    if (this.position + sequence.length > this.end) return false;
    for (let i = 0; i < sequence.length; i++) if (this.bytes[this.position + i] !== sequence[i]) return false;
    return true;
  }
}

/**
 * §13.2.3.2 "get an attribute": the next attribute's name and value, lowercased (ASCII only) and
 * isomorphic-decoded from the bytes, or null when a ">" ends the tag ("no attribute"). Starts at the
 * cursor's position and leaves it after the attribute.
 */
function getAttribute(c: ByteCursor): { name: string; value: string } | null {
  // 1. Skip whitespace and "/".
  while (isSpaceOrSlash(c.byte())) c.position++;
  // 2. ">": no attribute.
  if (c.byte() === 0x3e) return null;
  // 3–5. The attribute's name.
  let name = '';
  let value = '';
  for (;;) {
    const b = c.byte();
    if (b === 0x3d && name !== '') {
      c.position++;
      return { name, value: attributeValue(c) };
    }
    if (isSpace(b)) break; // to "spaces"
    if (b === 0x2f || b === 0x3e) return { name, value: '' };
    name += String.fromCharCode(isAsciiUpper(b) ? b + 0x20 : b);
    c.position++;
  }
  // 6. Spaces.
  while (isSpace(c.byte())) c.position++;
  // 7. Anything but "=": the attribute has an empty value (the position stays, for the next attribute).
  if (c.byte() !== 0x3d) return { name, value };
  // 8. Past the "=".
  c.position++;
  return { name, value: attributeValue(c) };
}

/** "get an attribute" steps 9–12: the value, from just after the "=". */
function attributeValue(c: ByteCursor): string {
  // 9. Skip whitespace.
  while (isSpace(c.byte())) c.position++;
  // 10. The first byte of the value.
  let value = '';
  const first = c.byte();
  if (first === 0x22 || first === 0x27) {
    for (;;) {
      c.position++;
      const b = c.byte();
      if (b === first) {
        c.position++;
        return value;
      }
      value += String.fromCharCode(isAsciiUpper(b) ? b + 0x20 : b);
    }
  }
  if (first === 0x3e) return ''; // the name with an empty value; the ">" stays for the caller
  value += String.fromCharCode(isAsciiUpper(first) ? first + 0x20 : first);
  c.position++;
  // 11–12. Up to whitespace or ">".
  for (;;) {
    const b = c.byte();
    if (isSpace(b) || b === 0x3e) return value;
    value += String.fromCharCode(isAsciiUpper(b) ? b + 0x20 : b);
    c.position++;
  }
}

/**
 * §13.2.3.2 "get an XML encoding": the encoding named by an `<?xml … encoding="…"?>` declaration at the
 * very start of the bytes, or null. The prescan uses it as its fallback encoding, after any `<meta>`
 * (it is what Blink and WebKit do, and what the standard adopted from them).
 */
export function getXmlEncoding(bytes: Uint8Array, end: number = bytes.length): EncodingName | null {
  const at = (i: number) => (i < end ? bytes[i]! : -1);
  // 1–2. The stream starts with "<?xml".
  if (!(at(0) === 0x3c && at(1) === 0x3f && at(2) === 0x78 && at(3) === 0x6d && at(4) === 0x6c)) return null;
  // 3. The declaration ends at the first ">".
  let declarationEnd = -1;
  for (let i = 5; i < end; i++) if (bytes[i] === 0x3e) { declarationEnd = i; break; }
  if (declarationEnd < 0) return null;
  // 4. The first "encoding" inside it (case-sensitive).
  const needle = [0x65, 0x6e, 0x63, 0x6f, 0x64, 0x69, 0x6e, 0x67];
  let position = -1;
  for (let i = 5; i + needle.length <= declarationEnd; i++) {
    if (needle.every((b, k) => bytes[i + k] === b)) { position = i; break; }
  }
  if (position < 0) return null;
  // 5. Past the "g".
  position += needle.length;
  // 6–9. Optional bytes ≤ 0x20, "=", optional bytes ≤ 0x20.
  while (position < declarationEnd && at(position) <= 0x20) position++;
  if (at(position) !== 0x3d) return null;
  position++;
  while (position < declarationEnd && at(position) <= 0x20) position++;
  // 10–13. A quoted value, closed before the declaration's end.
  const quote = at(position);
  if (quote !== 0x22 && quote !== 0x27) return null;
  position++;
  let valueEnd = -1;
  for (let i = position; i < declarationEnd; i++) if (bytes[i] === quote) { valueEnd = i; break; }
  if (valueEnd < 0) return null;
  // 14–15. No byte ≤ 0x20 inside it.
  let label = '';
  for (let i = position; i < valueEnd; i++) {
    if (bytes[i]! <= 0x20) return null;
    label += String.fromCharCode(bytes[i]!);
  }
  // 16–18. Get an encoding; UTF-16 becomes UTF-8 (the bytes got here being read as ASCII, so they are not UTF-16).
  const encoding = getEncoding(label);
  return encoding === 'UTF-16BE' || encoding === 'UTF-16LE' ? 'UTF-8' : encoding;
}

/** What {@link prescan} found: the encoding (or null), and whether a `<meta>` decided it (the prescan returned early). */
export interface PrescanResult {
  encoding: EncodingName | null;
  /**
   * True when a `<meta>` (or the UTF-16 XML declaration check) returned an encoding: more bytes would not
   * change the answer. False when the prescan ran to the end of the bytes it had: the answer is the
   * fallback (an XML declaration's encoding) or null, and more bytes might still hold a `<meta>`.
   */
  decided: boolean;
}

/**
 * §13.2.3.2 "prescan a byte stream to determine its encoding", over `bytes[0, limit)` (at most
 * {@link PRESCAN_LIMIT} bytes in the encoding sniffing algorithm).
 */
export function prescan(bytes: Uint8Array, limit: number = PRESCAN_LIMIT): PrescanResult {
  const end = Math.min(limit, bytes.length);
  const c = new ByteCursor(bytes, end);
  // 1. The fallback encoding: an XML declaration's, used only when no <meta> says anything.
  const fallback = getXmlEncoding(bytes, end);
  // 3. UTF-16 XML declarations ("<?x" in UTF-16LE or UTF-16BE; the prefix is longer than in XML's Appendix F
  // and the encoding value is not checked, for historical reasons).
  if (c.startsWith(0x3c, 0x00, 0x3f, 0x00, 0x78, 0x00)) return { encoding: 'UTF-16LE', decided: true };
  if (c.startsWith(0x00, 0x3c, 0x00, 0x3f, 0x00, 0x78)) return { encoding: 'UTF-16BE', decided: true };
  try {
    // 4. Loop.
    while (c.position < end) {
      if (c.startsWith(0x3c, 0x21, 0x2d, 0x2d)) {
        // "<!--": to the first ">" preceded by two "-" after the "<" (the "--" of "<!--" may count: "<!-->").
        let i = c.position + 2;
        for (;;) {
          if (i + 2 >= end) throw END_OF_INPUT;
          if (bytes[i] === 0x2d && bytes[i + 1] === 0x2d && bytes[i + 2] === 0x3e) break;
          i++;
        }
        c.position = i + 2;
      } else if (
        c.position + 5 < end &&
        bytes[c.position] === 0x3c &&
        (bytes[c.position + 1]! | 0x20) === 0x6d &&
        (bytes[c.position + 2]! | 0x20) === 0x65 &&
        (bytes[c.position + 3]! | 0x20) === 0x74 &&
        (bytes[c.position + 4]! | 0x20) === 0x61 &&
        isSpaceOrSlash(bytes[c.position + 5]!)
      ) {
        // "<meta" then whitespace or "/".
        c.position += 5;
        const attributeList = new Set<string>();
        let gotPragma = false;
        let needPragma: boolean | null = null;
        let charset: EncodingName | null | undefined = undefined; // undefined: the standard's "null value"
        for (let attribute = getAttribute(c); attribute !== null; attribute = getAttribute(c)) {
          if (attributeList.has(attribute.name)) continue;
          attributeList.add(attribute.name);
          if (attribute.name === 'http-equiv') {
            if (attribute.value === 'content-type') gotPragma = true;
          } else if (attribute.name === 'content') {
            const encoding = extractEncodingFromMetaContent(attribute.value);
            if (encoding !== null && charset === undefined) {
              charset = encoding;
              needPragma = true;
            }
          } else if (attribute.name === 'charset') {
            charset = getEncoding(attribute.value); // null: failure
            needPragma = false;
          }
        }
        // Processing.
        if (needPragma !== null && !(needPragma && !gotPragma) && charset !== null && charset !== undefined) {
          // A page whose bytes could be read as ASCII here is not UTF-16; x-user-defined is windows-1252.
          if (charset === 'UTF-16BE' || charset === 'UTF-16LE') charset = 'UTF-8';
          if (charset === 'x-user-defined') charset = 'windows-1252';
          return { encoding: charset, decided: true };
        }
      } else if (
        c.position + 1 < end &&
        bytes[c.position] === 0x3c &&
        (isAsciiAlpha(bytes[c.position + 1]!) ||
          (bytes[c.position + 1] === 0x2f && c.position + 2 < end && isAsciiAlpha(bytes[c.position + 2]!)))
      ) {
        // A start or end tag: to the next whitespace or ">", then over its attributes.
        c.position += 1;
        while (!(isSpace(c.byte()) || c.byte() === 0x3e)) c.position++;
        while (getAttribute(c) !== null);
      } else if (
        c.position + 1 < end &&
        bytes[c.position] === 0x3c &&
        (bytes[c.position + 1] === 0x21 || bytes[c.position + 1] === 0x2f || bytes[c.position + 1] === 0x3f)
      ) {
        // "<!", "</", "<?": to the first ">" after the "<".
        c.position += 1;
        while (c.byte() !== 0x3e) c.position++;
      }
      // Next byte.
      c.position++;
    }
  } catch (e) {
    if (e !== END_OF_INPUT) throw e;
  }
  return { encoding: fallback, decided: false };
}

/** Options of the encoding sniffing algorithm. */
export interface SniffOptions {
  /** A `Content-Type` header value: its charset is the transport layer's encoding (§13.2.3.2 step 4). */
  contentType?: string | undefined;
  /** A label the user chose: used unless a BOM says otherwise (step 2), with confidence certain. */
  encoding?: string | undefined;
  /** The default when nothing else says (step 8): a label; default windows-1252. */
  defaultEncoding?: string | undefined;
}

/** The outcome of sniffing: the encoding, how sure, and how many bytes of BOM to skip. */
export interface SniffResult {
  encoding: EncodingName;
  confidence: Confidence;
  /** The length of the byte order mark at the start of the bytes (consumed, not decoded): 0, 2 or 3. */
  bomLength: number;
  /** Which step decided: 'bom', 'override', 'transport', 'prescan' (a `<meta>` or `<?xml`), 'default'. */
  source: 'bom' | 'override' | 'transport' | 'prescan' | 'default';
}

/** Resolve a label given as an option, throwing a RangeError for one that is no label. */
export function requireEncoding(label: string, what: string): EncodingName {
  if (typeof label !== 'string') throw new TypeError(`${what} must be a string (an encoding label)`);
  const encoding = getEncoding(label);
  if (encoding === null) throw new RangeError(`${what}: ${JSON.stringify(label)} is not an encoding label (Encoding Standard §4.2)`);
  return encoding;
}

/**
 * HTML §13.2.3.2 "the encoding sniffing algorithm" over the first bytes of a stream. `atEnd` says
 * whether `bytes` is the whole input. Returns null while the answer could still depend on bytes not
 * yet seen (a possible BOM prefix; fewer than {@link PRESCAN_LIMIT} bytes with no `<meta>` found yet):
 * a streaming caller waits for more, so the answer never depends on where chunks split.
 */
export function sniffEncoding(bytes: Uint8Array, options: SniffOptions = {}, atEnd = true): SniffResult | null {
  // 1. BOM sniffing (certain).
  if (!atEnd && couldBeBomPrefix(bytes)) return null;
  const bom = bomSniff(bytes);
  if (bom !== null) return { encoding: bom.encoding, confidence: 'certain', bomLength: bom.length, source: 'bom' };
  // 2. The user's override (certain).
  if (options.encoding !== undefined) {
    return { encoding: requireEncoding(options.encoding, 'encoding'), confidence: 'certain', bomLength: 0, source: 'override' };
  }
  // 4. The transport layer's charset, when it names a supported encoding (certain).
  if (options.contentType !== undefined) {
    if (typeof options.contentType !== 'string') throw new TypeError('contentType must be a string (a Content-Type header value)');
    const transport = encodingFromContentType(options.contentType);
    if (transport !== null) return { encoding: transport, confidence: 'certain', bomLength: 0, source: 'transport' };
  }
  // 3 + 5. Wait for the first 1024 bytes (or the end), prescan them (tentative).
  const found = prescan(bytes);
  if (found.decided || atEnd || bytes.length >= PRESCAN_LIMIT) {
    if (found.encoding !== null) return { encoding: found.encoding, confidence: 'tentative', bomLength: 0, source: 'prescan' };
  } else {
    return null;
  }
  // 8. The default (tentative). (Steps 6–7 — a parent document's encoding, frequency analysis — do not apply.)
  const fallback = options.defaultEncoding === undefined ? 'windows-1252' : requireEncoding(options.defaultEncoding, 'defaultEncoding');
  return { encoding: fallback, confidence: 'tentative', bomLength: 0, source: 'default' };
}
