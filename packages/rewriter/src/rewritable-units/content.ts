/**
 * Content that handlers insert: `{ html: true }` goes in as markup, anything else as text, escaped for
 * the context it lands in (HTML §13.1.2 "Elements" restrictions on the contents of raw text elements).
 */
import { checkRawTextEnd } from './boundaries.js';

/** The options of `before`, `after`, `append`, `replace`, …: `html: true` inserts markup. */
export interface ContentOptions {
  html?: boolean;
}

/**
 * Where inserted text lands, which decides how it is escaped:
 * - `data`: ordinary content and RCDATA (`<title>`, `<textarea>`): `&`, `<`, `>` become references.
 * - `script`, `style`: no references exist there; `</` is written `<\/` and `<!--` `<\!--`, which read
 *   the same inside JavaScript strings and CSS but cannot end the element or start an escaped section.
 * - `rawtext`: `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>`: text that could end the element cannot be
 *   written at all, so it is rejected.
 * - `noscript`: `<noscript>` with scripting on (as in browsers): raw text there, but markup to a reader
 *   with scripting off (a crawler, a browser with JavaScript disabled), so text with `<` — which no
 *   escape keeps text for both — is rejected.
 * - `plaintext`: nothing ends `<plaintext>`; text goes in as is.
 * - `cdata`: inside `<![CDATA[…]]>` in foreign content; `]]>` is split across two sections.
 */
export type ContentContext = 'data' | 'script' | 'style' | 'rawtext' | 'noscript' | 'plaintext' | 'cdata';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** The context of the content of an element (what `prepend`/`append`/`setInnerContent` write into). */
export function contentContextOf(localName: string, namespace: string, scripting: boolean): ContentContext {
  if (namespace !== HTML_NS) return 'data';
  switch (localName) {
    case 'script':
      return 'script';
    case 'style':
      return 'style';
    case 'xmp':
    case 'iframe':
    case 'noembed':
    case 'noframes':
      return 'rawtext';
    case 'noscript':
      return scripting ? 'noscript' : 'data';
    case 'plaintext':
      return 'plaintext';
    default:
      return 'data';
  }
}

// (A CR as a reference: written as is it would come back as LF, HTML §13.2.3.5.)
const DATA_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };

/** Escape text for ordinary content (also right for RCDATA, which decodes references). */
export function escapeText(text: string): string {
  return /[&<>\r]/.test(text) ? text.replace(/[&<>\r]/g, (c) => DATA_ESCAPES[c]!) : text;
}

/** Escape an attribute value for a double-quoted attribute. */
export function escapeAttributeValue(value: string): string {
  // A CR written as is comes back as LF (the input stream's newline normalization, HTML §13.2.3.5):
  // as a character reference it stays a CR.
  return /[&"\r]/.test(value) ? value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\r/g, '&#13;') : value;
}

/**
 * Turn handler content into the text to write. Throws an Error (naming `where`) for text that cannot be
 * written into a raw text element.
 */
export function prepareContent(
  content: unknown,
  options: ContentOptions | undefined,
  context: ContentContext,
  where: string,
): string {
  if (typeof content !== 'string') {
    throw new TypeError(`${where}: content must be a string, got ${content === null ? 'null' : typeof content}`);
  }
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError(`${where}: options must be an object like { html: true }`);
  }
  if (options?.html === true) return content;
  const text = escapeFor(content, context, where);
  checkRawTextEnd(text, context, where);
  return text;
}

/** `content` escaped as text for `context` (see `prepareContent`). */
function escapeFor(content: string, context: ContentContext, where: string): string {
  switch (context) {
    case 'data':
      return escapeText(content);
    case 'script':
      // Script data's escape states (§13.2.5.20–.31): besides `</` (an end tag) and `<!--` (escaped),
      // `<script` starts the double-escaped state, in which the source's own `</script>` no longer ends
      // the script, and `-->` leaves the escaped state the source may rely on. Each is written with a
      // JavaScript escape that reads as the same characters in strings, templates and regular
      // expressions: `\x73` for the `s`, `\x3e` for the `>`.
      return content
        .replace(/<\//g, '<\\/')
        .replace(/<!--/g, '<\\!--')
        .replace(/<(s)(?=cript)/gi, (_, c: string) => `<\\x${c.charCodeAt(0).toString(16)}`)
        .replace(/-->/g, '--\\x3e');
    case 'style':
      return content.replace(/<\//g, '<\\/').replace(/<!--/g, '<\\!--');
    case 'rawtext':
      if (content.includes('</')) {
        throw new Error(
          `${where}: text containing "</" cannot be inserted into a raw text element (<xmp>, <iframe>, <noembed>, <noframes>, <noscript>): it has no escapes; pass { html: true } to insert it unchanged`,
        );
      }
      return content;
    case 'noscript':
      // Raw text with scripting on, markup with scripting off: only text without `<` reads as the
      // same text both ways (`&` stays `&` in one and starts a reference in the other, but makes no markup).
      if (content.includes('<')) {
        throw new Error(
          `${where}: text containing "<" cannot be inserted into <noscript>: a reader with scripting off takes it as markup, one with scripting on as text, and no escape reads the same to both; pass { html: true } to insert it unchanged`,
        );
      }
      return content;
    case 'plaintext':
      return content;
    case 'cdata':
      return content.replace(/]]>/g, ']]]]><![CDATA[>');
  }
}

/** The context a text token of this kind sits in; `parentName` picks script/style among raw text elements. */
export function contextOfTextKind(kind: string, parentName: string | null): ContentContext {
  switch (kind) {
    case 'scriptData':
      return 'script';
    case 'rawtext':
      return parentName === 'style' ? 'style' : parentName === 'noscript' ? 'noscript' : 'rawtext';
    case 'plaintext':
      return 'plaintext';
    case 'cdata':
      return 'cdata';
    default:
      return 'data';
  }
}
