/**
 * The transport layer's character encoding: the `charset` parameter of a `Content-Type` header value,
 * read as Fetch's "legacy extract an encoding" reads it — Fetch §3.1 "extract a MIME type" over the
 * header's comma-separated values, each parsed by MIME Sniffing §4.4 "parse a MIME type" (quoted-string
 * parameters, first parameter of a name wins), then the Encoding Standard's "get an encoding".
 */
import { getEncoding, type EncodingName } from './labels.js';

const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// MIME Sniffing: "HTTP quoted-string token code points": U+0009, U+0020–U+007E, U+0080–U+00FF.
const QUOTED_STRING_TOKEN = /^[\t\x20-\x7e\x80-\xff]*$/;

/** A parsed MIME type: lowercase type and subtype, and its parameters (names lowercased). */
export interface MimeType {
  type: string;
  subtype: string;
  parameters: Map<string, string>;
}

/** MIME Sniffing §4.4 "parse a MIME type". Null is the standard's failure. */
export function parseMimeType(input: string): MimeType | null {
  const s = input.replace(HTTP_WHITESPACE, '');
  let pos = 0;
  let end = s.indexOf('/', pos);
  if (end < 0) return null; // the type runs to the end: "position is past the end" → failure
  const type = s.slice(0, end);
  if (!HTTP_TOKEN.test(type)) return null;
  pos = end + 1;
  end = s.indexOf(';', pos);
  if (end < 0) end = s.length;
  const subtype = s.slice(pos, end).replace(/[\t\n\r ]+$/, '');
  if (!HTTP_TOKEN.test(subtype)) return null;
  pos = end;
  const mime: MimeType = { type: type.toLowerCase(), subtype: subtype.toLowerCase(), parameters: new Map() };
  while (pos < s.length) {
    pos++; // past the ';'
    while (pos < s.length && /[\t\n\r ]/.test(s[pos]!)) pos++;
    let nameEnd = pos;
    while (nameEnd < s.length && s[nameEnd] !== ';' && s[nameEnd] !== '=') nameEnd++;
    const name = s.slice(pos, nameEnd).replace(/[A-Z]+/g, (m) => m.toLowerCase());
    pos = nameEnd;
    if (pos < s.length) {
      if (s[pos] === ';') continue;
      pos++; // past the '='
    }
    if (pos >= s.length) break;
    let value: string;
    if (s[pos] === '"') {
      [value, pos] = collectQuotedString(s, pos);
      while (pos < s.length && s[pos] !== ';') pos++;
    } else {
      let valueEnd = s.indexOf(';', pos);
      if (valueEnd < 0) valueEnd = s.length;
      value = s.slice(pos, valueEnd).replace(/[\t\n\r ]+$/, '');
      pos = valueEnd;
      if (value === '') continue;
    }
    if (name !== '' && HTTP_TOKEN.test(name) && QUOTED_STRING_TOKEN.test(value) && !mime.parameters.has(name)) {
      mime.parameters.set(name, value);
    }
  }
  return mime;
}

/** Fetch §2.2 "collect an HTTP quoted string" with extract-value true: the value and the position after it. */
function collectQuotedString(s: string, start: number): [string, number] {
  let pos = start + 1;
  let value = '';
  for (;;) {
    let stop = pos;
    while (stop < s.length && s[stop] !== '"' && s[stop] !== '\\') stop++;
    value += s.slice(pos, stop);
    pos = stop;
    if (pos >= s.length) break;
    const quoteOrBackslash = s[pos];
    pos++;
    if (quoteOrBackslash === '\\') {
      if (pos >= s.length) {
        value += '\\';
        break;
      }
      value += s[pos];
      pos++;
    } else {
      break;
    }
  }
  return [value, pos];
}

/** Fetch §2.2 "get, decode, and split" for one header value: split at commas outside quoted strings. */
function splitHeaderValue(value: string): string[] {
  const values: string[] = [];
  let pos = 0;
  let temporary = '';
  for (;;) {
    let stop = pos;
    while (stop < value.length && value[stop] !== '"' && value[stop] !== ',') stop++;
    temporary += value.slice(pos, stop);
    pos = stop;
    if (pos < value.length && value[pos] === '"') {
      const [, after] = collectQuotedString(value, pos);
      temporary += value.slice(pos, after);
      pos = after;
      if (pos < value.length) continue;
    }
    values.push(temporary.replace(/^[\t ]+|[\t ]+$/g, ''));
    temporary = '';
    if (pos >= value.length) return values;
    pos++; // the ','
  }
}

/**
 * Fetch §3.1 "extract a MIME type" from a `Content-Type` header value (several values joined by commas,
 * as a header list combines them). The last valid MIME type wins; a charset is carried over from an
 * earlier value with the same essence (`text/html;charset=gbk, text/html` keeps gbk). Null: failure.
 */
export function extractMimeType(contentType: string): MimeType | null {
  let charset: string | null = null;
  let essence: string | null = null;
  let mimeType: MimeType | null = null;
  for (const value of splitHeaderValue(contentType)) {
    const temporary = parseMimeType(value);
    if (temporary === null || (temporary.type === '*' && temporary.subtype === '*')) continue;
    mimeType = temporary;
    const newEssence = `${temporary.type}/${temporary.subtype}`;
    if (newEssence !== essence) {
      charset = temporary.parameters.get('charset') ?? null;
      essence = newEssence;
    } else if (!temporary.parameters.has('charset') && charset !== null) {
      temporary.parameters.set('charset', charset);
    }
  }
  return mimeType;
}

/**
 * Fetch "legacy extract an encoding": the encoding a `Content-Type` header value's charset parameter
 * names, or null when there is no valid MIME type, no charset, or the charset is no encoding label
 * (then the HTML sniffing goes on to the prescan, §13.2.3.2 step 4 "if … it is supported").
 */
export function encodingFromContentType(contentType: string): EncodingName | null {
  const mime = extractMimeType(contentType);
  const charset = mime?.parameters.get('charset');
  return charset === undefined ? null : getEncoding(charset);
}
