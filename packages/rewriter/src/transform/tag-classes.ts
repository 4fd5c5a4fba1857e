/**
 * Which tag names the tree builder treats alike — what a rename (`el.tagName = …`) and a start tag
 * left out (`removeAndKeepContent()`) may do without a browser building another tree than the input's
 * with the change applied.
 *
 * A renamed element is read by the output's parser under its new name, for the rest of the document:
 * its start tag's rule (HTML §13.2.6.4.7: `<p>` closes an open `p`, `<li>` an open `li`, `<table>`
 * switches insertion mode …), whether it is *special* (§13.2.4.2: the walks of `<li>`, `<dd>` and "any
 * other end tag" stop at special elements), the scopes it bounds, whether it is a formatting element,
 * how text inside it is tokenized. Two names are in the same *class* when all of these are the same;
 * a rename is written only within a class. (Only the element's own tags change name: `b` → `strong`
 * keeps every rule; `span` → `section` would make the element special, so that a later `<li>` inside
 * it no longer closes an `li` around it — refused.)
 *
 * Foreign elements (SVG, MathML) are renamed only among *ordinary* foreign names: no integration point
 * (§13.2.6.5), no name that breaks out of foreign content, none that SVG's case table changes.
 */
import { NS } from '@sluice/tree-builder';
import { ElementRecord as ElementRecordClass, type ElementRecord, OUT_ABSENT, OUT_FOSTERED, OUT_UNWRAPPED } from '../view/records.js';
import { alignmentError } from './alignment.js';

/** HTML names with rules of their own somewhere in tree construction (§13.2.6.4), or special (§13.2.4.2). */
const HTML_WITH_RULES: ReadonlySet<string> = new Set([
  'a', 'address', 'applet', 'area', 'article', 'aside', 'b', 'base', 'basefont', 'bgsound', 'big', 'blockquote', 'body',
  'br', 'button', 'caption', 'center', 'code', 'col', 'colgroup', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt',
  'em', 'embed', 'fieldset', 'figcaption', 'figure', 'font', 'footer', 'form', 'frame', 'frameset', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr', 'html', 'i', 'iframe', 'image', 'img', 'input', 'keygen', 'li',
  'link', 'listing', 'main', 'marquee', 'math', 'menu', 'meta', 'nav', 'nobr', 'noembed', 'noframes', 'noscript',
  'object', 'ol', 'optgroup', 'option', 'p', 'param', 'plaintext', 'pre', 'rb', 'rp', 'rt', 'rtc', 'ruby', 's',
  'script', 'search', 'section', 'select', 'small', 'source', 'strike', 'strong', 'style', 'summary', 'svg', 'table',
  'tbody', 'td', 'template', 'textarea', 'tfoot', 'th', 'thead', 'title', 'tr', 'track', 'tt', 'u', 'ul', 'wbr', 'xmp',
]);

/** Groups of HTML names whose rules are the same everywhere (the rest: each name alone, or ordinary). */
const HTML_GROUPS: Readonly<Record<string, string>> = {
  // Formatting elements with no rule of their own beyond the list's (§13.2.6.4.7 "b, big, …").
  b: 'formatting', big: 'formatting', code: 'formatting', em: 'formatting', font: 'formatting', i: 'formatting',
  s: 'formatting', small: 'formatting', strike: 'formatting', strong: 'formatting', tt: 'formatting', u: 'formatting',
  // "address, article, …": close a p; special; the walks of <li>, <dd> stop at them …
  article: 'block', aside: 'block', blockquote: 'block', center: 'block', details: 'block', dialog: 'block',
  dir: 'block', dl: 'block', fieldset: 'block', figcaption: 'block', figure: 'block', footer: 'block', header: 'block',
  hgroup: 'block', main: 'block', menu: 'block', nav: 'block', search: 'block', section: 'block', summary: 'block',
  // … except at these (§13.2.6.4.7 "li", "dd, dt": "not an address, div, or p element").
  address: 'block-passed', div: 'block-passed',
  // … and these bound list item scope (§13.2.4.2).
  ol: 'list', ul: 'list',
  h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading',
  dd: 'dd-dt', dt: 'dd-dt',
  pre: 'pre', listing: 'pre',
  // "tbody, tfoot, thead" (§13.2.6.4.9, .13); "td, th"; "rb, rtc"; "rp, rt".
  tbody: 'table-section', tfoot: 'table-section', thead: 'table-section',
  td: 'cell', th: 'cell',
  rb: 'rb-rtc', rtc: 'rb-rtc', rp: 'rp-rt', rt: 'rp-rt',
  // "area, br, embed, img, keygen, wbr": void, inserted and popped at once.
  area: 'void', br: 'void', embed: 'void', img: 'void', keygen: 'void', wbr: 'void',
};

/** Names a start tag of which breaks out of foreign content (§13.2.6.5), and the integration points. */
const FOREIGN_WITH_RULES: ReadonlySet<string> = new Set([
  'b', 'big', 'blockquote', 'body', 'br', 'center', 'code', 'dd', 'div', 'dl', 'dt', 'em', 'embed', 'font', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'head', 'hr', 'i', 'img', 'li', 'listing', 'menu', 'meta', 'nobr', 'ol', 'p', 'pre', 'ruby',
  's', 'small', 'span', 'strong', 'strike', 'sub', 'sup', 'table', 'tt', 'u', 'ul', 'var',
  'foreignobject', 'desc', 'title', 'mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'mglyph', 'malignmark', 'script',
  'svg', 'math',
]);

/** SVG names whose case the tree builder adjusts (§13.2.6.5): written lowercase, made camelCase. */
const SVG_CASE_ADJUSTED: ReadonlySet<string> = new Set([
  'altglyph', 'altglyphdef', 'altglyphitem', 'animatecolor', 'animatemotion', 'animatetransform', 'clippath', 'feblend',
  'fecolormatrix', 'fecomponenttransfer', 'fecomposite', 'feconvolvematrix', 'fediffuselighting', 'fedisplacementmap',
  'fedistantlight', 'fedropshadow', 'feflood', 'fefunca', 'fefuncb', 'fefuncg', 'fefuncr', 'fegaussianblur', 'feimage',
  'femerge', 'femergenode', 'femorphology', 'feoffset', 'fepointlight', 'fespecularlighting', 'fespotlight', 'fetile',
  'feturbulence', 'foreignobject', 'glyphref', 'lineargradient', 'radialgradient', 'textpath',
]);

/** The class of a name for an element in `namespace`: names of one class are read alike (see the file comment). */
export function tagClassOf(name: string, namespace: string): string {
  const lower = name.toLowerCase();
  if (namespace === NS.HTML) {
    const group = HTML_GROUPS[lower];
    if (group !== undefined) return group;
    return HTML_WITH_RULES.has(lower) ? `html:${lower}` : 'ordinary';
  }
  if (FOREIGN_WITH_RULES.has(lower) || (namespace === NS.SVG && SVG_CASE_ADJUSTED.has(lower))) return `${namespace}:${lower}`;
  return 'foreign';
}

/**
 * Renames across classes that the rewriter can keep exact: from an element with no rules of its own, a
 * special element that closes a `<p>`, a heading, a formatting element, `<a>`, `<nobr>`, `<p>`, `<li>`,
 * `<dd>`, `<dt>` — to an element with no rules of its own, a special element that closes a `<p>`, or a
 * heading. What still differs between the two names is taken care of: where the element closes
 * implicitly an end tag with its new name is written (the output's parser closes it there too); a
 * formatting element's entry is not in the output parser's list (its copies are written explicitly,
 * alignment.ts); the rules that walk the stack or look at the current node are checked as they run
 * (alignment.ts `checkWalk`); an end tag the input's parser ignored is left out while such an element is
 * open. The rest is checked here, against the element's ancestors, when its start tag is written.
 */
const RENAME_FROM: ReadonlySet<string> = new Set(['ordinary', 'block', 'block-passed', 'heading', 'formatting', 'html:a', 'html:nobr', 'html:p', 'html:li', 'dd-dt']);
const RENAME_TO: ReadonlySet<string> = new Set(['ordinary', 'block', 'block-passed', 'heading']);

/** Classes whose start tags close a `<p>` in button scope (§13.2.6.4.7). */
const CLOSES_P: ReadonlySet<string> = new Set(['block', 'block-passed', 'list', 'heading', 'html:p', 'html:li', 'dd-dt', 'pre']);

/** Classes whose start tags reconstruct the active formatting elements (§13.2.4.3) before inserting. */
const RECONSTRUCTS: ReadonlySet<string> = new Set(['ordinary', 'formatting', 'html:a', 'html:nobr']);

/** HTML elements that bound "has an element in scope" (§13.2.4.2; foreign content is not walked into). */
export const SCOPE_BOUNDARY: ReadonlySet<string> = new Set(['applet', 'caption', 'html', 'table', 'td', 'th', 'marquee', 'object', 'template']);

/** HTML elements that bound "button scope" (§13.2.4.2): those and `button`. */
export const BUTTON_SCOPE: ReadonlySet<string> = new Set([...SCOPE_BOUNDARY, 'button']);

/** Elements "generate implied end tags" closes (§13.2.6.3), but `optgroup` (an `<option>` keeps it). */
export const IMPLIED_END_FOR_OPTION: ReadonlySet<string> = new Set(['dd', 'dt', 'li', 'option', 'p', 'rb', 'rp', 'rt', 'rtc']);

/** How a rename that `checkRename` let through differs for reconstruction: see `renameEffects`. */
export const RENAME_SAME = 0;
/** The old name's start tag reconstructed, the new one's does not: the copies it made are written. */
export const RENAME_MATERIALIZE = 1;
/** The new name's start tag reconstructs, the old one's did not: what would be copied is taken off first. */
export const RENAME_DETACH = 2;

/**
 * Refuse a rename of `el` to `name` that the output's parser would read otherwise (see the file comment
 * and `RENAME_FROM`); else say how its start tag differs for reconstruction, and whether the element's
 * class changed (`crossClass`).
 */
export function checkRename(el: ElementRecord, name: string, offset: number): { reconstruction: number; crossClass: boolean } {
  const from = tagClassOf(el.localName, el.namespace);
  const to = tagClassOf(name, el.namespace);
  if (from === to) return { reconstruction: RENAME_SAME, crossClass: false };
  const what = `renaming the <${el.localName}> at offset ${offset} to <${name}>`;
  if (el.namespace !== NS.HTML || !RENAME_FROM.has(from) || !RENAME_TO.has(to)) {
    throw alignmentError(what, `the parser treats the two names differently (${describe(from)} against ${describe(to)}), so what follows would be parsed otherwise`);
  }
  if (CLOSES_P.has(to) && !CLOSES_P.has(from)) {
    // `<section>` where a `<span>` was closes an open `p` (§13.2.6.4.7 "close a p element").
    if ((el.out & OUT_FOSTERED) !== 0) throw alignmentError(what, 'the element was foster-parented, and the new name closes a <p> the old one did not');
    for (let a = el.parent; a instanceof ElementRecordClass && a !== null; a = a.parent) {
      const n = a.outputName ?? a.localName;
      if (a.namespace !== NS.HTML) break;
      if (n === 'p' && (a.out & (OUT_ABSENT | OUT_UNWRAPPED)) === 0) throw alignmentError(what, `a <p> is open around it, which a <${name}> closes and a <${el.localName}> does not`);
      if (BUTTON_SCOPE.has(n)) break;
    }
  }
  if (to === 'heading' && from !== 'heading') {
    // `<h1>` closes a heading that is the current node (§13.2.6.4.7 "h1, h2, …").
    const p = el.parent;
    if (p instanceof ElementRecordClass && p.namespace === NS.HTML && /^h[1-6]$/.test(p.outputName ?? p.localName)) {
      throw alignmentError(what, `its parent is a heading, which a heading's start tag closes`);
    }
  }
  const reconstruction = RECONSTRUCTS.has(from) === RECONSTRUCTS.has(to) ? RENAME_SAME : RECONSTRUCTS.has(from) ? RENAME_MATERIALIZE : RENAME_DETACH;
  return { reconstruction, crossClass: true };
}

/** Classes whose elements are not special (§13.2.4.2): the adoption agency algorithm's furthest block is not one. */
const NOT_SPECIAL: ReadonlySet<string> = new Set(['ordinary', 'foreign', 'formatting', 'html:a', 'html:nobr']);

/** Whether an HTML element renamed from `from` to `to` changed whether it is special (§13.2.4.2). */
export function specialChanged(from: string, to: string): boolean {
  return NOT_SPECIAL.has(tagClassOf(from, NS.HTML)) !== NOT_SPECIAL.has(tagClassOf(to, NS.HTML));
}

/** Whether `el` is an HTML `<pre>`, `<listing>` or `<textarea>`: a line feed right after its start tag is ignored (§13.2.6.4.7). */
export function isPreLike(el: ElementRecord): boolean {
  const n = el.localName;
  return el.isHtml && (n === 'pre' || n === 'listing' || n === 'textarea');
}

/** Whether a rename took a formatting element (one the tree builder keeps in its list) to a name that is not one. */
export function renameLeavesList(el: ElementRecord): boolean {
  const from = tagClassOf(el.localName, el.namespace);
  return from === 'formatting' || from === 'html:a' || from === 'html:nobr';
}


/**
 * The classes whose start and end tags may be left out with their content kept (`removeAndKeepContent()`):
 * elements whose presence changes the parse of their content only in ways the rewriter watches for.
 * Elements of the other classes (tables and their parts, forms, buttons, `<select>` and options,
 * templates, text elements like `<script>`, foreign roots and integration points, `<html>`, `<head>`,
 * `<body>`, …) change how their content is tokenized or which insertion mode reads it: refused.
 */
const UNWRAPPABLE: ReadonlySet<string> = new Set(['ordinary', 'foreign', 'formatting', 'html:a', 'html:nobr', 'block', 'block-passed', 'list', 'heading', 'dd-dt', 'html:p', 'html:li']);

/** Refuse `removeAndKeepContent()` on `el` when its content would be parsed otherwise without it. */
export function checkUnwrap(el: ElementRecord, offset: number): void {
  if ((el.out & OUT_FOSTERED) !== 0) {
    throw alignmentError(
      `removeAndKeepContent() on the <${el.localName}> at offset ${offset}`,
      'it was foster-parented out of a table (HTML §13.2.6.1): without it, its content would be read as the table\'s',
    );
  }
  const cls = tagClassOf(el.localName, el.namespace);
  if (UNWRAPPABLE.has(cls)) return;
  throw alignmentError(
    `removeAndKeepContent() on the <${el.localName}> at offset ${offset}`,
    `without its tags the parser reads its content otherwise (${describe(cls)})`,
  );
}

function describe(cls: string): string {
  switch (cls) {
    case 'ordinary':
      return 'an element with no rules of its own';
    case 'foreign':
      return 'a foreign element with no rules of its own';
    case 'formatting':
      return 'a formatting element';
    case 'block':
    case 'block-passed':
    case 'list':
      return 'a special element that closes a <p>';
    case 'heading':
      return 'a heading';
    default: {
      const i = cls.lastIndexOf(':');
      return `<${cls.slice(i + 1)}>, which has rules of its own`;
    }
  }
}

/** HTML §13.2.4.2 "special": the walks of the rules over the stack of open elements stop at these. */
const SPECIAL_HTML: ReadonlySet<string> = new Set([
  'address', 'applet', 'area', 'article', 'aside', 'base', 'basefont', 'bgsound', 'blockquote', 'body', 'br', 'button',
  'caption', 'center', 'col', 'colgroup', 'dd', 'details', 'dir', 'div', 'dl', 'dt', 'embed', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'frame', 'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr',
  'html', 'iframe', 'img', 'input', 'keygen', 'li', 'link', 'listing', 'main', 'marquee', 'menu', 'meta', 'nav',
  'noembed', 'noframes', 'noscript', 'object', 'ol', 'p', 'param', 'plaintext', 'pre', 'script', 'search', 'section',
  'select', 'source', 'style', 'summary', 'table', 'tbody', 'td', 'template', 'textarea', 'tfoot', 'th', 'thead',
  'title', 'tr', 'track', 'ul', 'wbr', 'xmp',
]);
const SPECIAL_MATHML: ReadonlySet<string> = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml']);
const SPECIAL_SVG: ReadonlySet<string> = new Set(['foreignObject', 'desc', 'title']);

/** Whether an element is special (§13.2.4.2). */
export function isSpecial(localName: string, namespace: string): boolean {
  if (namespace === NS.HTML) return SPECIAL_HTML.has(localName);
  if (namespace === NS.MATHML) return SPECIAL_MATHML.has(localName);
  return SPECIAL_SVG.has(localName);
}

/** Start tags whose rules walk the stack (`<li>`; `<dd>`, `<dt>`) or look at the current node (options, headings). */
export const WALK_LI = 1;
export const WALK_DD = 2;
export const WALK_OPTION = 3;
export const WALK_HEADING = 4;
/** `<optgroup>`: in a select, "generate implied end tags" with the optgroup among them; else as `<option>`. */
export const WALK_OPTGROUP = 5;
/** `<hr>`: closes a `<p>` in button scope, then, in a select, "generate implied end tags" as `<optgroup>` (§13.2.6.4.7 "hr"). */
export const WALK_HR = 6;

/** Which of those rules a start tag of this (lowercase) name runs, or 0. */
export function walkKindOf(name: string): number {
  switch (name) {
    case 'li':
      return WALK_LI;
    case 'dd':
    case 'dt':
      return WALK_DD;
    case 'option':
      return WALK_OPTION;
    case 'optgroup':
      return WALK_OPTGROUP;
    case 'hr':
      return WALK_HR;
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
      return WALK_HEADING;
    default:
      return 0;
  }
}

/** Whether an element is what a rule of `kind` looks for (an `li`; a `dd` or `dt`; an `option`; a heading). */
export function walkTarget(kind: number, el: { localName: string; namespace: string }): boolean {
  if (el.namespace !== NS.HTML) return false;
  const n = el.localName;
  switch (kind) {
    case WALK_LI:
      return n === 'li';
    case WALK_DD:
      return n === 'dd' || n === 'dt';
    case WALK_OPTION:
    case WALK_OPTGROUP:
      return n === 'option';
    case WALK_HR:
      return false;
    default:
      return n.length === 2 && n.charCodeAt(0) === 0x68 && n.charCodeAt(1) >= 0x31 && n.charCodeAt(1) <= 0x36;
  }
}
