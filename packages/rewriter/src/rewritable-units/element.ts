/**
 * `Element`: the start tag of an element a selector matched, and what a handler can do to the element
 * (Cloudflare's HTMLRewriter `Element` interface) — or, for an element the tree builder made up
 * (`implied`), the point in the output where it begins.
 */
import { type Attribute, type AttributeSpan, StartTagClass, type StartTagToken, attributeSpansOfRawTag, fromByteForm, toByteForm } from '@sluice/tokenizer';
import { asciiLowercase } from '@sluice/selectors';
import { type ContentContext, type ContentOptions, contentContextOf, escapeAttributeValue, prepareContent } from './content.js';
import type { EndTagHandler } from './end-tag.js';
import { Mutations } from './mutations.js';
import { checkAttributeName, checkTagName } from './names.js';

/** The element methods that put content inside it. */
type ContentMethod = 'prepend' | 'append' | 'setInnerContent';

/** HTML §13.1.2: elements that have no end tag and no content. */
const VOID_ELEMENTS = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr',
  // obsolete, still void to the parser
  'basefont', 'bgsound', 'frame', 'keygen', 'param', 'image',
]);

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * @internal The start tag an implied element stands on: none in the source (`raw` is empty). It starts
 * where the tree builder created the element; its attributes are the element's (a reconstructed or
 * adoption-agency copy of a formatting element has the original's).
 */
export class ImpliedTag implements StartTagToken {
  readonly type = 'startTag' as const;
  readonly raw = '';
  readonly selfClosing = false;
  constructor(
    readonly name: string,
    readonly attributes: readonly Attribute[],
    /** The offset of the token whose processing created the element (the input's length at its end). */
    readonly start: number,
  ) {}
}

/**
 * The element a handler receives.
 *
 * sluice extension: handlers also fire on elements the tree builder makes up, which have no start tag
 * in the source (`implied` is true): the implied `<html>`, `<head>`, `<body>`, `<tbody>`, `<tr>`,
 * `<colgroup>`, copies of formatting elements made by "reconstruct the active formatting elements" and
 * by the adoption agency, the `<p>` of a stray `</p>`, the `<br>` of `</br>`. Such an element starts
 * where the tree builder created it and ends where it closes it, and everything works as for an
 * element whose tags have no length: `before`/`prepend` write at its start, `append`/`after` at its
 * end, `remove()` drops what is output in between. Setting an attribute or the tag name writes an
 * explicit start tag at its start (with every attribute: a copy's are the original's), and for a new
 * name an end tag at its end.
 */
export class ElementUnit extends Mutations {
  // (Declared, assigned in the constructor: see `Mutations`.)
  /** @internal */ declare _name: string;
  /** @internal */ declare _nameChanged: boolean;
  /** @internal Attributes once changed (copy on write). */ declare _attrs: Attribute[] | null;
  /** @internal */ declare _prepend: string[] | null;
  /** @internal */ declare _append: string[] | null;
  /** @internal Content replacing the element's content (null: kept). */ declare _inner: string | null;
  /** @internal removeAndKeepContent */ declare _keepContent: boolean;
  /** @internal */ declare _endHandlers: EndTagHandler[] | null;
  /**
   * @internal The `prepend`/`append`/`setInnerContent` calls, in order (null: none), so their content can
   * be escaped again when a new name or a removed start tag changes how the output reads it.
   */
  declare _contentCalls: { readonly method: ContentMethod; readonly content: string; readonly options: ContentOptions | undefined }[] | null;
  /** @internal Whether the handlers are still running: the unit may be changed. */ declare _active: boolean;

  /** @internal The start tag as the tokenizer made it (in byte form for bytes in). */
  declare private readonly _source: StartTagToken;
  /** @internal How to make the start tag's text form from `_source`, or null when it is text already. */
  declare private readonly _toText: ((tag: StartTagToken) => StartTagToken) | null;
  /** @internal The start tag in text form, once made (see `_token`). */
  declare private _text: StartTagToken | null;
  /** @internal The element's local name, as the tree builder made it. */
  declare private readonly _localName: string;
  /** The element's namespace URI (HTML, SVG or MathML), as the tree builder placed it. */
  declare readonly namespaceURI: string;
  /** @internal */ declare private readonly _scripting: boolean;

  /**
   * @internal Made by the rewriter. What is derived from the element (whether it can have content, how
   * content put inside it is escaped) is worked out when a handler asks: most handlers never do.
   * @param source the start tag
   * @param localName the element's local name, as the tree builder made it
   * @param namespaceURI the element's namespace, as the tree builder decided it
   * @param scripting the scripting flag (content in `<noscript>`)
   * @param toText for a start tag in byte form (bytes in): what makes its text form. It is made only when
   *   a handler reads more than one attribute's value or changes the tag (most read one value: see
   *   `getAttribute`).
   */
  constructor(
    source: StartTagToken,
    localName: string,
    namespaceURI: string,
    scripting: boolean,
    toText: ((tag: StartTagToken) => StartTagToken) | null = null,
  ) {
    super();
    this._nameChanged = false;
    this._attrs = null;
    this._prepend = null;
    this._append = null;
    this._inner = null;
    this._keepContent = false;
    this._endHandlers = null;
    this._contentCalls = null;
    this._active = true;
    this._localName = localName;
    this.namespaceURI = namespaceURI;
    this._scripting = scripting;
    this._source = source;
    this._toText = toText;
    this._text = toText === null ? source : null;
    this._name = toText === null ? source.name : fromByteForm(source.name);
  }

  /** @internal The start tag, its name and attributes as text. */
  get _token(): StartTagToken {
    return (this._text ??= this._toText!(this._source));
  }

  /**
   * @internal Whether the handlers, now finished, left nothing to do at the element's end: no end tag
   * handler, nothing to write there, nothing dropped or renamed. (The `</br>` of an implied `<br>` whose
   * start tag was rewritten is not written: see `Executor.finishEnd`.)
   */
  get _leavesNothingForEnd(): boolean {
    return (
      this._endHandlers === null &&
      this._after === null &&
      this._append === null &&
      this._replacement === null &&
      !this._removed &&
      this._inner === null &&
      !this._keepContent &&
      !this._nameChanged &&
      (this._attrs === null || !this.implied)
    );
  }

  /** Whether the element can have content and an end tag (false for void and self-closing foreign elements). */
  get canHaveContent(): boolean {
    return canHaveContent(this._localName, this.namespaceURI, this._source.selfClosing);
  }

  /**
   * @internal How text put inside the element is escaped: as the output reads it. A new name reads it as that
   * element's content (`script` renamed `div`: markup); without its start tag (`removeAndKeepContent`)
   * it is its parent's content, which is ordinary content (no element is inside raw text).
   */
  private get _contentContext(): ContentContext {
    if (this._keepContent) return 'data';
    return contentContextOf(this._nameChanged ? this._name : this._localName, this.namespaceURI, this._scripting);
  }

  /** @internal The context content inside the element is in, as the output reads it. */
  get _insideContext(): ContentContext {
    return this._contentContext;
  }

  /**
   * The content context changed from `before` (a new name, a removed start tag): the content given so
   * far is escaped again for the new one, or refused there (text with `</` in a raw text element).
   */
  private recontext(before: ContentContext): void {
    const calls = this._contentCalls;
    if (calls === null || this._contentContext === before) return;
    this._prepend = null;
    this._append = null;
    this._inner = null;
    for (const call of calls) this.applyContent(call.method, call.content, call.options);
  }

  /** `prepend`, `append` or `setInnerContent`, escaped for the content context as it stands. */
  private applyContent(method: ContentMethod, content: string, options: ContentOptions | undefined): void {
    const text = prepareContent(content, options, this._contentContext, `Element.${method}`);
    if (!this.canHaveContent) return;
    if (method === 'prepend') (this._prepend ??= []).unshift(text);
    else if (method === 'append') (this._append ??= []).push(text);
    else {
      this._inner = text;
      this._prepend = null;
      this._append = null;
    }
  }

  private recordContent(method: ContentMethod, content: string, options: ContentOptions | undefined): this {
    this.applyContent(method, content, options);
    (this._contentCalls ??= []).push({ method, content, options });
    return this;
  }

  protected contextFor(): ContentContext {
    return 'data';
  }
  protected get unitName(): string {
    return 'Element';
  }
  protected checkActive(method: string): void {
    if (!this._active) {
      throw new Error(`Element.${method}: the element <${this._name}> can no longer be changed: its handlers have finished`);
    }
  }

  /**
   * The tag name as written in the source, ASCII-lowercased (`image` stays `image`); for an implied
   * element, its local name. Settable: the end tag is renamed too, and an element closed implicitly
   * (no end tag in the source) gets an end tag with the new name where it closes.
   */
  get tagName(): string {
    return this._name;
  }
  set tagName(name: string) {
    this.checkActive('tagName');
    const checked = asciiLowercase(checkTagName(name, 'Element.tagName'));
    const before = this._contentContext;
    this._name = checked;
    this._nameChanged = this._name !== this._token.name;
    this.recontext(before);
  }

  /**
   * sluice extension: the offset of the start tag in the input: in UTF-16 code units for a string input,
   * in bytes for a byte input (`createByteTransformer`, `transform` of a byte stream or a Response). For an implied
   * element, the offset of the token whose processing created it (the input's length for an element
   * created at its end).
   */
  get sourceOffset(): number {
    return this._source.start;
  }

  /**
   * sluice extension (Cloudflare's `Element` has no such property): whether the element has no start
   * tag of its own in the input — the tree builder made it up (an implied `<body>` or `<tbody>`, a
   * reconstructed formatting element, …). See the class comment.
   */
  get implied(): boolean {
    return this._source.raw.length === 0;
  }

  /** Whether the start tag ended with `/>`. */
  get selfClosing(): boolean {
    return this._source.selfClosing;
  }

  /** The attributes as `[name, value]` pairs: names lowercased, values with character references decoded. */
  get attributes(): IterableIterator<[string, string]> {
    const list = this._attrs ?? this._token.attributes;
    return list.map((a): [string, string] => [a.name, a.value])[Symbol.iterator]();
  }

  /** The decoded value of the attribute (name compared ASCII case-insensitively), or null. */
  getAttribute(name: string): string | null {
    // (A lowercase ASCII name, the usual case, is its own lowercase form and its own byte form.)
    const plain = typeof name === 'string' && isLowercaseAscii(name);
    const key = plain ? name : asciiLowercase(String(name));
    const attrs = this._attrs;
    if (attrs === null) {
      const source = this._source;
      // The tokenizer's tags look one attribute up without decoding the rest; in byte form, the name is
      // looked up in byte form and the value turned into text (what the text form's lookup gives).
      if (source instanceof StartTagClass) {
        if (this._toText === null) return source.attributeValue(key);
        const value = source.attributeValue(plain ? key : toByteForm(key));
        return value === null ? null : fromByteForm(value);
      }
    }
    const list = attrs ?? this._token.attributes;
    for (const a of list) if (a.name === key) return a.value;
    return null;
  }

  /** Whether the element has the attribute. */
  hasAttribute(name: string): boolean {
    return this.getAttribute(name) !== null;
  }

  /** Set an attribute. The value is written double-quoted with `&` and `"` escaped (an empty one as `name=""`). */
  setAttribute(name: string, value: string): this {
    this.checkActive('setAttribute');
    const key = asciiLowercase(checkAttributeName(name, 'Element.setAttribute'));
    const v = String(value);
    const list = (this._attrs ??= this._token.attributes.slice());
    const i = list.findIndex((a) => a.name === key);
    if (i >= 0) list[i] = { name: key, value: v };
    else list.push({ name: key, value: v });
    return this;
  }

  /** Remove an attribute, if present. */
  removeAttribute(name: string): this {
    this.checkActive('removeAttribute');
    const key = asciiLowercase(String(name));
    const list = this._attrs ?? this._token.attributes;
    const i = list.findIndex((a) => a.name === key);
    if (i >= 0) {
      const copy = (this._attrs ??= this._token.attributes.slice());
      copy.splice(i, 1);
    }
    return this;
  }

  /** Insert content right after the start tag (a later call's content comes first). No effect on void elements. */
  prepend(content: string, options?: ContentOptions): this {
    this.checkActive('prepend');
    return this.recordContent('prepend', content, options);
  }

  /** Insert content right before the end tag. No effect on void elements. */
  append(content: string, options?: ContentOptions): this {
    this.checkActive('append');
    return this.recordContent('append', content, options);
  }

  /** Replace the element's content (and anything prepended or appended so far). No effect on void elements. */
  setInnerContent(content: string, options?: ContentOptions): this {
    this.checkActive('setInnerContent');
    return this.recordContent('setInnerContent', content, options);
  }

  /** Remove the start and end tags but keep the content. */
  removeAndKeepContent(): this {
    this.checkActive('removeAndKeepContent');
    const before = this._contentContext;
    this._keepContent = true;
    this._removed = true;
    this.recontext(before);
    return this;
  }

  /**
   * Run `handler` at the element's end: its end tag, or where the tree builder closes it implicitly
   * (before the token that closes it, or at the end of the document). Throws for elements that have no
   * end tag (void elements, self-closing foreign elements).
   */
  onEndTag(handler: EndTagHandler): void {
    this.checkActive('onEndTag');
    if (!this.canHaveContent) {
      throw new Error(`Element.onEndTag: <${this._name}> has no end tag (it is void or self-closing)`);
    }
    if (typeof handler !== 'function') throw new TypeError('Element.onEndTag: the handler must be a function');
    (this._endHandlers ??= []).push(handler);
  }

  /** @internal The start tag to write: the source text when nothing changed, else a new tag. */
  _startTagText(): string {
    const raw = this._token.raw;
    const implied = raw.length === 0;
    if (this._attrs === null && !implied) {
      if (!this._nameChanged) return raw;
      // Only the name changed: splice it into the source text, keeping the attributes byte for byte.
      return `<${this._name}${raw.slice(1 + this._token.name.length)}`;
    }
    // Attributes the handler left alone are copied from the source when the source can be mapped. An
    // implied element has no source: every attribute is written.
    const original = this._token.attributes;
    const attributes = this._attrs ?? original;
    const scan = implied || !raw.endsWith('>') ? null : attributeSpansOfRawTag(raw);
    let spans: (AttributeSpan | undefined)[] | null = null;
    if (scan !== null) {
      const firsts = scan.filter((a, i, all) => all.findIndex((b) => b.name === a.name) === i);
      if (firsts.length === original.length && firsts.every((a, i) => a.name === original[i]!.name)) spans = firsts;
    }
    // Every attribute is written so that what follows it cannot be read as part of it. A written value
    // is always double-quoted, an empty one too (`m=""`, as Workers, lol-html and the serializer write
    // it). A copied one ends at its closing quote, or at the whitespace, `/>` or `>` written after an
    // unquoted value, except two shapes: an empty unquoted value (`href=` before `>`) would take what
    // follows as its value (§13.2.5.35: after `=` whitespace is skipped and the value starts at the next
    // character), so it is written `href=""`; and a bare name followed by whitespace and `=` would
    // take a value (§13.2.5.34), which happens when the next attribute's name starts with `=` (`<a b/=y>`
    // is `b` and `=y`): the bare name is given its empty value then.
    let s = `<${this._name}`;
    let afterBareName = false;
    for (const a of attributes) {
      const k = original.findIndex((o) => o.name === a.name);
      const span = spans !== null && k >= 0 && original[k]!.value === a.value ? spans[k] : undefined;
      let text: string;
      let bareName = false;
      if (span !== undefined) {
        const valueStart = valueStartOf(raw, span);
        bareName = valueStart < 0;
        text = valueStart === span.end ? `${raw.slice(span.start, nameEndOf(raw, span))}=""` : raw.slice(span.start, span.end);
      } else {
        text = `${a.name}="${escapeAttributeValue(a.value)}"`;
      }
      if (afterBareName && text.charCodeAt(0) === 0x3d) s += '=""';
      s += ` ${text}`;
      afterBareName = bareName;
    }
    return s + (this._token.selfClosing ? ' />' : '>');
  }
}

/** TAB, LF, FF, CR, SPACE. */
function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

/**
 * Where the name of the attribute at `span` (as `attributeSpansOfRawTag` found it in `raw`) ends: at the
 * first whitespace, `/` or `=` after its first character (§13.2.5.33; a leading `=` is part of the name).
 */
function nameEndOf(raw: string, span: AttributeSpan): number {
  let i = span.start + 1;
  while (i < span.end) {
    const c = raw.charCodeAt(i);
    if (c === 0x3d || c === 0x2f || isWhitespace(c)) break;
    i++;
  }
  return i;
}

/**
 * Where the value of the attribute at `span` starts (its opening quote, if quoted), or -1 when it has no
 * `=`. An empty unquoted value (`href=`, `href= ` before `>`) starts at `span.end`: the span ends there,
 * after the whitespace that followed the `=`.
 */
function valueStartOf(raw: string, span: AttributeSpan): number {
  let i = nameEndOf(raw, span);
  while (i < span.end && isWhitespace(raw.charCodeAt(i))) i++;
  if (i >= span.end) return -1; // a bare name: the span ends with the name
  i++; // the `=`
  while (i < span.end && isWhitespace(raw.charCodeAt(i))) i++;
  return i;
}

/** Whether `s` is all ASCII with no upper-case letter (what `asciiLowercase` leaves alone, and its own byte form). */
function isLowercaseAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || (c >= 0x41 && c <= 0x5a)) return false;
  }
  return true;
}

/** Whether an element of this name and namespace, from this start tag, can have content. */
export function canHaveContent(localName: string, namespace: string, selfClosing: boolean): boolean {
  if (namespace === HTML_NS) return !VOID_ELEMENTS.has(localName);
  return !selfClosing;
}
