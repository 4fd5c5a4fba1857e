/**
 * Tag identities and the element sets of the tree-construction algorithm (WHATWG HTML §13.2.4.2–§13.2.4.3,
 * §13.2.6.1), as fast lookups.
 *
 * Every HTML tag name the algorithm mentions gets a small integer id, looked up once per tag token; the
 * rules then `switch` on ids. Every element on the stack of open elements carries a bit set of the sets it
 * belongs to (special, scope boundaries, implied end tags, integration points), computed once when the
 * element is created, so the hot loops (scope checks, generate implied end tags) test one bit.
 */
import { NS, type ElementAttribute, type ElementNamespace } from './sink.js';

/** Ids of the HTML tag names the tree-construction rules name. 0 is "any other name". */
export const T = {
  UNKNOWN: 0,
  A: 1, ADDRESS: 2, APPLET: 3, AREA: 4, ARTICLE: 5, ASIDE: 6, B: 7, BASE: 8, BASEFONT: 9, BGSOUND: 10,
  BIG: 11, BLOCKQUOTE: 12, BODY: 13, BR: 14, BUTTON: 15, CAPTION: 16, CENTER: 17, CODE: 18, COL: 19,
  COLGROUP: 20, DD: 21, DETAILS: 22, DIALOG: 23, DIR: 24, DIV: 25, DL: 26, DT: 27, EM: 28, EMBED: 29,
  FIELDSET: 30, FIGCAPTION: 31, FIGURE: 32, FONT: 33, FOOTER: 34, FORM: 35, FRAME: 36, FRAMESET: 37,
  H1: 38, H2: 39, H3: 40, H4: 41, H5: 42, H6: 43, HEAD: 44, HEADER: 45, HGROUP: 46, HR: 47, HTML: 48,
  I: 49, IFRAME: 50, IMAGE: 51, IMG: 52, INPUT: 53, KEYGEN: 54, LI: 55, LINK: 56, LISTING: 57, MAIN: 58,
  MARQUEE: 59, MATH: 60, MENU: 61, META: 62, NAV: 63, NOBR: 64, NOEMBED: 65, NOFRAMES: 66, NOSCRIPT: 67,
  OBJECT: 68, OL: 69, OPTGROUP: 70, OPTION: 71, P: 72, PARAM: 73, PLAINTEXT: 74, PRE: 75, RB: 76, RP: 77,
  RT: 78, RTC: 79, RUBY: 80, S: 81, SCRIPT: 82, SEARCH: 83, SECTION: 84, SELECT: 85, SMALL: 86,
  SOURCE: 87, SPAN: 88, STRIKE: 89, STRONG: 90, STYLE: 91, SUB: 92, SUMMARY: 93, SUP: 94, SVG: 95,
  TABLE: 96, TBODY: 97, TD: 98, TEMPLATE: 99, TEXTAREA: 100, TFOOT: 101, TH: 102, THEAD: 103, TITLE: 104,
  TR: 105, TRACK: 106, TT: 107, U: 108, UL: 109, VAR: 110, WBR: 111, XMP: 112,
} as const;

/** Number of tag ids (for arrays indexed by id). */
export const TAG_ID_COUNT = 113;

/**
 * Tag name → id, bucketed by (length, first character): a lookup is one or two short string compares
 * instead of hashing a freshly sliced string (every tag token brings a new one).
 */
const MAX_NAME_LENGTH = 10;
const buckets: ([string, number][] | undefined)[] = new Array((MAX_NAME_LENGTH + 1) * 128);
for (const [key, id] of Object.entries(T)) {
  if (id === 0) continue;
  const name = Object.keys({ [key.toLowerCase()]: 0 })[0]!;
  if (name.length > MAX_NAME_LENGTH) throw new Error(`tag-sets: ${name} is longer than MAX_NAME_LENGTH`);
  const slot = name.length * 128 + name.charCodeAt(0);
  (buckets[slot] ??= []).push([name, id]);
}

/** The id of an HTML tag name (already ASCII-lowercased), or `T.UNKNOWN`. */
export function tagIdOf(name: string): number {
  const length = name.length;
  if (length > MAX_NAME_LENGTH || length === 0) return 0;
  const first = name.charCodeAt(0);
  if (first >= 128) return 0;
  const bucket = buckets[length * 128 + first];
  if (bucket === undefined) return 0;
  for (let i = 0; i < bucket.length; i++) if (bucket[i][0] === name) return bucket[i][1];
  return 0;
}

// ---------------------------------------------------------------------------------------------------
// Element flags: the sets an element (name + namespace) belongs to.

/** §13.2.4.3 "special" category. */
export const SPECIAL = 1 << 0;
/** §13.2.4.2 "has an element in scope": the element types that bound the default scope. */
export const SCOPE = 1 << 1;
/** …plus `ol`, `ul` for "in list item scope". */
export const LIST_ITEM_SCOPE = 1 << 2;
/** …plus `button` for "in button scope". */
export const BUTTON_SCOPE = 1 << 3;
/** "in table scope": `html`, `table`, `template`. */
export const TABLE_SCOPE = 1 << 4;
/** §13.2.6.3 "generate implied end tags": dd, dt, li, optgroup, option, p, rb, rp, rt, rtc. */
export const IMPLIED_END = 1 << 5;
/** "generate all implied end tags thoroughly": the above plus caption, colgroup, tbody, td, tfoot, th, thead, tr. */
export const IMPLIED_END_THOROUGH = 1 << 6;
/** §13.2.6.1 MathML text integration point: MathML mi, mo, mn, ms, mtext. */
export const MATHML_TEXT_INTEGRATION_POINT = 1 << 7;
/** §13.2.6.1 HTML integration point: MathML annotation-xml (text/html or application/xhtml+xml), SVG foreignObject, desc, title. */
export const HTML_INTEGRATION_POINT = 1 << 8;
/** The element is in the HTML namespace. */
export const HTML_NS = 1 << 9;
/** "clear the stack back to a table context": table, template, html. */
export const TABLE_CONTEXT = 1 << 10;
/** "clear the stack back to a table body context": tbody, tfoot, thead, template, html. */
export const TABLE_BODY_CONTEXT = 1 << 11;
/** "clear the stack back to a table row context": tr, template, html. */
export const TABLE_ROW_CONTEXT = 1 << 12;
/**
 * §13.2.6.4.7 `<li>`, `<dd>`, `<dt>`: a special element other than address, div and p, where the loop
 * looking for an open list item stops.
 */
export const LIST_ITEM_STOP = 1 << 13;
/** MathML annotation-xml (whatever its encoding): scope boundary, special. */
const NONE = 0;

const htmlFlags = new Uint16Array(TAG_ID_COUNT);
function flag(bits: number, ...ids: number[]): void {
  for (const id of ids) htmlFlags[id] |= bits;
}
flag(
  SPECIAL,
  T.ADDRESS, T.APPLET, T.AREA, T.ARTICLE, T.ASIDE, T.BASE, T.BASEFONT, T.BGSOUND, T.BLOCKQUOTE, T.BODY,
  T.BR, T.BUTTON, T.CAPTION, T.CENTER, T.COL, T.COLGROUP, T.DD, T.DETAILS, T.DIR, T.DIV, T.DL, T.DT,
  T.EMBED, T.FIELDSET, T.FIGCAPTION, T.FIGURE, T.FOOTER, T.FORM, T.FRAME, T.FRAMESET, T.H1, T.H2, T.H3,
  T.H4, T.H5, T.H6, T.HEAD, T.HEADER, T.HGROUP, T.HR, T.HTML, T.IFRAME, T.IMG, T.INPUT, T.KEYGEN, T.LI,
  T.LINK, T.LISTING, T.MAIN, T.MARQUEE, T.MENU, T.META, T.NAV, T.NOEMBED, T.NOFRAMES, T.NOSCRIPT,
  T.OBJECT, T.OL, T.P, T.PARAM, T.PLAINTEXT, T.PRE, T.SCRIPT, T.SEARCH, T.SECTION, T.SELECT, T.SOURCE,
  T.STYLE, T.SUMMARY, T.TABLE, T.TBODY, T.TD, T.TEMPLATE, T.TEXTAREA, T.TFOOT, T.TH, T.THEAD, T.TITLE,
  T.TR, T.TRACK, T.UL, T.WBR, T.XMP,
);
// The default scope. `select` bounds it since the customizable-<select> parsing change (a <p> opened
// before a <select> is not closed by block content inside the select).
flag(
  SCOPE | LIST_ITEM_SCOPE | BUTTON_SCOPE,
  T.APPLET, T.CAPTION, T.HTML, T.TABLE, T.TD, T.TH, T.MARQUEE, T.OBJECT, T.SELECT, T.TEMPLATE,
);
flag(LIST_ITEM_SCOPE, T.OL, T.UL);
flag(BUTTON_SCOPE, T.BUTTON);
flag(TABLE_SCOPE, T.HTML, T.TABLE, T.TEMPLATE);
flag(IMPLIED_END | IMPLIED_END_THOROUGH, T.DD, T.DT, T.LI, T.OPTGROUP, T.OPTION, T.P, T.RB, T.RP, T.RT, T.RTC);
flag(IMPLIED_END_THOROUGH, T.CAPTION, T.COLGROUP, T.TBODY, T.TD, T.TFOOT, T.TH, T.THEAD, T.TR);
flag(TABLE_CONTEXT, T.TABLE, T.TEMPLATE, T.HTML);
flag(TABLE_BODY_CONTEXT, T.TBODY, T.TFOOT, T.THEAD, T.TEMPLATE, T.HTML);
flag(TABLE_ROW_CONTEXT, T.TR, T.TEMPLATE, T.HTML);
for (let id = 0; id < TAG_ID_COUNT; id++) {
  htmlFlags[id] |= HTML_NS;
  if (htmlFlags[id] & SPECIAL && id !== T.ADDRESS && id !== T.DIV && id !== T.P) htmlFlags[id] |= LIST_ITEM_STOP;
}

/** Flags of an HTML element by tag id. */
export function htmlElementFlags(id: number): number {
  return htmlFlags[id];
}

/** Flags of an element in the MathML or SVG namespace. */
export function foreignElementFlags(
  localName: string,
  namespace: ElementNamespace,
  attributes: readonly ElementAttribute[],
): number {
  if (namespace === NS.MATHML) {
    switch (localName) {
      case 'mi': case 'mo': case 'mn': case 'ms': case 'mtext':
        return SPECIAL | LIST_ITEM_STOP | SCOPE | LIST_ITEM_SCOPE | BUTTON_SCOPE | MATHML_TEXT_INTEGRATION_POINT;
      case 'annotation-xml': {
        let flags = SPECIAL | LIST_ITEM_STOP | SCOPE | LIST_ITEM_SCOPE | BUTTON_SCOPE;
        for (const attribute of attributes) {
          if (attribute.name !== 'encoding') continue;
          const encoding = attribute.value.toLowerCase();   // ASCII case-insensitive match
          if (encoding === 'text/html' || encoding === 'application/xhtml+xml') flags |= HTML_INTEGRATION_POINT;
          break;
        }
        return flags;
      }
      default:
        return NONE;
    }
  }
  if (namespace === NS.SVG) {
    switch (localName) {
      case 'foreignObject': case 'desc': case 'title':
        return SPECIAL | LIST_ITEM_STOP | SCOPE | LIST_ITEM_SCOPE | BUTTON_SCOPE | HTML_INTEGRATION_POINT;
      default:
        return NONE;
    }
  }
  return NONE;
}

/**
 * 1 for the formatting tag ids. A table rather than a switch: this is asked for every element created,
 * and a small function is inlined into its callers (the switch's bytecode was too large to be).
 */
const FORMATTING = new Uint8Array(TAG_ID_COUNT);
for (const id of [T.A, T.B, T.BIG, T.CODE, T.EM, T.FONT, T.I, T.NOBR, T.S, T.SMALL, T.STRIKE, T.STRONG, T.TT, T.U]) FORMATTING[id] = 1;

/** §13.2.6.4.7 formatting elements: a, b, big, code, em, font, i, nobr, s, small, strike, strong, tt, u. */
export function isFormattingTag(id: number): boolean {
  return FORMATTING[id] === 1;
}

/** h1–h6. */
export function isHeading(id: number): boolean {
  return id >= T.H1 && id <= T.H6;
}

/** §13.2.6.4.7 ASCII whitespace as the tree builder sees it: TAB, LF, FF, CR, SPACE. */
export function isWhitespaceCode(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

/** Index of the first character of `s` at or after `from` that is not ASCII whitespace, or `s.length`. */
export function skipWhitespace(s: string, from = 0): number {
  let i = from;
  while (i < s.length && isWhitespaceCode(s.charCodeAt(i))) i++;
  return i;
}

/** Whether every character of `s` is ASCII whitespace. */
export function isAllWhitespace(s: string): boolean {
  return skipWhitespace(s) === s.length;
}

/** Whether every character of `s` is ASCII whitespace or U+0000 (text "in body" once its NULs are dropped). */
export function isAllWhitespaceOrNul(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0 && !isWhitespaceCode(c)) return false;
  }
  return true;
}
